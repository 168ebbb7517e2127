// SPDX-License-Identifier: Apache-2.0
// `at_max_clock` (expectation.hpp): a fraction_of_peak entry whose min_fraction holds at
// the board's maximum SM clock too. Parsed as strictly as the other fields; judged so that a
// board stuck at a lower clock fails an entry it would pass per measured clock, with a
// reason naming both clocks; a missing max-clock peak is a probe defect, never a pass.
#include <gtest/gtest.h>

#include "gpuconform/expectation.hpp"
#include "gpuconform/verdict.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

std::string entry(const std::string& kind, const std::string& fields) {
  return "[meta]\narch = \"sm_90\"\n\n[probe.\"throughput.alu.fma.rn.f32\"]\nkind = \"" + kind + "\"\n" + fields +
         "unit = \"FLOP/s\"\nsource = \"cite:test\"\n";
}

std::vector<Diagnostic> parse(const std::string& text, ExpectationFile* out = nullptr) {
  std::vector<Diagnostic> diags;
  ExpectationFile f = parse_expectation_text(text, test::fixture("inline.toml"), diags);
  if (out) *out = f;
  return diags;
}

TEST(AtMaxClockParse, AFractionOfPeakEntryTakesIt) {
  ExpectationFile f;
  ASSERT_TRUE(parse(entry("fraction_of_peak", "min_fraction = 0.9\nat_max_clock = true\n"), &f).empty());
  ASSERT_EQ(f.entries.size(), 1u);
  EXPECT_TRUE(f.entries[0].at_max_clock);
  ASSERT_TRUE(parse(entry("fraction_of_peak", "min_fraction = 0.9\n"), &f).empty());
  EXPECT_FALSE(f.entries[0].at_max_clock) << "off unless the entry says so";
}

TEST(AtMaxClockParse, AnotherKindOrAValueOtherThanABooleanIsRejectedAtTheKey) {
  auto diags = parse(entry("min", "min = 1\nat_max_clock = true\n"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].where.line, 7);
  EXPECT_NE(diags[0].message.find("'at_max_clock' does not apply to kind 'min'"), std::string::npos)
      << diags[0].message;
  diags = parse(entry("fraction_of_peak", "min_fraction = 0.9\nat_max_clock = 1\n"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("'at_max_clock' must be true or false"), std::string::npos) << diags[0].message;
}

Expectation fma_entry(bool at_max_clock) {
  Expectation e;
  e.probe_id = "throughput.alu.fma.rn.f32";
  e.kind = ExpectationKind::fraction_of_peak;
  e.min_fraction = 0.9;
  e.drift_min_fraction = 0.96;
  e.at_max_clock = at_max_clock;
  e.unit = "FLOP/s";
  e.source = "cite:test";
  e.where = Location{"sm_90.toml", 10, 1};
  return e;
}

// FFMA at `fraction` of 256 FLOP/clk/SM x 132 SMs at `mhz`, on a board whose maximum is 1980 MHz.
Measurement fma(double fraction, double mhz) {
  Measurement m;
  m.unit = "FLOP/s";
  m.sm_clock_mhz = mhz;
  m.peak = 256.0 * 132 * mhz * 1e6;
  m.peak_formula = "256 FLOP/clk/SM x 132 SMs x measured clock";
  m.peak_at_max_clock = 256.0 * 132 * 1980 * 1e6;
  m.value = fraction * *m.peak;
  return m;
}

TEST(AtMaxClockVerdict, ABoardAtItsMaximumClockIsJudgedAsBefore) {
  EXPECT_EQ(judge(fma(0.98, 1980), fma_entry(true)).outcome, Outcome::pass);
  EXPECT_EQ(judge(fma(0.93, 1980), fma_entry(true)).outcome, Outcome::warn) << "the drift band still warns";
  EXPECT_EQ(judge(fma(0.85, 1980), fma_entry(true)).outcome, Outcome::fail);
}

TEST(AtMaxClockVerdict, AStuckClockFailsWhatPassesPerClockAndSaysWhy) {
  const Measurement stuck = fma(0.98, 1755);  // 0.98 x 1755 / 1980 = 0.869 of the max-clock peak
  EXPECT_EQ(judge(stuck, fma_entry(false)).outcome, Outcome::pass) << "per clock the pipe is healthy";
  const Verdict v = judge(stuck, fma_entry(true));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("= 0.980 of peak"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("0.869 of the peak at the maximum SM clock"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("expected >= 0.900 of peak (at the measured and at the maximum SM clock)"),
            std::string::npos)
      << v.reason;
  EXPECT_NE(v.reason.find("the SMs ran at 1755 MHz, 0.886 of the board's maximum 1980 MHz"), std::string::npos)
      << v.reason;
}

TEST(AtMaxClockVerdict, OnlyTheFailLimitAppliesAtTheMaximumClock) {
  // Healthy boards run these loads at 0.99-1.008 of their maximum clock: enough to leave a
  // tight drift band, so the drift band is judged per measured clock only.
  EXPECT_EQ(judge(fma(0.965, 1965), fma_entry(true)).outcome, Outcome::pass);
}

// With the clock entry's fail limit as the floor (health.under_load.sm_clock, 0.9605 on
// sm_90), the one 15 MHz step a healthy board drops under load passes on a value just above
// min_fraction, and a clock 14 % short still fails, naming the limit it missed.
TEST(AtMaxClockVerdict, TheClockFloorPassesOneStepAndFailsAStuckClock) {
  JudgeOptions options;
  options.max_clock_floor = 0.9605;
  const Measurement one_step = fma(0.905, 1965);  // 0.898 of the max-clock peak
  EXPECT_EQ(judge(one_step, fma_entry(true)).outcome, Outcome::fail) << "without the floor";
  EXPECT_EQ(judge(one_step, fma_entry(true), options).outcome, Outcome::warn) << "the drift band (0.96) warns";
  const Verdict stuck = judge(fma(0.98, 1700), fma_entry(true), options);  // 0.841 < 0.9 x 0.9605
  EXPECT_EQ(stuck.outcome, Outcome::fail);
  EXPECT_NE(stuck.reason.find("0.841 of the peak at the maximum SM clock is below 0.864"), std::string::npos)
      << stuck.reason;
}

TEST(AtMaxClockVerdict, AnEntryForAProbeWithoutAMaxClockPeakIsAProbeDefect) {
  Measurement m = fma(0.98, 1980);
  m.peak_at_max_clock.reset();
  EXPECT_EQ(judge(m, fma_entry(false)).outcome, Outcome::pass);
  const Verdict v = judge(m, fma_entry(true));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("the probe reported none"), std::string::npos) << v.reason;
}

}  // namespace
}  // namespace gpuconform
