// SPDX-License-Identifier: Apache-2.0
// Verdicts: the pass/fail boundary of every kind, and reasons that name the
// measured value, the expected band and where the expectation came from.
#include "gpuconform/verdict.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace gpuconform {
namespace {

Expectation band(double value, double tol) {
  Expectation e;
  e.probe_id = "latency.alu.fma.rn.f32";
  e.kind = ExpectationKind::band;
  e.value = value;
  e.tol = tol;
  e.unit = "cycles";
  e.source = "run:evidence/x.jsonl:3";
  e.where = Location{"expectations/sm_90.toml", 12, 1};
  return e;
}

Measurement measured(double v, const std::string& unit = "cycles") {
  Measurement m;
  m.value = v;
  m.unit = unit;
  return m;
}

TEST(Verdict, BandPassesInsideAndOnTheEdge) {
  EXPECT_EQ(judge(measured(4.02), band(4.0, 0.25)).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(4.25), band(4.0, 0.25)).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(3.75), band(4.0, 0.25)).outcome, Outcome::pass);
}

TEST(Verdict, BandFailureNamesMeasuredExpectedAndFileLine) {
  const Verdict v = judge(measured(4.02), band(6.0, 0.25));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("measured 4.020 cycles"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("expected 6 cycles ± 0.250 cycles"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("expectations/sm_90.toml:12:1"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("run:evidence/x.jsonl:3"), std::string::npos) << v.reason;
}

TEST(Verdict, RelativeToleranceScalesWithTheValue) {
  Expectation e = band(500, 0);
  e.tol.reset();
  e.tol_rel = 0.05;
  EXPECT_EQ(judge(measured(524), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(526), e).outcome, Outcome::fail);
}

TEST(Verdict, MinAndMax) {
  Expectation e = band(0, 0);
  e.kind = ExpectationKind::min;
  e.min = 10;
  EXPECT_EQ(judge(measured(10), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(9.9), e).outcome, Outcome::fail);
  e.kind = ExpectationKind::max;
  e.max = 10;
  EXPECT_EQ(judge(measured(10), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(measured(10.1), e).outcome, Outcome::fail);
}

TEST(Verdict, FractionOfPeakUsesTheMeasuredPeak) {
  Expectation e = band(0, 0);
  e.kind = ExpectationKind::fraction_of_peak;
  e.min_fraction = 0.9;
  e.unit = "B/s";
  Measurement m = measured(3.0e12, "B/s");
  m.peak = 3.35e12;
  m.peak_formula = "2 x 2619 MHz x 640 B bus";
  Verdict v = judge(m, e);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("0.896 of peak"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("2619 MHz"), std::string::npos) << v.reason;
  m.value = 3.1e12;
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
  m.peak.reset();
  EXPECT_EQ(judge(m, e).outcome, Outcome::fail);  // a probe that reports no peak is a defect
}

TEST(Verdict, ExactNeedsComparedOutputsAndZeroMismatches) {
  Expectation e = band(0, 0);
  e.kind = ExpectationKind::exact;
  e.model = "sm_90.mma_sync.f32.f16";
  e.unit = "mismatches";
  Measurement m = measured(0, "mismatches");
  EXPECT_EQ(judge(m, e).outcome, Outcome::fail);  // nothing compared cannot pass
  m.compared = 1000;
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
  m.value = 2;
  m.note("first_mismatch", "instance 7 D[0][0]: gpu 3f800001 model 3f800000");
  const Verdict v = judge(m, e);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("instance 7"), std::string::npos) << v.reason;
}

TEST(Verdict, UnitMismatchAndNonFiniteValuesFail) {
  EXPECT_EQ(judge(measured(4.0, "ns"), band(4.0, 0.25)).outcome, Outcome::fail);
  EXPECT_EQ(judge(measured(std::nan("")), band(4.0, 0.25)).outcome, Outcome::fail);
}

TEST(Verdict, WaiverTurnsOnlyFailuresIntoWarnings) {
  Waiver w;
  w.reason = "known HBM3 derate";
  w.link = "https://example.invalid/1";
  w.where = Location{"expectations/sm_90.toml", 40, 1};
  const Verdict warned = apply_waiver(judge(measured(9), band(4, 0.25)), &w);
  EXPECT_EQ(warned.outcome, Outcome::warn);
  EXPECT_NE(warned.reason.find("known HBM3 derate"), std::string::npos);
  EXPECT_EQ(apply_waiver(judge(measured(4), band(4, 0.25)), &w).outcome, Outcome::pass);
  EXPECT_EQ(apply_waiver(judge(measured(9), band(4, 0.25)), nullptr).outcome, Outcome::fail);
}

TEST(FormatValue, ScalesBandwidthAndKeepsCycles) {
  EXPECT_EQ(format_value(3.0e12, "B/s"), "3.000 TB/s");
  EXPECT_EQ(format_value(4.0, "cycles"), "4 cycles");
  EXPECT_EQ(format_value(4.1234, "cycles"), "4.123 cycles");
}

}  // namespace
}  // namespace gpuconform
