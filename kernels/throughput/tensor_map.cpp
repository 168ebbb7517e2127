// SPDX-License-Identifier: Apache-2.0
#include "throughput/tensor_map.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <stdexcept>

#include "common/driver_entry.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {
namespace {

using EncodeTiled = decltype(&cuTensorMapEncodeTiled);

EncodeTiled encode_tiled() {
  void* p = driver_entry_point("cuTensorMapEncodeTiled");
  if (p == nullptr) throw ProbeSkipped("the driver gives no cuTensorMapEncodeTiled");
  return reinterpret_cast<EncodeTiled>(p);
}

}  // namespace

CUtensorMap make_tensor_map_2d_u32(void* base, const plan::Tma2dPlan& p) {
  if (p.box_w == 0 || p.row_bytes != p.width * 4 || p.tile_bytes != 4ull * p.box_w * p.box_h)
    throw std::runtime_error("make_tensor_map_2d_u32: the plan is not of 4-byte elements");
  CUtensorMap map{};
  const cuuint64_t dims[2] = {p.width, p.height};
  const cuuint64_t strides[1] = {p.row_bytes};
  const cuuint32_t box[2] = {p.box_w, p.box_h};
  const cuuint32_t elem_strides[2] = {1, 1};
  const CUresult r = encode_tiled()(&map, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, base, dims, strides, box, elem_strides,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw std::runtime_error(
        fmt::format("cuTensorMapEncodeTiled failed (CUresult {}) for a {} x {} map of 4-byte "
                    "elements, box {} x {}",
                    static_cast<int>(r), p.width, p.height, p.box_w, p.box_h));
  return map;
}

}  // namespace gpuconform::kernels
