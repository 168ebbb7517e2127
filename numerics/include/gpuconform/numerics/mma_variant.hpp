// SPDX-License-Identifier: Apache-2.0
#pragma once
// The MMA variants this build can run, as data: each row of the tables in mma_sync.cu and
// wgmma.cu registers one MmaVariant (vector-file name, PTX string, operand types, what the
// GPU must offer, and the launcher of the one generic kernel instantiated for it). The
// golden-vector generator, the numeric probes and `gpuconform vectors` all walk this list.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/mma_instances.hpp"

namespace gpuconform::numerics {

struct RowCol {
  int row, col;
};

// Elements of each operand one thread holds in registers (0: the operand is read from
// shared memory), and the threads one instance takes (32: a warp, 128: a warpgroup).
struct FragmentCounts {
  int threads, a, b, d;
};
// Where element `index` of `operand` ('a', 'b' or 'd'; C shares D's layout) held by thread
// `thread` sits in the matrix: the PTX ISA fragment layout the kernel loads and stores by.
using FragmentPosition = RowCol (*)(char operand, int thread, int index);

// Runs instances of one variant on the current device; returns D of each, M x N row-major,
// instance after instance. Throws CudaError.
using MmaLauncher = std::vector<std::uint64_t> (*)(const std::vector<MmaInstance>&);
// Whether this binary holds machine code of the variant's kernel for the current device.
using MmaCodeCheck = bool (*)();

struct MmaVariant {
  VectorVariant layout;    // name, shape and operand types (parsed from the vector-file name)
  std::string ptx;         // the instruction as issued, e.g. "mma.sync.aligned.m16n8k16..."
  std::string probe_id;    // "numeric.mma_sync.m16n8k16.f32.bf16"; "" for no numeric probe
  int min_cc;              // 80, 89, 90
  bool needs_sm90a;        // wgmma: only sm_90a code, only on compute capability 9.0
  MmaLauncher run;
  MmaCodeCheck has_code;
  FragmentCounts fragments;
  FragmentPosition position;

  const std::string& name() const { return layout.name; }
};

// Adds a variant (from a table's static initialiser). Throws std::logic_error on a
// duplicate or unparsable name.
bool register_mma_variant(std::string_view name, std::string_view ptx, std::string_view probe_id,
                          int min_cc, bool needs_sm90a, MmaLauncher run, MmaCodeCheck has_code,
                          FragmentCounts fragments, FragmentPosition position);

const std::vector<MmaVariant>& mma_variants();  // sorted by name
const MmaVariant* find_mma_variant(std::string_view name);

// "" when `device` can run the variant; otherwise why not ("needs sm_90a (wgmma) ...").
std::string unsupported_reason(const MmaVariant& v, const DeviceInfo& device);

// The reference format of a floating-point element type; nullptr for integer types.
const ref::FloatFormat* float_format(ElementType t);

}  // namespace gpuconform::numerics
