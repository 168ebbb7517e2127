// SPDX-License-Identifier: Apache-2.0
// Device-memory bandwidth through the TMA unit (cp.async.bulk, the 1-D bulk
// copy global -> shared completed on an mbarrier; sm_90) against the bytes in
// flight per SM, as seed 003's TMA curves: one CTA per SM whose thread 0
// keeps S bulk copies of B bytes outstanding, one mbarrier per stage (expect
// B bytes, wait for the phase before reusing the stage), so bytes in flight
// per SM = S x B. Curve, plateau and bytes-at-90% as for cp.async
// (inflight_curve.hpp). Every wait is bounded: a barrier that never completes
// makes the kernel report an error instead of hanging the GPU.
#include <fmt/format.h>

#include <algorithm>

#include "common/fill.cuh"
#include "common/cluster.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "throughput/inflight_curve.hpp"

namespace gpuconform::kernels {
namespace {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
constexpr int kMaxStages = 8;  // the host's sweep uses at most 8 stages
#endif

// chunk = B bytes; the CTA copies chunks blockIdx.x, blockIdx.x + gridDim.x, ...
__global__ void tma_bulk_kernel(const unsigned char* src, std::size_t chunks, unsigned chunk_bytes, int stages,
                                unsigned* error, unsigned* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char buf[];
  __shared__ __align__(8) unsigned long long bars[kMaxStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x != 0) return;
  const unsigned buf_s = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  std::size_t k = 0;  // chunks issued by this CTA
  for (std::size_t c = blockIdx.x; c < chunks; c += gridDim.x, ++k) {
    const int s = static_cast<int>(k % stages);
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
    if (k >= static_cast<std::size_t>(stages) && !gc_mbar_wait_bounded(bar, static_cast<unsigned>((k / stages - 1) & 1))) {
      atomicAdd(error, 1u);
      return;
    }
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(chunk_bytes) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(buf_s + s * chunk_bytes), "l"(src + c * chunk_bytes), "r"(chunk_bytes), "r"(bar)
                 : "memory");
  }
  // Drain: the last use of every stage.
  for (int s = 0; s < stages && static_cast<std::size_t>(s) < k; ++s) {
    const std::size_t uses = (k - s + stages - 1) / stages;  // chunks issued on stage s
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
    if (!gc_mbar_wait_bounded(bar, static_cast<unsigned>((uses - 1) & 1))) {
      atomicAdd(error, 1u);
      return;
    }
  }
  sink[blockIdx.x] = reinterpret_cast<const unsigned*>(buf)[0];
#else
  __trap();
#endif
}

struct Point {
  unsigned chunk;
  int stages;
};
// Bytes in flight per SM from 1 KiB to 192 KiB.
const Point kPoints[] = {{1024, 1},  {1024, 4},  {4096, 2},  {4096, 4},  {8192, 4},
                         {16384, 4}, {16384, 8}, {32768, 4}, {24576, 8}};

const InflightCurve& curve_for(const ProbeContext& ctx) {
  return cached_inflight_curve(ctx, [&ctx](std::size_t bytes) {
    const DeviceInfo& dev = ctx.device;
    DeviceBuffer<unsigned char> src(bytes);
    fill_random(reinterpret_cast<std::uint64_t*>(src.get()), bytes / 8, 0x746d61u);
    DeviceBuffer<unsigned> error(1), sink(static_cast<std::size_t>(dev.sm_count));
    GC_CUDA_CHECK(cudaMemset(error.get(), 0, sizeof(unsigned)));
    InflightCurve c = make_inflight_curve("device-memory read bandwidth through TMA bulk copies");
    std::vector<InflightPoint> points;
    for (const Point& p : kPoints) {
      const std::size_t smem = static_cast<std::size_t>(p.chunk) * p.stages;
      if (smem + 1024 > static_cast<std::size_t>(dev.shared_per_block_optin_bytes)) continue;
      const std::size_t chunks = bytes / p.chunk;
      points.push_back(
          {static_cast<double>(smem), static_cast<double>(chunks * p.chunk),
           [smem] {
             GC_CUDA_CHECK(cudaFuncSetAttribute(tma_bulk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                static_cast<int>(smem)));
           },
           [&, p, smem, chunks] {
             tma_bulk_kernel<<<dev.sm_count, 32, smem>>>(src.get(), chunks, p.chunk, p.stages, error.get(), sink.get());
           }});
    }
    sweep_inflight_curve(ctx, c, points, [&] {
      if (error.download()[0] != 0)
        throw std::runtime_error("an mbarrier of the TMA bulk copy never completed");
    });
    c.method = fmt::format("{} MiB read with cp.async.bulk (TMA, 1-D) into shared memory, one CTA per SM with one "
                           "issuing thread, bytes in flight per SM = stages x chunk over {} points; event-timed median",
                           bytes >> 20, c.series.x.size());
    c.sass = sass::timed_region_note(reinterpret_cast<const void*>(&tma_bulk_kernel), dev.arch());
    return c;
  });
}

Measurement measure_plateau(const ProbeContext& ctx) { return inflight_plateau(curve_for(ctx)); }
Measurement measure_bytes_90(const ProbeContext& ctx) { return inflight_bytes_at(curve_for(ctx), 0.9); }
Measurement measure_bytes_50(const ProbeContext& ctx) { return inflight_bytes_at(curve_for(ctx), 0.5); }

const Requirements kTma{90, 0, "TMA (cp.async.bulk)"};

const bool kRegistered = register_probes({
    Probe{"throughput.tma.load.hbm", Family::throughput,
          "plateau of device-memory bandwidth through TMA bulk copies against bytes in flight per SM, as a "
          "fraction of 2 x memory clock x bus width (curve in the record)",
          kTma, kFractionOfPeakHint, &measure_plateau},
    Probe{
        "throughput.tma.load.hbm.bytes_in_flight_90", Family::throughput,
        "bytes in flight per SM where TMA bulk copies cross 90% of their bandwidth plateau, interpolated between sweep "
        "points",
        kTma, kMaxHint, &measure_bytes_90},
    Probe{"throughput.tma.load.hbm.bytes_in_flight_50", Family::throughput,
          "bytes in flight per SM where TMA bulk copies reach half their bandwidth plateau (the latency-bound part "
          "of the curve), interpolated between sweep points",
          kTma, kMaxHint, &measure_bytes_50},
});

}  // namespace
}  // namespace gpuconform::kernels
