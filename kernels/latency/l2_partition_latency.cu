// SPDX-License-Identifier: Apache-2.0
// Which L2 partition homes a line, as SM 0 sees it (l2part::classify), and
// latency.mem.l2_far_fraction, the share of random lines homed far from SM 0.
// The classification is what the SM-to-L2 matrix (topology/l2_latency_matrix.cu)
// and latency.mem.l2_near / l2_far (the median over every SM of that matrix) and
// latency.mem.l2_miss.* build on.
//
// Hopper (like A100) splits L2 into two partitions joined by a crossbar; an
// SM reaches lines homed in its own partition faster than lines homed in the
// other (about 1.6-1.9x; perf-anchors: L2 near/far). Which partition homes a
// line is a hash of its physical address that NVIDIA does not document.
//
// A partition also keeps copies of far lines its SMs read (perf-anchors: L2
// bandwidth drops above ~25 MB because lines can no longer be duplicated in
// both halves). So once SM 0 has read a line, SM 0 hits it near: the first H100
// runs, which warmed the lines from SM 0, saw only near sub-levels (259 / 283
// cycles). Far latency exists only on SM 0's first touch of a line that another
// partition's SM brought into L2. Hence, per experiment:
//   1. flush L2 (stream twice its size through every SM);
//   2. one block pinned to a warming SM w reads the footprint (4096 random
//      128-byte lines of L2/8: inside L2, far beyond L1): each line is now in
//      its home partition, and copied into w's;
//   3. one thread pinned to SM 0 chases the lines once, each hop timed
//      (clock64 around each ld.global.cg): first touches only.
// If w shares SM 0's partition its copies make every line near; if not, the
// lines homed across show the far latency. The probe tries warming SMs spread
// over the GPU and keeps the one whose split is widest and clearly two
// partitions (far centre >= 1.3x near, chase_plan.hpp); it fails, with every
// trial's centres, when none is. Three experiments with that SM give each
// line's median latency and its class; l2part::chase_class chases one class
// alone the same way (flush, warm from w, one timed first lap from a given SM,
// cycles per hop).
#include <fmt/format.h>

#include <algorithm>

#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/chase_plan.hpp"
#include "latency/l2_partition.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/pointer_chase.cuh"

