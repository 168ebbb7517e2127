// SPDX-License-Identifier: Apache-2.0
// [[omitted]] records (issue 23): a published figure an expectation file does not judge, with
// the row it comes from and why. The schema is as strict as for entries, and an id may be
// judged or omitted in one file, never both.
#include <gtest/gtest.h>

#include <string>

#include "gpuconform/expectation.hpp"
#include "gpuconform/expectation_writer.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform {
namespace {

std::vector<Diagnostic> parse(const std::string& text, ExpectationFile* out = nullptr) {
  std::vector<Diagnostic> diags;
  const Registry& reg = Registry::instance();
  ExpectationFile f = parse_expectation_text(
      text, "omitted.toml", diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
  if (out) *out = f;
  return diags;
}

const std::string kHead = "[meta]\narch = \"sm_80\"\n";  // lines 1-2
const std::string kEntry =                               // lines 3-8
    "\n[probe.\"latency.alu.add.u32\"]\nkind = \"min\"\nmin = 2\nunit = \"cycles\"\n"
    "source = \"cite:Abdelkhalik et al. 2022, Table V, row add.u32\"\n";

std::string omitted(const std::string& id, const std::string& extra = "") {
  return "\n[[omitted]]\nid = \"" + id +
         "\"\nsource = \"cite:Abdelkhalik et al. 2022, Table V, row abs.f16\"\nreason = \"no probe in the suite\"\n" +
         extra;
}

TEST(OmittedRecords, ParseWithTheirRowAndReason) {
  ExpectationFile f;
  const auto diags = parse(kHead + kEntry + omitted("latency.alu.abs.f16", "note = \"Table V: 1 cycle\"\n"), &f);
  ASSERT_TRUE(diags.empty()) << diags.front().str();
  ASSERT_EQ(f.entries.size(), 1u);
  ASSERT_EQ(f.omitted.size(), 1u);
  EXPECT_EQ(f.omitted[0].id, "latency.alu.abs.f16");  // need not be a registered probe
  EXPECT_EQ(f.omitted[0].reason, "no probe in the suite");
  EXPECT_EQ(f.omitted[0].note, "Table V: 1 cycle");
  EXPECT_EQ(f.omitted[0].where.line, 10);
}

TEST(OmittedRecords, AnIdJudgedAndOmittedIsRejectedAtTheOmission) {
  const auto diags = parse(kHead + kEntry + omitted("latency.alu.add.u32"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].where.line, 10);
  EXPECT_EQ(diags[0].where.file, "omitted.toml");
  EXPECT_NE(diags[0].message.find("'latency.alu.add.u32' is omitted here but is also an entry at line 4"),
            std::string::npos)
      << diags[0].str();
}

TEST(OmittedRecords, OrderDoesNotHideTheConflict) {
  const auto diags = parse(kHead + omitted("latency.alu.add.u32") + kEntry);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].where.line, 4);
  EXPECT_NE(diags[0].message.find("also an entry at line 9"), std::string::npos) << diags[0].str();
}

TEST(OmittedRecords, AnIdOmittedTwiceIsRejected) {
  const auto diags = parse(kHead + omitted("latency.alu.abs.f16") + omitted("latency.alu.abs.f16"));
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].where.line, 9);
  EXPECT_NE(diags[0].message.find("omitted twice (first at line 4)"), std::string::npos) << diags[0].str();
}

TEST(OmittedRecords, StrictSchema) {
  // A missing reason, an unknown key, a source that is not a citation, a table not an array.
  EXPECT_FALSE(parse(kHead + "\n[[omitted]]\nid = \"x.y\"\nsource = \"cite:P, Table 1\"\n").empty());
  EXPECT_FALSE(parse(kHead + omitted("x.y", "why = \"typo\"\n")).empty());
  EXPECT_FALSE(
      parse(kHead + "\n[[omitted]]\nid = \"x.y\"\nsource = \"run:evidence/a.jsonl:1\"\nreason = \"r\"\n").empty());
  EXPECT_FALSE(parse(kHead + "\n[[omitted]]\nid = \"\"\nsource = \"cite:P, Table 1\"\nreason = \"r\"\n").empty());
  EXPECT_FALSE(parse(kHead + "\n[omitted]\nid = \"x.y\"\n").empty());
  const auto diags = parse(kHead + omitted("x.y", "why = \"typo\"\n"));
  ASSERT_FALSE(diags.empty());
  EXPECT_NE(diags[0].message.find("unknown key in [[omitted]] 'why'"), std::string::npos) << diags[0].str();
}

TEST(OmittedRecords, NeverJudgedAndKeptByTheWriter) {
  ExpectationFile f;
  ASSERT_TRUE(parse(kHead + kEntry + omitted("latency.alu.abs.f16", "note = \"1\"\n"), &f).empty());
  ExpectationSet set;
  set.apply(f);
  EXPECT_EQ(set.find("latency.alu.abs.f16"), nullptr);
  ExpectationFile again;
  const auto diags = parse(render_expectation_file(f), &again);
  ASSERT_TRUE(diags.empty()) << diags.front().str();
  ASSERT_EQ(again.omitted.size(), 1u);
  EXPECT_EQ(again.omitted[0].id, "latency.alu.abs.f16");
  EXPECT_EQ(again.omitted[0].note, "1");
}

}  // namespace
}  // namespace gpuconform
