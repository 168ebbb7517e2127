// SPDX-License-Identifier: Apache-2.0
// Global-memory latencies by random pointer chase (pointer_chase.cuh), the
// latency staircase (footprint -> cycles per access) and the capacity edges it
// shows, checked against the sizes the device reports (seed 000, Abdelkhalik
// et al. 2022, Table IV; seed 004, Luo et al. 2024, memory section).
//
//   latency.mem.l1_hit            16 KiB footprint, ld.ca, warm: an L1 hit
//   latency.mem.hbm               random lines of a footprint 8x L2 after an L2
//                                 flush, TLB warmed on other lines of the same
//                                 pages: an L2 miss served by device memory;
//                                 in every SM at once, median over SMs
//   latency.mem.l2_hit            L2 hit (the lower plateau of the L2
//                                 staircase), timed in every SM at once:
//                                 the median over SMs, so the value does not
//                                 depend on where SM 0 sits on the die
//   latency.mem.l2_capacity_edge  where the L2 staircase rises, / l2_bytes
//   latency.mem.l1_capacity_edge  where the L1 staircase rises with the largest
//                                 L1 carve-out, in bytes
//   latency.mem.l1_carveout_ratio (edge at the largest L1 - edge at the largest
//                                 shared carve-out) / shared bytes per SM: the
//                                 L1 lost to shared memory is what the device
//                                 reports as shared capacity, ideally 1
//   latency.mem.tlb_miss_penalty  one node per 2 MiB page, L2-resident lines:
//                                 largest minus smallest footprint's latency,
//                                 SM 0 alone (recorded only)
//   latency.mem.l2_hit.tlb_miss   one node per 2 MiB page over 8 GiB, every
//                                 SM at once, median over SMs
//
// Edges: the footprint where the latency first leaves the lower plateau by
// more than 10% (chase_plan.hpp, capacity_edge), interpolated in
// log(footprint). The L2 sweep
// warms each footprint with a coalesced read by the chasing block and then
// chases a random sample of its lines (a footprint F > capacity C then hits
// with probability about C/F); every staircase goes into the note "staircase".
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "common/every_sm.cuh"
#include "common/placement.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/pointer_chase.cuh"

namespace gpuconform::kernels {
namespace {

using chase_dev::ChaseArgs;
using chase_dev::ChaseBuffer;
using chase_dev::Level;
using chase_dev::run_chase;

constexpr unsigned long long kLine = 128;         // bytes per node: one L1/L2 line
constexpr unsigned long long kPage = 2ull << 20;  // the 2 MiB pages of large cudaMalloc allocations
constexpr std::uint64_t kSeed = 0x6770756366ull;
constexpr int kPinnedSm = 0;  // L2 and TLB distances depend on the SM; always chase from the same one

// A random single cycle over `n` lines starting at `first_line`.
void place_full_cycle(ChaseBuffer& buf, std::size_t n, unsigned long long stride, unsigned long long& start,
                      std::uint64_t seed) {
  std::vector<unsigned long long> offsets(n);
  for (std::size_t i = 0; i < n; ++i) offsets[i] = i * stride;
  start = buf.place(offsets, chase::single_cycle(n, seed));
}

// A random single cycle over `count` distinct random lines of [0, bytes).
struct SampledCycle {
  std::vector<unsigned long long> offsets;
  std::vector<std::uint32_t> next;
  unsigned long long start = 0;  // address of node 0
};

SampledCycle place_sampled(ChaseBuffer& buf, unsigned long long bytes, std::size_t count, std::uint64_t seed) {
  const auto lines = chase::distinct_sample(bytes / kLine, count, seed);
  SampledCycle c;
  c.offsets.resize(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) c.offsets[i] = lines[i] * kLine;
  c.next = chase::single_cycle(c.offsets.size(), seed ^ 0x9E3779B97F4A7C15ull);
  c.start = buf.place(c.offsets, c.next);
  return c;
}

void place_sampled_cycle(ChaseBuffer& buf, unsigned long long bytes, std::size_t count, unsigned long long& start,
                         std::uint64_t seed) {
  start = place_sampled(buf, bytes, count, seed).start;
}

int repeats(const ProbeContext& ctx) { return ctx.quick ? 3 : 7; }

Measurement finish(Measurement m, const char* method) {
  m.value = median(m.samples);
  m.unit = m.unit.empty() ? "cycles" : m.unit;
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", method);
  return m;
}

// ---- L1 hit ---------------------------------------------------------------

Measurement measure_l1_hit(const ProbeContext& ctx) {
  constexpr unsigned long long kBytes = 16 << 10;
  ChaseBuffer buf(kBytes);
  unsigned long long start = 0;
  place_full_cycle(buf, kBytes / kLine, kLine, start, kSeed);
  chase_dev::set_l1_carveout(0);
  ChaseArgs a;
  a.start = start;
  a.warm_base = buf.base();
  a.warm_bytes = kBytes;
  a.warm_hops = static_cast<int>(kBytes / kLine);
  a.timed_hops = 4096;
  Measurement m;
  for (int r = 0; r < repeats(ctx); ++r)
    m.samples.push_back(run_chase<Level::l1>(a, ctx.device.sm_count).cycles_per_hop);
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&chase_dev::chase_kernel<Level::l1, false>),
                                         ctx.device.arch()));
  return finish(m, "ld.global.ca pointer chase, 128 random lines of 16 KiB, warm, 4096 timed hops, median of launches");
}

