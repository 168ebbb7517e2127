// SPDX-License-Identifier: Apache-2.0
// Atomic latencies, global (executed at L2) and shared, add and compare-and-
// swap: a pointer chase in which every hop is an atomic whose returned old
// value is the next node's address, so each atomic waits for the previous
// one's result.
//
// Global: 4096 random lines of L2/8, L2-resident (read by the chasing block,
// then one untimed lap), chased in every SM at once, each from its own node of
// the cycle (pointer_chase.cuh, Level::atom_*): the median over SMs, so the
// value does not depend on where SM 0 sits on the die. Each node keeps a counter above its
// pointer bits, so `atom.add` of 2^49 never changes the pointer; `atom.cas`
// compares with a value no node holds and returns the node unchanged. Both
// mask the counter off with one LOP3, which is part of the measured hop.
//
// Shared: one thread, a ring of 64 words; a node holds the 32-bit shared
// address of the next one in bits 0..19 and a counter above (add 2^20), or is
// compared with 1 by a CAS that never succeeds; again one LOP3 per hop.
#include <fmt/format.h>

#include "common/every_sm.cuh"
#include "common/placement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/pointer_chase.cuh"

namespace gpuconform::kernels {
namespace {

using chase_dev::ChaseArgs;
using chase_dev::ChaseBuffer;
using chase_dev::Level;

constexpr unsigned long long kLine = 128;
constexpr std::size_t kNodes = 4096;
constexpr std::uint64_t kSeed = 0x61746f6d6963ull;

// Global atomics in every SM at once (common/every_sm.cuh): each SM's block
// reads the footprint and chases the same cycle from its own node; the value is
// the median over SMs, SM 0 alone (the former method) in the note "sm0_alone".
template <Level L>
Measurement measure_global_atomic(const ProbeContext& ctx) {
  const unsigned long long footprint = static_cast<unsigned long long>(ctx.device.l2_bytes) / 8 / kLine * kLine;
  ChaseBuffer buf(footprint);
  every_sm::SlotSet slots(ctx.device.sm_count);
  ChaseArgs a;
  a.warm_base = buf.base();
  a.warm_bytes = footprint;
  a.warm_hops = static_cast<int>(kNodes);
  a.timed_hops = 2048;
  std::vector<placement::Launch> launches;
  for (int r = 0; r < (ctx.quick ? 3 : 7); ++r) {
    const auto lines = chase::distinct_sample(footprint / kLine, kNodes, kSeed + r);
    std::vector<unsigned long long> offsets(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) offsets[i] = lines[i] * kLine;
    const auto next = chase::single_cycle(offsets.size(), kSeed + 100 + r);
    a.start = buf.place(offsets, next);
    const auto starts = chase_dev::spread_start_addresses(buf, offsets, next, slots.sm_count());
    launches.push_back(chase_dev::run_chase_on_every_sm<L>(a, slots, starts));
  }
  const placement::Summary s = placement::summarize(launches, "SM");
  a.target_sm = 0;  // the last cycle once more, SM 0 alone
  const double alone = chase_dev::run_chase<L>(a, ctx.device.sm_count).cycles_per_hop;
  Measurement m = placement::to_measurement(
      s, fmt::format("dependent {} chase over {} random L2-resident lines, one LOP3 per hop, in every SM at once: "
                     "one block per SM reads the footprint and chases the same cycle from its own node ({} untimed, "
                     "{} timed hops); sample = median over SMs, value = median of {} launches",
                     L == Level::atom_add ? "atom.global.add.u64" : "atom.global.cas.b64", kNodes, kNodes, a.timed_hops,
                     launches.size()));
  m.note("sm0_alone", placement::alone_note(s, 0, alone));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&chase_dev::chase_kernel<L, false>),
                                         ctx.device.arch()));
  return m;
}

__device__ unsigned init_atomic_ring(unsigned* mem) {
  if (threadIdx.x == 0)
    for (int i = 1; i <= 64; ++i)  // slots 1..64: no node has address 0
      mem[i] = static_cast<unsigned>(__cvta_generic_to_shared(mem + (i % 64) + 1));
  return static_cast<unsigned>(__cvta_generic_to_shared(mem + 1));
}

#define GC_SHARED_ATOMIC_OP(Name, Body)                                                              \
  struct Name {                                                                                      \
    using T = gc_u32;                                                                                \
    using U = gc_u32;                                                                                \
    using Glue = void;                                                                               \
    static constexpr int kChain = 128;                                                               \
    static constexpr const char* kBody = Body;                                                       \
    static T seed() { return 1; }                                                                    \
    static U operand_a() { return 1u << 20; }                                                        \
    static U operand_b() { return (1u << 20) - 1; }                                                  \
    __device__ static T prepare(T, U, U) {                                                           \
      __shared__ unsigned mem[80];                                                                   \
      return init_atomic_ring(mem);                                                                  \
    }                                                                                                \
    __device__ static T step(T x, U a, U b, unsigned) {                                              \
      asm volatile(Body : "+r"(x) : "r"(a), "r"(b) : "memory");                                      \
      return x;                                                                                      \
    }                                                                                                \
  };

GC_SHARED_ATOMIC_OP(SharedAtomicAdd, "{.reg .b32 v; atom.shared.add.u32 v, [%0], %1; and.b32 %0, v, %2;}")
GC_SHARED_ATOMIC_OP(SharedAtomicCas, "{.reg .b32 v; atom.shared.cas.b32 v, [%0], 1, 2; and.b32 %0, v, %2;}")

}  // namespace

const bool kAtomicRegistered = register_probes({
    {"latency.atomic.global.add.u64",
     Family::latency,
     "dependent atom.global.add.u64 chase over L2-resident lines, every SM at once, median over SMs",
     {75},
     {ExpectationKind::band, 0, 0.01},
     &measure_global_atomic<Level::atom_add>},
    {"latency.atomic.global.cas.b64",
     Family::latency,
     "dependent atom.global.cas.b64 chase (compare fails) over L2-resident lines, every SM at once, median over SMs",
     {75},
     {ExpectationKind::band, 0, 0.01},
     &measure_global_atomic<Level::atom_cas>},
    {"latency.atomic.shared.add.u32",
     Family::latency,
     "dependent atom.shared.add.u32 chase, one thread",
     {75},
     kDeterministicLatency,
     &measure_chain_latency<SharedAtomicAdd>},
    {"latency.atomic.shared.cas.b32",
     Family::latency,
     "dependent atom.shared.cas.b32 chase (compare fails)",
     {75},
     kDeterministicLatency,
     &measure_chain_latency<SharedAtomicCas>},
});

}  // namespace gpuconform::kernels
