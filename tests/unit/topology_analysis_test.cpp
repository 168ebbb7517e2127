// SPDX-License-Identifier: Apache-2.0
// The host-side analysis of the topology and parallel families (layout_analysis.hpp):
// GPC grouping from cluster placements, TPC pairing, layout invariants, the SM-to-L2
// split and contention-curve shapes, on synthetic placements.
#include "topology/layout_analysis.hpp"

#include <gtest/gtest.h>

namespace gpuconform::topology {
namespace {

// A 12-SM toy board: GPC X = SMs 0-5, GPC Y = SMs 6-9, and SMs 10-11 a TPC of its own.
// Clusters of 4 tile X as {0-3} then {2-5}: overlapping tilings connect it.
std::vector<std::vector<int>> toy_clusters() {
  return {{0, 1, 2, 3}, {2, 3, 4, 5}, {6, 7, 8, 9}, {10, 11}, {4, 5}, {8, 9}};
}

std::vector<std::vector<std::pair<int, int>>> toy_pairs() {
  std::vector<std::pair<int, int>> one = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}};
  std::vector<std::pair<int, int>> two = {{1, 0}, {3, 2}, {5, 4}, {7, 6}, {9, 8}, {11, 10}};
  return {one, two};
}

TEST(TopologyAnalysis, ClustersGroupSmsIntoGpcsLargestFirst) {
  const GpcMap m = group_by_cluster(12, toy_clusters());
  ASSERT_EQ(m.gpcs.size(), 3u);
  EXPECT_EQ(m.sizes(), (std::vector<int>{6, 4, 2}));
  EXPECT_EQ(m.gpc_of_sm[5], 0);
  EXPECT_EQ(m.gpc_of_sm[6], 1);
  EXPECT_EQ(m.gpc_of_sm[11], 2);
  EXPECT_EQ(m.describe(), "GPC 0 (6 SMs): 0-5; GPC 1 (4 SMs): 6-9; GPC 2 (2 SMs): 10-11");
  const GpcCount c = count_gpcs(m);
  EXPECT_EQ(c.multi_tpc, 2);
  EXPECT_EQ(c.singleton_tpcs, 1);
  EXPECT_THROW(group_by_cluster(12, {{0, 12}}), std::invalid_argument);
}

TEST(TopologyAnalysis, TpcPairsMustBeStable) {
  const TpcMap t = pair_tpcs(12, toy_pairs());
  EXPECT_EQ(t.pairs.size(), 6u);
  EXPECT_TRUE(t.inconsistent.empty());
  auto launches = toy_pairs();
  launches.push_back({{0, 2}});  // SM 0 now has two partners, and so has SM 2
  const TpcMap bad = pair_tpcs(12, launches);
  EXPECT_EQ(bad.pairs.size(), 4u);
  EXPECT_EQ(bad.inconsistent, (std::vector<int>{0, 1, 2, 3}));
}

TEST(TopologyAnalysis, HealthyLayoutHasNoViolations) {
  const GpcMap m = group_by_cluster(12, toy_clusters());
  EXPECT_TRUE(layout_violations(12, m, m, pair_tpcs(12, toy_pairs()), 4).empty());
}

TEST(TopologyAnalysis, LayoutViolationsSayWhatIsWrong) {
  auto clusters = toy_clusters();
  clusters.pop_back();
  clusters.pop_back();
  clusters.erase(clusters.begin() + 3);  // SMs 10 and 11 never in a cluster
  const GpcMap partial = group_by_cluster(12, clusters);
  const GpcMap full = group_by_cluster(12, toy_clusters());
  const auto v = layout_violations(12, partial, full, pair_tpcs(12, toy_pairs()), 8);
  ASSERT_GE(v.size(), 3u);
  EXPECT_NE(v[0].find("the GPCs hold 10 SMs, the device has 12 (never in a cluster: SM 10-11)"), std::string::npos) << v[0];
  EXPECT_NE(v[1].find("two independent mapping passes disagree"), std::string::npos) << v[1];
  EXPECT_NE(v[2].find("no GPC holds 8 SMs"), std::string::npos) << v[2];
  // A TPC that spans two GPCs.
  const GpcMap m = group_by_cluster(12, toy_clusters());
  const auto t = pair_tpcs(12, {{{5, 6}, {0, 1}, {2, 3}, {4, 7}, {8, 9}, {10, 11}}});
  const auto w = layout_violations(12, m, m, t, 4);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].find("TPC (SM 4, SM 7) spans GPC 0 and GPC 1"), std::string::npos) << w[0];
}

