// SPDX-License-Identifier: Apache-2.0
// A measurement with its own 95 % interval (throughput probes' sampling) fails only when
// the whole interval lies outside the fail band; where only the interval reaches into it,
// the value counts as drifted (warn at standard level, a pass with the note at quick).
#include <gtest/gtest.h>

#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

Expectation floor_entry() {
  Expectation e;
  e.probe_id = "throughput.mma_sync.m16n8k32.s32.s8";
  e.kind = ExpectationKind::fraction_of_peak;
  e.min_fraction = 0.6564;
  e.drift_min_fraction = 0.6587;
  e.unit = "op/s";
  e.source = "run:evidence/x.jsonl:61";
  e.where = Location{"sm_90.toml", 7177, 1};
  return e;
}

// value / peak = fraction; rel: the interval's relative half-width (0: no interval).
Measurement sampled(double fraction, double rel) {
  Measurement m;
  m.unit = "op/s";
  m.peak = 1.0e15;
  m.value = fraction * *m.peak;
  if (rel > 0) {
    Sampling s;
    s.interval.median = m.value;
    s.interval.low = m.value * (1 - rel);
    s.interval.high = m.value * (1 + rel);
    s.interval.valid = true;
    m.sampling = s;
  }
  return m;
}

TEST(VerdictInterval, AQuickSampleWhoseIntervalReachesTheFailBandIsDriftNotFail) {
  // 0.654 with +-1 %: the interval reaches 0.6605, above the fail limit 0.6564.
  const Verdict standard = judge(sampled(0.654, 0.01), floor_entry());
  EXPECT_EQ(standard.outcome, Outcome::warn) << standard.reason;
  EXPECT_NE(standard.reason.find("outside the fail band >= 0.656 of peak; its own 95 % interval (+-1.00 %) reaches "
                                 "into the fail band"),
            std::string::npos)
      << standard.reason;
  const Verdict quick = judge(sampled(0.654, 0.01), floor_entry(), JudgeOptions{false});
  EXPECT_EQ(quick.outcome, Outcome::pass) << quick.reason;
  EXPECT_EQ(quick.reason.rfind("drifted (not warned at --level quick", 0), 0u) << quick.reason;
}

TEST(VerdictInterval, AValueWhoseWholeIntervalIsOutsideFails) {
  EXPECT_EQ(judge(sampled(0.640, 0.01), floor_entry()).outcome, Outcome::fail);  // 0.640 + 1 % = 0.6464
  EXPECT_EQ(judge(sampled(0.654, 0.003), floor_entry()).outcome, Outcome::fail);  // 0.654 + 0.3 % = 0.6560
}

TEST(VerdictInterval, WithoutAnIntervalTheValueAloneDecides) {
  EXPECT_EQ(judge(sampled(0.654, 0), floor_entry()).outcome, Outcome::fail);
  Measurement invalid = sampled(0.654, 0.01);
  invalid.sampling->interval.valid = false;  // fewer than 6 samples: no interval
  EXPECT_EQ(judge(invalid, floor_entry()).outcome, Outcome::fail);
}

TEST(VerdictInterval, BandsAndUpperLimitsUseTheIntervalToo) {
  Expectation band;
  band.kind = ExpectationKind::band;
  band.value = 100;
  band.tol = 5;
  band.unit = "B/s";
  band.source = "run:evidence/x.jsonl:1";
  Measurement m;
  m.unit = "B/s";
  m.value = 106;  // 1 outside; a +-1 % interval (1.06) reaches in
  Sampling s;
  s.interval = MedianInterval{106, 104.94, 107.06, true};
  m.sampling = s;
  EXPECT_EQ(judge(m, band).outcome, Outcome::warn);
  m.value = 107.5;
  s.interval = MedianInterval{107.5, 106.4, 108.6, true};
  m.sampling = s;
  EXPECT_EQ(judge(m, band).outcome, Outcome::fail);

  Expectation ceiling = band;
  ceiling.kind = ExpectationKind::max;
  ceiling.value.reset();
  ceiling.tol.reset();
  ceiling.max = 105;
  m.value = 106;
  s.interval = MedianInterval{106, 104.94, 107.06, true};
  m.sampling = s;
  EXPECT_EQ(judge(m, ceiling).outcome, Outcome::warn);
}

TEST(VerdictInterval, AtQuickLevelASampledValueCarriesAtLeastTheLevelsTarget) {
  // A narrow interval (+-0.1 %) around a biased quick value (0.655 against >= 0.6564).
  JudgeOptions quick{false, 0.01};
  EXPECT_EQ(judge(sampled(0.655, 0.001), floor_entry()).outcome, Outcome::fail);           // standard
  EXPECT_EQ(judge(sampled(0.655, 0.001), floor_entry(), quick).outcome, Outcome::pass);     // quick: drift, noted
  EXPECT_EQ(judge(sampled(0.630, 0.001), floor_entry(), quick).outcome, Outcome::fail);     // a 5 % loss still fails
  Measurement unsampled = sampled(0.655, 0);  // a probe without sampling: the value alone
  EXPECT_EQ(judge(unsampled, floor_entry(), quick).outcome, Outcome::fail);
}

}  // namespace
}  // namespace gpuconform
