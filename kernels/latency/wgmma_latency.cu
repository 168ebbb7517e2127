// SPDX-License-Identifier: Apache-2.0
// wgmma (sm_90a) completion latency and issue interval per N, for
// m64nNk16.f32.f16.f16 with both operands in shared memory (SS).
//
// One warpgroup (128 threads, one warp per SM sub-partition) on one SM:
//   completion latency: each iteration issues one wgmma, commits and waits
//     for it (wgmma.fence; mma_async; commit_group; wait_group 0), so an
//     iteration lasts from issue to the accumulator being readable; the value
//     is cycles per iteration, fence and commit included (they issue in a few
//     cycles against tens of cycles of tensor-core work);
//   issue interval: K wgmmas into the same accumulator issued back to back,
//     then one commit and wait; (T_K - L) / (K - 1) with L the completion
//     latency removes the pipeline fill and drain and leaves the steady-state
//     cycles per wgmma, which on an H100 is the tensor-core throughput bound
//     (perf-anchors: m64n256k16 128 cycles, m64n64k16 32 cycles).
// Operands: A 64x16 and B Nx16 f16, K-major, no swizzle (core matrices of
// 8 rows x 16 bytes, leading byte offset 128, stride byte offset 256), filled
// with 0.75 and 0.5; D starts at 1 and accumulates (scale-d = 1). The
// generic-proxy stores that fill shared memory are made visible to the
// tensor cores' async proxy with fence.proxy.async before the first wgmma.
// Device code exists only for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL); the probes
// require exactly compute capability 9.0 and skip elsewhere.
#include <fmt/format.h>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/wgmma_ops.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kIters = 64;

// out[0] = cycles of kIters issue-commit-wait iterations, out[1] = cycles of
// kIters back-to-back wgmmas plus one commit-wait.
template <int N>
__global__ void __launch_bounds__(128) wgmma_latency_kernel(long long* out, float* sink) {
#if GC_HAVE_WGMMA
  __shared__ alignas(128) unsigned short a_s[64 * 16];
  __shared__ alignas(128) unsigned short b_s[256 * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) a_s[i] = 0x3A00;   // 0.75
  for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x) b_s[i] = 0x3800;  // 0.5
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned long long da = smem_descriptor(a_s), db = smem_descriptor(b_s);
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 1.0f;
  wgmma_fence();  // warm-up: one complete wgmma
  wgmma_step<N>(d, da, db);
  wgmma_commit_and_wait();
  const long long t0 = gc_clock64();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) {
    wgmma_fence();
    wgmma_step<N>(d, da, db);
    wgmma_commit_and_wait();
  }
  const long long t1 = gc_clock64();
  wgmma_fence();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) wgmma_step<N>(d, da, db);
  wgmma_commit_and_wait();
  const long long t2 = gc_clock64();
  if (threadIdx.x == 0) {
    out[0] = t1 - t0;
    out[1] = t2 - t1;
  }
  float acc = 0;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) acc += d[i];
  sink[threadIdx.x] = acc;
#else
  __trap();
#endif
}

enum class What { latency, issue_interval };

template <int N, What W>
Measurement measure_wgmma(const ProbeContext& ctx) {
  DeviceBuffer<long long> out(2);
  DeviceBuffer<float> sink(128);
  auto launch = [&] {
    wgmma_latency_kernel<N><<<1, 128>>>(out.get(), sink.get());
    GC_CUDA_CHECK_LAUNCH();
    return out.download();
  };
  launch();
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 3 : 9); ++r) {
    const auto c = launch();
    const double latency = static_cast<double>(c[0]) / kIters;
    m.samples.push_back(W == What::latency ? latency : (static_cast<double>(c[1]) - latency) / (kIters - 1));
  }
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", W == What::latency
                       ? fmt::format("fence + wgmma m64n{}k16 + commit + wait 0, {} iterations, one warpgroup", N, kIters)
                       : fmt::format("{} back-to-back wgmma m64n{}k16 into one accumulator: (T - latency) / {}",
                                     kIters, N, kIters - 1));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&wgmma_latency_kernel<N>), ctx.device.arch()));
  return m;
}

const Requirements kSm90a{90, 90, "sm_90a (wgmma)"};

#define GC_WGMMA_PROBES(N)                                                                                      \
  Probe{"latency.wgmma.m64n" #N "k16.f32.f16", Family::latency,                                                \
        "wgmma.mma_async m64n" #N "k16.f32.f16.f16 (SS) completion latency: issue, commit, wait", kSm90a,      \
        {ExpectationKind::band, 0.25, 0.005}, &measure_wgmma<N, What::latency>},                               \
  Probe{"latency.wgmma.m64n" #N "k16.f32.f16.issue_interval", Family::latency,                                 \
        "steady-state cycles between back-to-back wgmma.mma_async m64n" #N "k16.f32.f16.f16 (SS)", kSm90a,     \
        {ExpectationKind::band, 0.25, 0.005}, &measure_wgmma<N, What::issue_interval>},

}  // namespace

const bool kWgmmaRegistered = register_probes({GC_WGMMA_PROBES(8) GC_WGMMA_PROBES(16) GC_WGMMA_PROBES(32)
                                                   GC_WGMMA_PROBES(64) GC_WGMMA_PROBES(128) GC_WGMMA_PROBES(256)});

}  // namespace gpuconform::kernels
