// SPDX-License-Identifier: Apache-2.0
// The SM-to-L2 latency matrix (seed 003's SM <-> L2 heat map, on this suite's own
// near/far machinery): for every SM, the first-touch latency to lines homed in L2
// partition A (SM 0's) and to lines homed in partition B.
//
// latency.mem.l2_near / l2_far (l2_partition_latency.cu) split random lines by their
// first-touch latency from SM 0 and find a warming SM w across the partition
// boundary. A partition keeps copies of far lines its SMs read, so a line homed in A
// sits only in A after SM 0 (in A) alone read the footprint, and a line homed in B
// sits only in B after w alone read it. Per SM s, therefore:
//   to A: flush L2, SM 0 reads the footprint, s chases 256 of the A-homed lines once;
//   to B: flush L2, w reads the footprint, s chases 256 of the B-homed lines once.
// Each SM must see two latency classes (far >= 1.3 x near), its near value is its own
// partition's, and every GPC (gpc_layout.cu) must lie in one partition. The matrix is
// measured once per device and process and shared by topology.l2.*,
// topology.uniformity.l2_latency and latency.mem.l2_near / l2_far.
//
// latency.mem.l2_near and l2_far are the median over every SM of its near and far
// latency. Timed from SM 0 alone they read the latency of wherever logical SM 0 sits,
// a different physical spot on every board: 275-286 cycles near on 28 healthy H100s
// (sigma 1.7 %), where the median over SMs of the same boards' matrices read 277.0-280.4
// (0.36 %; H200s 276.6-278.8). The placement-free form, as latency.mem.l2_hit's
// (common/placement.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "common/placement.hpp"
#include "gpuconform/per_sm.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/l2_partition.hpp"
#include "topology/gpc_layout.hpp"

