// SPDX-License-Identifier: Apache-2.0
#pragma once
// One measuring block on every SM at once (placement.hpp says why).
//
// The grid has kBlocksPerSm blocks per SM. Thread 0 of each block reads %smid
// and adds 1 to that SM's claim counter: the block that finds it at 0 measures
// for its SM, every other block leaves at once (no waiting block shares the SM
// while it times). A measuring block then waits at a start line until every SM
// has claimed (bounded: an SM that never gets a block is reported missing,
// never a hang), so the timed regions overlap and every SM chases under the
// same load. Each SM starts from its own node (`starts`) and writes its cycles
// into its own slot; the host (SlotSet) turns the slots into one
// placement::Launch. One load in flight per SM adds a negligible load to L2 or
// memory (132 dependent loads against a memory system that serves thousands).
#include <cuda_runtime.h>

#include <vector>

#include "common/device_clock.cuh"
#include "common/placement.hpp"
#include "gpuconform/device_buffer.hpp"

namespace gpuconform::kernels::every_sm {

constexpr int kBlocksPerSm = 4;
constexpr long long kStartLineCycles = 1ll << 22;  // about 2 ms: far longer than placing a grid takes

// Device view of the per-SM slots; all arrays have sm_count entries, indexed by %smid.
struct Slots {
  unsigned* claims = nullptr;                  // blocks that found themselves on each SM
  unsigned* claimed = nullptr;                 // [1] SMs claimed so far (the start line)
  unsigned* outside = nullptr;                 // [1] blocks whose %smid was sm_count or more
  const unsigned long long* starts = nullptr;  // each SM's first node
  long long* cycles = nullptr;                 // timed cycles; -1: this SM never measured
  long long* ns = nullptr;                     // the same region in %globaltimer nanoseconds
  unsigned long long* last = nullptr;          // each SM's last node (keeps its chase live)
  unsigned* failed = nullptr;                  // [1] measuring blocks whose own check failed (e.g. a lost copy)
  unsigned sm_count = 0;
  __host__ __device__ bool active() const { return claims != nullptr; }
};

__device__ __forceinline__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Thread 0 of a block: true when the block is the first on SM `sm`, which then measures.
__device__ __forceinline__ bool claim(const Slots& s, unsigned sm) {
  if (sm >= s.sm_count) {
    atomicAdd(s.outside, 1u);
    return false;
  }
  if (atomicAdd(s.claims + sm, 1u) != 0u) return false;
  atomicAdd(s.claimed, 1u);
  return true;
}

// Thread 0 of a measuring block: waits until every SM has its measuring block, or the limit.
__device__ __forceinline__ void start_line(const Slots& s) {
  const long long t0 = gc_clock64();
  while (*reinterpret_cast<volatile unsigned*>(s.claimed) < s.sm_count && gc_clock64() - t0 < kStartLineCycles) {
  }
}

// Host side: the device arrays behind Slots, reused by every launch of a probe.
class SlotSet {
 public:
  explicit SlotSet(int sm_count);
  int sm_count() const { return sm_count_; }
  int grid() const { return kBlocksPerSm * sm_count_; }
  // Clears the claims and results, uploads each SM's first node (starts[sm]) and
  // returns the Slots for the kernel's arguments.
  Slots arm(const std::vector<unsigned long long>& starts);
  // The launch just run: one reading per SM that measured, cycles / hops, labelled "SM n".
  placement::Launch collect(int hops) const;
  // The same in nanoseconds per hop (%globaltimer), for paths whose latency does not
  // scale with the SM clock (a peer GPU's memory over the link).
  placement::Launch collect_ns(int hops) const;
  // Measuring blocks of the launch just run that reported a failure through Slots::failed.
  unsigned failed() const;

 private:
  int sm_count_;
  DeviceBuffer<unsigned> claims_, counters_;  // counters_: [0] claimed, [1] outside, [2] failed
  DeviceBuffer<unsigned long long> starts_, last_;
  DeviceBuffer<long long> cycles_, ns_;
};

}  // namespace gpuconform::kernels::every_sm
