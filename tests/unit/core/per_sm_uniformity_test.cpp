// SPDX-License-Identifier: Apache-2.0
// Per-SM uniformity judging (per_sm.hpp, verdict.cpp) on synthetic per-SM data: a
// healthy board passes its band, an 11% slow SM fails it and is named, and a doctored
// too-tight band names the SMs a healthy board's ordinary spread puts outside it (the
// GPU counterpart: the topology_batch.sh overlay step).
#include "gpuconform/per_sm.hpp"

#include <gtest/gtest.h>

#include <iostream>

#include "gpuconform/expectation.hpp"
#include "gpuconform/verdict.hpp"
#include "../expectations/committed_evidence.hpp"

namespace gpuconform {
namespace {

// 132 SMs whose FFMA rate wobbles by at most 0.4% around 256 FLOP/clk.
Series healthy_board() {
  Series s{kPerSmSeries, "SM", "SM id", "FFMA rate", "FLOP/clk", {}, {}};
  for (int sm = 0; sm < 132; ++sm) {
    s.x.push_back(sm);
    s.y.push_back(256.0 * (1.0 + 0.001 * ((sm * 7) % 9 - 4)));
  }
  return s;
}

Expectation uniformity_band(double tol, double drift_tol = 0) {
  Expectation e;
  e.probe_id = "topology.uniformity.fma_rate";
  e.kind = ExpectationKind::band;
  e.value = 1;
  e.tol = tol;
  if (drift_tol > 0) e.drift_tol = drift_tol;
  e.unit = kRatioToMedianUnit;
  e.source = "cite:uniformity policy";
  e.where = Location{"expectations/sm_90.toml", 40, 1};
  return e;
}

TEST(PerSmUniformity, SummaryFindsTheSmFarthestFromTheMedian) {
  const PerSmSummary s = summarize_per_sm({100, 101, 99, 89, 100});
  EXPECT_DOUBLE_EQ(s.median, 100);
  EXPECT_EQ(s.worst, 3u);
  EXPECT_DOUBLE_EQ(s.worst_ratio, 0.89);
  EXPECT_THROW(summarize_per_sm({}), std::invalid_argument);
  EXPECT_THROW(summarize_per_sm({0, 0, 0}), std::invalid_argument);
}

TEST(PerSmUniformity, HealthyBoardPassesItsBand) {
  const Measurement m = per_sm_measurement(healthy_board());
  EXPECT_EQ(m.unit, kRatioToMedianUnit);
  EXPECT_NEAR(m.value, 1.0, 0.005);
  EXPECT_EQ(m.samples.size(), 132u);
  const Verdict v = judge(m, uniformity_band(0.05, 0.02));
  EXPECT_EQ(v.outcome, Outcome::pass) << v.reason;
  EXPECT_EQ(v.reason.find("outliers"), std::string::npos) << v.reason;
}

TEST(PerSmUniformity, ElevenPercentSlowSmFailsAndIsNamed) {
  Series s = healthy_board();
  s.y[37] = 0.89 * 256.0;
  const Verdict v = judge(per_sm_measurement(s), uniformity_band(0.05, 0.02));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("outliers: SM 37: FFMA rate 0.890 of the median of 132 SMs"), std::string::npos) << v.reason;
  // Only the slow SM lies outside the fail band.
  EXPECT_EQ(v.reason.find("; SM "), std::string::npos) << v.reason;
}

TEST(PerSmUniformity, DoctoredTightBandNamesHealthySmsOutsideIt) {
  // The overlay check of topology_batch.sh: a band of +- 0.001 around the median on a
  // board whose SMs spread by +- 0.4% must fail and name SMs, farthest first.
  const Verdict v = judge(per_sm_measurement(healthy_board()), uniformity_band(0.001));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("outliers: SM "), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find(" of the median of 132 SMs"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("more"), std::string::npos) << "at most 8 SMs named, then a count: " << v.reason;
}

TEST(PerSmUniformity, DriftNamesTheSmsOutsideTheDriftBand) {
  Series s = healthy_board();
  s.y[5] = 1.03 * 256.0;
  const Verdict v = judge(per_sm_measurement(s), uniformity_band(0.05, 0.02));
  EXPECT_EQ(v.outcome, Outcome::warn);
  EXPECT_NE(v.reason.find("drifted"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("SM 5: FFMA rate 1.030"), std::string::npos) << v.reason;
}

TEST(PerSmUniformity, OutlierListIsEmptyInsideTheBand) {
  EXPECT_EQ(describe_per_sm_outliers(healthy_board(), 0.99, 1.01), "");
  Series s = healthy_board();
  s.y[0] = 300;
  s.y[1] = 200;
  const std::string text = describe_per_sm_outliers(s, 0.95, 1.05);
  EXPECT_EQ(text.find("SM 1:"), 0u) << "farthest from the median first: " << text;
  EXPECT_NE(text.find("; SM 0:"), std::string::npos) << text;
}

TEST(PerSmUniformity, InvariantViolationsAreAppendedToAFailure) {
  Expectation e = uniformity_band(0);
  e.kind = ExpectationKind::max;
  e.value.reset();
  e.tol.reset();
  e.max = 0;
  e.unit = "violations";
  Measurement m;
  m.value = 1;
  m.unit = "violations";
  m.note("violations", "1 violation: the GPCs hold 130 SMs, the device has 132");
  const Verdict v = judge(m, e);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("the GPCs hold 130 SMs"), std::string::npos) << v.reason;
  m.value = 0;
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
}

// The committed policy bands (expectations/sm_XX.toml) must catch an SM 11% off its board's
// median, slow or fast, and let the healthy synthetic board pass (issue 10).
TEST(PerSmUniformity, CommittedBandsCatchAnElevenPercentOutlier) {
  int checked = 0;
  for (const char* arch : {"sm_80", "sm_90", "sm_100"}) {
    const ExpectationFile f = test::committed_file(std::string(arch) + ".toml");
    for (const Expectation& e : f.entries) {
      if (e.probe_id.rfind("topology.uniformity.", 0) != 0) continue;
      if (e.unit == kRatioToPartnerUnit) continue;  // a TPC-pair entry: tpc_pair_test.cpp
      ++checked;
      EXPECT_EQ(judge(per_sm_measurement(healthy_board()), e).outcome, Outcome::pass) << arch << " " << e.probe_id;
      for (double off : {0.89, 1.11}) {
        Series s = healthy_board();
        s.y[37] *= off;
        const Verdict v = judge(per_sm_measurement(s), e);
        EXPECT_EQ(v.outcome, Outcome::fail) << arch << " " << e.probe_id << " " << off;
        EXPECT_NE(v.reason.find("outliers: SM 37: "), std::string::npos) << v.reason;
        if (off < 1 && e.probe_id == "topology.uniformity.fma_rate" && std::string(arch) == "sm_90")
          std::cout << "fail " << e.probe_id << ": " << v.reason << "\n";  // README's example
      }
    }
  }
  EXPECT_EQ(checked, 18) << "six uniformity entries in each of sm_80, sm_90 and sm_100";
}

}  // namespace
}  // namespace gpuconform
