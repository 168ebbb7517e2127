// SPDX-License-Identifier: Apache-2.0
#pragma once
// Cycle counter reads that the compiler may not move: volatile asm with a
// memory clobber keeps them in program order with the timed instructions,
// which are volatile asm too.
__device__ __forceinline__ long long gc_clock64() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}
