// SPDX-License-Identifier: Apache-2.0
// Sensitivity of expectation entries (sensitivity.hpp): the relative change from the healthy
// centre that first warns and first fails, per kind and direction, and the family summary.
#include "gpuconform/sensitivity.hpp"

#include <gtest/gtest.h>

#include "gpuconform/measurement.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

Expectation entry(ExpectationKind kind) {
  Expectation e;
  e.probe_id = "throughput.hbm.read";
  e.kind = kind;
  e.unit = "cycles";
  return e;
}

// What `judge` says for a measurement `change` (relative) away from `centre`.
Outcome judged_at(const Expectation& e, double centre, double change, double peak = 0) {
  Measurement m;
  m.unit = e.unit;
  m.value = centre * (1 + change);
  if (peak > 0) {
    m.value *= peak;
    m.peak = peak;
  }
  return judge(m, e).outcome;
}

TEST(Sensitivity, BandIsTwoSidedAroundItsCentre) {
  Expectation e = entry(ExpectationKind::band);
  e.value = 100;
  e.tol = 10;
  e.drift_tol = 3;
  const Sensitivity s = sensitivity(e, 100.0);
  ASSERT_EQ(s.status, SensitivityStatus::judged);
  ASSERT_TRUE(s.lower && s.higher);
  EXPECT_NEAR(s.lower->warn, 0.03, 1e-12);
  EXPECT_NEAR(s.lower->fail, 0.10, 1e-12);
  EXPECT_NEAR(s.higher->warn, 0.03, 1e-12);
  EXPECT_NEAR(s.higher->fail, 0.10, 1e-12);
  EXPECT_TRUE(s.has_drift);
  // Just inside passes / warns, just beyond warns / fails, as the verdict judges it.
  EXPECT_EQ(judged_at(e, 100, 0.029), Outcome::pass);
  EXPECT_EQ(judged_at(e, 100, 0.031), Outcome::warn);
  EXPECT_EQ(judged_at(e, 100, -0.099), Outcome::warn);
  EXPECT_EQ(judged_at(e, 100, -0.101), Outcome::fail);
}

TEST(Sensitivity, BandOffCentreIsAsymmetricAndWorstIsTheWeakerSide) {
  Expectation e = entry(ExpectationKind::band);
  e.value = 100;
  e.tol_rel = 0.10;  // ± 10
  e.drift_tol = 2;
  const Sensitivity s = sensitivity(e, 104.0);  // boards sit above the band's value
  ASSERT_TRUE(s.lower && s.higher);
  EXPECT_NEAR(s.lower->fail, 14.0 / 104, 1e-12);
  EXPECT_NEAR(s.higher->fail, 6.0 / 104, 1e-12);
  // The healthy centre already lies outside the drift band on the high side: warns at once.
  EXPECT_LT(s.higher->warn, 0);
  EXPECT_NEAR(s.fail(), 14.0 / 104, 1e-12);
  EXPECT_NEAR(s.warn(), 6.0 / 104, 1e-12);
}

TEST(Sensitivity, BandWithoutDriftWarnsWhereItFails) {
  Expectation e = entry(ExpectationKind::band);
  e.value = 50;
  e.tol = 5;
  const Sensitivity s = sensitivity(e, 50.0);
  EXPECT_FALSE(s.has_drift);
  EXPECT_NEAR(s.lower->warn, s.lower->fail, 1e-12);
  EXPECT_NEAR(s.fail(), 0.1, 1e-12);
}

TEST(Sensitivity, MinIsLowerOnly) {
  Expectation e = entry(ExpectationKind::min);
  e.unit = "B/s";
  e.min = 80;
  e.drift_min = 95;
  const Sensitivity s = sensitivity(e, 100.0);
  ASSERT_TRUE(s.lower);
  EXPECT_FALSE(s.higher);
  EXPECT_NEAR(s.lower->warn, 0.05, 1e-12);
  EXPECT_NEAR(s.lower->fail, 0.20, 1e-12);
  EXPECT_EQ(judged_at(e, 100, -0.049), Outcome::pass);
  EXPECT_EQ(judged_at(e, 100, -0.051), Outcome::warn);
  EXPECT_EQ(judged_at(e, 100, -0.201), Outcome::fail);
  EXPECT_EQ(judged_at(e, 100, +0.5), Outcome::pass);
}

TEST(Sensitivity, MaxIsHigherOnly) {
  Expectation e = entry(ExpectationKind::max);
  e.unit = "us";
  e.max = 12;
  e.drift_max = 11;
  const Sensitivity s = sensitivity(e, 10.0);
  EXPECT_FALSE(s.lower);
  ASSERT_TRUE(s.higher);
  EXPECT_NEAR(s.higher->warn, 0.10, 1e-12);
  EXPECT_NEAR(s.higher->fail, 0.20, 1e-12);
  EXPECT_EQ(judged_at(e, 10, 0.099), Outcome::pass);
  EXPECT_EQ(judged_at(e, 10, 0.101), Outcome::warn);
  EXPECT_EQ(judged_at(e, 10, 0.201), Outcome::fail);
}

TEST(Sensitivity, FractionOfPeakIsInTheFraction) {
  Expectation e = entry(ExpectationKind::fraction_of_peak);
  e.unit = "B/s";
  e.min_fraction = 0.65;
  e.drift_min_fraction = 0.76;
  const Sensitivity s = sensitivity(e, 0.8);
  ASSERT_TRUE(s.lower);
  EXPECT_FALSE(s.higher);
  EXPECT_NEAR(s.lower->warn, 0.05, 1e-12);
  EXPECT_NEAR(s.lower->fail, 0.1875, 1e-12);
  EXPECT_EQ(judged_at(e, 0.8, -0.049, 3e12), Outcome::pass);
  EXPECT_EQ(judged_at(e, 0.8, -0.051, 3e12), Outcome::warn);
  EXPECT_EQ(judged_at(e, 0.8, -0.19, 3e12), Outcome::fail);
}

