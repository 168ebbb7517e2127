// SPDX-License-Identifier: Apache-2.0
// Whatever text reaches `record` (a --description, a board UUID or unit or model name from
// a run record, a path in a source), the file it writes must parse back to the same text:
// strings go through toml++'s formatter.
#include "gpuconform/expectation_writer.hpp"

#include <gtest/gtest.h>

#include "gpuconform/probe.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

// CR, LF, tab, \x01, DEL, quotes, backslashes, a TOML delimiter and non-ASCII UTF-8.
const std::string kNasty = "a\rb\nc\td\x01" "e\x7f\"q\" \\back\\ ]=[ '' \"\"\" ü€𝄞";

ExpectationFile nasty_file(const std::string& probe_id) {
  ExpectationFile f;
  f.arch = "sm_90";
  f.description = "H100 " + kNasty;
  Expectation band;
  band.probe_id = probe_id;
  band.kind = ExpectationKind::band;
  band.value = 275.665;
  band.tol = 21;
  band.drift_tol = 3.1;
  band.seconds = 0.25;
  band.unit = "cycles " + kNasty;
  band.source = "cite:" + kNasty;
  band.note = kNasty;
  band.sass = {"FFMA", kNasty};
  f.entries.push_back(band);
  Expectation exact = band;
  exact.probe_id = "numeric.mma_sync.m16n8k16.f32.f16";
  exact.kind = ExpectationKind::exact;
  exact.value.reset(), exact.tol.reset(), exact.drift_tol.reset();
  exact.model = "model " + kNasty;
  f.entries.push_back(exact);
  Waiver w;
  w.tests = "latency.*" + kNasty;
  w.devices = {"0x2330", kNasty};
  w.reason = kNasty;
  w.link = "https://example.org/" + kNasty;
  f.waivers.push_back(w);
  return f;
}

TEST(ExpectationWriter, ControlCharactersInEveryStringFieldRoundTrip) {
  const std::string id = "latency." + kNasty;  // the table key too
  const std::string text = render_expectation_file(nasty_file(id));
  std::vector<Diagnostic> diags;
  const ExpectationFile back = parse_expectation_text(text, test::fixture("w.toml"), diags);
  ASSERT_TRUE(diags.empty()) << diags.front().str() << "\n" << text;
  EXPECT_EQ(back.description, "H100 " + kNasty);
  ASSERT_EQ(back.entries.size(), 2u);
  const Expectation& b = back.entries[0];
  EXPECT_EQ(b.probe_id, id);
  EXPECT_EQ(b.unit, "cycles " + kNasty);
  EXPECT_EQ(b.source, "cite:" + kNasty);
  EXPECT_EQ(b.note, kNasty);
  EXPECT_EQ(b.sass, (std::vector<std::string>{"FFMA", kNasty}));
  EXPECT_DOUBLE_EQ(*b.value, 275.665);
  EXPECT_DOUBLE_EQ(*b.drift_tol, 3.1);
  EXPECT_DOUBLE_EQ(*b.seconds, 0.25);
  EXPECT_EQ(back.entries[1].model, "model " + kNasty);
  ASSERT_EQ(back.waivers.size(), 1u);
  EXPECT_EQ(back.waivers[0].tests, "latency.*" + kNasty);
  EXPECT_EQ(back.waivers[0].devices[1], kNasty);
  EXPECT_EQ(back.waivers[0].reason, kNasty);
  EXPECT_EQ(back.waivers[0].link, "https://example.org/" + kNasty);
}

TEST(ExpectationWriter, FileWithControlCharactersLintsCleanAgainstTheRegistry) {
  const Registry& reg = Registry::instance();
  const std::string text = render_expectation_file(nasty_file("latency.alu.fma.rn.f32"));
  std::vector<Diagnostic> diags;
  parse_expectation_text(
      text, test::fixture("w.toml"), diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
  for (const auto& d : diags) ADD_FAILURE() << d.str();
}

TEST(ExpectationWriter, NotesStayOnOneLine) {
  const std::string text = render_expectation_file(nasty_file("latency.alu.fma.rn.f32"));
  EXPECT_NE(text.find("note = \"a\\rb\\nc\\td\\u0001e\\u007F\\\"q\\\" \\\\back\\\\ ]=[ '' \\\"\\\"\\\" ü€𝄞\"\n"),
            std::string::npos)
      << text;
}

TEST(ExpectationWriter, InvalidUtf8BecomesEscapesNotABrokenFile) {
  ExpectationFile f = nasty_file("latency.alu.fma.rn.f32");
  f.description = "bad \xff\xfe bytes";
  std::vector<Diagnostic> diags;
  parse_expectation_text(render_expectation_file(f), test::fixture("w.toml"), diags);
  EXPECT_TRUE(diags.empty()) << diags.front().str();
}

TEST(ExpectationWriter, NonFiniteNumberIsRefused) {
  ExpectationFile f = nasty_file("latency.alu.fma.rn.f32");
  f.entries[0].tol = std::numeric_limits<double>::infinity();
  EXPECT_THROW(render_expectation_file(f), std::invalid_argument);
}

}  // namespace
}  // namespace gpuconform