// ---- HBM ----------------------------------------------------------------------

// HBM in every SM at once (common/every_sm.cuh): per launch, 2 x kHops
// distinct random lines of the footprint per SM, dealt to the SMs at random (so
// each SM's lines spread over every page), each SM's lines its own cycle; after
// one L2 flush every SM walks its first kHops lines untimed (they load the TLB
// entries of the pages) and times the next kHops, never touched before: L2
// misses. The value is the median over SMs; SM 0 alone, the former method, is
// timed once more on its own lines for the note "sm0_alone".
Measurement measure_hbm(const ProbeContext& ctx) {
  const unsigned long long bytes = std::max<unsigned long long>(512ull << 20, 8ull * ctx.device.l2_bytes);
  constexpr int kHops = 4096;
  const std::size_t sms = static_cast<std::size_t>(ctx.device.sm_count), per_sm = 2 * kHops;
  if (sms * per_sm > bytes / kLine / 2) throw ProbeSkipped("too many SMs for distinct lines of the HBM footprint");
  ChaseBuffer buf(bytes);
  chase_dev::L2Flusher flusher(ctx.device.l2_bytes, ctx.device.sm_count);
  every_sm::SlotSet slots(ctx.device.sm_count);
  const auto next = placement::disjoint_cycles(sms, per_sm);
  ChaseArgs a;
  a.warm_hops = kHops;
  a.timed_hops = kHops;
  std::vector<placement::Launch> launches;
  std::vector<unsigned long long> starts(sms);
  for (int r = 0; r < repeats(ctx); ++r) {
    auto lines = chase::distinct_sample(bytes / kLine, sms * per_sm, kSeed + r);
    std::shuffle(lines.begin(), lines.end(), std::mt19937_64(kSeed + r));  // the sample is sorted
    std::vector<unsigned long long> offsets(lines.size());
    for (std::size_t i = 0; i < lines.size(); ++i) offsets[i] = lines[i] * kLine;
    buf.place(offsets, next);
    for (std::size_t sm = 0; sm < sms; ++sm)
      starts[sm] = reinterpret_cast<unsigned long long>(buf.base() + offsets[sm * per_sm]);
    flusher.flush();
    launches.push_back(chase_dev::run_chase_on_every_sm<Level::l2>(a, slots, starts));
  }
  const placement::Summary s = placement::summarize(launches, "SM");
  flusher.flush();  // SM 0's own lines of the last launch, alone
  a.start = starts[kPinnedSm];
  a.target_sm = kPinnedSm;
  const double alone = run_chase<Level::l2>(a, ctx.device.sm_count).cycles_per_hop;
  Measurement m = placement::to_measurement(
      s, fmt::format("ld.global.cg pointer chase in every SM at once after an L2 flush: per SM {} random lines of "
                     "{} MiB (dealt to the SMs at random), its own cycle; first {} hops warm the TLB, the next {} "
                     "(new lines) are timed; sample = median over SMs of cycles per hop, value = median of {} "
                     "launches",
                     per_sm, bytes >> 20, kHops, kHops, launches.size()));
  m.note("sm0_alone", placement::alone_note(s, kPinnedSm, alone));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

// ---- L2 staircase ---------------------------------------------------------------

struct L2Staircase {
  std::vector<chase::StairPoint> points;
  double low = 0;
  std::optional<double> edge;
};

L2Staircase l2_staircase(const ProbeContext& ctx) {
  const auto l2 = static_cast<unsigned long long>(ctx.device.l2_bytes);
  const auto sweep = chase::footprint_sweep(l2 / 8, 2 * l2, ctx.quick ? 3 : 6, 1 << 20);
  ChaseBuffer buf(sweep.back());
  L2Staircase s;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const unsigned long long f = sweep[i];
    unsigned long long start = 0;
    place_sampled_cycle(buf, f, std::min<unsigned long long>(2048, f / kLine), start, kSeed + i);
    ChaseArgs a;
    a.start = start;
    a.warm_base = buf.base();
    a.warm_bytes = f;
    a.timed_hops = 2048;
    a.target_sm = kPinnedSm;
    s.points.push_back({static_cast<double>(f), run_chase<Level::l2>(a, ctx.device.sm_count).cycles_per_hop});
  }
  s.low = chase::plateau(s.points, 0, l2 / 4.0).value_or(0);
  s.edge = chase::capacity_edge(s.points, s.low);
  return s;
}

