// SPDX-License-Identifier: Apache-2.0
// The throughput measurement policy's decisions (sampling.hpp): the median's
// confidence interval, warm-up agreement and the stopping rule.
#include "gpuconform/sampling.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <vector>
#include <stdexcept>

namespace gpuconform {
namespace {

TEST(MedianCi95, NeedsSixSamplesForAnInterval) {
  const MedianInterval five = median_ci95({1, 2, 3, 4, 5});
  EXPECT_FALSE(five.valid);
  EXPECT_DOUBLE_EQ(five.median, 3);
  EXPECT_TRUE(std::isinf(five.rel_half_width()));
  EXPECT_TRUE(median_ci95({1, 2, 3, 4, 5, 6}).valid);
  EXPECT_FALSE(median_ci95({}).valid);
}

TEST(MedianCi95, UsesTheOrderStatisticsOfTheBinomialRanks) {
  // n = 20: ranks 20/2 -+ 1.96 sqrt(20)/2 = 10 -+ 4.38 -> the 5th and the 16th (1-based: floor(5.62), ceil(1 + 14.38)).
  std::vector<double> v;
  for (int i = 20; i >= 1; --i) v.push_back(i);  // unsorted on purpose
  const MedianInterval ci = median_ci95(v);
  ASSERT_TRUE(ci.valid);
  EXPECT_DOUBLE_EQ(ci.median, 10.5);
  EXPECT_DOUBLE_EQ(ci.low, 5);
  EXPECT_DOUBLE_EQ(ci.high, 16);
  EXPECT_DOUBLE_EQ(ci.rel_half_width(), 5.5 / 10.5);
}

TEST(MedianCi95, OneOutlierDoesNotWidenIt) {
  std::vector<double> v(30, 100.0);
  v[3] = 50;  // a preempted launch
  v[17] = 100.1;
  EXPECT_LE(median_ci95(v).rel_half_width(), 0.0);
}

TEST(BatchesAgree, ComparesTheLastTwoBatchMedians) {
  EXPECT_FALSE(batches_agree({100}, 0.01));
  EXPECT_FALSE(batches_agree({90, 100}, 0.01));
  EXPECT_TRUE(batches_agree({80, 99.5, 100}, 0.01));
  EXPECT_FALSE(batches_agree({0, 0}, 0.01)) << "zero rates never count as settled";
}

SamplingPolicy tight() {
  SamplingPolicy p;
  p.target_rel_half_width = 0.003;
  p.min_samples = 8;
  p.max_samples = 40;
  p.time_cap_ms = 1000;
  return p;
}

TEST(SamplingDecision, StopsWhenTheIntervalIsTightEnough) {
  const std::vector<double> steady{100, 100.1, 99.9, 100, 100.05, 99.95, 100, 100};
  EXPECT_EQ(sampling_decision(steady, 10, tight()), StopReason::kConverged);
  EXPECT_EQ(sampling_decision({100, 100, 100, 100, 100, 100, 100}, 10, tight()), StopReason::kContinue)
      << "fewer than min_samples";
}

TEST(SamplingDecision, NoisySamplesRunToTheTimeOrSampleCap) {
  std::vector<double> noisy;
  for (int i = 0; i < 12; ++i) noisy.push_back(i % 2 ? 90 : 110);
  EXPECT_EQ(sampling_decision(noisy, 10, tight()), StopReason::kContinue);
  EXPECT_EQ(sampling_decision(noisy, 1000, tight()), StopReason::kTimeCap);
  noisy.resize(40, 100);
  for (std::size_t i = 12; i < noisy.size(); ++i) noisy[i] = i % 2 ? 80 : 120;
  EXPECT_EQ(sampling_decision(noisy, 10, tight()), StopReason::kSampleCap);
  EXPECT_STREQ(stop_reason_name(StopReason::kTimeCap), "time cap");
}

TEST(SamplingDecision, TheTimeCapNeverCutsBelowTheMinimum) {
  EXPECT_EQ(sampling_decision({1, 2, 3}, 1e9, tight()), StopReason::kContinue);
}

TEST(SamplingDecision, RejectsAPolicyWithoutAnInterval) {
  SamplingPolicy p = tight();
  p.min_samples = 5;
  EXPECT_THROW(sampling_decision({1, 2, 3, 4, 5, 6}, 0, p), std::invalid_argument);
}

TEST(SamplingPolicy, QuickIsLooserAndShorter) {
  const SamplingPolicy standard = sampling_policy(false), quick = sampling_policy(true);
  EXPECT_DOUBLE_EQ(standard.target_rel_half_width, 0.003);
  EXPECT_DOUBLE_EQ(quick.target_rel_half_width, 0.01);
  EXPECT_LT(quick.time_cap_ms, standard.time_cap_ms);
  EXPECT_GE(quick.min_samples, 6);
}


// A burst of interrupted samples (the host-timed launch burst an H100 read at 30, 26,
// 18, 10 and 8.5 us between 4 us bursts) makes the sampler go on past the minimum,
// and the median it ends on is the undisturbed value, not one of the interrupted ones.
TEST(SampleUntilStopped, ATransientBurstProlongsSamplingInsteadOfSettingTheMedian) {
  const std::vector<double> stream = {4.09, 4.17, 3.90, 4.12, 29.9, 25.9, 17.9, 10.3, 8.52};
  std::size_t i = 0;
  auto one = [&] { return i < stream.size() ? stream[i++] : 4.0 + 0.01 * static_cast<double>(i++ % 5); };
  SamplingPolicy policy;
  policy.target_rel_half_width = 0.02;
  policy.min_samples = 9;
  policy.max_samples = 120;
  policy.time_cap_ms = 1e9;
  const SampledValues out = sample_until_stopped(one, policy);
  EXPECT_GT(out.samples.size(), stream.size());
  EXPECT_EQ(out.sampling.stopped, "converged");
  EXPECT_LT(out.sampling.interval.median, 4.2);
  EXPECT_LE(out.sampling.interval.rel_half_width(), 0.02);
  EXPECT_DOUBLE_EQ(out.sampling.target_rel_half_width, 0.02);
}

// Noise that never settles stops at the sample cap, and says so.
TEST(SampleUntilStopped, StopsAtTheSampleCapAndSaysWhy) {
  int k = 0;
  auto one = [&] { return (k++ % 2) ? 1.0 : 3.0; };
  SamplingPolicy policy;
  policy.min_samples = 8;
  policy.max_samples = 20;
  policy.time_cap_ms = 1e9;
  const SampledValues out = sample_until_stopped(one, policy);
  EXPECT_EQ(out.samples.size(), 20u);
  EXPECT_EQ(out.sampling.stopped, "sample cap");
}

}  // namespace
}  // namespace gpuconform