namespace gpuconform::kernels {
namespace {

constexpr std::size_t kLinesPerClass = 256;
constexpr double kMinFarRatio = 1.3;  // chase_plan.hpp shows_partitions: partitions, not sub-levels
constexpr std::uint64_t kSeed = 0x4c326d6174726978ull;

struct L2Matrix {
  std::vector<int> sms;
  std::vector<double> to_a, to_b;  // cycles per hop
  topology::L2Split split;
  int warmer = -1;
  bool gpc_checked = false;
  std::string method;
};

std::vector<unsigned long long> subset(const std::vector<unsigned long long>& lines, std::uint64_t seed) {
  if (lines.size() <= kLinesPerClass) return lines;
  const auto pick = chase::distinct_sample(lines.size(), kLinesPerClass, seed);
  std::vector<unsigned long long> out;
  for (auto i : pick) out.push_back(lines[i]);
  return out;
}

L2Matrix measure_matrix(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const unsigned long long footprint = l2part::footprint_bytes(dev);
  chase_dev::ChaseBuffer buf(footprint);
  chase_dev::L2Flusher flusher(dev.l2_bytes, dev.sm_count);
  const l2part::Setup s{ctx, buf, flusher, footprint};
  const l2part::Partition p = l2part::classify(s);
  const auto a_lines = subset(p.near, kSeed), b_lines = subset(p.far, kSeed + 1);
  L2Matrix m;
  m.warmer = p.warmer;
  for (int sm = 0; sm < dev.sm_count; ++sm) {
    m.sms.push_back(sm);
    m.to_a.push_back(l2part::chase_class(s, l2part::kProbingSm, a_lines, kSeed + 2, sm));
    m.to_b.push_back(l2part::chase_class(s, p.warmer, b_lines, kSeed + 3, sm));
  }
  std::vector<int> gpc_of_sm;
  if (dev.cc() >= 90) {
    gpc_of_sm = board_layout(ctx, "topology.l2 matrix").first.gpc_of_sm;
    m.gpc_checked = true;
  }
  m.split = topology::analyze_l2_matrix(m.sms, m.to_a, m.to_b, kMinFarRatio, gpc_of_sm);
  m.method = fmt::format(
      "per SM: L2 flushed, the footprint ({} MiB) read by SM {} (partition A) or SM {} "
      "(partition B) alone, then the SM's first lap over {} / {} lines homed in that partition "
      "(ld.global.cg, cycles per hop); lines classified from SM {} (l2part::classify)",
      footprint >> 20, l2part::kProbingSm, p.warmer, a_lines.size(), b_lines.size(), l2part::kProbingSm);
  return m;
}

// Measured once per device for the probes of one run; a probe that asks again (the next
// run of `record --runs N`, in the same process) gets a fresh matrix.
const L2Matrix& l2_matrix(const ProbeContext& ctx, const std::string& consumer) {
  struct Cached {
    L2Matrix matrix;
    std::set<std::string> consumers;
  };
  static std::mutex mutex;
  static std::map<int, Cached> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = cache.find(ctx.device.index);
  if (it == cache.end() || it->second.consumers.count(consumer))
    it = cache.insert_or_assign(ctx.device.index, Cached{measure_matrix(ctx), {}}).first;
  it->second.consumers.insert(consumer);
  return it->second.matrix;
}

Measurement matrix_measurement(const L2Matrix& l2, double value, const std::string& unit) {
  Measurement m;
  m.value = value;
  m.unit = unit;
  m.samples.push_back(value);
  Matrix mat{"sm_to_l2_partition", "SM", "SM id", "L2 partition", "0: A (SM 0's), 1: B",
             "first-touch latency", "cycles", {}, {0, 1}, {}};
  for (std::size_t r = 0; r < l2.sms.size(); ++r) {
    mat.rows.push_back(l2.sms[r]);
    mat.values.push_back(l2.to_a[r]);
    mat.values.push_back(l2.to_b[r]);
  }
  m.matrices.push_back(std::move(mat));
  Series part{"partition_of_sm", "SM", "SM id", "near partition", "0: A (SM 0's), 1: B", {}, {}};
  std::vector<int> in_a;
  for (std::size_t r = 0; r < l2.sms.size(); ++r) {
    part.x.push_back(l2.sms[r]);
    part.y.push_back(l2.split.partition[r]);
    if (l2.split.partition[r] == 0) in_a.push_back(l2.sms[r]);
  }
  m.series.push_back(std::move(part));
  m.note("split", fmt::format("{} SMs near partition A: {}; {} near B; near {:.1f}-{:.1f} cycles, far {:.1f}-{:.1f}",
                              in_a.size(), topology::id_ranges(in_a), l2.sms.size() - in_a.size(),
                              *std::min_element(l2.split.near.begin(), l2.split.near.end()),
                              *std::max_element(l2.split.near.begin(), l2.split.near.end()),
                              *std::min_element(l2.split.far.begin(), l2.split.far.end()),
                              *std::max_element(l2.split.far.begin(), l2.split.far.end())));
  m.note("gpc_check", l2.gpc_checked ? "every GPC must lie in one partition" : "no GPC map below sm_90: not checked");
  m.note("method", l2.method);
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

Measurement measure_latency_matrix(const ProbeContext& ctx) {
  const L2Matrix& l2 = l2_matrix(ctx, "topology.l2.latency_matrix");
  Measurement m = matrix_measurement(l2, static_cast<double>(l2.split.violations.size()), "violations");
  if (!l2.split.violations.empty()) m.note("violations", topology::join_violations(l2.split.violations));
  return m;
}

enum class Extreme { near_min, near_max, far_min, far_max };

template <Extreme E>
Measurement measure_extreme(const ProbeContext& ctx) {
  const L2Matrix& l2 = l2_matrix(ctx, fmt::format("topology.l2.extreme.{}", static_cast<int>(E)));
  const auto& v = E == Extreme::near_min || E == Extreme::near_max ? l2.split.near : l2.split.far;
  const bool lowest = E == Extreme::near_min || E == Extreme::far_min;
  const auto it = lowest ? std::min_element(v.begin(), v.end()) : std::max_element(v.begin(), v.end());
  Measurement m = matrix_measurement(l2, *it, "cycles");
  m.note("sm", fmt::format("SM {}", l2.sms[static_cast<std::size_t>(it - v.begin())]));
  return m;
}

// Each SM's latency to its own partition as a per-SM series (per_sm.hpp), summarized by
// `summarize` (per_sm_measurement or tpc_pair_measurement), the matrix's method noted.
Measurement near_latency_per_sm(const ProbeContext& ctx, const std::string& consumer,
                                Measurement (*summarize)(Series)) {
  const L2Matrix& l2 = l2_matrix(ctx, consumer);
  Series s{kPerSmSeries, "SM", "SM id", "near-L2 latency", "cycles", {}, {}};
  for (std::size_t r = 0; r < l2.sms.size(); ++r) {
    s.x.push_back(l2.sms[r]);
    s.y.push_back(l2.split.near[r]);
  }
  Measurement m = summarize(std::move(s));
  m.note("method", l2.method);
  return m;
}

// Each SM's latency to its own partition, against the board's median.
Measurement measure_l2_uniformity(const ProbeContext& ctx) {
  return near_latency_per_sm(ctx, "topology.uniformity.l2_latency", &per_sm_measurement);
}

// Each SM's latency to its own partition over its TPC partner's (per_sm.hpp): the two share
// a position, so a healthy pair reads within 0.5 % whatever the layout, where the board's
// median leaves 8 % to position.
Measurement measure_l2_tpc_pairs(const ProbeContext& ctx) {
  return near_latency_per_sm(ctx, "topology.uniformity.l2_latency.tpc_pair",
                             [](Series s) { return tpc_pair_measurement(std::move(s)); });
}

// The median over every SM of its near (or far) partition latency, with the per-SM spread
// and SM 0's own reading (what the single-SM method timed) in the notes.
template <bool Near>
Measurement measure_partition_median(const ProbeContext& ctx) {
  const L2Matrix& l2 = l2_matrix(ctx, Near ? "latency.mem.l2_near" : "latency.mem.l2_far");
  const auto& v = Near ? l2.split.near : l2.split.far;
  placement::Launch sweep;
  sweep.expected = static_cast<int>(l2.sms.size());
  for (std::size_t r = 0; r < l2.sms.size(); ++r)
    sweep.readings.push_back({l2.sms[r], l2.sms[r], v[r], fmt::format("SM {}", l2.sms[r])});
  const placement::Summary summary = placement::summarize({sweep}, "SM");
  Measurement m = placement::to_measurement(summary, l2.method);
  m.note("sm0", fmt::format("SM {} among every SM: {:.2f} cycles per hop (the single-SM method timed SM {} alone)",
                            l2.sms.front(), v.front(), l2.sms.front()));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

const Requirements kL2{80};

}  // namespace

const bool kRegistered = register_probes({
    Probe{"latency.mem.l2_near",
          Family::latency,
          "L2 hit in the SM's own partition (first touch), median over every SM",
          kL2,
          {ExpectationKind::band, 0, 0.01},
          &measure_partition_median<true>},
    Probe{"latency.mem.l2_far",
          Family::latency,
          "L2 hit in the other partition (first touch), median over every SM",
          kL2,
          {ExpectationKind::band, 0, 0.01},
          &measure_partition_median<false>},
    Probe{"topology.l2.latency_matrix", Family::topology,
          "violations: every SM sees a near and a far L2 partition (first touch), each GPC lies in one", kL2, kMaxHint,
          &measure_latency_matrix},
    Probe{"topology.l2.near.min",
          Family::topology,
          "fastest SM's first-touch latency to its near L2 partition",
          kL2,
          {ExpectationKind::band, 0, 0.01},
          &measure_extreme<Extreme::near_min>},
    Probe{"topology.l2.near.max",
          Family::topology,
          "slowest SM's first-touch latency to its near L2 partition",
          kL2,
          {ExpectationKind::band, 0, 0.01},
          &measure_extreme<Extreme::near_max>},
    Probe{"topology.l2.far.min",
          Family::topology,
          "fastest SM's first-touch latency to its far L2 partition",
          kL2,
          {ExpectationKind::band, 0, 0.01},
          &measure_extreme<Extreme::far_min>},
    Probe{"topology.l2.far.max",
          Family::topology,
          "slowest SM's first-touch latency to its far L2 partition",
          kL2,
          {ExpectationKind::band, 0, 0.01},
          &measure_extreme<Extreme::far_max>},
    Probe{"topology.uniformity.l2_latency",
          Family::topology,
          "each SM's first-touch latency to its near L2 partition, against the board's median",
          kL2,
          {ExpectationKind::band, 0, 0},
          &measure_l2_uniformity},
    Probe{
        "topology.uniformity.l2_latency.tpc_pair", Family::topology,
        "each SM's first-touch latency to its near L2 partition over its TPC partner's (SMs 2k, 2k+1): the worst pair",
        kL2, kMaxHint, &measure_l2_tpc_pairs},
});

}  // namespace gpuconform::kernels
