// SPDX-License-Identifier: Apache-2.0
#pragma once
// In-kernel SM clock stamps for the throughput harness (throughput.hpp):
// block 0, thread 0 writes clock64 and %globaltimer at the start and the end
// of its work, so the clock the SMs ran at during the timed launch is
// measured in that very launch. The stores happen outside the timed loop.
#include "common/device_clock.cuh"

__device__ __forceinline__ unsigned long long gc_globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

struct GcStamp {
  long long clock = 0;
  unsigned long long ns = 0;
};

__device__ __forceinline__ GcStamp gc_stamp_now() {
  GcStamp s;
  s.ns = gc_globaltimer();
  s.clock = gc_clock64();
  return s;
}

// The span all blocks worked, for launches timed inside the kernel
// (Work::time_by_stamps): stamps[4] = the earliest start, stamps[5] = the
// latest end of any block's timed loop (%globaltimer ns; the harness sets
// stamps[4] to all ones before each launch). Call once per block, after a
// __syncthreads() that ends the loop of every warp of the block: the warp
// scheduler favours older warps, so block 0's own loop ended about 20 % before
// the last block's in the shared-memory probes (H100, 2026-11-26).
__device__ __forceinline__ void gc_span_store(long long* stamps, const GcStamp& begin) {
  if (stamps != nullptr && threadIdx.x == 0 && threadIdx.y == 0) {
    const unsigned long long end = gc_globaltimer();
    atomicMin(reinterpret_cast<unsigned long long*>(stamps + 4), begin.ns);
    atomicMax(reinterpret_cast<unsigned long long*>(stamps + 5), end);
  }
}

// stamps[0..3] = {clock64 start, ns start, clock64 end, ns end}; only block 0,
// thread 0 writes. Call with the begin stamp taken at kernel entry.
__device__ __forceinline__ void gc_stamp_store(long long* stamps, const GcStamp& begin) {
  if (stamps != nullptr && blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0) {
    const GcStamp end = gc_stamp_now();
    stamps[0] = begin.clock;
    stamps[1] = static_cast<long long>(begin.ns);
    stamps[2] = end.clock;
    stamps[3] = static_cast<long long>(end.ns);
  }
}