Measurement measure_l2_capacity_edge(const ProbeContext& ctx) {
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 1 : 3); ++r) {
    const L2Staircase s = l2_staircase(ctx);
    if (!s.edge)
      throw std::runtime_error("the L2 staircase never rises 10% above its L2 plateau: " +
                               chase::staircase_json(s.points));
    m.samples.push_back(*s.edge / static_cast<double>(ctx.device.l2_bytes));
    if (r == 0) {
      m.note("staircase", chase::staircase_json(s.points));
      m.note("edge", fmt::format("L2 plateau {:.1f} cycles; edge {:.1f} MiB of {:.1f} MiB reported", s.low,
                                 *s.edge / (1 << 20), ctx.device.l2_bytes / double(1 << 20)));
    }
  }
  m.unit = "ratio";
  return finish(m, "footprint where the ld.cg staircase rises 10% above its L2 plateau, / reported L2 size");
}

// L2 hit in every SM at once (common/every_sm.cuh): per launch, 4096 random
// lines of L2/8 in one cycle, every SM's block reads the footprint (into L2)
// and times one lap from its own node of the cycle, so all SMs time the same
// lines; the value is the median over SMs (common/placement.hpp). SM 0 alone,
// the former method, is timed once more for the note "sm0_alone".
Measurement measure_l2_hit(const ProbeContext& ctx) {
  constexpr int kNodes = 4096;
  const auto l2 = static_cast<unsigned long long>(ctx.device.l2_bytes);
  const unsigned long long f = l2 / 8;  // well inside L2, far beyond L1
  ChaseBuffer buf(f);
  every_sm::SlotSet slots(ctx.device.sm_count);
  ChaseArgs a;
  a.warm_base = buf.base();
  a.warm_bytes = f;
  a.warm_hops = kNodes;
  a.timed_hops = kNodes;
  std::vector<placement::Launch> launches;
  for (int r = 0; r < repeats(ctx); ++r) {
    const SampledCycle c = place_sampled(buf, f, kNodes, kSeed + 17 * r);
    const auto starts = chase_dev::spread_start_addresses(buf, c.offsets, c.next, slots.sm_count());
    launches.push_back(chase_dev::run_chase_on_every_sm<Level::l2>(a, slots, starts));
    a.start = c.start;
  }
  const placement::Summary s = placement::summarize(launches, "SM");
  a.target_sm = kPinnedSm;  // the last cycle once more, chased by SM 0 alone
  const double alone = run_chase<Level::l2>(a, ctx.device.sm_count).cycles_per_hop;
  Measurement m = placement::to_measurement(
      s, fmt::format("ld.global.cg pointer chase over {} random lines of L2/8 in one cycle, warm, in every SM at "
                     "once: one block per SM (the first to claim it by %smid), each reads the footprint, walks one "
                     "untimed lap from its own node of the cycle (SM s starts s/{} of the way round) and times the "
                     "next {} hops; sample = median over SMs of cycles per hop, value = median of {} launches",
                     kNodes, ctx.device.sm_count, kNodes, launches.size()));
  m.note("sm0_alone", placement::alone_note(s, kPinnedSm, alone));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

// ---- L1 staircase ---------------------------------------------------------------

std::vector<chase::StairPoint> l1_staircase(const ProbeContext& ctx, int carveout, unsigned long long lo,
                                            unsigned long long hi) {
  chase_dev::set_l1_carveout(carveout);
  const auto sweep = chase::footprint_sweep(lo, hi, ctx.quick ? 3 : 6, kLine);
  ChaseBuffer buf(sweep.back());
  std::vector<chase::StairPoint> points;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const unsigned long long f = sweep[i];
    unsigned long long start = 0;
    const std::size_t n = f / kLine;
    place_full_cycle(buf, n, kLine, start, kSeed + i);
    ChaseArgs a;
    a.start = start;
    a.warm_base = buf.base();
    a.warm_bytes = f;
    a.warm_hops = static_cast<int>(n);
    a.timed_hops = static_cast<int>(std::clamp<std::size_t>(n, 2048, 4096));
    a.target_sm = kPinnedSm;
    points.push_back({static_cast<double>(f), run_chase<Level::l1>(a, ctx.device.sm_count).cycles_per_hop});
  }
  chase_dev::set_l1_carveout(0);
  return points;
}

