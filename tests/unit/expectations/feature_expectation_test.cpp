// SPDX-License-Identifier: Apache-2.0
// The expectation form of the numeric.feature.* tests: `kind = "exact"` with
// `model = "param:NAME=VALUE"` (one fitted parameter) and provenance `golden:FILE` (the
// hardware vector file the value was inferred from). Kept apart from the general parser
// and verdict tests: the schema change is these three rules only.
#include <gtest/gtest.h>

#include "gpuconform/expectation.hpp"
#include "gpuconform/verdict.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

std::vector<Diagnostic> lint(const std::string& model, const std::string& source) {
  const std::string text = "[meta]\narch = \"sm_90\"\n\n[probe.\"numeric.feature.wgmma.f32.e4m3.fraction_bits\"]\n"
                           "kind = \"exact\"\nmodel = \"" + model + "\"\nunit = \"mismatches\"\nsource = \"" + source + "\"\n";
  std::vector<Diagnostic> diags;
  parse_expectation_text(text, test::fixture("inline.toml"), diags);  // golden: resolves beside the fixtures
  return diags;
}

TEST(FeatureExpectation, ParameterAndGoldenSourceParse) {
  const auto diags = lint("param:fraction_bits=13", "golden:vectors/s32_match.txt");
  EXPECT_TRUE(diags.empty()) << diags.front().str();
}

TEST(FeatureExpectation, MalformedParameterIsRejected) {
  for (const char* bad : {"param:fraction_bits", "param:=13", "param:fraction_bits="}) {
    const auto diags = lint(bad, "cite:x");
    ASSERT_EQ(diags.size(), 1u) << bad;
    EXPECT_NE(diags[0].message.find("param:NAME=VALUE"), std::string::npos) << diags[0].message;
  }
}

TEST(FeatureExpectation, MissingGoldenFileIsRejected) {
  const auto diags = lint("param:fraction_bits=13", "golden:vectors/none.txt.xz");
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("not found"), std::string::npos) << diags[0].message;
}

TEST(FeatureExpectation, VerdictNamesExpectedAndInferredValues) {
  Expectation e;
  e.probe_id = "numeric.feature.wgmma.f32.e4m3.fraction_bits";
  e.kind = ExpectationKind::exact;
  e.model = "param:fraction_bits=13";
  e.unit = "mismatches";
  e.source = "golden:golden/sm_90/wgmma_m64n8k32_f32_e4m3.txt.xz";
  Measurement m;
  m.unit = "mismatches";
  m.compared = 1000;
  m.value = 1;
  m.note("inferred", "fraction_bits = 14");
  const Verdict v = judge(m, e);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("fitted parameter fraction_bits=13"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("inferred fraction_bits = 14"), std::string::npos) << v.reason;
  m.value = 0;
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
}

}  // namespace
}  // namespace gpuconform
