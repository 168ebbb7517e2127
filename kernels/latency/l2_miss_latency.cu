// SPDX-License-Identifier: Apache-2.0
// Device-memory (L2 miss) latency split by the L2 partition that homes the
// line (issue 23, item 2):
//
//   latency.mem.l2_miss.near   L2 misses on lines homed in SM 0's partition
//   latency.mem.l2_miss.far    L2 misses on lines homed in the other partition
//
// The lines are classified exactly as latency.mem.l2_near / l2_far do
// (l2_partition.hpp: flush, warm from an SM of the other partition, SM 0's
// first touch of each line timed, two-means split), on the same buffer, so the
// classes are physical lines of this allocation. Then, per class and launch:
//   1. flush L2 (stream twice its size through every SM): no line of the class
//      is in L2;
//   2. one thread pinned to SM 0 chases one cycle that first visits 256 other
//      lines of the same pages (untimed: they load the TLB entries, and are
//      never timed lines) and then every line of the class once, in random
//      order, each hop timed together (clock64 around the lap): a first touch
//      after a flush, so every timed hop misses L2 and is served by device
//      memory through the line's home partition.
// The value is cycles per hop, median of launches. latency.mem.hbm (random
// lines of 8 x L2, mixed partitions) lies between the two.
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/async_plan.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/l2_partition.hpp"
#include "latency/pointer_chase.cuh"

namespace gpuconform::kernels {
namespace {

constexpr unsigned long long kLine = 128;
constexpr std::size_t kTlbWarmLines = 256;
constexpr std::uint64_t kSeed = 0x6c326d697373ull;

enum class Side { near, far };

// Flush, then SM 0's first lap: the warm lines untimed, the class timed.
double miss_lap(const l2part::Setup& s, const std::vector<unsigned long long>& warm,
                std::vector<unsigned long long> lines, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::shuffle(lines.begin(), lines.end(), rng);
  const auto order = plan::warm_then_timed(warm, lines);
  const unsigned long long start = s.buf.place(order, plan::ordered_cycle(order.size()), 0);
  s.flusher.flush();
  chase_dev::ChaseArgs a;
  a.start = start;
  a.warm_hops = static_cast<int>(warm.size());
  a.timed_hops = static_cast<int>(lines.size());
  a.target_sm = l2part::kProbingSm;
  return chase_dev::run_chase<chase_dev::Level::l2>(a, s.ctx.device.sm_count).cycles_per_hop;
}

template <Side S>
Measurement measure_l2_miss(const ProbeContext& ctx) {
  const unsigned long long footprint = l2part::footprint_bytes(ctx.device);
  chase_dev::ChaseBuffer buf(footprint);
  chase_dev::L2Flusher flusher(ctx.device.l2_bytes, ctx.device.sm_count);
  const l2part::Setup s{ctx, buf, flusher, footprint};
  const l2part::Partition p = l2part::classify(s);
  const auto& lines = S == Side::near ? p.near : p.far;
  if (lines.size() < 64)
    throw std::runtime_error(fmt::format("only {} lines classified {} (of {}): too few to time", lines.size(),
                                         S == Side::near ? "near" : "far", p.near.size() + p.far.size()));
  std::vector<unsigned long long> sampled(p.near);
  sampled.insert(sampled.end(), p.far.begin(), p.far.end());
  const auto warm = plan::lines_outside(footprint, kLine, kTlbWarmLines, sampled);
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 3 : 7); ++r) m.samples.push_back(miss_lap(s, warm, lines, kSeed + 13 * r));
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", fmt::format("{} lines homed {} SM {} (classified as latency.mem.l2_{}: warming SM {}); per launch: "
                               "L2 flushed, then SM {} chases {} untimed lines of the same pages (TLB) and every "
                               "class line once in random order with ld.global.cg, lap timed by clock64: cycles per "
                               "L2 miss; median of launches",
                               lines.size(), S == Side::near ? "near" : "far from", l2part::kProbingSm,
                               S == Side::near ? "near" : "far", p.warmer, l2part::kProbingSm, warm.size()));
  m.note("split", fmt::format("near {} lines around {:.1f} cycles, far {} lines around {:.1f} cycles (L2-hit first "
                              "touches, traced), separation {:.1f}",
                              p.near.size(), p.split.low, p.far.size(), p.split.high, p.split.separation));
  m.note("sass",
         sass::timed_region_note(reinterpret_cast<const void*>(&chase_dev::chase_kernel<chase_dev::Level::l2, false>),
                                 ctx.device.arch()));
  return m;
}

const bool kRegistered = register_probes({
    {"latency.mem.l2_miss.near",
     Family::latency,
     "device-memory latency of lines homed in SM 0's L2 partition (first touch after an L2 flush)",
     {80},
     {ExpectationKind::band, 0, 0.03},
     &measure_l2_miss<Side::near>},
    {"latency.mem.l2_miss.far",
     Family::latency,
     "device-memory latency of lines homed in the L2 partition far from SM 0 (first touch after an L2 flush)",
     {80},
     {ExpectationKind::band, 0, 0.03},
     &measure_l2_miss<Side::far>},
});

}  // namespace
}  // namespace gpuconform::kernels
