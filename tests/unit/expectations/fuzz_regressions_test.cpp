// SPDX-License-Identifier: Apache-2.0
// Inputs the fuzzers (tests/fuzz) found, each kept here so the release build (g++, NDEBUG)
// is checked on it too; the fuzz corpora keep them for the sanitizer builds.
#include <gtest/gtest.h>

#include "gpuconform/band_policy.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/toml_guard.hpp"

namespace gpuconform {
namespace {

constexpr const char* kNonAsciiMessage = kTomlUnsafeCharacterMessage;

std::vector<Diagnostic> lint(std::string_view text) {
  std::vector<Diagnostic> diags;
  parse_expectation_text(text, "fuzz.toml", diags);
  return diags;
}

// fuzz_expectation, 2026-11-25: a table header whose key starts with neither a bare-key
// character nor a quote tripped an assertion inside toml++ 3.3.0 (tests/fuzz/toml_assert.hpp);
// it is a parse error with its position.
TEST(FuzzRegressions, TableHeaderStartingWithAnEqualsSign) {
  for (const char* text : {"[=]\n", "# comment\n[= \"cycles\"\n", "[[=]]\n", "[ =]\n"}) {
    const auto diags = lint(text);
    ASSERT_EQ(diags.size(), 1u) << text;
    EXPECT_NE(diags[0].message.find("expected bare key starting character or string delimiter"), std::string::npos)
        << diags[0].str();
    EXPECT_GT(diags[0].where.line, 0) << diags[0].str();
  }
}

// fuzz_expectation, 2026-11-25: a value that starts at a terminator ("x = [[[}") tripped
// another over-strict toml++ assertion (tests/fuzz/toml_assert.hpp); a parse error here.
TEST(FuzzRegressions, ValueStartingAtATerminator) {
  for (const char* text : {"unit = [[[}\n", "unit = [}\n", "x = {a = }\n"}) {
    const auto diags = lint(text);
    ASSERT_EQ(diags.size(), 1u) << text;
    EXPECT_GT(diags[0].where.line, 0) << diags[0].str();
  }
}

// fuzz_expectation, 2026-11-26: a date followed by 't' and no time ("u=0151-01-15tol:0")
// reached toml++ 3.3.0's parse_time at a letter, tripping an over-strict assertion
// (tests/fuzz/toml_assert.hpp); a parse error with its position here.
TEST(FuzzRegressions, DateTimeWithoutATime) {
  for (const char* text : {"u=0151-01-15tol:0\n", "u = 2026-11-26T\n", "u = 2026-11-26 x\n"}) {
    const auto diags = lint(text);
    ASSERT_EQ(diags.size(), 1u) << text;
    EXPECT_GT(diags[0].where.line, 0) << diags[0].str();
  }
}

// fuzz_expectation, a 14-minute random-seed run (issue 21): a date-like value followed by a
// blank and more ("e=0151-01-0= 0#", "e=0151-01-01 0#") made toml++ 3.3.0 read on into the
// comment and ask of U+FE7F whether it is whitespace, reaching __builtin_unreachable(). After a
// date or time in a value, a non-ASCII character in the comment is refused too.
TEST(FuzzRegressions, NonAsciiInACommentAfterADateTimeNeverReachesToml) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"e=0151-01-0= 0#\xef\xb9\xbf\xef\xbb\xbf\xef\xbb\xbf", 16},  // the fuzzer's input
      {"e=0151-01-01 0#\xef\xb9\xbf\n", 16},
      {"t = 12:00 # caf\xc3\xa9\n", 16}};
  for (const auto& [text, column] : cases) {
    const auto diags = lint(text);
    ASSERT_EQ(diags.size(), 1u) << text;
    EXPECT_EQ(diags[0].message, kNonAsciiMessage);
    EXPECT_EQ(diags[0].where.line, 1);
    EXPECT_EQ(diags[0].where.column, column) << text;
  }
  // A comment after any other value may still hold one.
  EXPECT_FALSE(toml_unsafe_character("unit = \"cycles\" # caf\xc3\xa9\n"));
  EXPECT_FALSE(toml_unsafe_character("a = 1 # \xef\xb9\xbf\n"));
  EXPECT_FALSE(toml_unsafe_character("a = -1 # caf\xc3\xa9\n"));  // a sign is not a date
}

