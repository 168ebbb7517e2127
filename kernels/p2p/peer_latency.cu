// SPDX-License-Identifier: Apache-2.0
// Load-to-use latency of GPU A reading GPU B's memory through peer access
// (p2p.latency.read), from every SM of A at once (common/every_sm.cuh): one
// block per SM chases pointers through one random single cycle
// (chase_plan.hpp) over 4 MiB of B's memory, one node per 128-byte line, with
// ld.global.cg (not cached in A's L1), each SM from its own point of the
// cycle (placement::spread_starts). Every load's address is the previous
// load's value, so the loads serialise and the time per hop is one round trip
// over the link to B's L2 (4 MiB fits there; every SM's untimed lap puts it
// there). The value is the median over SMs of nanoseconds per hop from
// %globaltimer (the link's share of a round trip does not scale with A's SM
// clock); cycles per hop are noted beside it.
//
// Why every SM: one thread timed wherever the launch put it read 794-799 ns
// from one H200 of a 4-GPU node (GPU-5ac73486, 2026-11-27) against 846-855 ns
// for the other eleven ordered pairs, reads into that GPU included: the
// requester's SM placement moved the value, not the link. The median over SMs
// is the same spot on every board; the spread over SMs is in the note.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "common/every_sm.cuh"
#include "common/placement.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "latency/chase_plan.hpp"
#include "latency/pointer_chase.cuh"
#include "p2p/peer_buffers.hpp"
#include "p2p/peer_link.hpp"

namespace gpuconform::kernels {
namespace {

constexpr std::size_t kFootprint = std::size_t(4) << 20;
constexpr std::size_t kLine = 128;
constexpr std::size_t kNodes = kFootprint / kLine;
constexpr int kTimedHops = 4096;

Measurement peer_read_latency(const ProbeContext& ctx) {
  const DeviceInfo& b = require_peers(ctx).front();
  enable_peer_access(ctx.device, b);
  const PeerBuffer nodes(b.index, kFootprint, 0x1a7e);
  // Node i holds the address of node next[i], one node per line.
  const std::vector<std::uint32_t> next = chase::single_cycle(kNodes, 0x51ab);
  std::vector<unsigned long long> image(kFootprint / 8, 0x5a5a5a5a5a5a5a5aull);
  const auto base = reinterpret_cast<unsigned long long>(nodes.get());
  for (std::size_t i = 0; i < kNodes; ++i) image[i * kLine / 8] = base + next[i] * kLine;
  GC_CUDA_CHECK(cudaMemcpy(nodes.get(), image.data(), kFootprint, cudaMemcpyHostToDevice));

  every_sm::SlotSet slots(ctx.device.sm_count);
  std::vector<unsigned long long> starts;
  for (std::uint32_t node : placement::spread_starts(next, 0, static_cast<std::size_t>(slots.sm_count())))
    starts.push_back(base + node * kLine);
  chase_dev::ChaseArgs a;
  a.warm_hops = static_cast<int>(kNodes);  // one untimed lap: the whole footprint in B's L2
  a.timed_hops = kTimedHops;
  const int launches = ctx.quick ? 3 : 9;
  std::vector<placement::Launch> ns, cycles;
  for (int l = 0; l <= launches; ++l) {  // launch 0 is untimed warm-up
    cycles.push_back(chase_dev::run_chase_on_every_sm<chase_dev::Level::l2>(a, slots, starts));
    ns.push_back(slots.collect_ns(kTimedHops));
    if (l == 0) {
      ns.clear();
      cycles.clear();
    }
  }
  const placement::Summary s = placement::summarize(ns, "SM");
  const placement::Summary c = placement::summarize(cycles, "SM");
  Measurement m = placement::to_measurement(
      s,
      fmt::format("ld.global.cg pointer chase from every SM of GPU {} at once (one block per SM, the first to claim "
                  "it by %smid) through one random single cycle of {} nodes (one per {} B line, {} MiB) in GPU {}'s "
                  "memory: each SM walks one untimed lap from its own point of the cycle, then times {} hops with "
                  "%globaltimer; sample = median over SMs of ns per hop, value = median of {} launches after an "
                  "untimed one",
                  ctx.device.index, kNodes, kLine, kFootprint >> 20, b.index, kTimedHops, launches),
      "ns");
  m.sm_clock_mhz = c.value / m.value * 1e3;
  m.note("cycles_per_hop", fmt::format("median over SMs {:.1f} (clock64 of GPU {}, {:.0f} MHz during the chase)",
                                       c.value, ctx.device.index, m.sm_clock_mhz));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"p2p.latency.read",
          Family::p2p,
          "load-to-use latency (ns) of GPU A reading GPU B's memory through peer access (pointer chase, 4 MiB)",
          {60},
          RecordHint{ExpectationKind::band, 0, 0.02, 0.05},
          &peer_read_latency,
          Scope::pair},
});

}  // namespace
}  // namespace gpuconform::kernels
