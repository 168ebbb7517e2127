// SPDX-License-Identifier: Apache-2.0
#pragma once
// One block per SM, the way the topology and parallel probes pin work to SMs: a
// dynamic shared-memory reservation of more than half an SM's shared memory caps
// residency at one block per SM (the occupancy calculator confirms it), so a grid of
// SM-count blocks puts exactly one block on every SM at once; each block reads %smid
// and the host checks that every SM ran exactly one (layout_analysis.hpp).
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <cstddef>
#include <stdexcept>
#include <vector>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_info.hpp"
#include "gpuconform/probe.hpp"
#include "topology/layout_analysis.hpp"

namespace gpuconform::kernels::per_sm {

__device__ __forceinline__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// Spins the calling thread for about `ns` nanoseconds of %globaltimer.
__device__ __forceinline__ void hold_ns(unsigned long long ns) {
  const unsigned long long t0 = globaltimer();
  while (globaltimer() - t0 < ns) {
  }
}

// Bytes of dynamic shared memory that leave room for one block per SM only.
inline std::size_t one_block_smem(const DeviceInfo& dev) {
  const std::size_t smem = static_cast<std::size_t>(dev.shared_per_sm_bytes) / 2 + 1024;
  if (smem > static_cast<std::size_t>(dev.shared_per_block_optin_bytes))
    throw ProbeSkipped("a block cannot reserve more than half of an SM's shared memory on this device");
  return smem;
}

// Lets `kernel` take `smem` bytes of dynamic shared memory and checks that the
// occupancy calculator then allows exactly `per_sm` resident blocks of `threads`.
template <class Kernel>
void reserve_smem(Kernel kernel, std::size_t smem, int threads, int per_sm = 1) {
  GC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int resident = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads, smem));
  if (resident != per_sm)
    throw ProbeSkipped(fmt::format("expected {} resident block(s) per SM with {} B of shared memory, the occupancy "
                                   "calculator says {}", per_sm, smem, resident));
}

// Throws when the blocks did not land one per SM (the per-SM values would be wrong).
inline void require_one_block_per_sm(const std::vector<int>& sm_of_block, int sm_count) {
  const auto v = topology::placement_violations(sm_of_block, sm_count, 1);
  if (!v.empty())
    throw std::runtime_error("one block per SM was not placed one per SM, so per-SM values cannot be told apart: " +
                             topology::join_violations(v));
}

}  // namespace gpuconform::kernels::per_sm
