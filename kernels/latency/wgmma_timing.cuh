// SPDX-License-Identifier: Apache-2.0
#pragma once
// The completion-latency and issue-interval method of the dense and the sparse
// wgmma latency probes (wgmma_latency.cu, wgmma_sp_latency.cu), written once.
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
//     cycles per wgmma.
// Operands in shared memory, no swizzle, K-major (wgmma_ops.cuh), filled with
// 0.75 (A) and 0.5 (B); D starts at 1 and accumulates (scale-d = 1). The
// generic-proxy stores that fill shared memory are made visible to the tensor
// cores' async proxy with fence.proxy.async before the first wgmma.
//
// An instruction enters as an Op: kN (the N of m64nNkK), kK, kInstr (its name in
// the method note, "wgmma" or "wgmma.sp"), kAElems / kBElems (f16 elements of the
// shared A and B tiles), kBStride (B's stride byte offset) and
// `step(d, da, db)`, one issue of the instruction.
#include <fmt/format.h>

#include "common/device_clock.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "latency/launch_samples.hpp"
#include "latency/wgmma_ops.cuh"

namespace gpuconform::kernels {

constexpr int kWgmmaTimingIters = 64;

// out[0] = cycles of kWgmmaTimingIters issue-commit-wait iterations, out[1] =
// cycles of kWgmmaTimingIters back-to-back wgmmas plus one commit-wait.
template <class Op>
__global__ void __launch_bounds__(128) wgmma_timing_kernel(long long* out, float* sink) {
#if GC_HAVE_WGMMA
  constexpr int kIters = kWgmmaTimingIters;
  __shared__ alignas(128) unsigned short a_s[Op::kAElems];
  __shared__ alignas(128) unsigned short b_s[Op::kBElems];
  for (int i = threadIdx.x; i < Op::kAElems; i += blockDim.x) a_s[i] = 0x3A00;  // 0.75
  for (int i = threadIdx.x; i < Op::kBElems; i += blockDim.x) b_s[i] = 0x3800;  // 0.5
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned long long da = smem_descriptor(a_s), db = smem_descriptor(b_s, Op::kBStride);
  float d[Op::kN / 2];
#pragma unroll
  for (int i = 0; i < Op::kN / 2; ++i) d[i] = 1.0f;
  wgmma_fence();  // warm-up: one complete wgmma
  Op::step(d, da, db);
  wgmma_commit_and_wait();
  const long long t0 = gc_clock64();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) {
    wgmma_fence();
    Op::step(d, da, db);
    wgmma_commit_and_wait();
  }
  const long long t1 = gc_clock64();
  wgmma_fence();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) Op::step(d, da, db);
  wgmma_commit_and_wait();
  const long long t2 = gc_clock64();
  if (threadIdx.x == 0) {
    out[0] = t1 - t0;
    out[1] = t2 - t1;
  }
  float acc = 0;
#pragma unroll
  for (int i = 0; i < Op::kN / 2; ++i) acc += d[i];
  sink[threadIdx.x] = acc;
#else
  __trap();
#endif
}

enum class WgmmaTiming { latency, issue_interval };

template <class Op, WgmmaTiming W>
Measurement measure_wgmma_timing(const ProbeContext& ctx) {
  constexpr int kIters = kWgmmaTimingIters;
  DeviceBuffer<long long> out(2);
  DeviceBuffer<float> sink(128);
  Measurement m = median_cycles_of_launches(ctx, [&] {
    wgmma_timing_kernel<Op><<<1, 128>>>(out.get(), sink.get());
    GC_CUDA_CHECK_LAUNCH();
    const auto c = out.download();
    const double latency = static_cast<double>(c[0]) / kIters;
    return W == WgmmaTiming::latency ? latency : (static_cast<double>(c[1]) - latency) / (kIters - 1);
  });
  m.note("method", W == WgmmaTiming::latency
                       ? fmt::format("fence + {} m64n{}k{} + commit + wait 0, {} iterations, one warpgroup", Op::kInstr,
                                     Op::kN, Op::kK, kIters)
                       : fmt::format("{} back-to-back {} m64n{}k{} into one accumulator: (T - latency) / {}", kIters,
                                     Op::kInstr, Op::kN, Op::kK, kIters - 1));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&wgmma_timing_kernel<Op>), ctx.device.arch()));
  return m;
}

}  // namespace gpuconform::kernels
