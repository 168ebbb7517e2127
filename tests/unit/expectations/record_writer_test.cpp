// SPDX-License-Identifier: Apache-2.0
// `record` must derive tolerances from the measured spread, refuse what it
// cannot vouch for, and write files the strict parser accepts.
#include "gpuconform/record_writer.hpp"

#include <gtest/gtest.h>

#include "gpuconform/probe.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

Probe probe_of(ExpectationKind kind, double min_tol = 0.25) {
  Probe p{"latency.alu.fma.rn.f32", Family::latency, "test", {}, {kind, min_tol, 0, 0.05}, nullptr};
  return p;
}

Measurement m(double v, const std::string& unit = "cycles") {
  Measurement x;
  x.value = v;
  x.unit = unit;
  return x;
}

TEST(RecordWriter, DeterministicBandGetsTheFloorTolerance) {
  const Expectation e = derive_expectation(probe_of(ExpectationKind::band), {m(4.02), m(4.02), m(4.02)}, "run:x:1");
  EXPECT_DOUBLE_EQ(*e.value, 4.02);
  EXPECT_DOUBLE_EQ(*e.tol, 0.25);
  EXPECT_EQ(e.unit, "cycles");
  EXPECT_EQ(e.source, "run:x:1");
}

TEST(RecordWriter, NoisyBandWidensToThreeAndFiveTimesTheRunNoise) {
  // One board, largest run deviation 10: a run's sigma; drift 3 x 10, fail 5 x 10.
  const Expectation e = derive_expectation(probe_of(ExpectationKind::band, 0.1), {m(500), m(510), m(490)}, "run:x:1");
  EXPECT_DOUBLE_EQ(*e.value, 500);
  EXPECT_DOUBLE_EQ(*e.drift_tol, 30);
  EXPECT_DOUBLE_EQ(*e.tol, 50);
}

TEST(RecordWriter, ASmallValueKeepsFourSignificantDigits) {
  // An error ratio of 1.23456e-4 (numeric.profile): three decimals would write 0.
  const Expectation e = derive_expectation(probe_of(ExpectationKind::band, 1e-6),
                                           {m(1.23456e-4, "ratio"), m(1.23456e-4, "ratio")}, "run:x:1");
  EXPECT_DOUBLE_EQ(*e.value, 1.235e-4);
  const Expectation big = derive_expectation(probe_of(ExpectationKind::band), {m(286.12345)}, "run:x:1");
  EXPECT_DOUBLE_EQ(*big.value, 286.123);
}

BoardRuns board(const std::string& gpu, std::vector<Measurement> runs, std::optional<double> seconds = {}) {
  return BoardRuns{gpu, "run:" + gpu + ":1", std::move(runs), seconds};
}

TEST(RecordWriter, WithoutAPolicyClassBothBoardsLieInsideAndFailEqualsDrift) {
  // Two deterministic boards 8 cycles apart: centred between them, half-width
  // 3 x 0 + 4 = 4, both medians on its edges; no class, so no drift fields.
  const Expectation e =
      derive_expectation_across(probe_of(ExpectationKind::band),
                                {board("GPU-aaaaaaaa-1", {m(290), m(290), m(290)}), board("GPU-bbbbbbbb-2", {m(282)})});
  EXPECT_DOUBLE_EQ(*e.value, 286);
  EXPECT_DOUBLE_EQ(*e.tol, 4);
  EXPECT_FALSE(e.has_drift());
  EXPECT_EQ(e.source, "run:GPU-aaaaaaaa-1:1");
  EXPECT_NE(e.note.find("2 boards (aaaaaaaa 290 (median of 3), bbbbbbbb 282)"), std::string::npos) << e.note;
  EXPECT_NE(e.note.find("no class of the band policy matched"), std::string::npos) << e.note;
  EXPECT_NE(e.note.find("also run:GPU-bbbbbbbb-2:1"), std::string::npos) << e.note;
}

TEST(RecordWriter, BandAcrossBoardsAddsTheNoiseWithinABoard) {
  const Expectation e = derive_expectation_across(probe_of(ExpectationKind::band, 0.1),
                                                  {board("GPU-a", {m(99), m(100), m(101)}), board("GPU-b", {m(110)})});
  EXPECT_DOUBLE_EQ(*e.value, 105);
  EXPECT_DOUBLE_EQ(*e.drift_tol, 8);  // the farthest board 5 + 3 x the run noise 1
  EXPECT_DOUBLE_EQ(*e.tol, 10);       // + (5 - 3) x sigma 1
}

TEST(RecordWriter, OneBoardAcrossIsTheSingleBoardRule) {
  const Expectation a = derive_expectation(probe_of(ExpectationKind::band, 0.1), {m(500), m(510), m(490)}, "run:x:1");
  const Expectation b = derive_expectation_across(probe_of(ExpectationKind::band, 0.1),
                                                  {BoardRuns{"", "run:x:1", {m(500), m(510), m(490)}, {}}});
  EXPECT_EQ(*a.value, *b.value);
  EXPECT_EQ(*a.tol, *b.tol);
  EXPECT_EQ(a.note, b.note);
}

TEST(RecordWriter, SecondsIsTheLargestOverTheBoards) {
  const Expectation e =
      derive_expectation_across(probe_of(ExpectationKind::band),
                                {board("GPU-a", {m(4)}, 0.5), board("GPU-b", {m(4)}), board("GPU-c", {m(4)}, 1.25)});
  ASSERT_TRUE(e.seconds);
  EXPECT_DOUBLE_EQ(*e.seconds, 1.3);  // rounded up to two digits
}

TEST(RecordWriter, FractionOfPeakWithoutAClassKeepsTheProbesOwnMargin) {
  Measurement a = m(3.0e12, "B/s"), b = m(2.9e12, "B/s");
  a.peak = b.peak = 3.35e12;
  const Expectation e = derive_expectation(probe_of(ExpectationKind::fraction_of_peak), {a, b}, "run:x:1");
  // median 0.880597 of peak, run noise 0.014925: drift 0.880597 - 3 x 0.014925 = 0.835821
  // -> 0.8358; fail 0.835821 - 0.05 x 0.880597 = 0.791791 -> 0.7917 (four digits, rounded
  // down: no longer two decimals, which gave away up to 1 % of peak)
  EXPECT_DOUBLE_EQ(*e.drift_min_fraction, 0.8358);
  EXPECT_DOUBLE_EQ(*e.min_fraction, 0.7917);
  EXPECT_NE(e.note.find("the probe's margin 0.05 x |centre|"), std::string::npos) << e.note;
}

TEST(RecordWriter, ExactRefusesARunWithMismatches) {
  Measurement bad = m(3, "mismatches");
  bad.compared = 100;
  bad.note("model", "sm_90.mma_sync.f32.f16");
  EXPECT_THROW(derive_expectation(probe_of(ExpectationKind::exact), {bad}, "run:x:1"), std::runtime_error);
  Measurement good = m(0, "mismatches");
  good.compared = 100;
  good.note("model", "sm_90.mma_sync.f32.f16");
  const Expectation e = derive_expectation(probe_of(ExpectationKind::exact), {good}, "run:x:1");
  EXPECT_EQ(e.model, "sm_90.mma_sync.f32.f16");
}

TEST(RecordWriter, RenderedFileParsesBackIdentically) {
  ExpectationFile f;
  f.arch = "sm_90";
  f.description = "H100 \"SXM\"";
  Expectation e = derive_expectation(probe_of(ExpectationKind::band), {m(4.02)}, "cite:a paper, Table 2");
  f.entries.push_back(e);
  std::vector<Diagnostic> diags;
  const ExpectationFile back = parse_expectation_text(render_expectation_file(f), test::fixture("r.toml"), diags);
  ASSERT_TRUE(diags.empty()) << diags.front().str();
  EXPECT_EQ(back.description, f.description);
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_DOUBLE_EQ(*back.entries[0].value, 4.02);
  EXPECT_DOUBLE_EQ(*back.entries[0].tol, 0.25);
  EXPECT_EQ(back.entries[0].source, "cite:a paper, Table 2");
}

// A derived fraction entry (bandwidth of a 9.56e11 B/s peak, say) to set a hand-written field on.
ExpectationFile fraction_file(double value, double peak) {
  Measurement a = m(value, "B/s");
  a.peak = peak;
  ExpectationFile f;
  f.arch = "sm_90";
  f.entries.push_back(derive_expectation(probe_of(ExpectationKind::fraction_of_peak), {a}, "cite:a paper, Table 2"));
  return f;
}

// The file as a re-derivation rewrites it, parsed back; fails the test on any diagnostic.
ExpectationFile written_and_parsed_back(const ExpectationFile& f) {
  std::vector<Diagnostic> diags;
  ExpectationFile back = parse_expectation_text(render_expectation_file(f), test::fixture("r.toml"), diags);
  EXPECT_TRUE(diags.empty()) << diags.front().str();
  return back;
}

// at_max_clock is set by hand on a fraction entry and must survive a re-derivation's rewrite.
TEST(RecordWriter, AtMaxClockIsWrittenOnlyWhenSetAndParsesBack) {
  ExpectationFile f = fraction_file(3.0e12, 3.35e12);
  EXPECT_EQ(render_expectation_file(f).find("at_max_clock"), std::string::npos);
  f.entries[0].at_max_clock = true;
  const ExpectationFile back = written_and_parsed_back(f);
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_TRUE(back.entries[0].at_max_clock);
}

// node_gpus is set by hand on a node probe's entry and must survive a re-derivation's rewrite.
TEST(RecordWriter, NodeGpusIsWrittenOnlyWhenSetAndParsesBack) {
  ExpectationFile f = fraction_file(7.8e11, 9.56e11);
  EXPECT_EQ(render_expectation_file(f).find("node_gpus"), std::string::npos);
  f.entries[0].node_gpus = 2;
  const ExpectationFile back = written_and_parsed_back(f);
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries[0].node_gpus, 2);
}

}  // namespace
}  // namespace gpuconform
