// SPDX-License-Identifier: Apache-2.0
// throughput.tma.tensor_2d (issue 23, item 2): device-memory read bandwidth
// through the TMA unit in its tensor mode, 2-D tiles described by a tensor map
// (cuTensorMapEncodeTiled, taken from the driver at run time: the suite links
// no libcuda) and loaded with cp.async.bulk.tensor.2d into shared memory,
// completed on mbarriers, as a fraction of 2 x memory clock x bus width, the
// peak of throughput.tma.load.hbm.
//
// Shape: a buffer of at least 8 x L2 and 1 GiB viewed as rows of 4096 4-byte
// elements (16 KiB), tiles of 64 x 128 elements (256 bytes of each of 128
// rows: 32 KiB, the box a GEMM's K-major tile has), one CTA per SM whose thread 0 keeps 6 tiles
// in flight (192 KiB per SM, where the 1-D bulk curve of throughput.tma.load.hbm
// reaches its plateau), one mbarrier per stage (expect_tx of the tile, wait
// for the stage's previous phase before reusing it). CTA b loads tiles b,
// b + SMs, ... in row-major tile order, so the CTAs together sweep whole rows
// of tiles. Passes per launch from the peak (a launch >= 5 ms at the peak),
// 50 ms of untimed streaming first, then the sampling policy (sampling.hpp),
// event-timed. Every wait is bounded: a lost transfer is an error, not a hang.
#include <cuda.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/cluster.cuh"
#include "common/fill.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "latency/async_plan.hpp"
#include "throughput/tensor_map.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kStages = 6;
constexpr unsigned kElemBytes = 4;
constexpr unsigned long long kRowElems = 4096;
constexpr unsigned kBoxW = 64, kBoxH = 128;
constexpr unsigned kTileBytes = kBoxW * kBoxH * kElemBytes;
constexpr double kWarmupMs = 50;

