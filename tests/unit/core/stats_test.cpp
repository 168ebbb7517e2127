// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/stats.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace gpuconform {
namespace {

TEST(Stats, MedianOfOddAndEvenCounts) {
  EXPECT_DOUBLE_EQ(median({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
}

TEST(Stats, PercentileInterpolatesLinearly) {
  const std::vector<double> v{10, 20, 30, 40, 50};
  EXPECT_DOUBLE_EQ(percentile(v, 0), 10);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 50);
  EXPECT_DOUBLE_EQ(percentile(v, 25), 20);
  EXPECT_DOUBLE_EQ(percentile(v, 10), 14);
}

TEST(Stats, RejectsEmptyInputAndBadPercentiles) {
  EXPECT_THROW(median({}), std::invalid_argument);
  EXPECT_THROW(percentile({1.0}, 101), std::invalid_argument);
  EXPECT_THROW(summarize({}), std::invalid_argument);
}

TEST(Stats, SummaryIsRobustToOneOutlier) {
  const Summary s = summarize({4.0, 4.0, 4.01, 3.99, 4.0, 40.0});
  EXPECT_DOUBLE_EQ(s.median, 4.0);
  EXPECT_NEAR(s.mad, 0.005, 1e-12);
  EXPECT_DOUBLE_EQ(s.max, 40.0);
  EXPECT_GT(s.cv(), 1.0);  // the mean-based spread sees the outlier; the median does not
}

TEST(Stats, RepeatStopsOnceStable) {
  int calls = 0;
  RepeatPolicy p;
  p.min_samples = 3;
  p.max_samples = 50;
  p.max_rel_mad = 0.01;
  const auto samples = repeat_until_stable([&] { ++calls; return 7.0; }, p);
  EXPECT_EQ(samples.size(), 3u);
  EXPECT_EQ(calls, 3);
}

TEST(Stats, RepeatHitsTheCapWhenNoisy) {
  int i = 0;
  RepeatPolicy p;
  p.min_samples = 2;
  p.max_samples = 9;
  p.max_rel_mad = 0.001;
  const auto samples = repeat_until_stable([&] { return 1.0 + i++; }, p);  // never settles
  EXPECT_EQ(samples.size(), 9u);
}

TEST(Stats, RepeatRejectsInconsistentPolicy) {
  RepeatPolicy p;
  p.min_samples = 5;
  p.max_samples = 2;
  EXPECT_THROW(repeat_until_stable([] { return 1.0; }, p), std::invalid_argument);
}

}  // namespace
}  // namespace gpuconform
