// SPDX-License-Identifier: Apache-2.0
// Host side of the latencies measured in every placement at once
// (kernels/common/placement.hpp): the median over SMs or clusters, missing SMs,
// the spread note and the starting nodes spread over one cycle.
#include "common/placement.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <stdexcept>
#include <string>

#include "gpuconform/per_sm.hpp"
#include "latency/chase_plan.hpp"

namespace gpuconform::kernels::placement {
namespace {

// A launch over `sms` SMs where SM s reads base + s % 7, leaving out `skip`.
Launch sm_launch(int sms, double base, const std::set<int>& skip = {}) {
  Launch l;
  l.expected = sms;
  for (int s = 0; s < sms; ++s)
    if (!skip.count(s)) l.readings.push_back({s, s, base + s % 7, "SM " + std::to_string(s)});
  return l;
}

TEST(Placement, ValueIsTheMedianOverSmsOfEachLaunchThenOverLaunches) {
  // 14 SMs: 2 x {0..6} above the base, median base + 3 in every launch.
  const Summary s = summarize({sm_launch(14, 100), sm_launch(14, 110), sm_launch(14, 90)}, "SM");
  EXPECT_EQ(s.samples, (std::vector<double>{103, 113, 93}));
  EXPECT_DOUBLE_EQ(s.value, 103);
  ASSERT_EQ(s.places.size(), 14u);
  EXPECT_DOUBLE_EQ(s.places[6].median, 106);  // SM 6 over the three launches
  EXPECT_EQ(s.places[6].launches, 3);
  EXPECT_DOUBLE_EQ(s.min, 100);
  EXPECT_DOUBLE_EQ(s.max, 106);
  EXPECT_EQ(s.places[s.slowest].place, 6);  // the first SM at the maximum
  EXPECT_EQ(s.places[s.fastest].place, 0);
  EXPECT_TRUE(s.missing.empty());
  EXPECT_EQ(s.fewest_measured, 14);
}

TEST(Placement, OneSlowSmDoesNotMoveTheMedian) {
  Launch l = sm_launch(132, 280);
  const double before = summarize({l}, "SM").value;
  l.readings[37].value = 400;  // one SM far off
  const Summary s = summarize({l}, "SM");
  EXPECT_DOUBLE_EQ(s.value, before);
  EXPECT_EQ(s.places[s.slowest].where, "SM 37");
  EXPECT_DOUBLE_EQ(s.max, 400);
}

// Clusters that come in two groups by where they sit (about 189 and 208 cycles on an
// H100 or H200, in shares the GPC layout sets): one cluster more in the fast group moves
// the median from one group to the other, the mean by a fifteenth of the gap.
TEST(Placement, TheMeanOverGroupedClustersDoesNotJumpWithTheLayout) {
  auto layout = [](int fast) {
    Launch l;
    l.expected = 15;
    for (int c = 0; c < 15; ++c)
      l.readings.push_back({c, 8 * c, c < fast ? 189.0 : 208.0, "cluster " + std::to_string(c)});
    return summarize({l}, "cluster");
  };
  const Summary seven = layout(7), eight = layout(8);
  EXPECT_DOUBLE_EQ(seven.value, 208);
  EXPECT_DOUBLE_EQ(eight.value, 189);
  EXPECT_NEAR(seven.mean_value - eight.mean_value, 19.0 / 15, 1e-9);
  const Measurement m = to_measurement(seven, "method", "cycles", Over::mean);
  EXPECT_DOUBLE_EQ(m.value, seven.mean_value);
  EXPECT_EQ(m.samples, seven.mean_samples);
  EXPECT_DOUBLE_EQ(to_measurement(seven, "method").value, 208) << "the median stays the default";
}

TEST(Placement, MissingSmsAreNamedAndTooManyAreAnError) {
  // 3 of 132 missing (97.7 %): measured, the missing SMs named with how often.
  const Summary s = summarize({sm_launch(132, 280, {5, 40}), sm_launch(132, 280, {40})}, "SM");
  EXPECT_EQ(s.missing, (std::vector<std::string>{"SM 5 (1 of 2 launches)", "SM 40 (2 of 2 launches)"}));
  EXPECT_EQ(s.fewest_measured, 130);
  EXPECT_EQ(s.places.size(), 131u);  // SM 5 measured in the other launch, SM 40 in none
  // 14 of 132 missing (89.4 %): below the 90 % floor.
  std::set<int> many;
  for (int i = 0; i < 14; ++i) many.insert(3 * i);
  try {
    summarize({sm_launch(132, 280), sm_launch(132, 280, many)}, "SM");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("launch 1 measured 118 of 132 SMs"), std::string::npos) << what;
    EXPECT_NE(what.find("missing SM 0, 3, 6"), std::string::npos) << what;
  }
  // 13 missing (90.2 %) still measures; a lower floor accepts more.
  many.erase(39);
  EXPECT_NO_THROW(summarize({sm_launch(132, 280, many)}, "SM"));
  EXPECT_NO_THROW(summarize({sm_launch(10, 280, {1, 2, 3, 4, 5})}, "SM", 0.5));
}

TEST(Placement, BadReadingsAndNoLaunchAreErrors) {
  EXPECT_THROW(summarize({}, "SM"), std::runtime_error);
  Launch l = sm_launch(4, 280);
  l.readings[2].value = -1;
  EXPECT_THROW(summarize({l}, "SM"), std::runtime_error);
  l.readings[2].value = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(summarize({l}, "SM"), std::runtime_error);
  EXPECT_THROW(summarize({Launch{}}, "SM"), std::runtime_error);  // expects nothing
}

TEST(Placement, ClustersArePooledByTheirRankZeroSm) {
  // Two launches of 3 clusters; the cluster on SM 4 moves to index 0 in the second.
  Launch a, b;
  a.expected = b.expected = 3;
  a.readings = {
      {0, 0, 190, "cluster on SMs 0,1"}, {1, 2, 189, "cluster on SMs 2,3"}, {2, 4, 179, "cluster on SMs 4,5"}};
  b.readings = {
      {0, 4, 181, "cluster on SMs 4,5"}, {1, 0, 190, "cluster on SMs 0,1"}, {2, 2, 189, "cluster on SMs 2,3"}};
  const Summary s = summarize({a, b}, "cluster");
  EXPECT_EQ(s.samples, (std::vector<double>{189, 189}));
  ASSERT_EQ(s.places.size(), 3u);
  EXPECT_DOUBLE_EQ(s.places[2].median, 180);
  EXPECT_EQ(s.places[s.fastest].where, "cluster on SMs 4,5");
  EXPECT_EQ(s.places[s.slowest].where, "cluster on SMs 0,1");
  EXPECT_EQ(note_key(s), "per_cluster");
}

TEST(Placement, SpreadNoteNamesMinMedianMaxAndTheSlowest) {
  Launch l = sm_launch(132, 280);
  l.readings[97].value = 290;
  l.outside = 0;
  const Summary s = summarize({l, l}, "SM");
  EXPECT_EQ(note_key(s), "per_sm");
  EXPECT_EQ(spread_note(s, "cycles"),
            "median 283 cycles over 132 SMs (min 280 on SM 0, max 290 on SM 97); slowest SM 97 at 1.0247 of the "
            "median; 2 launches, each measured at least 132 of 132 SMs; missing: none");
  const Summary gaps = summarize({sm_launch(132, 280, {7})}, "SM");
  const std::string note = spread_note(gaps, "cycles");
  EXPECT_NE(note.find("131 SMs"), std::string::npos) << note;
  EXPECT_NE(note.find("at least 131 of 132 SMs; missing: SM 7 (1 of 1 launches)"), std::string::npos) << note;
  Launch odd = sm_launch(132, 280);
  odd.outside = 2;
  EXPECT_NE(spread_note(summarize({odd}, "SM"), "cycles").find("2 blocks reported an SM id outside 0..131"),
            std::string::npos);
}

TEST(Placement, MeasurementCarriesValueSamplesNotesAndASeriesTheUniformityJudgeIgnores) {
  const Summary s = summarize({sm_launch(14, 100), sm_launch(14, 110), sm_launch(14, 90)}, "SM");
  const Measurement m = to_measurement(s, "the method");
  EXPECT_DOUBLE_EQ(m.value, 103);
  EXPECT_EQ(m.samples, s.samples);
  EXPECT_EQ(m.unit, "cycles");
  ASSERT_NE(m.find_note("method"), nullptr);
  EXPECT_EQ(*m.find_note("method"), "the method");
  ASSERT_NE(m.find_note("per_sm"), nullptr);
  EXPECT_EQ(*m.find_note("per_sm"), spread_note(s, "cycles"));
  ASSERT_EQ(m.series.size(), 1u);
  EXPECT_EQ(m.series[0].name, "latency_per_sm");
  EXPECT_EQ(m.series[0].x.size(), 14u);
  EXPECT_DOUBLE_EQ(m.series[0].y[6], 106);
  // Cycles, not ratios to the median: the per-SM uniformity verdict must not read them.
  EXPECT_EQ(find_per_sm_series(m), nullptr);
}

TEST(Placement, MeasurementInNanosecondsSaysSoInItsUnitNoteAndSeries) {
  // The peer-memory chase (p2p.latency.read) reads %globaltimer per hop, not cycles.
  const Summary s = summarize({sm_launch(14, 820), sm_launch(14, 830)}, "SM");
  const Measurement m = to_measurement(s, "the method", "ns");
  EXPECT_EQ(m.unit, "ns");
  ASSERT_NE(m.find_note("per_sm"), nullptr);
  EXPECT_NE(m.find_note("per_sm")->find(" ns over 14 SMs"), std::string::npos) << *m.find_note("per_sm");
  ASSERT_EQ(m.series.size(), 1u);
  EXPECT_EQ(m.series[0].y_unit, "ns");
}

TEST(Placement, AloneNoteSetsTheSinglePlacementBesideItsReadingAmongAll) {
  const Summary s = summarize({sm_launch(14, 100)}, "SM");
  EXPECT_EQ(alone_note(s, 0, 98.5),
            "SM 0 chasing alone (the single-block method): 98.50 cycles per hop; SM 0 among every SM 100.00; median "
            "over SMs 103.00");
  const Summary gap = summarize({sm_launch(14, 100, {0})}, "SM", 0.5);
  EXPECT_NE(alone_note(gap, 0, 98.5).find("SM 0 did not measure among every SM"), std::string::npos);
}

TEST(Placement, DisjointCyclesKeepEveryChaserOnItsOwnNodes) {
  const auto next = disjoint_cycles(3, 4);
  EXPECT_EQ(next, (std::vector<std::uint32_t>{1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8}));
  for (std::uint32_t u = 0; u < 3; ++u) {
    const auto order = chase::visit_order(next, 4 * u);
    ASSERT_EQ(order.size(), 4u);
    for (std::uint32_t n : order) EXPECT_EQ(n / 4, u);
  }
  EXPECT_EQ(disjoint_cycles(1, 1), (std::vector<std::uint32_t>{0}));
  EXPECT_THROW(disjoint_cycles(0, 4), std::invalid_argument);
  EXPECT_THROW(disjoint_cycles(4, 0), std::invalid_argument);
}

TEST(Placement, StartsAreSpreadEvenlyOverTheCycle) {
  const auto next = chase::single_cycle(4096, 42);
  const auto order = chase::visit_order(next, 0);
  const auto starts = spread_starts(next, 0, 132);
  ASSERT_EQ(starts.size(), 132u);
  EXPECT_EQ(starts[0], 0u);
  std::vector<std::size_t> position(next.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (std::size_t u = 1; u < starts.size(); ++u) {
    const std::size_t gap = position[starts[u]] - position[starts[u - 1]];
    EXPECT_TRUE(gap == 31 || gap == 32) << u << ": " << gap;  // 4096 / 132 = 31.03
  }
  EXPECT_EQ(std::set<std::uint32_t>(starts.begin(), starts.end()).size(), 132u);
  // More chasers than nodes: several share a start; none is outside the cycle.
  for (std::uint32_t s : spread_starts(chase::single_cycle(5, 1), 0, 8)) EXPECT_LT(s, 5u);
  EXPECT_THROW(spread_starts(next, 0, 0), std::invalid_argument);
  EXPECT_THROW(spread_starts({1, 0, 3, 2}, 0, 2), std::invalid_argument);  // two cycles
}

}  // namespace
}  // namespace gpuconform::kernels::placement
