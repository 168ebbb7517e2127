// SPDX-License-Identifier: Apache-2.0
// Host-side planning of the memory-latency probes: the pointer-chase
// permutations must be single cycles over every slot, and the staircase
// analysis must find plateaus and capacity edges on synthetic curves of the
// shapes real caches produce.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "latency/chase_plan.hpp"

namespace gpuconform::chase {
namespace {

TEST(SingleCycle, VisitsEverySlotOnceBeforeReturning) {
  for (std::size_t n : {1u, 2u, 3u, 7u, 64u, 1000u, 4096u}) {
    for (std::uint64_t seed : {1ull, 42ull, 0x6770756366ull}) {
      const auto next = single_cycle(n, seed);
      ASSERT_EQ(next.size(), n);
      EXPECT_TRUE(is_single_cycle(next)) << "n=" << n << " seed=" << seed;
      const auto order = visit_order(next, 0);
      EXPECT_EQ(order.size(), n);
      EXPECT_EQ(std::set<std::uint32_t>(order.begin(), order.end()).size(), n);
    }
  }
}

TEST(SingleCycle, IsDeterministicPerSeedAndRandomAcrossSeeds) {
  EXPECT_EQ(single_cycle(512, 7), single_cycle(512, 7));
  EXPECT_NE(single_cycle(512, 7), single_cycle(512, 8));
  // Not the trivial stride: few slots are followed by their neighbour.
  const auto next = single_cycle(4096, 3);
  std::size_t sequential = 0;
  for (std::size_t i = 0; i < next.size(); ++i) sequential += next[i] == (i + 1) % next.size();
  EXPECT_LT(sequential, 16u);
  EXPECT_THROW(single_cycle(0, 1), std::invalid_argument);
}

TEST(SingleCycle, DetectsBrokenCycles) {
  EXPECT_FALSE(is_single_cycle({1, 0, 3, 2}));  // two cycles
  EXPECT_FALSE(is_single_cycle({1, 1}));         // not a permutation
  EXPECT_FALSE(is_single_cycle({}));
  EXPECT_TRUE(is_single_cycle({0}));
}

TEST(DistinctSample, IsDistinctSortedAndInRange) {
  for (auto [total, count] : {std::pair<std::uint64_t, std::size_t>{100, 90}, {1u << 30, 4096}, {5000, 5000}}) {
    const auto s = distinct_sample(total, count, 11);
    ASSERT_EQ(s.size(), count);
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
    EXPECT_EQ(std::set<std::uint64_t>(s.begin(), s.end()).size(), count);
    EXPECT_LT(s.back(), total);
  }
  EXPECT_THROW(distinct_sample(10, 11, 1), std::invalid_argument);
}

TEST(FootprintSweep, CoversTheRangeGeometrically) {
  const auto s = footprint_sweep(1 << 20, 64 << 20, 4, 1 << 20);
  EXPECT_EQ(s.front(), 1u << 20);
  EXPECT_EQ(s.back(), 64u << 20);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(std::adjacent_find(s.begin(), s.end()), s.end());
  for (std::uint64_t b : s) EXPECT_EQ(b % (1 << 20), 0u);
  EXPECT_EQ(s.size(), 19u);  // 6 octaves x 4 points; below 4 MiB the 1 MiB rounding merges some
}

// A cache of capacity c: hits cost `hit`, misses `miss`.
std::vector<StairPoint> lru_curve(double c, double hit, double miss) {
  std::vector<StairPoint> p;
  for (double f = c / 8; f <= c * 8; f *= std::pow(2.0, 0.25)) p.push_back({f, f <= c ? hit : miss});
  return p;
}
std::vector<StairPoint> random_replacement_curve(double c, double hit, double miss, double noise, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-noise, noise);
  std::vector<StairPoint> p;
  for (double f = c / 8; f <= c * 8; f *= std::pow(2.0, 1.0 / 6)) {
    const double miss_rate = f <= c ? 0 : 1 - c / f;
    p.push_back({f, hit + miss_rate * (miss - hit) + jitter(rng)});
  }
  return p;
}

TEST(Staircase, PlateauIsTheMedianInsideTheRange) {
  const auto p = lru_curve(1 << 20, 35, 270);
  EXPECT_DOUBLE_EQ(*plateau(p, 0, 1 << 19), 35);
  EXPECT_DOUBLE_EQ(*plateau(p, 4 << 20, 1e30), 270);
  EXPECT_FALSE(plateau(p, 1, 2).has_value());
}

TEST(Staircase, EdgeOfASharpStepIsTheCapacity) {
  const double c = 256 << 10;
  const auto p = lru_curve(c, 35, 270);
  const auto edge = capacity_edge(p, *plateau(p, 0, c / 2));
  ASSERT_TRUE(edge.has_value());
  EXPECT_GT(*edge, c * 0.99);
  EXPECT_LT(*edge, c * 1.2);  // within one sweep step
}

TEST(Staircase, EdgeOfAGradualRiseIsWithinTenPercentOfTheCapacity) {
  const double c = 50 << 20;
  for (unsigned seed = 0; seed < 20; ++seed) {
    const auto p = random_replacement_curve(c, 300, 700, 2.0, seed);
    const auto edge = capacity_edge(p, *plateau(p, 0, c / 4));
    ASSERT_TRUE(edge.has_value());
    EXPECT_GT(*edge, c * 0.98) << seed;
    EXPECT_LT(*edge, c * 1.15) << seed;
  }
}

TEST(Staircase, NoEdgeWithoutARise) {
  std::vector<StairPoint> flat;
  for (double f = 1; f < 1e6; f *= 2) flat.push_back({f, 40});
  EXPECT_FALSE(capacity_edge(flat, 40).has_value());
  EXPECT_FALSE(capacity_edge(flat, 0).has_value());
  EXPECT_DOUBLE_EQ(*first_crossing(flat, 10), 1.0) << "already above at the smallest footprint";
}

TEST(Staircase, JsonListsEveryPoint) {
  EXPECT_EQ(staircase_json({{1024, 35.25}, {2048, 270}}), R"({"bytes":[1024,2048],"cycles":[35.25,270.00]})");
}

TEST(TwoMeans, SplitsTwoPartitions) {
  std::mt19937 rng(5);
  std::normal_distribution<double> near(260, 4), far(470, 6);
  std::vector<double> v;
  for (int i = 0; i < 2000; ++i) v.push_back(near(rng));
  for (int i = 0; i < 2096; ++i) v.push_back(far(rng));
  const TwoMeans t = two_means(v);
  EXPECT_NEAR(t.low, 260, 1);
  EXPECT_NEAR(t.high, 470, 1);
  EXPECT_EQ(t.low_count, 2000u);
  EXPECT_EQ(t.high_count, 2096u);
  EXPECT_GT(t.separation, 20);
}

TEST(TwoMeans, ReportsNoSeparationForOneCluster) {
  std::mt19937 rng(6);
  std::normal_distribution<double> one(300, 5);
  std::vector<double> v;
  for (int i = 0; i < 4096; ++i) v.push_back(one(rng));
  EXPECT_LT(two_means(v).separation, 4);
  EXPECT_THROW(two_means({1.0}), std::invalid_argument);
}

// Per-line samples: `near` lines around `a`, the rest around `b` (cycles).
std::vector<double> two_levels(double a, double b, int near, int far, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> x(a, 3), y(b, 5);
  std::vector<double> v;
  for (int i = 0; i < near; ++i) v.push_back(x(rng));
  for (int i = 0; i < far; ++i) v.push_back(y(rng));
  return v;
}

TEST(L2Partitions, SubLevelsOfOnePartitionAreNotTwoPartitions) {
  // What the first H100 runs showed when SM 0 itself had warmed every line: two clean
  // clusters 24 cycles apart, both near hits.
  const TwoMeans sub = two_means(two_levels(259, 283, 2140, 1956, 7));
  EXPECT_GT(sub.separation, 4);
  EXPECT_FALSE(shows_partitions(sub));
  EXPECT_TRUE(shows_partitions(two_means(two_levels(265, 475, 2000, 2096, 8))));
  // 99% near: clean and wide, but too few far lines to be a partition.
  EXPECT_FALSE(shows_partitions(two_means(two_levels(265, 475, 4050, 46, 9))));
}

TEST(L2Partitions, TheWidestPartitionSplitWins) {
  const std::vector<PartitionTrial> trials = {
      {16, two_means(two_levels(259, 283, 2000, 2096, 10))},  // warmer beside SM 0: replicas near
      {66, two_means(two_levels(262, 470, 2050, 2046, 11))},  // warmer across: far hits
      {99, two_means(two_levels(262, 430, 2050, 2046, 12))},
  };
  ASSERT_EQ(best_partition_trial(trials), std::optional<std::size_t>(1));
  EXPECT_EQ(best_partition_trial({trials[0]}), std::nullopt);
  EXPECT_EQ(best_partition_trial({}), std::nullopt);
}

}  // namespace
}  // namespace gpuconform::chase
