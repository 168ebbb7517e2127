// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device helpers of thread-block clusters and asynchronous copies (sm_90): the
// cluster barrier every CTA of a cluster must meet, and an mbarrier wait that
// gives up instead of hanging the GPU when a transfer never completes.
// Only for code compiled for sm_90 and later (guard the callers).
#include "common/device_clock.cuh"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

// All threads of all CTAs of the cluster arrive (release) and wait (acquire).
__device__ __forceinline__ void gc_cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Polls the phase `parity` of the shared-memory mbarrier at `bar` (a shared::cta
// address) at most 2^24 times, about a second: false when it never completed.
__device__ __forceinline__ bool gc_mbar_wait_bounded(unsigned bar, unsigned parity) {
  constexpr long long kSpinLimit = 1ll << 24;
  for (long long spin = 0; spin < kSpinLimit; ++spin) {
    unsigned done;
    asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p;}"
                 : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    if (done) return true;
  }
  return false;
}

// Ends a pointer chase timed from t0 whose last hop left `p`: storing p waits for that hop,
// then the clock is read. out[0] = cycles, out[1] = p (so the chase is not dead code), out[2]
// the store that orders the two.
__device__ __forceinline__ void gc_end_timed_chase(long long* out, long long t0, unsigned p) {
  out[2] = p;  // waits for the last hop
  const long long t1 = gc_clock64();
  out[0] = t1 - t0;
  out[1] = p;
}

#endif
