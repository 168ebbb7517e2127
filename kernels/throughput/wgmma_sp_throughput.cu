// SPDX-License-Identifier: Apache-2.0
// Sparse wgmma (wgmma.mma_async.sp m64n256k32.f32.f16.f16, sm_90a) throughput
// (issue 23, item 3, timing only): all SMs and one SM, random f16 operands, as
// a fraction of peak entry 'mma_sp.f16' (the whitepaper's "with sparsity"
// rate, counting the dense-shape FLOP 2 x 64 x 256 x 32 per instruction) x SMs
// x the SM clock measured in the launch. The mechanism of the dense probes
// (wgmma_rate.cuh): two warpgroups per SM, each with its own accumulator, per
// loop trip a fence, kWgmmaSteps back-to-back wgmma.sp, commit and wait_group 0,
// so one warpgroup issues while the other drains. Layouts and metadata:
// latency/wgmma_sp_ops.cuh.
#include <fmt/format.h>

#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "latency/wgmma_ops.cuh"
#include "latency/wgmma_sp_ops.cuh"
#include "throughput/random_formats.hpp"
#include "throughput/wgmma_rate.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kN = 256;
constexpr int kAWords = 64 * 16 / 2, kBWords = kN * 32 / 2;  // f16 pairs: A 64 x 16 (kept halves), B 32 x N
constexpr double kFlop = 2.0 * 64 * kN * 32;                 // dense-shape FLOP per instruction

__global__ void __launch_bounds__(kWgmmaThreads)
    wgmma_sp_throughput_kernel(const unsigned* a_src, const unsigned* b_src, int trips, float* sink,
                               long long* stamps) {
  __shared__ alignas(128) unsigned a_s[kAWords];
  __shared__ alignas(128) unsigned b_s[kBWords];
  wgmma_stage_tiles<kAWords, kBWords>(a_s, a_src, b_s, b_src);
  const unsigned long long da = smem_descriptor(a_s), db = smem_descriptor(b_s, kWgmmaSpBStride);
  const unsigned meta = kWgmmaSpMeta;
  float d[kN / 2];
#pragma unroll
  for (int i = 0; i < kN / 2; ++i) d[i] = 0.0f;
  wgmma_timed_batches(trips, stamps, [&] { wgmma_sp_step<kN>(d, da, db, meta); });
  wgmma_sink<kN / 2>(d, sink);
}

template <bool AllSms>
Measurement measure_wgmma_sp_throughput(const ProbeContext& ctx) {
  require_peak(ctx, "mma_sp.f16");
  const DeviceInfo& dev = ctx.device;
  const int grid = AllSms ? dev.sm_count : 1;
  DeviceBuffer<unsigned> a(random_words(Fmt::f16, kAWords, 0x5A11CEu)), b(random_words(Fmt::f16, kBWords, 0x5B0Bu));
  DeviceBuffer<float> sink(static_cast<std::size_t>(grid) * kWgmmaThreads);
  auto run = [&](int trips, long long* stamps) {
    wgmma_sp_throughput_kernel<<<grid, kWgmmaThreads>>>(a.get(), b.get(), trips, sink.get(), stamps);
  };
  WgmmaLaunch plan = plan_wgmma_launch("mma_sp.f16", grid, kFlop, [&](int t) { run(t, nullptr); });
  const int trips = plan.trips;
  plan.work.method = fmt::format(
      "{} SM(s) x {} warpgroups, each {} trips x {} back-to-back wgmma.mma_async.sp "
      "m64n{}k32.f32.f16.f16 (A 2:4 sparse, metadata 0x{:08x}, A and B in shared memory) into its "
      "own accumulator, fence + commit + wait_group 0 per trip; random f16 operands; dense-shape "
      "FLOP counted",
      grid, kWgmmaWarpgroups, trips, kWgmmaSteps, kN, kWgmmaSpMeta);
  Measurement m = measure_throughput(
      ctx, plan.work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&wgmma_sp_throughput_kernel), dev.arch()));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.wgmma_sp.m64n256k32.f32.f16", Family::throughput,
          "sparse wgmma m64n256k32.f32.f16 (2:4 A) on all SMs, random operands, as a fraction of peak entry "
          "'mma_sp.f16'",
          kWgmmaSm90a, kFractionOfPeakHint, &measure_wgmma_sp_throughput<true>},
    Probe{"throughput.wgmma_sp.m64n256k32.f32.f16.one_sm", Family::throughput,
          "sparse wgmma m64n256k32.f32.f16 (2:4 A) on one SM: the per-clock sparse tensor-core rate of one SM "
          "('mma_sp.f16')",
          kWgmmaSm90a, kFractionOfPeakHint, &measure_wgmma_sp_throughput<false>},
});

}  // namespace
}  // namespace gpuconform::kernels
