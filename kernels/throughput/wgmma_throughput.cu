// wgmma (sm_90a) throughput, m64nNk16.f32.f16.f16 with A and B in shared
// memory (SS), N = 64, 128, 256: one SM (the per-clock rate of one SM's
// tensor cores) and all SMs, random operands, as a fraction of peak entry
// "mma.f16" x SMs x the measured SM clock. The all-SM probes also time the
// same launch on all-zero operands and note that rate (perf-anchors: random
// operands cost 3-8% on H100 SXM through power).
//
// Mechanism: one warpgroup (128 threads) per SM; after a wgmma.fence it
// issues kSteps back-to-back wgmmas into one accumulator per loop trip,
// commits them as a group and waits for it (latency/wgmma_ops.cuh:
// the asm, the no-swizzle K-major descriptors). Operands: f16 with random
// signs and magnitudes in [2^-5, 2^-4), copied from global memory into shared
// memory and made visible to the async proxy with fence.proxy.async.
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "common/clock_stamps.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "latency/wgmma_ops.cuh"

namespace gpuconform::kernels {
namespace {

// wgmmas per batch: each batch is fenced, committed and waited for (wait_group
// 0), so one completion latency minus one issue interval is lost per batch
// (under 2% at 64). Keeping the next batch in flight (wait_group 1) makes
// ptxas serialise the wgmmas (C7514: the accumulators are reused while the
// previous group is pending), which costs more.
constexpr int kSteps = 64;
constexpr int kAElems = 64 * 16, kBElems = 256 * 16;

template <int N>
__global__ void __launch_bounds__(128) wgmma_throughput_kernel(const unsigned short* a_src, const unsigned short* b_src,
                                                               int trips, float* sink, long long* stamps) {
#if GC_HAVE_WGMMA
  __shared__ alignas(128) unsigned short a_s[kAElems];
  __shared__ alignas(128) unsigned short b_s[kBElems];
  for (int i = threadIdx.x; i < kAElems; i += blockDim.x) a_s[i] = a_src[i];
  for (int i = threadIdx.x; i < kBElems; i += blockDim.x) b_s[i] = b_src[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned long long da = smem_descriptor(a_s), db = smem_descriptor(b_s);
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 0.125f;
  const GcStamp begin = gc_stamp_now();
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    wgmma_fence();  // as CUTLASS's mainloop: a fence before each batch that reuses the accumulators
#pragma unroll
    for (int s = 0; s < kSteps; ++s) wgmma_step<N>(d, da, db);
    wgmma_commit();
    wgmma_wait<0>();
  }
  gc_stamp_store(stamps, begin);
  float acc = 0;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) acc += d[i];
  sink[blockIdx.x * 128 + threadIdx.x] = acc;
#else
  __trap();
#endif
}

std::vector<unsigned short> random_f16(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned short> v(n);
  for (auto& h : v) {
    const std::uint64_t r = rng();
    h = static_cast<unsigned short>(((r >> 20) & 1) << 15 | 10u << 10 | (r & 0x3FF));  // +-[2^-5, 2^-4)
  }
  return v;
}

template <int N, bool AllSms>
Measurement measure_wgmma_throughput(const ProbeContext& ctx) {
  const PeakEntry& peak = require_peak(ctx, "mma.f16");
  (void)peak;
  const DeviceInfo& dev = ctx.device;
  const int grid = AllSms ? dev.sm_count : 1;
  DeviceBuffer<unsigned short> a(random_f16(kAElems, 0xA11CEu)), b(random_f16(kBElems, 0xB0Bu));
  DeviceBuffer<unsigned short> za(kAElems), zb(kBElems);
  GC_CUDA_CHECK(cudaMemset(za.get(), 0, za.bytes()));
  GC_CUDA_CHECK(cudaMemset(zb.get(), 0, zb.bytes()));
  DeviceBuffer<float> sink(static_cast<std::size_t>(grid) * 128);
  const auto kernel = wgmma_throughput_kernel<N>;
  auto run = [&](const unsigned short* pa, const unsigned short* pb, int trips, long long* stamps) {
    kernel<<<grid, 128>>>(pa, pb, trips, sink.get(), stamps);
  };
  const int probe_trips = 16;
  run(a.get(), b.get(), probe_trips, nullptr);
  GC_CUDA_CHECK_LAUNCH();
  const auto ms = time_launches_ms([&] { run(a.get(), b.get(), probe_trips, nullptr); }, 0, 2);
  const double per_trip = std::max(1e-6, *std::min_element(ms.begin(), ms.end()) / probe_trips);
  const int trips = static_cast<int>(std::clamp((ctx.quick ? 0.5 : 2.0) / per_trip, 16.0, 1e7));
  const double flop_per_wgmma = 2.0 * 64 * N * 16;
  Work work;
  work.peak_id = "mma.f16";
  work.units_per_launch = static_cast<double>(grid) * trips * kSteps * flop_per_wgmma;
  work.sms_used = grid;
  work.method = fmt::format("{} warpgroup(s), one per SM, {} trips x {} back-to-back wgmma m64n{}k16.f32.f16.f16 (SS) "
                            "into one accumulator, fence + commit + wait_group 0 per trip; random f16 operands",
                            grid, trips, kSteps, N);
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(a.get(), b.get(), trips, stamps); },
                                     throughput_options(ctx));
  if (AllSms) {
    ThroughputOptions quick{1, 3};
    const Measurement zero =
        measure_throughput(ctx, work, [&](long long* stamps) { run(za.get(), zb.get(), trips, stamps); }, quick);
    m.note("zero_data_rate", fmt::format("{:.6g} {} = {:.4f} of its peak at {:.0f} MHz (all-zero A and B; random "
                                         "data reach {:.4f} of peak)",
                                         zero.value, zero.unit, zero.value / *zero.peak, zero.sm_clock_mhz,
                                         m.value / *m.peak));
  }
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(kernel), dev.arch()));
  return m;
}

const Requirements kSm90a{90, 90, "sm_90a (wgmma)"};
const RecordHint kFraction{ExpectationKind::fraction_of_peak, 0, 0, 0.05};

#define GC_WGMMA_TPUT(N)                                                                                          \
  Probe{"throughput.wgmma.m64n" #N "k16.f32.f16", Family::throughput,                                            \
        "wgmma m64n" #N "k16.f32.f16 (SS) on all SMs, random operands, as a fraction of peak entry 'mma.f16'",   \
        kSm90a, kFraction, &measure_wgmma_throughput<N, true>},                                                  \
      Probe{"throughput.wgmma.m64n" #N "k16.f32.f16.one_sm", Family::throughput,                                 \
            "wgmma m64n" #N "k16.f32.f16 (SS) on one SM: the per-clock tensor-core rate of one SM", kSm90a,        \
            kFraction, &measure_wgmma_throughput<N, false>},

const bool kRegistered = [] {
  for (const Probe& p : {GC_WGMMA_TPUT(64) GC_WGMMA_TPUT(128) GC_WGMMA_TPUT(256)}) Registry::instance().add(p);
  return true;
}();

}  // namespace
}  // namespace gpuconform::kernels
