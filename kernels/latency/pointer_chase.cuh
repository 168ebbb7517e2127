// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pointer-chase mechanism behind the global-memory latency probes.
//
// Each node of a chase is one 64-bit word holding the address of the next
// node, and one thread loads `p = *p` over and over: every load's address is
// the previous load's value, so the loads serialise and the mean time per hop
// is the load-to-use latency of whatever level served them. The nodes sit one
// per cache line (or per page, for the TLB) in a random single-cycle order
// (chase_plan.hpp), so no prefetcher or sector reuse can help.
//
// Method per launch: (1) optionally all threads of the chasing block read the
// whole footprint once, coalesced, to put it in the cache level under test;
// (2) thread 0 walks `warm_hops` untimed (TLB, instruction cache, first
// touch), then `timed_hops` between two clock64 reads; the last node's address
// is stored before the second clock read, so that read waits for the last
// load. `.ca` loads cache in L1, `.cg` loads bypass L1 and stop at L2.
//
// Pinning: with target_sm >= 0 the grid has several blocks per SM and only the
// first block that finds itself on that SM (%smid) chases; the others wait
// briefly, so the block scheduler has to spread the grid over every SM.
//
// Every SM at once (run_chase_on_every_sm, common/every_sm.cuh): one block per
// SM chases, each from its own node of the same cycle, all timed together; the
// value is the median over SMs (common/placement.hpp), so it does not depend on
// where one SM sits on the die.
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/clock_stamps.cuh"
#include "common/device_clock.cuh"
#include "common/every_sm.cuh"
#include "common/placement.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"

namespace gpuconform::kernels::chase_dev {

// l1: ld.global.ca; l2: ld.global.cg; atom_add / atom_cas: the next pointer
// is the value an L2 atomic returns (atomics execute at L2). The atomic forms
// keep a counter in bits 49..63 of each node (a 64-bit pointer uses 49 bits)
// and mask it off: one LOP3 on the dependency path.
enum class Level { l1, l2, atom_add, atom_cas };

constexpr unsigned long long kPointerMask = (1ull << 49) - 1;

constexpr int kChaseThreads = 1024;
constexpr int kMaxTrace = 4096;  // per-hop trace entries (shared memory)

__device__ __forceinline__ unsigned smid() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

template <Level L>
__device__ __forceinline__ unsigned long long load_next(unsigned long long p) {
  if constexpr (L == Level::l1)
    asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
  else if constexpr (L == Level::l2)
    asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
  else if constexpr (L == Level::atom_add)  // add 2^49: the pointer bits never change
    asm volatile("{.reg .b64 v; atom.global.add.u64 v, [%0], %1; and.b64 %0, v, %2;}"
                 : "+l"(p)
                 : "l"(1ull << 49), "l"(kPointerMask)
                 : "memory");
  else  // compare with 1, which no node holds: the CAS returns the node unchanged
    asm volatile("{.reg .b64 v; atom.global.cas.b64 v, [%0], 1, 2; and.b64 %0, v, %1;}"
                 : "+l"(p)
                 : "l"(kPointerMask)
                 : "memory");
  return p;
}

template <Level L>
__device__ __forceinline__ void touch(const char* at, unsigned long long& acc) {
  unsigned long long v;
  if constexpr (L == Level::l1)
    asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");  // others: to L2 only
  else
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(at) : "memory");
  acc ^= v;
}

struct ChaseArgs {
  unsigned long long start = 0;       // address of the first node
  const char* warm_base = nullptr;    // step (1): footprint read by the whole block
  unsigned long long warm_bytes = 0;  // 0: no parallel warm-up
  unsigned warm_stride = 128;
  int warm_hops = 0, timed_hops = 0;
  int target_sm = -1;           // -1: any SM
  unsigned* claimed = nullptr;  // pinning flag, zeroed before the launch
  long long* result = nullptr;  // [0] cycles, [1] SM id, [2] last node (keeps the chase live)
  unsigned* trace = nullptr;    // per-hop cycles of the timed hops, or null
  every_sm::Slots every{};      // active: every SM chases (start, target_sm and result unused)
};