TEST(TopologyAnalysis, PlacementCountsBlocksPerSm) {
  EXPECT_TRUE(placement_violations({0, 1, 2, 3, 3, 2, 1, 0}, 4, 2).empty());
  const auto v = placement_violations({0, 0, 1, 2}, 4, 1);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], "SM 3 ran 0 blocks (expected 1)");
  EXPECT_EQ(v[1], "SM 0 ran 2 blocks (expected 1)");
  EXPECT_EQ(placement_violations({0, 1, 9}, 3, 1).back(), "1 blocks reported an SM id outside 0..2");
}

TEST(TopologyAnalysis, L2SplitFindsEachSmsPartition) {
  // SMs 0-5 near A (~270 cycles) and far from B (~460); SMs 6-11 the reverse.
  std::vector<int> sms;
  std::vector<double> a, b;
  for (int sm = 0; sm < 12; ++sm) {
    sms.push_back(sm);
    a.push_back(sm < 6 ? 270 + sm : 460 + sm);
    b.push_back(sm < 6 ? 455 + sm : 268 + sm);
  }
  const GpcMap m = group_by_cluster(12, {{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}});
  const L2Split s = analyze_l2_matrix(sms, a, b, 1.3, m.gpc_of_sm);
  EXPECT_TRUE(s.violations.empty()) << join_violations(s.violations);
  EXPECT_EQ(s.partition[0], 0);
  EXPECT_EQ(s.partition[11], 1);
  EXPECT_DOUBLE_EQ(s.near[11], 279);
  EXPECT_DOUBLE_EQ(s.far[0], 455);
  // A GPC across the boundary, and an SM with one latency class.
  const GpcMap crossing = group_by_cluster(12, {{0, 1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11}});
  b[3] = 280;
  const L2Split bad = analyze_l2_matrix(sms, a, b, 1.3, crossing.gpc_of_sm);
  ASSERT_EQ(bad.violations.size(), 2u) << join_violations(bad.violations);
  EXPECT_EQ(bad.violations[0], "SM 3 see no second latency class (far < 1.30 x near)");
  EXPECT_EQ(bad.violations[1], "GPC 0 has SMs near both L2 partitions");
}

TEST(TopologyAnalysis, ContentionCurveShape) {
  const std::vector<double> n = {1, 2, 4, 8, 16, 32};
  const auto good = check_contention_curve(n, {100, 110, 150, 300, 600, 1200}, {1, 1.8, 2.6, 2.7, 2.7, 2.6}, 0.1);
  EXPECT_TRUE(good.violations.empty()) << join_violations(good.violations);
  EXPECT_EQ(good.saturation, 2u);  // 2.6 >= 0.9 x 2.7
  const auto bad = check_contention_curve(n, {100, 110, 150, 120, 600, 1200}, {1, 1.8, 2.6, 2.7, 1.2, 1.0}, 0.1);
  ASSERT_EQ(bad.violations.size(), 3u) << join_violations(bad.violations);
  EXPECT_NE(bad.violations[0].find("latency fell from 150.0 at 4 SMs to 120.0 at 8 SMs"), std::string::npos);
  EXPECT_NE(bad.violations[1].find("throughput collapsed"), std::string::npos);
  EXPECT_EQ(join_violations({"a", "b"}), "2 violations: a; b");
  EXPECT_EQ(join_violations({}), "");
}

TEST(TopologyAnalysis, IdRanges) {
  EXPECT_EQ(id_ranges({5, 0, 1, 2, 7, 8}), "0-2,5,7-8");
  EXPECT_EQ(id_ranges({}), "");
}

}  // namespace
}  // namespace gpuconform::topology