// Every TOML reader goes through the guard: the band policy and the peak tables too.
TEST(FuzzRegressions, EveryTomlReaderRefusesTheUnsafeCharacter) {
  const std::string text = "e=0151-01-01 0#\xef\xb9\xbf\n";
  std::vector<Diagnostic> policy_diags, peak_diags;
  parse_band_policy_text(text, "policy.toml", policy_diags);
  ASSERT_FALSE(policy_diags.empty());
  EXPECT_EQ(policy_diags[0].message, kNonAsciiMessage);
  parse_peak_text(text, "peaks/sm_90.toml", peak_diags);
  ASSERT_FALSE(peak_diags.empty());
  EXPECT_EQ(peak_diags[0].message, kNonAsciiMessage);
}

// fuzz_expectation, 2026-11-25: U+048F inside a bare key (and U+00FA after `x = 0"`) made
// toml++ 3.3.0 reach __builtin_unreachable() deciding whether it is whitespace
// (toml_guard.hpp). A non-ASCII character outside strings and comments is now refused
// before toml++ sees it.
TEST(FuzzRegressions, NonAsciiOutsideStringsNeverReachesToml) {
  const std::vector<std::pair<std::string, std::pair<int, int>>> cases = {
      {"[probe.\"x\"]\nso.mma_sync\xd2\x8f" "33 = 1\n", {2, 12}},  // the fuzzer's input, shortened
      {"a = 1 \xc3\xa9\n", {1, 7}},                               // after a value
      {"s = \"\"\"x\\\xc3\xa9\"\"\"\n", {1, 10}},                   // right after a backslash
      {"s = \"\"\"x\\  \n   \xc2\xb5s\"\"\"\n", {2, 4}},            // after a line-ending backslash
      {"a =0\"x\xc3\xba\"\n", {1, 7}},  // a quote where no string may start reads on as bare
      {"a =01.\"\xef\xbb\xbb\"\n", {1, 8}},  // nor after a '.' inside a value (U+FEFB)
      {"d = 6model[\"\xd5\x81\"\n", {1, 13}},  // nor after '[' inside a bare token
      // fuzz_expectation in CI, 2026-11-25: a '=' after a value's bare token inside an
      // inline table, then an unterminated literal string holding U+00C7
      {"txx={xxxx6=0xxxx='expec{u\xc3\x87}}max}Zx", {1, 26}},
      {"a = 'x\xc3\xa9\nb = 1\n", {1, 7}},  // an unterminated string reads on as bare
  };
  for (const auto& [text, where] : cases) {
    const auto diags = lint(text);
    ASSERT_EQ(diags.size(), 1u) << text;
    EXPECT_EQ(diags[0].message, kNonAsciiMessage);
    EXPECT_EQ(std::make_pair(diags[0].where.line, diags[0].where.column), where) << diags[0].str();
  }
}

// What TOML allows stays allowed: non-ASCII in comments and in every kind of string,
// escaped quotes and backslashes included.
TEST(FuzzRegressions, NonAsciiInsideStringsAndCommentsIsFine) {
  const char* text =
      "# µs, é, ± \xd2\x8f\n"
      "a = \"µs \\\" é\"\n"
      "b = 'é \\'\n"
      "c = \"\"\"é\n\\\"\"\" ± \\\\ µ\"\"\"\"\n"
      "d = '''é\n± '''''\n"
      "e = \"\"\"x \\\n  y é\"\"\"\n"
      "f = [\"é\", 'µ', {n = \"±\", m = [1.5, \"°\"]}]\n"
      "g = [\n  \"é\", # ±\n  \"µ\",\n]\n"
      "[probe.\"é\".'µ']\n";
  EXPECT_EQ(toml_unsafe_character(text), std::nullopt);
  const auto diags = lint(text);  // other complaints (no [meta], ...), never this one
  for (const auto& d : diags) EXPECT_NE(d.message, kNonAsciiMessage) << d.str();
}

}  // namespace
}  // namespace gpuconform
