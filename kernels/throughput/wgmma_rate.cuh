// SPDX-License-Identifier: Apache-2.0
#pragma once
// The mechanism of the dense and the sparse wgmma throughput probes
// (wgmma_throughput.cu, wgmma_sp_throughput.cu), written once: two warpgroups
// per SM, each with its own accumulator; per loop trip a wgmma.fence,
// kWgmmaSteps back-to-back wgmmas into that accumulator, commit, wait_group 0.
// While one warpgroup drains its batch the other issues, so the tensor cores
// never wait for a wait_group. Operands are copied from global into shared
// memory and made visible to the async proxy with fence.proxy.async.
//
// wgmmas per batch: each batch is fenced, committed and waited for (wait_group
// 0), so with one warpgroup one completion latency minus one issue interval is
// lost per batch (1.6% at 64 on an H100: 0.984 of the per-clock peak on one SM,
// run of 2026-11-25); a second warpgroup fills that gap. Keeping the next batch
// in flight (wait_group 1) makes ptxas serialise the wgmmas (C7514: the
// accumulators are reused while the previous group is pending), which costs more.
#include <functional>

#include "common/clock_stamps.cuh"
#include "gpuconform/probe.hpp"
#include "gpuconform/throughput.hpp"
#include "latency/wgmma_ops.cuh"

namespace gpuconform::kernels {

constexpr int kWgmmaSteps = 64;
constexpr int kWgmmaWarpgroups = 2;
constexpr int kWgmmaThreads = 128 * kWgmmaWarpgroups;

// Copies the A and B tiles into shared memory and makes them visible to the
// tensor cores (the async proxy) before the first wgmma. Outside sm_90a it traps
// first: there the wgmma helpers are empty, and the probes require sm_90a.
template <int AWords, int BWords>
__device__ __forceinline__ void wgmma_stage_tiles(unsigned* a_s, const unsigned* a_src, unsigned* b_s,
                                                  const unsigned* b_src) {
#if !GC_HAVE_WGMMA
  __trap();
#endif
  for (int i = threadIdx.x; i < AWords; i += blockDim.x) a_s[i] = a_src[i];
  for (int i = threadIdx.x; i < BWords; i += blockDim.x) b_s[i] = b_src[i];
#if GC_HAVE_WGMMA
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  __syncthreads();
}

// The timed loop: `trips` batches of kWgmmaSteps calls of `issue` (one wgmma each),
// stamped for measure_throughput().
template <class Issue>
__device__ __forceinline__ void wgmma_timed_batches(int trips, long long* stamps, Issue&& issue) {
  const GcStamp begin = gc_stamp_now();
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    wgmma_fence();  // as CUTLASS's mainloop: a fence before each batch that reuses the accumulators
#pragma unroll
    for (int s = 0; s < kWgmmaSteps; ++s) issue();
    wgmma_commit();
    wgmma_wait<0>();
  }
  gc_stamp_store(stamps, begin);
}

// Stores the sum of a thread's accumulator registers, so that no wgmma is dead code.
template <int N, class Reg>
__device__ __forceinline__ void wgmma_sink(const Reg* d, float* sink) {
  float acc = 0;
#pragma unroll
  for (int i = 0; i < N; ++i) acc += static_cast<float>(d[i]);
  sink[blockIdx.x * kWgmmaThreads + threadIdx.x] = acc;
}

// A launch of `grid` SMs sized by calibrate_trips() (`run(trips)` enqueues one
// untimed launch) and the work it does: kWgmmaWarpgroups x trips x kWgmmaSteps
// wgmmas of `flop` each per SM, against peak entry `peak`.
struct WgmmaLaunch {
  int trips = 0;
  Work work;
};
inline WgmmaLaunch plan_wgmma_launch(const char* peak, int grid, double flop, const std::function<void(int)>& run) {
  WgmmaLaunch l;
  l.trips = calibrate_trips(run, kLaunchTargetMs, 4);
  l.work.peak_id = peak;
  l.work.units_per_launch = static_cast<double>(grid) * kWgmmaWarpgroups * l.trips * kWgmmaSteps * flop;
  l.work.sms_used = grid;
  return l;
}

}  // namespace gpuconform::kernels