// Tiles t = blockIdx.x + k x gridDim.x of `passes` passes over tiles_x x tiles_y.
__global__ void __launch_bounds__(32)
    tma_tensor_2d_kernel(const __grid_constant__ CUtensorMap map, unsigned tiles_x, unsigned long long tiles,
                         int passes, unsigned* error, unsigned* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char buf[];
  __shared__ __align__(8) unsigned long long bars[kStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s)
      asm volatile(
          "mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(static_cast<unsigned>(__cvta_generic_to_shared(&bars[s])))
          : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  // Tensor copies want 128-byte aligned shared addresses: align the dynamic base (128 B spare).
  const unsigned buf_s = (static_cast<unsigned>(__cvta_generic_to_shared(buf)) + 127u) & ~127u;
  const unsigned long long map_addr = reinterpret_cast<unsigned long long>(&map);
  const unsigned long long total = tiles * static_cast<unsigned long long>(passes);
  unsigned long long k = 0;
  for (unsigned long long i = blockIdx.x; i < total; i += gridDim.x, ++k) {
    const int s = static_cast<int>(k % kStages);
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
    if (k >= static_cast<unsigned long long>(kStages) &&
        !gc_mbar_wait_bounded(bar, static_cast<unsigned>((k / kStages - 1) & 1))) {
      atomicAdd(error, 1u);
      return;
    }
    const unsigned long long t = i % tiles;
    const int x = static_cast<int>((t % tiles_x) * kBoxW), y = static_cast<int>((t / tiles_x) * kBoxH);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "n"(kTileBytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
        "[%4];" ::"r"(buf_s + s * kTileBytes),
        "l"(map_addr), "r"(x), "r"(y), "r"(bar)
        : "memory");
  }
  for (int s = 0; s < kStages && static_cast<unsigned long long>(s) < k; ++s) {
    const unsigned long long uses = (k - s + kStages - 1) / kStages;
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
    if (!gc_mbar_wait_bounded(bar, static_cast<unsigned>((uses - 1) & 1))) {
      atomicAdd(error, 1u);
      return;
    }
  }
  sink[blockIdx.x] = reinterpret_cast<const unsigned*>(buf)[32];
#else
  __trap();
#endif
}

Measurement measure_tma_tensor_2d(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0)
    throw ProbeSkipped("the device reports no memory clock or bus width, so no peak can be derived");
  const std::size_t smem = static_cast<std::size_t>(kStages) * kTileBytes + 128;  // + alignment spare
  if (smem + 1024 > static_cast<std::size_t>(dev.shared_per_block_optin_bytes))
    throw ProbeSkipped(fmt::format("{} stages of {} B do not fit the {} B of shared memory a block may opt in to",
                                   kStages, kTileBytes, dev.shared_per_block_optin_bytes));
  std::size_t free_bytes = 0, total_bytes = 0;
  GC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  std::size_t bytes = std::max<std::size_t>(std::size_t(1) << 30, 8 * static_cast<std::size_t>(dev.l2_bytes));
  bytes = std::min(bytes, free_bytes / 2);
  const plan::Tma2dPlan p = plan::plan_tma_2d(bytes, kElemBytes, kRowElems, kBoxW, kBoxH);
  DeviceBuffer<unsigned char> src(static_cast<std::size_t>(p.height * p.row_bytes));
  fill_random(reinterpret_cast<std::uint64_t*>(src.get()), src.size() / 8, 0x746d61326475ull);
  const CUtensorMap map = make_tensor_map_2d_u32(src.get(), p);
  DeviceBuffer<unsigned> error(1), sink(static_cast<std::size_t>(dev.sm_count));
  GC_CUDA_CHECK(cudaMemset(error.get(), 0, sizeof(unsigned)));
  GC_CUDA_CHECK(
      cudaFuncSetAttribute(tma_tensor_2d_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  const double peak = 2.0 * dev.mem_clock_khz * 1e3 * (dev.mem_bus_width_bits / 8.0);
  const int passes =
      std::max(1, static_cast<int>(std::ceil(kLaunchTargetMs * 1e-3 * peak / static_cast<double>(p.bytes()))));
  auto launch = [&](long long*) {
    tma_tensor_2d_kernel<<<dev.sm_count, 32, smem>>>(map, static_cast<unsigned>(p.tiles_x), p.tiles(), passes,
                                                     error.get(), sink.get());
  };
  Work work;
  work.unit = "B/s";
  work.units_per_launch = static_cast<double>(p.bytes()) * passes;
  work.sms_used = dev.sm_count;
  work.device_peak = peak;
  work.device_peak_formula =
      fmt::format("2 x {:.0f} MHz x {:.0f} B bus", dev.mem_clock_khz / 1e3, dev.mem_bus_width_bits / 8.0);
  work.method = fmt::format(
      "{} MiB as a 2-D tensor map of {} x {} 4-byte elements (row stride {} B), "
      "cp.async.bulk.tensor.2d tiles of {} x {} elements ({} B), one CTA per SM with one issuing "
      "thread, {} tiles in flight per SM ({} KiB), {} pass(es) per launch (>= {} ms at the peak); "
      "random non-zero data; bytes = tiles read",
      p.bytes() >> 20, p.width, p.height, p.row_bytes, p.box_w, p.box_h, p.tile_bytes, kStages, smem >> 10, passes,
      kLaunchTargetMs);
  ThroughputOptions options = throughput_options(ctx);
  options.policy.min_warmup_ms = kWarmupMs;
  Measurement m = measure_throughput(ctx, work, launch, options);
  GC_CUDA_CHECK(cudaDeviceSynchronize());
  if (error.download()[0] != 0) throw std::runtime_error("an mbarrier of the 2-D TMA stream never completed");
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&tma_tensor_2d_kernel), dev.arch()));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.tma.tensor_2d",
          Family::throughput,
          "device-memory read bandwidth through TMA tensor-map 2-D tile loads (cp.async.bulk.tensor.2d, 64 x 128 x 4 B "
          "tiles, 6 in flight per SM) as a fraction of 2 x memory clock x bus width",
          {90, 0, "TMA tensor maps (cp.async.bulk.tensor)"},
          kFractionOfPeakHint,
          &measure_tma_tensor_2d},
});

}  // namespace
}  // namespace gpuconform::kernels