TEST(Sensitivity, DriftBeyondTheFailLimitNeverWarnsFirst) {
  Expectation e = entry(ExpectationKind::min);
  e.min = 90;
  e.drift_min = 85;  // looser than the fail limit
  const Sensitivity s = sensitivity(e, 100.0);
  EXPECT_NEAR(s.lower->warn, 0.10, 1e-12);
}

TEST(Sensitivity, ExactAndInfoAreNotJudgedBySize) {
  for (auto kind : {ExpectationKind::exact, ExpectationKind::info}) {
    Expectation e = entry(kind);
    e.value = 0;
    const Sensitivity s = sensitivity(e, 1.0);
    EXPECT_EQ(s.status, SensitivityStatus::not_judged);
    EXPECT_FALSE(s.lower || s.higher);
  }
}

TEST(Sensitivity, WithoutACentreOrAtZeroThereIsNone) {
  Expectation e = entry(ExpectationKind::min);
  e.min = 1;
  EXPECT_EQ(sensitivity(e, std::nullopt).status, SensitivityStatus::no_centre);
  Expectation m = entry(ExpectationKind::max);
  m.max = 0;
  EXPECT_EQ(sensitivity(m, 0.0).status, SensitivityStatus::no_centre);
}

TEST(Sensitivity, HealthyCentreIsTheMedianOfTheNotesBoardMedians) {
  const std::string note =
      "bands from 3 boards (65e99009 0.9834 (median of 3), b74bacc8 0.9796 (median of 3), d937c002 0.9794 (median "
      "of 2)); noise 0.003735 of peak; drift limit = lowest board 0.9794 - 3 x noise = 0.968";
  const std::vector<double> medians = board_medians_from_note(note);
  ASSERT_EQ(medians.size(), 3u);
  EXPECT_DOUBLE_EQ(medians[0], 0.9834);
  Expectation e = entry(ExpectationKind::fraction_of_peak);
  e.min_fraction = 0.85;
  e.note = note;
  EXPECT_DOUBLE_EQ(*healthy_centre(e), 0.9796);

  Expectation one = entry(ExpectationKind::max);
  one.note = "bands from 1 board (d937c002 2.656e+10 (median of 2)); noise 0.042 us";
  EXPECT_DOUBLE_EQ(*healthy_centre(one), 2.656e10);
  Expectation two = entry(ExpectationKind::band);
  two.value = 398;
  two.note = "bands from 2 boards (492e4abe 400.8 (median of 5), 5e441991 396.5 (median of 10)); noise 0.1 cycles";
  EXPECT_DOUBLE_EQ(*healthy_centre(two), (400.8 + 396.5) / 2);

  // Without boards in the note: a band falls back on its own value, a limit has no centre.
  Expectation cited = entry(ExpectationKind::band);
  cited.value = 7;
  cited.note = "policy band around the board's own median";
  EXPECT_DOUBLE_EQ(*healthy_centre(cited), 7);
  Expectation cited_min = entry(ExpectationKind::min);
  cited_min.min = 3;
  EXPECT_FALSE(healthy_centre(cited_min));
}

TEST(Sensitivity, FamilyIsTheFirstTwoComponents) {
  EXPECT_EQ(sensitivity_family("throughput.hbm.read.cg"), "throughput.hbm");
  EXPECT_EQ(sensitivity_family("latency.mem.l2_hit"), "latency.mem");
  EXPECT_EQ(sensitivity_family("latency.mem"), "latency.mem");
  EXPECT_EQ(sensitivity_family("selftest"), "selftest");
}

TEST(Sensitivity, FamilySummaryHasMedianAndWorst) {
  auto min_entry = [](double min, double drift) {
    Expectation e = entry(ExpectationKind::min);
    e.min = min;
    e.drift_min = drift;
    return sensitivity(e, 100.0);
  };
  Expectation exact = entry(ExpectationKind::exact);
  Expectation no_centre = entry(ExpectationKind::min);
  no_centre.min = 1;
  const std::vector<std::pair<std::string, Sensitivity>> all{
      {"throughput.hbm.a", min_entry(90, 99)},
      {"throughput.hbm.b", min_entry(80, 98)},
      {"throughput.hbm.c", min_entry(95, 97)},
      {"throughput.hbm.d", sensitivity(no_centre, std::nullopt)},
      {"numeric.mma_sync.x", sensitivity(exact, std::nullopt)},
      {"latency.mem.hbm", min_entry(50, 60)},
  };
  const std::vector<FamilySensitivity> fams = summarise_sensitivity(all);
  ASSERT_EQ(fams.size(), 2u);  // numeric.mma_sync has nothing judged by size
  EXPECT_EQ(fams[0].family, "latency.mem");
  const FamilySensitivity& hbm = fams[1];
  EXPECT_EQ(hbm.family, "throughput.hbm");
  EXPECT_EQ(hbm.entries, 4);
  EXPECT_EQ(hbm.judged, 3);
  EXPECT_EQ(hbm.no_centre, 1);
  EXPECT_NEAR(hbm.fail_median, 0.10, 1e-12);
  EXPECT_NEAR(hbm.fail_worst, 0.20, 1e-12);
  EXPECT_EQ(hbm.worst_fail_id, "throughput.hbm.b");
  EXPECT_NEAR(hbm.warn_median, 0.02, 1e-12);
  EXPECT_NEAR(hbm.warn_worst, 0.03, 1e-12);
}

}  // namespace
}  // namespace gpuconform
