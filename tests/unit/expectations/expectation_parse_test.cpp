// SPDX-License-Identifier: Apache-2.0
// The expectation schema is strict: each kind of bad input must be rejected
// with file:line:col and a message that says what to do.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gpuconform/expectation.hpp"
#include "gpuconform/probe.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<Diagnostic> lint_text(const std::string& text, ExpectationFile* out = nullptr) {
  std::vector<Diagnostic> diags;
  const Registry& reg = Registry::instance();
  // The text is parsed as if it lived beside the fixtures, so run: sources resolve.
  ExpectationFile f = parse_expectation_text(
      text, test::fixture("inline.toml"), diags, [&](const std::string& id) { return reg.find(id) != nullptr; },
      reg.ids());
  if (out) *out = f;
  return diags;
}

std::string valid() { return read(test::fixture("valid.toml")); }

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << "fixture lacks: " << from;
  if (pos != std::string::npos) text.replace(pos, from.size(), to);
  return text;
}

TEST(ExpectationParse, ValidFileParsesEveryEntryAndWaiver) {
  ExpectationFile f;
  const auto diags = lint_text(valid(), &f);
  ASSERT_TRUE(diags.empty()) << diags.front().str();
  EXPECT_EQ(f.arch, "sm_90");
  ASSERT_EQ(f.entries.size(), 3u);
  ASSERT_EQ(f.waivers.size(), 1u);
  const Expectation& band = f.entries[0];
  EXPECT_EQ(band.probe_id, "latency.alu.fma.rn.f32");
  EXPECT_EQ(band.kind, ExpectationKind::band);
  EXPECT_DOUBLE_EQ(*band.value, 4.0);
  EXPECT_DOUBLE_EQ(band.band_half_width(), 0.25);
  EXPECT_EQ(band.where.line, 7);
}

TEST(ExpectationParse, NodeGpusIsAWholeNumberOfGpusOfAtLeastTwo) {
  ExpectationFile f;
  const auto ok = lint_text(replace(valid(), "tol = 0.25", "tol = 0.25\nnode_gpus = 2"), &f);
  ASSERT_TRUE(ok.empty()) << ok.front().str();
  EXPECT_EQ(f.entries[0].node_gpus, 2);
  for (const std::string bad : {"node_gpus = 1", "node_gpus = 2.5", "node_gpus = \"two\""}) {
    const auto diags = lint_text(replace(valid(), "tol = 0.25", "tol = 0.25\n" + bad));
    ASSERT_EQ(diags.size(), 1u) << bad;
    EXPECT_NE(diags[0].message.find("'node_gpus' must be a whole number of GPUs, at least 2"), std::string::npos)
        << diags[0].str();
  }
}

TEST(ExpectationParse, UnknownKeyIsRejectedWithPositionAndHint) {
  const auto diags = lint_text(replace(valid(), "tol = 0.25", "tolerance = 0.25"));
  ASSERT_EQ(diags.size(), 2u);  // the unknown key, and the band left without a tolerance
  EXPECT_EQ(diags[0].where.line, 10);
  EXPECT_EQ(diags[0].where.column, 1);
  EXPECT_NE(diags[0].message.find("unknown key in probe entry 'tolerance'"), std::string::npos) << diags[0].message;
  EXPECT_NE(diags[1].message.find("needs 'tol' or 'tol_rel'"), std::string::npos);
}

TEST(ExpectationParse, WrongTypeIsRejectedAtTheValue) {
  const auto diags = lint_text(replace(valid(), "value = 4.0", "value = \"four\""));
  ASSERT_FALSE(diags.empty());
  EXPECT_EQ(diags[0].where.line, 9);
  EXPECT_EQ(diags[0].where.column, 9);
  EXPECT_NE(diags[0].message.find("'value' must be a number, not a string"), std::string::npos);
}

TEST(ExpectationParse, MissingProvenanceIsRejected) {
  const auto diags = lint_text(replace(valid(), "source = \"run:evidence/sample.jsonl:2\"\n", ""));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("has no 'source'"), std::string::npos);
  EXPECT_EQ(diags[0].where.line, 14);
}

TEST(ExpectationParse, MissingUnitIsRejected) {
  const auto diags = lint_text(replace(valid(), "unit = \"cycles\"\n", ""));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("has no 'unit'"), std::string::npos);
}

TEST(ExpectationParse, UnknownProbeSuggestsTheClosestId) {
  const auto diags = lint_text(replace(valid(), "latency.alu.fma.rn.f32", "latency.alu.fma.rn.f33"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("did you mean 'latency.alu.fma.rn.f32'"), std::string::npos) << diags[0].message;
}

TEST(ExpectationParse, UnknownKindListsTheAllowedKinds) {
  const auto diags = lint_text(replace(valid(), "kind = \"band\"", "kind = \"range\""));
  ASSERT_FALSE(diags.empty());
  EXPECT_NE(diags[0].message.find("allowed: band, min, max"), std::string::npos);
}

TEST(ExpectationParse, KeyOfAnotherKindIsRejected) {
  const auto diags = lint_text(replace(valid(), "min_fraction = 0.8", "min_fraction = 0.8\ntol = 0.1"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("'tol' does not apply to kind 'fraction_of_peak'"), std::string::npos);
}

TEST(ExpectationParse, FractionOutsideItsRangeIsRejected) {
  const auto diags = lint_text(replace(valid(), "min_fraction = 0.8", "min_fraction = 3"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("(0, 2]"), std::string::npos);
}

TEST(ExpectationParse, RunSourceMustExistAndNameTheProbe) {
  auto diags = lint_text(replace(valid(), "sample.jsonl:1", "missing.jsonl:1"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("not found"), std::string::npos);
  diags = lint_text(replace(valid(), "sample.jsonl:1", "sample.jsonl:2"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("is not a record of probe 'latency.alu.fma.rn.f32'"), std::string::npos);
  diags = lint_text(replace(valid(), "sample.jsonl:1", "sample.jsonl:99"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("fewer than 99 lines"), std::string::npos);
}

TEST(ExpectationParse, SourceNeedsAKnownScheme) {
  const auto diags = lint_text(replace(valid(), "cite:fixture citation, Table 1", "my notebook"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("must start with 'run:'"), std::string::npos);
}

TEST(ExpectationParse, TomlSyntaxErrorReportsLineAndColumn) {
  const auto diags = lint_text(replace(valid(), "tol = 0.25", "tol = = 0.25"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].where.line, 10);
  EXPECT_GT(diags[0].where.column, 1);
}

TEST(ExpectationParse, WaiverNeedsAReasonAndALink) {
  const auto diags = lint_text(replace(valid(), "link = \"https://example.invalid/issue/1\"\n", ""));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("waiver needs 'link'"), std::string::npos);
}

TEST(ExpectationParse, FileWithoutMetaIsRejected) {
  const auto diags = lint_text(replace(valid(), "[meta]\narch = \"sm_90\"\n", ""));
  ASSERT_FALSE(diags.empty());
  EXPECT_NE(diags.back().message.find("missing [meta]"), std::string::npos);
}

TEST(ExpectationParse, UnreadableFileIsADiagnosticNotACrash) {
  std::vector<Diagnostic> diags;
  parse_expectation_file(test::fixture("no_such_file.toml"), diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform
