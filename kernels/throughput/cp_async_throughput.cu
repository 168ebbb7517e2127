// SPDX-License-Identifier: Apache-2.0
// Device-memory bandwidth through cp.async (LDGSTS, global -> shared without
// registers) against the bytes in flight per SM (seed 003, the Blackwell
// study's cp.async/TMA curves; Little's law: bandwidth = bytes in flight x
// SMs / latency until HBM saturates). One block per SM of T threads, each
// keeping S 16-byte copies in flight (commit one group per copy, wait until
// at most S - 1 are pending), so bytes in flight per SM = T x S x 16. The
// curve goes into the record as a Series; throughput.cp_async.hbm is its
// plateau (the highest point) as a fraction of 2 x memory clock x bus bytes,
// and throughput.cp_async.hbm.bytes_in_flight_90 the bytes in flight per SM
// where the curve crosses 90% of that plateau (interpolated between points),
// ..._50 where it crosses half of it (still latency-bound: the steadier reading).
// Random non-zero data; each thread reads back its last copy so the copies are
// observable.
#include <fmt/format.h>

#include <algorithm>

#include "common/clock_stamps.cuh"
#include "common/fill.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "throughput/inflight_curve.hpp"

namespace gpuconform::kernels {
namespace {

template <int S>
__global__ void cp_async_kernel(const uint4* src, std::size_t count, uint4* sink, long long* stamps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  extern __shared__ uint4 ring[];  // S slots of blockDim.x x 16 B
  const GcStamp begin = gc_stamp_now();
  const unsigned t = threadIdx.x, n = blockDim.x;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring)) + t * 16u;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * n;
  int k = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(n) + t; i < count; i += stride, ++k) {
    const unsigned dst = base + static_cast<unsigned>(k % S) * n * 16u;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src + i) : "memory");
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group %0;" ::"n"(S - 1) : "memory");
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  gc_stamp_store(stamps, begin);
  sink[blockIdx.x * static_cast<std::size_t>(n) + t] = ring[static_cast<unsigned>((k + S - 1) % S) * n + t];
#else
  __trap();
#endif
}

using CpKernel = void (*)(const uint4*, std::size_t, uint4*, long long*);
struct Point {
  int threads, stages;
  CpKernel kernel;
};
// Bytes in flight per SM from 2 KiB to 192 KiB.
const Point kPoints[] = {{128, 1, cp_async_kernel<1>},   {128, 2, cp_async_kernel<2>},   {256, 2, cp_async_kernel<2>},
                         {256, 4, cp_async_kernel<4>},   {512, 4, cp_async_kernel<4>},   {512, 8, cp_async_kernel<8>},
                         {1024, 6, cp_async_kernel<6>},  {1024, 8, cp_async_kernel<8>},  {1024, 12, cp_async_kernel<12>}};

const InflightCurve& curve_for(const ProbeContext& ctx) {
  return cached_inflight_curve(ctx, [&ctx](std::size_t bytes) {
    const DeviceInfo& dev = ctx.device;
    const std::size_t count = bytes / sizeof(uint4);
    DeviceBuffer<uint4> src(count);
    fill_random(reinterpret_cast<std::uint64_t*>(src.get()), bytes / 8, 0x637061737963u);
    DeviceBuffer<uint4> sink(static_cast<std::size_t>(dev.sm_count) * 1024);
    InflightCurve c = make_inflight_curve("device-memory read bandwidth through cp.async");
    std::vector<InflightPoint> points;
    for (const Point& p : kPoints) {
      const std::size_t smem = static_cast<std::size_t>(p.threads) * p.stages * 16;
      if (smem > static_cast<std::size_t>(dev.shared_per_block_optin_bytes)) continue;
      points.push_back({static_cast<double>(smem), static_cast<double>(bytes),
                        [p, smem] {
                          GC_CUDA_CHECK(cudaFuncSetAttribute(p.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                             static_cast<int>(smem)));
                        },
                        [&, p, smem] { p.kernel<<<dev.sm_count, p.threads, smem>>>(src.get(), count, sink.get(), nullptr); }});
    }
    sweep_inflight_curve(ctx, c, points, [] {});
    c.method = fmt::format("{} MiB read with cp.async.cg 16 B, one block per SM, bytes in flight per SM = threads x "
                           "stages x 16 B over {} points; event-timed median of 5 launches per point",
                           bytes >> 20, c.series.x.size());
    c.sass = sass::timed_region_note(reinterpret_cast<const void*>(&cp_async_kernel<8>), dev.arch());
    return c;
  });
}

Measurement measure_plateau(const ProbeContext& ctx) { return inflight_plateau(curve_for(ctx)); }
Measurement measure_bytes_90(const ProbeContext& ctx) { return inflight_bytes_at(curve_for(ctx), 0.9); }
Measurement measure_bytes_50(const ProbeContext& ctx) { return inflight_bytes_at(curve_for(ctx), 0.5); }

const bool kRegistered = register_probes({
    Probe{"throughput.cp_async.hbm",
          Family::throughput,
          "plateau of device-memory bandwidth through cp.async against bytes in flight per SM, as a fraction "
          "of 2 x memory clock x bus width (curve in the record)",
          {80},
          kFractionOfPeakHint,
          &measure_plateau},
    Probe{
        "throughput.cp_async.hbm.bytes_in_flight_90",
        Family::throughput,
        "bytes in flight per SM where cp.async crosses 90% of its bandwidth plateau, interpolated between sweep points",
        {80},
        kMaxHint,
        &measure_bytes_90},
    Probe{"throughput.cp_async.hbm.bytes_in_flight_50",
          Family::throughput,
          "bytes in flight per SM where cp.async reaches half its bandwidth plateau (the latency-bound part of the "
          "curve), interpolated between sweep points",
          {80},
          kMaxHint,
          &measure_bytes_50},
});

}  // namespace
}  // namespace gpuconform::kernels