double l1_edge(const std::vector<chase::StairPoint>& points, const char* which) {
  const double low = chase::plateau(points, 0, points.front().bytes * 1.5).value_or(0);
  const auto edge = chase::capacity_edge(points, low);
  if (!edge)
    throw std::runtime_error(fmt::format("the L1 staircase ({}) never rises 10% above its L1 plateau: {}", which,
                                         chase::staircase_json(points)));
  return *edge;
}

Measurement measure_l1_capacity_edge(const ProbeContext& ctx) {
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 1 : 2); ++r) {
    const auto points = l1_staircase(ctx, 0, 96 << 10, 512 << 10);
    m.samples.push_back(l1_edge(points, "largest L1"));
    if (r == 0) m.note("staircase", chase::staircase_json(points));
  }
  m.unit = "bytes";
  return finish(m, "footprint where the ld.ca staircase rises 10% above its L1 plateau, largest L1 carve-out, SM 0");
}

Measurement measure_l1_carveout_ratio(const ProbeContext& ctx) {
  if (ctx.device.shared_per_sm_bytes <= 0) throw ProbeSkipped("the device reports no shared memory per SM");
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 1 : 2); ++r) {
    const auto big = l1_staircase(ctx, 0, 96 << 10, 512 << 10);
    const auto small = l1_staircase(ctx, 100, 8 << 10, 128 << 10);
    const double e_big = l1_edge(big, "largest L1"), e_small = l1_edge(small, "largest shared");
    m.samples.push_back((e_big - e_small) / static_cast<double>(ctx.device.shared_per_sm_bytes));
    if (r == 0) {
      m.note("staircase_largest_l1", chase::staircase_json(big));
      m.note("staircase_largest_shared", chase::staircase_json(small));
      m.note("edges", fmt::format("{:.1f} KiB with the largest L1, {:.1f} KiB with the largest shared carve-out; "
                                  "{:.1f} KiB shared per SM reported",
                                  e_big / 1024, e_small / 1024, ctx.device.shared_per_sm_bytes / 1024.0));
    }
  }
  m.unit = "ratio";
  return finish(m, "(L1 edge at carve-out 0% shared - L1 edge at 100% shared) / shared memory per SM");
}

