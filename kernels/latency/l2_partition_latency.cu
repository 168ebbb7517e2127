// L2 hit latency in the near and in the far partition.
//
// Hopper (like A100) splits L2 into two partitions joined by a crossbar; an
// SM reaches lines homed in its own partition faster than lines homed in the
// other (about 1.6-1.9x; perf-anchors: L2 near/far). Which partition homes a
// line is a hash of its physical address that NVIDIA does not document, so
// the probe finds out:
//   1. 4096 random 128-byte lines of a footprint of L2/8 (far inside L2,
//      far beyond L1) are chained in a random cycle; the chasing block is
//      pinned to SM 0 and first reads the footprint (L2-resident), then
//      walks the cycle once untimed;
//   2. the next lap times every hop (clock64 around each ld.global.cg) and
//      three launches give each line its median latency;
//   3. a two-means split of those latencies labels each line near or far from
//      SM 0; the split must be clean (separation >= 4 pooled deviations, each
//      side >= 10% of the lines) or the probe fails and says so;
//   4. the near lines and the far lines are chained separately and chased
//      like every other latency (mean cycles per hop, median of launches).
// latency.mem.l2_far_fraction reports the share of lines found far from SM 0
// (about one half when the hash spreads lines evenly over two partitions).
#include <fmt/format.h>

#include <algorithm>

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
using chase_dev::run_chase;

constexpr unsigned long long kLine = 128;
constexpr std::size_t kLines = 4096;
constexpr int kPinnedSm = 0;
constexpr std::uint64_t kSeed = 0x4c32706172746eull;

struct Partition {
  std::vector<unsigned long long> near, far;  // line offsets
  chase::TwoMeans split;
};

Partition classify(const ProbeContext& ctx, ChaseBuffer& buf, unsigned long long footprint) {
  const auto lines = chase::distinct_sample(footprint / kLine, kLines, kSeed);
  std::vector<unsigned long long> offsets(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) offsets[i] = lines[i] * kLine;
  const auto next = chase::single_cycle(offsets.size(), kSeed + 1);
  const auto order = chase::visit_order(next, 0);
  const unsigned long long start = buf.place(offsets, next, 0);
  // 2. per-line latency, median of three traced laps
  std::vector<std::vector<double>> per_line(offsets.size());
  for (int r = 0; r < 3; ++r) {
    ChaseArgs a;
    a.start = start;
    a.warm_base = buf.base();
    a.warm_bytes = footprint;
    a.warm_hops = static_cast<int>(kLines);
    a.timed_hops = static_cast<int>(kLines);
    a.target_sm = kPinnedSm;
    const auto res = run_chase<Level::l2>(a, ctx.device.sm_count, true);
    for (std::size_t i = 0; i < res.trace.size(); ++i) per_line[order[i]].push_back(res.trace[i]);
  }
  std::vector<double> latency(offsets.size());
  for (std::size_t i = 0; i < offsets.size(); ++i) latency[i] = median(per_line[i]);
  // 3. split
  Partition p;
  p.split = chase::two_means(latency);
  const double n = static_cast<double>(latency.size());
  if (p.split.separation < 4 || p.split.low_count < 0.1 * n || p.split.high_count < 0.1 * n)
    throw std::runtime_error(fmt::format(
        "per-line L2 latencies from SM {} do not split into two partitions: centres {:.1f} / {:.1f} cycles, "
        "{} / {} lines, separation {:.2f} pooled deviations (needs >= 4 and >= 10% of lines each)",
        kPinnedSm, p.split.low, p.split.high, p.split.low_count, p.split.high_count, p.split.separation));
  for (std::size_t i = 0; i < offsets.size(); ++i)
    (latency[i] <= p.split.threshold ? p.near : p.far).push_back(offsets[i]);
  return p;
}

double chase_lines(const ProbeContext& ctx, ChaseBuffer& buf, const std::vector<unsigned long long>& lines,
                   unsigned long long footprint, std::uint64_t seed) {
  const unsigned long long start = buf.place(lines, chase::single_cycle(lines.size(), seed));
  ChaseArgs a;
  a.start = start;
  a.warm_base = buf.base();
  a.warm_bytes = footprint;
  a.warm_hops = static_cast<int>(lines.size());
  a.timed_hops = 2048;
  a.target_sm = kPinnedSm;
  return run_chase<Level::l2>(a, ctx.device.sm_count).cycles_per_hop;
}

enum class Which { near, far, far_fraction };

template <Which W>
Measurement measure_partition(const ProbeContext& ctx) {
  const unsigned long long footprint = static_cast<unsigned long long>(ctx.device.l2_bytes) / 8 / kLine * kLine;
  ChaseBuffer buf(footprint);
  const Partition p = classify(ctx, buf, footprint);
  Measurement m;
  if constexpr (W == Which::far_fraction) {
    m.samples.push_back(static_cast<double>(p.far.size()) / static_cast<double>(p.near.size() + p.far.size()));
    m.unit = "ratio";
  } else {
    const auto& lines = W == Which::near ? p.near : p.far;
    for (int r = 0; r < (ctx.quick ? 3 : 7); ++r) m.samples.push_back(chase_lines(ctx, buf, lines, footprint, kSeed + 7 + r));
    m.unit = "cycles";
  }
  m.value = median(m.samples);
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", fmt::format("{} random L2-resident lines of {} MiB traced from SM {}, split by two-means, "
                               "then each side chased on its own (ld.global.cg)",
                               kLines, footprint >> 20, kPinnedSm));
  m.note("split", fmt::format("near {} lines around {:.1f} cycles, far {} lines around {:.1f} cycles (traced, "
                              "including the clock reads), threshold {:.1f}, separation {:.1f}",
                              p.near.size(), p.split.low, p.far.size(), p.split.high, p.split.threshold,
                              p.split.separation));
  return m;
}

}  // namespace

const bool kL2PartitionRegistered = register_probes({
    {"latency.mem.l2_near", Family::latency, "L2 hit in the partition near SM 0 (lines classified by latency)", {80},
     {ExpectationKind::band, 0, 0.01}, &measure_partition<Which::near>},
    {"latency.mem.l2_far", Family::latency, "L2 hit in the partition far from SM 0 (lines classified by latency)",
     {80}, {ExpectationKind::band, 0, 0.01}, &measure_partition<Which::far>},
    {"latency.mem.l2_far_fraction", Family::latency, "share of random lines homed in the L2 partition far from SM 0",
     {80}, {ExpectationKind::band, 0.05, 0}, &measure_partition<Which::far_fraction>},
});

}  // namespace gpuconform::kernels
