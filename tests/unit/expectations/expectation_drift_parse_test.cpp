// SPDX-License-Identifier: Apache-2.0
// The drift fields and `seconds` are parsed as strictly as the rest: each applies to one
// kind, and a drift band must lie inside the fail band, or the file is rejected with
// file:line:col.
#include <gtest/gtest.h>

#include "gpuconform/expectation.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

std::string entry(const std::string& kind, const std::string& fields) {
  return "[meta]\narch = \"sm_90\"\n\n[probe.\"latency.mem.l2_near\"]\nkind = \"" + kind + "\"\n" + fields +
         "unit = \"cycles\"\nsource = \"cite:test\"\n";
}

std::vector<Diagnostic> parse(const std::string& text, ExpectationFile* out = nullptr) {
  std::vector<Diagnostic> diags;
  ExpectationFile f = parse_expectation_text(text, test::fixture("inline.toml"), diags);
  if (out) *out = f;
  return diags;
}

std::string all_messages(const std::vector<Diagnostic>& diags) {
  std::string text;
  for (const auto& d : diags) text += d.str() + "\n";
  return text;
}

TEST(ExpectationDriftParse, BandWithBothBandsAndSecondsParses) {
  ExpectationFile f;
  const auto diags = parse(entry("band", "value = 275.7\ntol = 21\ndrift_tol = 3.1\nseconds = 0.25\n"), &f);
  ASSERT_TRUE(diags.empty()) << all_messages(diags);
  ASSERT_EQ(f.entries.size(), 1u);
  EXPECT_DOUBLE_EQ(*f.entries[0].drift_tol, 3.1);
  EXPECT_DOUBLE_EQ(*f.entries[0].seconds, 0.25);
  EXPECT_TRUE(f.entries[0].has_drift());
}

TEST(ExpectationDriftParse, EachKindTakesItsOwnDriftField) {
  EXPECT_TRUE(parse(entry("min", "min = 1\ndrift_min = 2\n")).empty());
  EXPECT_TRUE(parse(entry("max", "max = 9\ndrift_max = 8\n")).empty());
  EXPECT_TRUE(parse(entry("fraction_of_peak", "min_fraction = 0.79\ndrift_min_fraction = 0.85\n")).empty());
  EXPECT_TRUE(parse(entry("band", "value = 100\ntol_rel = 0.1\ndrift_tol_rel = 0.05\n")).empty());
}

TEST(ExpectationDriftParse, DriftFieldOfAnotherKindIsRejectedAtTheKey) {
  const auto diags = parse(entry("band", "value = 275.7\ntol = 21\ndrift_min = 3\n"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].where.line, 8);
  EXPECT_NE(diags[0].message.find("'drift_min' does not apply to kind 'band'"), std::string::npos);
}

TEST(ExpectationDriftParse, DriftBandWiderThanTheFailBandIsRejected) {
  const auto diags = parse(entry("band", "value = 275.7\ntol = 3\ndrift_tol = 21\n"));
  ASSERT_EQ(diags.size(), 1u) << all_messages(diags);
  EXPECT_NE(diags[0].str().find("inline.toml:4:8"), std::string::npos) << diags[0].str();
  EXPECT_NE(diags[0].message.find("must lie inside the fail band"), std::string::npos);
}

TEST(ExpectationDriftParse, DriftLimitsOutsideTheFailLimitsAreRejected) {
  EXPECT_EQ(parse(entry("min", "min = 2\ndrift_min = 1\n")).size(), 1u);
  EXPECT_EQ(parse(entry("max", "max = 8\ndrift_max = 9\n")).size(), 1u);
  EXPECT_EQ(parse(entry("fraction_of_peak", "min_fraction = 0.85\ndrift_min_fraction = 0.79\n")).size(), 1u);
  EXPECT_EQ(parse(entry("band", "value = 1\ntol = 1\ndrift_tol = -0.5\n")).size(), 1u);
}

TEST(ExpectationDriftParse, SecondsMustBeAPositiveNumber) {
  EXPECT_EQ(parse(entry("band", "value = 1\ntol = 1\nseconds = 0\n")).size(), 1u);
  const auto diags = parse(entry("band", "value = 1\ntol = 1\nseconds = \"2 s\"\n"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("'seconds' must be a number"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform
