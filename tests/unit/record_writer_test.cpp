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

TEST(RecordWriter, NoisyBandWidensToThreeTimesTheWorstDeviation) {
  const Expectation e = derive_expectation(probe_of(ExpectationKind::band, 0.1), {m(500), m(510), m(490)}, "run:x:1");
  EXPECT_DOUBLE_EQ(*e.value, 500);
  EXPECT_DOUBLE_EQ(*e.tol, 30);
}

TEST(RecordWriter, BandAcrossGpusCoversEveryBoardWithHalfAgainTheirSpread) {
  // Two boards, each deterministic, 8 cycles apart: centred between them, half-width
  // 1.5 x 4 = 6, so both medians sit well inside and a third board may differ a little more.
  const Expectation e = derive_expectation_across(probe_of(ExpectationKind::band),
                                                  {{m(290), m(290), m(290)}, {m(282)}}, "run:a:1", {"run:b:7"});
  EXPECT_DOUBLE_EQ(*e.value, 286);
  EXPECT_DOUBLE_EQ(*e.tol, 6);
  EXPECT_NE(e.note.find("4 runs on 2 GPUs, per-GPU medians 290, 282"), std::string::npos) << e.note;
  EXPECT_NE(e.note.find("also run:b:7"), std::string::npos) << e.note;
}

TEST(RecordWriter, BandAcrossGpusAddsTheNoiseWithinABoard) {
  const Expectation e = derive_expectation_across(probe_of(ExpectationKind::band, 0.1),
                                                  {{m(99), m(100), m(101)}, {m(110)}}, "run:a:1");
  EXPECT_DOUBLE_EQ(*e.value, 105);
  EXPECT_DOUBLE_EQ(*e.tol, 11);  // 3 x 1 + 1.5 x 5 = 10.5, rounded up to two digits
}

TEST(RecordWriter, OneGpuAcrossIsTheSingleGpuRule) {
  const Expectation a = derive_expectation(probe_of(ExpectationKind::band, 0.1), {m(500), m(510), m(490)}, "run:x:1");
  const Expectation b =
      derive_expectation_across(probe_of(ExpectationKind::band, 0.1), {{m(500), m(510), m(490)}}, "run:x:1");
  EXPECT_EQ(*a.value, *b.value);
  EXPECT_EQ(*a.tol, *b.tol);
  EXPECT_EQ(a.note, b.note);
}

TEST(RecordWriter, FractionOfPeakKeepsAMarginBelowTheWorstRun) {
  Measurement a = m(3.0e12, "B/s"), b = m(2.9e12, "B/s");
  a.peak = b.peak = 3.35e12;
  const Expectation e = derive_expectation(probe_of(ExpectationKind::fraction_of_peak), {a, b}, "run:x:1");
  // worst run 0.8657 of peak, less 5% -> 0.82 (rounded down)
  EXPECT_DOUBLE_EQ(*e.min_fraction, 0.82);
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

}  // namespace
}  // namespace gpuconform