// ---- TLB ------------------------------------------------------------------------

// The TLB probes' largest footprint: 8 GiB, or a quarter of device memory.
unsigned long long tlb_max_bytes(const ProbeContext& ctx) {
  const unsigned long long max_bytes =
      std::min<unsigned long long>(8ull << 30, static_cast<unsigned long long>(ctx.device.global_mem_bytes) / 4);
  if (max_bytes < (1ull << 30)) throw ProbeSkipped("needs at least 4 GiB of device memory for a 1 GiB TLB sweep");
  return max_bytes;
}

// One node per 2 MiB page of [0, bytes), at a random line within it (an exact
// page stride would put every node in the same L2 set).
std::vector<unsigned long long> one_line_per_page(unsigned long long bytes, std::uint64_t seed) {
  const unsigned long long pages = bytes / kPage;
  const auto lines = chase::distinct_sample(pages * (kPage / kLine), static_cast<std::size_t>(pages), seed);
  std::vector<unsigned long long> offsets;
  for (std::size_t p = 0; p < pages; ++p) offsets.push_back(p * kPage + (lines[p] % (kPage / kLine)) * kLine);
  return offsets;
}

// SM 0 alone over footprints from 32 MiB to the largest, one L2-resident line
// per page: the latency the largest footprints add over 32-64 MiB. On Hopper
// that is a few cycles (3-14 on healthy H100s), and how many depends on where
// SM 0 sits, so it is recorded, not judged: latency.mem.l2_hit.tlb_miss is the
// judged latency of the same access.
Measurement measure_tlb_miss_penalty(const ProbeContext& ctx) {
  const unsigned long long max_bytes = tlb_max_bytes(ctx);
  const auto sweep = chase::footprint_sweep(32ull << 20, max_bytes, 2, kPage);
  ChaseBuffer buf(sweep.back());
  Measurement m;
  std::vector<chase::StairPoint> points;
  for (int r = 0; r < (ctx.quick ? 1 : 3); ++r) {
    points.clear();
    for (std::size_t i = 0; i < sweep.size(); ++i) {
      const auto offsets = one_line_per_page(sweep[i], kSeed + i);
      const unsigned long long start = buf.place(offsets, chase::single_cycle(offsets.size(), kSeed + 31 * i));
      ChaseArgs a;
      a.start = start;
      a.warm_hops = static_cast<int>(offsets.size());  // one lap: lines into L2
      a.timed_hops = static_cast<int>(std::max<std::size_t>(offsets.size(), 1024));
      a.target_sm = kPinnedSm;
      points.push_back({static_cast<double>(sweep[i]), run_chase<Level::l2>(a, ctx.device.sm_count).cycles_per_hop});
    }
    const double small = chase::plateau(points, 0, 64 << 20).value_or(0);
    const double large = chase::plateau(points, max_bytes / 2.5, 1e30).value_or(0);
    m.samples.push_back(large - small);
  }
  m.note("staircase", chase::staircase_json(points));
  return finish(m,
                "ld.cg chase, one L2-resident line per 2 MiB page: latency at the largest footprints minus "
                "latency at 32-64 MiB");
}

