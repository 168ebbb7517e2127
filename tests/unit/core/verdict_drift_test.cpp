// SPDX-License-Identifier: Apache-2.0
// Two-level verdicts: inside the drift band pass, between the drift and the fail band
// warn ("drifted: ..." naming both bands and the provenance), outside the fail band fail;
// for every kind that has a drift field.
#include <gtest/gtest.h>

#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

Expectation entry(ExpectationKind kind) {
  Expectation e;
  e.probe_id = "latency.mem.l2_near";
  e.kind = kind;
  e.unit = "cycles";
  e.source = "run:evidence/x.jsonl:3";
  e.where = Location{"sm_90.toml", 1664, 1};
  return e;
}

Expectation two_level_band() {
  Expectation e = entry(ExpectationKind::band);
  e.value = 275.7;
  e.tol = 21;
  e.drift_tol = 3.1;
  return e;
}

Measurement measured(double v, std::optional<double> peak = std::nullopt) {
  Measurement m;
  m.value = v;
  m.unit = "cycles";
  m.peak = peak;
  return m;
}

TEST(VerdictDrift, BandInsideTheDriftBandPasses) {
  EXPECT_EQ(judge(measured(278.7), two_level_band()).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(272.7), two_level_band()).outcome, Outcome::pass);
}

TEST(VerdictDrift, BandBetweenTheBandsWarnsWithBothBandsAndProvenance) {
  const Verdict v = judge(measured(280.5), two_level_band());
  EXPECT_EQ(v.outcome, Outcome::warn);
  EXPECT_EQ(v.reason,
            "drifted: measured 280.500 cycles, outside the drift band 275.700 cycles ± 3.100 cycles but inside "
            "the fail band 275.700 cycles ± 21 cycles (sm_90.toml:1664:1, run:evidence/x.jsonl:3)");
  EXPECT_EQ(judge(measured(255.0), two_level_band()).outcome, Outcome::warn);
}

TEST(VerdictDrift, BandOutsideTheFailBandFails) {
  const Verdict v = judge(measured(297.0), two_level_band());
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("expected 275.700 cycles ± 21 cycles (drift band 275.700 cycles ± 3.100 cycles)"),
            std::string::npos)
      << v.reason;
}

TEST(VerdictDrift, RelativeDriftToleranceScalesWithTheValue) {
  Expectation e = two_level_band();
  e.drift_tol.reset();
  e.drift_tol_rel = 0.01;  // ± 2.757
  EXPECT_EQ(judge(measured(278.4), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(278.5), e).outcome, Outcome::warn);
}

TEST(VerdictDrift, MinWarnsBelowTheDriftLimit) {
  Expectation e = entry(ExpectationKind::min);
  e.min = 10;
  e.drift_min = 12;
  EXPECT_EQ(judge(measured(12), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(11), e).outcome, Outcome::warn);
  EXPECT_EQ(judge(measured(9), e).outcome, Outcome::fail);
  EXPECT_NE(judge(measured(11), e).reason.find("outside the drift band >= 12 cycles but inside the fail band >= 10 cycles"),
            std::string::npos);
}

TEST(VerdictDrift, MaxWarnsAboveTheDriftLimit) {
  Expectation e = entry(ExpectationKind::max);
  e.max = 20;
  e.drift_max = 15;
  EXPECT_EQ(judge(measured(15), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(16), e).outcome, Outcome::warn);
  EXPECT_EQ(judge(measured(21), e).outcome, Outcome::fail);
}

TEST(VerdictDrift, FractionOfPeakWarnsBelowTheDriftFraction) {
  Expectation e = entry(ExpectationKind::fraction_of_peak);
  e.min_fraction = 0.79;
  e.drift_min_fraction = 0.85;
  EXPECT_EQ(judge(measured(86, 100.0), e).outcome, Outcome::pass);
  const Verdict v = judge(measured(80, 100.0), e);
  EXPECT_EQ(v.outcome, Outcome::warn);
  EXPECT_NE(v.reason.find("outside the drift band >= 0.850 of peak but inside the fail band >= 0.790 of peak"),
            std::string::npos)
      << v.reason;
  EXPECT_EQ(judge(measured(78, 100.0), e).outcome, Outcome::fail);
}

TEST(VerdictDrift, WithoutADriftBandTheFailBandDecidesAlone) {
  Expectation e = two_level_band();
  e.drift_tol.reset();
  EXPECT_EQ(judge(measured(290), e).outcome, Outcome::pass);
  EXPECT_EQ(describe_expected(e), "275.700 cycles ± 21 cycles");
}

TEST(VerdictDrift, AWaiverLeavesADriftWarningAsItIs) {
  Waiver w;
  w.reason = "known";
  const Verdict v = apply_waiver(judge(measured(280.5), two_level_band()), &w);
  EXPECT_EQ(v.outcome, Outcome::warn);
  EXPECT_EQ(v.reason.rfind("drifted:", 0), 0u) << v.reason;
}

// --level quick (JudgeOptions): its samples are shorter than the standard ones the drift
// bands come from, so a drift passes, saying so in its reason; a fail stays a fail.
TEST(VerdictDrift, AtQuickLevelADriftPassesWithItsReasonAndAFailStaysAFail) {
  const JudgeOptions quick{false};
  const Verdict v = judge(measured(280.5), two_level_band(), quick);
  EXPECT_EQ(v.outcome, Outcome::pass);
  EXPECT_EQ(v.reason,
            "drifted (not warned at --level quick: its shorter samples are not what the drift band was derived "
            "from; a standard run judges the drift): measured 280.500 cycles, outside the drift band 275.700 cycles "
            "± 3.100 cycles but inside the fail band 275.700 cycles ± 21 cycles (sm_90.toml:1664:1, "
            "run:evidence/x.jsonl:3)");
  EXPECT_EQ(judge(measured(297.0), two_level_band(), quick).outcome, Outcome::fail);
  EXPECT_EQ(judge(measured(278.7), two_level_band(), quick).reason.rfind("measured", 0), 0u)
      << "inside the drift band: an ordinary pass";
  Expectation e = entry(ExpectationKind::fraction_of_peak);
  e.min_fraction = 0.79;
  e.drift_min_fraction = 0.85;
  EXPECT_EQ(judge(measured(80, 100.0), e, quick).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(78, 100.0), e, quick).outcome, Outcome::fail);
  EXPECT_EQ(judge(measured(80, 100.0), e).outcome, Outcome::warn) << "standard and long still warn";
}

}  // namespace
}  // namespace gpuconform
