// SPDX-License-Identifier: Apache-2.0
// Sparse wgmma (wgmma.mma_async.sp m64n256k32.f32.f16.f16, sm_90a) throughput
// (issue 23, item 3, timing only): all SMs and one SM, random f16 operands, as
// a fraction of peak entry 'mma_sp.f16' (the whitepaper's "with sparsity"
// rate, counting the dense-shape FLOP 2 x 64 x 256 x 32 per instruction) x SMs
// x the SM clock measured in the launch. The mechanism of wgmma_throughput.cu:
// two warpgroups per SM, each with its own accumulator, per loop trip a fence,
// kSteps back-to-back wgmma.sp, commit and wait_group 0, so one warpgroup issues
// while the other drains. Layouts and metadata: latency/wgmma_sp_ops.cuh.
#include <fmt/format.h>

#include <random>

#include "common/clock_stamps.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "latency/wgmma_sp_ops.cuh"
#include "throughput/random_formats.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kSteps = 64;
constexpr int kWarpgroups = 2;
constexpr int kThreads = 128 * kWarpgroups;
constexpr int kN = 256;
constexpr int kAWords = 64 * 16 / 2, kBWords = kN * 32 / 2;  // f16 pairs: A 64 x 16 (kept halves), B 32 x N
constexpr double kFlop = 2.0 * 64 * kN * 32;                 // dense-shape FLOP per instruction

__global__ void __launch_bounds__(kThreads) wgmma_sp_throughput_kernel(const unsigned* a_src, const unsigned* b_src,
                                                                       int trips, float* sink, long long* stamps) {
#if !GC_HAVE_WGMMA
  __trap();
#endif
  __shared__ alignas(128) unsigned a_s[kAWords];
  __shared__ alignas(128) unsigned b_s[kBWords];
  for (int i = threadIdx.x; i < kAWords; i += blockDim.x) a_s[i] = a_src[i];
  for (int i = threadIdx.x; i < kBWords; i += blockDim.x) b_s[i] = b_src[i];
#if GC_HAVE_WGMMA
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  __syncthreads();
  const unsigned long long da = sp_descriptor(a_s, 128, 256), db = sp_descriptor(b_s, 128, 512);
  const unsigned meta = kWgmmaSpMeta;
  float d[kN / 2];
#pragma unroll
  for (int i = 0; i < kN / 2; ++i) d[i] = 0.0f;
  const GcStamp begin = gc_stamp_now();
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < kSteps; ++s) wgmma_sp_step<kN>(d, da, db, meta);
    wgmma_commit();
    wgmma_wait<0>();
  }
  gc_stamp_store(stamps, begin);
  float acc = 0;
#pragma unroll
  for (int i = 0; i < kN / 2; ++i) acc += d[i];
  sink[blockIdx.x * kThreads + threadIdx.x] = acc;
}

std::vector<unsigned> random_f16_words(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned> v(n);
  for (auto& w : v) w = static_cast<unsigned>(random_register(Fmt::f16, rng));
  return v;
}

template <bool AllSms>
Measurement measure_wgmma_sp_throughput(const ProbeContext& ctx) {
  require_peak(ctx, "mma_sp.f16");
  const DeviceInfo& dev = ctx.device;
  const int grid = AllSms ? dev.sm_count : 1;
  DeviceBuffer<unsigned> a(random_f16_words(kAWords, 0x5A11CEu)), b(random_f16_words(kBWords, 0x5B0Bu));
  DeviceBuffer<float> sink(static_cast<std::size_t>(grid) * kThreads);
  auto run = [&](int trips, long long* stamps) {
    wgmma_sp_throughput_kernel<<<grid, kThreads>>>(a.get(), b.get(), trips, sink.get(), stamps);
  };
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kLaunchTargetMs, 4);
  Work work;
  work.peak_id = "mma_sp.f16";
  work.units_per_launch = static_cast<double>(grid) * kWarpgroups * trips * kSteps * kFlop;
  work.sms_used = grid;
  work.method = fmt::format(
      "{} SM(s) x {} warpgroups, each {} trips x {} back-to-back wgmma.mma_async.sp "
      "m64n{}k32.f32.f16.f16 (A 2:4 sparse, metadata 0x{:08x}, A and B in shared memory) into its "
      "own accumulator, fence + commit + wait_group 0 per trip; random f16 operands; dense-shape "
      "FLOP counted",
      grid, kWarpgroups, trips, kSteps, kN, kWgmmaSpMeta);
  Measurement m = measure_throughput(
      ctx, work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&wgmma_sp_throughput_kernel), dev.arch()));
  return m;
}

const Requirements kSm90a{90, 90, "sm_90a (wgmma)"};
const RecordHint kFraction{ExpectationKind::fraction_of_peak, 0, 0, 0.05};

const bool kRegistered = [] {
  for (const Probe& p : {
           Probe{"throughput.wgmma_sp.m64n256k32.f32.f16", Family::throughput,
                 "sparse wgmma m64n256k32.f32.f16 (2:4 A) on all SMs, random operands, as a fraction of peak entry "
                 "'mma_sp.f16'",
                 kSm90a, kFraction, &measure_wgmma_sp_throughput<true>},
           Probe{"throughput.wgmma_sp.m64n256k32.f32.f16.one_sm", Family::throughput,
                 "sparse wgmma m64n256k32.f32.f16 (2:4 A) on one SM: the per-clock sparse tensor-core rate of one SM "
                 "('mma_sp.f16')",
                 kSm90a, kFraction, &measure_wgmma_sp_throughput<false>},
       })
    Registry::instance().add(p);
  return true;
}();

}  // namespace
}  // namespace gpuconform::kernels