// The same access in every SM at once (common/every_sm.cuh): one random line
// in each 2 MiB page of the largest footprint, one cycle; every SM walks one
// untimed lap from its own node (the lines go into L2) and times the next lap,
// each hop on a page it last touched a lap ago. The value is the median over
// SMs (common/placement.hpp), so it does not depend on where one SM sits: SM
// 0's reading varies by 4 % between healthy H100s, its penalty over small
// footprints by a factor of four. A slower page walk or a smaller TLB reach
// shows as a higher latency here.
Measurement measure_l2_hit_tlb_miss(const ProbeContext& ctx) {
  const unsigned long long bytes = tlb_max_bytes(ctx);
  ChaseBuffer buf(bytes);
  every_sm::SlotSet slots(ctx.device.sm_count);
  const unsigned long long pages = bytes / kPage;
  ChaseArgs a;
  a.warm_hops = static_cast<int>(pages);
  a.timed_hops = static_cast<int>(pages);
  std::vector<placement::Launch> launches;
  for (int r = 0; r < repeats(ctx); ++r) {
    const auto offsets = one_line_per_page(bytes, kSeed + 101 * r);
    const auto next = chase::single_cycle(offsets.size(), kSeed + 103 * r);
    buf.place(offsets, next);
    const auto starts = chase_dev::spread_start_addresses(buf, offsets, next, slots.sm_count());
    launches.push_back(chase_dev::run_chase_on_every_sm<Level::l2>(a, slots, starts));
  }
  const placement::Summary s = placement::summarize(launches, "SM");
  Measurement m = placement::to_measurement(
      s, fmt::format("ld.global.cg pointer chase over one random line in each of the {} 2 MiB pages of {} GiB, one "
                     "cycle, in every SM at once: each SM walks one untimed lap from its own node (SM s starts s/{} "
                     "of the way round) and times the next {} hops; sample = median over SMs of cycles per hop, "
                     "value = median of {} launches",
                     pages, bytes >> 30, ctx.device.sm_count, pages, launches.size()));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

}  // namespace

const bool kMemoryRegistered = register_probes({
    {"latency.mem.l1_hit",
     Family::latency,
     "L1 hit: ld.global.ca pointer chase within 16 KiB",
     {75},
     kDeterministicLatency,
     &measure_l1_hit},
    {"latency.mem.l2_hit",
     Family::latency,
     "L2 hit: ld.cg chase within L2/8 in every SM at once, median over SMs",
     {75},
     {ExpectationKind::band, 0, 0.01},
     &measure_l2_hit},
    {"latency.mem.hbm",
     Family::latency,
     "device-memory latency: random ld.cg chase over 8x L2 after an L2 flush, every SM at once, median over SMs",
     {75},
     {ExpectationKind::band, 0, 0.03},
     &measure_hbm},
    {"latency.mem.l2_capacity_edge",
     Family::latency,
     "L2 staircase edge / reported L2 size",
     {75},
     {ExpectationKind::band, 0, 0.05},
     &measure_l2_capacity_edge},
    {"latency.mem.l1_capacity_edge",
     Family::latency,
     "L1 staircase edge with the largest L1 carve-out (bytes)",
     {75},
     {ExpectationKind::band, 0, 0.03},
     &measure_l1_capacity_edge},
    {"latency.mem.l1_carveout_ratio",
     Family::latency,
     "(L1 edge at the largest L1 - at the largest shared carve-out) / shared memory per SM",
     {75},
     {ExpectationKind::band, 0, 0.05},
     &measure_l1_carveout_ratio},
    {"latency.mem.tlb_miss_penalty",
     Family::latency,
     "extra cycles per access when one line per 2 MiB page spans GiBs, SM 0 alone (recorded: a few cycles that "
     "depend on where SM 0 sits)",
     {75},
     kInfoHint,
     &measure_tlb_miss_penalty},
    {"latency.mem.l2_hit.tlb_miss",
     Family::latency,
     "L2 hit on a new 2 MiB page every hop over 8 GiB (a translation per hop), every SM at once, median over SMs",
     {75},
     {ExpectationKind::band, 0, 0.01},
     &measure_l2_hit_tlb_miss},
});

}  // namespace gpuconform::kernels