// Trace = true records every timed hop (for the L2 partition classifier); it
// needs 16 KiB of shared memory, which the plain chase must not take from L1.
template <Level L, bool Trace>
__global__ void __launch_bounds__(kChaseThreads) chase_kernel(ChaseArgs a) {
  __shared__ bool chosen;
  __shared__ unsigned sm;
  if (threadIdx.x == 0) {
    sm = smid();
    if (a.every.active()) {
      chosen = every_sm::claim(a.every, sm);  // the others leave at once
    } else {
      chosen = a.target_sm < 0 || (sm == static_cast<unsigned>(a.target_sm) && atomicExch(a.claimed, 1u) == 0u);
      if (!chosen) {  // hold this SM's slot a little, then leave
        const long long t0 = gc_clock64();
        while (*reinterpret_cast<volatile unsigned*>(a.claimed) == 0u && gc_clock64() - t0 < 200000) {
        }
      }
    }
  }
  __syncthreads();
  if (!chosen) return;
  // Where the last node goes: it keeps the chase live and, stored before the
  // second clock read, makes that read wait for the last load.
  long long* const sink = a.every.active() ? reinterpret_cast<long long*>(a.every.last + sm) : a.result + 2;
  // (1) parallel warm-up of the footprint
  unsigned long long acc = 0;
  for (unsigned long long off = static_cast<unsigned long long>(threadIdx.x) * a.warm_stride; off < a.warm_bytes;
       off += static_cast<unsigned long long>(blockDim.x) * a.warm_stride)
    touch<L>(a.warm_base + off, acc);
  __syncthreads();
  if (threadIdx.x != 0) {
    if (acc == 0x5eedull) *sink = static_cast<long long>(acc);  // practically never: keeps the warm loads
    return;
  }
  // (2) the chase
  unsigned long long p = a.start;
  if (a.every.active()) {
    p = a.every.starts[sm];
    every_sm::start_line(a.every);
  }
  for (int i = 0; i < a.warm_hops; ++i) p = load_next<L>(p);
  long long t0, t1;
  if constexpr (Trace) {
    __shared__ unsigned trace_s[kMaxTrace];
    __shared__ unsigned last_s;
    const int n = a.timed_hops < kMaxTrace ? a.timed_hops : kMaxTrace;
    t0 = gc_clock64();
    for (int i = 0; i < n; ++i) {
      const long long s = gc_clock64();
      p = load_next<L>(p);
      // The volatile store waits for the load, and the clock read after it issues only
      // then: hop i's time is hop i's load. (A plain store into trace_s[i], overwritten
      // just below, was dropped by the compiler, and each hop timed the previous load.)
      *static_cast<volatile unsigned*>(&last_s) = static_cast<unsigned>(p);
      trace_s[i] = static_cast<unsigned>(gc_clock64() - s);
    }
    t1 = gc_clock64();
    for (int i = 0; i < n; ++i) a.trace[i] = trace_s[i];
  } else {
    // %globaltimer outside the cycle window: the cycles time exactly the hops.
    const unsigned long long g0 = gc_globaltimer();
    t0 = gc_clock64();
#pragma unroll 8
    for (int i = 0; i < a.timed_hops; ++i) p = load_next<L>(p);
    *sink = static_cast<long long>(p);  // waits for the last load
    t1 = gc_clock64();
    if (a.every.active()) a.every.ns[sm] = static_cast<long long>(gc_globaltimer() - g0);
  }
  if (a.every.active()) {
    a.every.cycles[sm] = t1 - t0;
    return;
  }
  a.result[0] = t1 - t0;
  a.result[1] = sm;
  a.result[2] = static_cast<long long>(p);
}

// Writes node i at base + offsets[i], holding the address of node next[i].
__global__ void write_nodes_kernel(char* base, const unsigned long long* offsets, const unsigned* next, unsigned n);

// Reads `bytes` of `buf` with every SM so that no line of an earlier chase
// stays in L2.
__global__ void flush_kernel(const int4* buf, unsigned long long count, int4* sink);

// One chase footprint on the device: a buffer and the nodes placed in it.
class ChaseBuffer {
 public:
  explicit ChaseBuffer(std::size_t bytes);
  char* base() const { return buffer_.get(); }
  std::size_t bytes() const { return buffer_.size(); }
  // Places nodes at `offsets` (bytes from base, 8-byte aligned) in the order
  // given by `next` (next[i] = node after node i); returns the address of
  // node `start`.
  unsigned long long place(const std::vector<unsigned long long>& offsets, const std::vector<std::uint32_t>& next,
                           std::uint32_t start = 0);

 private:
  DeviceBuffer<char> buffer_;
};

// The addresses of `units` chasers' first nodes, spread evenly over the single
// cycle `next` placed at `offsets` of `buf` (placement::spread_starts).
std::vector<unsigned long long> spread_start_addresses(const ChaseBuffer& buf,
                                                       const std::vector<unsigned long long>& offsets,
                                                       const std::vector<std::uint32_t>& next, std::size_t units);

struct ChaseResult {
  double cycles_per_hop = 0;
  int sm = -1;
  std::vector<unsigned> trace;  // per-hop cycles when requested
};

// One launch of the chase. `grid_sms` is the SM count (used for pinning).
template <Level L>
ChaseResult run_chase(const ChaseArgs& args, int grid_sms, bool want_trace = false);

// One launch with a chasing block on every SM: SM s starts at starts[s] (a node
// address), walks args.warm_hops untimed and times args.timed_hops; the
// reading per SM is cycles per hop. args.start and args.target_sm are unused.
template <Level L>
placement::Launch run_chase_on_every_sm(const ChaseArgs& args, every_sm::SlotSet& slots,
                                        const std::vector<unsigned long long>& starts);

// Sets the preferred L1/shared split (percent of the unified memory given to
// shared memory: 0 = largest L1, 100 = largest shared) for the L1 chase.
void set_l1_carveout(int shared_percent);

// Empties L2 by streaming a buffer of twice its size through every SM.
class L2Flusher {
 public:
  L2Flusher(std::int64_t l2_bytes, int sm_count);
  void flush();

 private:
  DeviceBuffer<int4> buf_;
  DeviceBuffer<int4> sink_;
  int grid_;
};

}  // namespace gpuconform::kernels::chase_dev
