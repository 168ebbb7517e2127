// SPDX-License-Identifier: Apache-2.0
// Sparse wgmma (wgmma.mma_async.sp, sm_90a) completion latency and issue
// interval, m64nNk32.f32.f16.f16 with A (2:4 structured-sparse, stored as
// 64 x 16) and B (32 x N) in shared memory (issue 23, item 3: the timing half;
// the bit-exact numerics are a separate task). Same method as wgmma_latency.cu:
//   completion latency: fence; mma_async.sp; commit_group; wait_group 0 per
//     iteration, cycles per iteration;
//   issue interval: K back-to-back wgmma.sp into one accumulator, then one
//     commit and wait: (T_K - latency) / (K - 1), the steady-state cycles per
//     instruction (the tensor-core rate: a dense m64nNk16 does half the MACs).
// Operands: no-swizzle K-major layouts (core matrices of 8 rows x 16 bytes;
// A: leading byte offset 128, stride 256; B, 32 deep: leading 128, stride
// 512), every element 0.75 (A) / 0.5 (B); metadata 0x44444444 (each group of
// four keeps elements 0 and 1), sparsity selector 0. Timing does not depend on
// which positions are kept. Device code exists only for sm_90a.
#include <fmt/format.h>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/wgmma_ops.cuh"
#include "latency/wgmma_sp_ops.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kIters = 64;
template <int N>
__global__ void __launch_bounds__(128) wgmma_sp_latency_kernel(long long* out, float* sink) {
#if GC_HAVE_WGMMA
  __shared__ alignas(128) unsigned short a_s[64 * 16];
  __shared__ alignas(128) unsigned short b_s[256 * 32];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) a_s[i] = 0x3A00;   // 0.75
  for (int i = threadIdx.x; i < 256 * 32; i += blockDim.x) b_s[i] = 0x3800;  // 0.5
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned long long da = sp_descriptor(a_s, 128, 256), db = sp_descriptor(b_s, 128, 512);
  const unsigned meta = kWgmmaSpMeta;
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 1.0f;
  wgmma_fence();
  wgmma_sp_step<N>(d, da, db, meta);
  wgmma_commit_and_wait();
  const long long t0 = gc_clock64();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) {
    wgmma_fence();
    wgmma_sp_step<N>(d, da, db, meta);
    wgmma_commit_and_wait();
  }
  const long long t1 = gc_clock64();
  wgmma_fence();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) wgmma_sp_step<N>(d, da, db, meta);
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
Measurement measure_wgmma_sp(const ProbeContext& ctx) {
  DeviceBuffer<long long> out(2);
  DeviceBuffer<float> sink(128);
  auto launch = [&] {
    wgmma_sp_latency_kernel<N><<<1, 128>>>(out.get(), sink.get());
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
  m.note("method",
         W == What::latency
             ? fmt::format("fence + wgmma.sp m64n{}k32 + commit + wait 0, {} iterations, one warpgroup", N, kIters)
             : fmt::format("{} back-to-back wgmma.sp m64n{}k32 into one accumulator: (T - latency) / {}", kIters, N,
                           kIters - 1));
  m.note("sass",
         sass::timed_region_note(reinterpret_cast<const void*>(&wgmma_sp_latency_kernel<N>), ctx.device.arch()));
  return m;
}

const Requirements kSm90a{90, 90, "sm_90a (wgmma)"};

#define GC_WGMMA_SP_PROBES(N)                                                                                      \
  Probe{"latency.wgmma_sp.m64n" #N "k32.f32.f16",                                                                  \
        Family::latency,                                                                                           \
        "wgmma.mma_async.sp m64n" #N "k32.f32.f16.f16 (2:4 sparse A, SS) completion latency: issue, commit, wait", \
        kSm90a,                                                                                                    \
        {ExpectationKind::band, 0.25, 0.005},                                                                      \
        &measure_wgmma_sp<N, What::latency>},                                                                      \
      Probe{"latency.wgmma_sp.m64n" #N "k32.f32.f16.issue_interval",                                               \
            Family::latency,                                                                                       \
            "steady-state cycles between back-to-back wgmma.mma_async.sp m64n" #N "k32.f32.f16.f16",               \
            kSm90a,                                                                                                \
            {ExpectationKind::band, 0.25, 0.005},                                                                  \
            &measure_wgmma_sp<N, What::issue_interval>},

const bool kRegistered = register_probes({GC_WGMMA_SP_PROBES(64) GC_WGMMA_SP_PROBES(256)});

}  // namespace
}  // namespace gpuconform::kernels