namespace gpuconform::kernels {
namespace {

using chase_dev::ChaseArgs;
using chase_dev::ChaseBuffer;
using chase_dev::L2Flusher;
using chase_dev::Level;
using chase_dev::run_chase;

constexpr unsigned long long kLine = 128;
constexpr std::size_t kLines = 4096;  // = kMaxTrace: one traced lap
using l2part::kProbingSm;
constexpr int kWarmerCandidates = 16;
constexpr std::uint64_t kSeed = 0x4c32706172746eull;

using l2part::Partition;
using l2part::Setup;

// Steps 1 and 2: an empty L2, then the footprint read by SM `warmer` alone.
void flush_and_warm(const Setup& s, int warmer, unsigned long long any_node) {
  s.flusher.flush();
  ChaseArgs w;
  w.start = any_node;
  w.warm_base = s.buf.base();
  w.warm_bytes = s.footprint;
  w.timed_hops = 1;  // the warming block reads the footprint; its one hop is not used
  w.target_sm = warmer;
  run_chase<Level::l2>(w, s.ctx.device.sm_count);
}

// Step 3: the probing SM's first lap over a cycle of `hops` lines starting at `start`.
chase_dev::ChaseResult first_touch_lap(const Setup& s, unsigned long long start, int hops, bool trace,
                                       int probing_sm = kProbingSm) {
  ChaseArgs a;
  a.start = start;
  a.timed_hops = hops;
  a.target_sm = probing_sm;
  return run_chase<Level::l2>(a, s.ctx.device.sm_count, trace);
}

std::vector<int> warmer_candidates(int sm_count) {
  std::vector<int> out;
  for (int i = 1; i <= kWarmerCandidates; ++i) {
    const int sm = static_cast<int>(static_cast<long long>(i) * sm_count / (kWarmerCandidates + 1));
    if (sm != kProbingSm && sm < sm_count && (out.empty() || out.back() != sm)) out.push_back(sm);
  }
  return out;
}

}  // namespace

Partition l2part::classify(const Setup& s) {
  const auto lines = chase::distinct_sample(s.footprint / kLine, kLines, kSeed);
  std::vector<unsigned long long> offsets(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) offsets[i] = lines[i] * kLine;
  const auto next = chase::single_cycle(offsets.size(), kSeed + 1);
  const auto order = chase::visit_order(next, 0);
  const unsigned long long start = s.buf.place(offsets, next, 0);
  const int hops = static_cast<int>(offsets.size());
  auto lap = [&](int warmer) {
    flush_and_warm(s, warmer, start);
    std::vector<double> latency(offsets.size());
    const auto res = first_touch_lap(s, start, hops, true);
    for (std::size_t i = 0; i < res.trace.size(); ++i) latency[order[i]] = res.trace[i];
    return latency;
  };

  // Which warming SM sits across the partition boundary from SM 0?
  Partition p;
  std::vector<chase::PartitionTrial> trials;
  for (int w : warmer_candidates(s.ctx.device.sm_count)) {
    trials.push_back({w, chase::two_means(lap(w))});
    const auto& t = trials.back().split;
    p.trials += fmt::format("{}SM {}: {:.0f}/{:.0f} cycles, {}/{} lines, sep {:.1f}", p.trials.empty() ? "" : "; ",
                            w, t.low, t.high, t.low_count, t.high_count, t.separation);
  }
  const auto best = chase::best_partition_trial(trials);
  if (!best)
    throw std::runtime_error(fmt::format(
        "no warming SM showed two L2 partitions to SM {} (first-touch latencies; needs far >= 1.3x near, "
        ">= 4 pooled deviations apart, >= 10% of lines each): {}",
        kProbingSm, p.trials));
  p.warmer = trials[*best].warmer;

  // Each line's class: median of three experiments with that warming SM.
  std::vector<std::vector<double>> per_line(offsets.size());
  for (int r = 0; r < 3; ++r) {
    const auto latency = lap(p.warmer);
    for (std::size_t i = 0; i < latency.size(); ++i) per_line[i].push_back(latency[i]);
  }
  std::vector<double> latency(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) latency[i] = median(per_line[i]);
  p.split = chase::two_means(latency);
  if (!chase::shows_partitions(p.split))
    throw std::runtime_error(fmt::format(
        "warming from SM {} split the L2 lines in one trial but not in three: centres {:.1f} / {:.1f} cycles, "
        "{} / {} lines, separation {:.2f}; trials: {}",
        p.warmer, p.split.low, p.split.high, p.split.low_count, p.split.high_count, p.split.separation, p.trials));
  for (std::size_t i = 0; i < offsets.size(); ++i)
    (latency[i] <= p.split.threshold ? p.near : p.far).push_back(offsets[i]);
  return p;
}

// One class alone: flush, warm from the partition's warming SM, one timed first lap.
double l2part::chase_class(const Setup& s, int warmer, const std::vector<unsigned long long>& lines, std::uint64_t seed,
                           int probing_sm) {
  const unsigned long long start = s.buf.place(lines, chase::single_cycle(lines.size(), seed));
  flush_and_warm(s, warmer, start);
  return first_touch_lap(s, start, static_cast<int>(lines.size()), false, probing_sm).cycles_per_hop;
}

unsigned long long l2part::footprint_bytes(const DeviceInfo& dev) {
  return static_cast<unsigned long long>(dev.l2_bytes) / 8 / kLine * kLine;
}

namespace {

// The share of the sampled lines homed in the other partition: about one half when the
// hash spreads lines evenly over two partitions.
Measurement measure_far_fraction(const ProbeContext& ctx) {
  const unsigned long long footprint = l2part::footprint_bytes(ctx.device);
  ChaseBuffer buf(footprint);
  L2Flusher flusher(ctx.device.l2_bytes, ctx.device.sm_count);
  const Setup s{ctx, buf, flusher, footprint};
  const Partition p = l2part::classify(s);
  Measurement m;
  m.samples.push_back(static_cast<double>(p.far.size()) / static_cast<double>(p.near.size() + p.far.size()));
  m.unit = "ratio";
  m.value = median(m.samples);
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", fmt::format("{} random lines of {} MiB; L2 flushed, lines read by SM {} alone, then SM {}'s "
                               "first touch of each (ld.global.cg); lines split by two-means",
                               kLines, footprint >> 20, p.warmer, kProbingSm));
  m.note("split", fmt::format("near {} lines around {:.1f} cycles, far {} lines around {:.1f} cycles (traced, "
                              "including the clock reads), threshold {:.1f}, separation {:.1f}",
                              p.near.size(), p.split.low, p.far.size(), p.split.high, p.split.threshold,
                              p.split.separation));
  m.note("warming_trials", p.trials);
  return m;
}

}  // namespace

const bool kL2PartitionRegistered = register_probes({
    {"latency.mem.l2_far_fraction",
     Family::latency,
     "share of random lines homed in the L2 partition far from SM 0",
     {80},
     {ExpectationKind::band, 0.05, 0},
     &measure_far_fraction},
});

}  // namespace gpuconform::kernels
