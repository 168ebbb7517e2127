// SPDX-License-Identifier: Apache-2.0
// Console colour (console_colour.hpp): when it is wanted (terminal, NO_COLOR, TERM=dumb,
// --color) and what is painted (the verdict word, nothing else). The CLI's --color:
// ctest cli.compare_colour.
#include "gpuconform/console_colour.hpp"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

TEST(ConsoleColour, AutoColoursOnlyATerminalWithoutNoColor) {
  EXPECT_TRUE(colour_wanted(ColourMode::automatic, true, nullptr, "xterm-256color"));
  EXPECT_FALSE(colour_wanted(ColourMode::automatic, false, nullptr, "xterm-256color")) << "a pipe or a log";
  EXPECT_FALSE(colour_wanted(ColourMode::automatic, true, "1", "xterm")) << "NO_COLOR set";
  EXPECT_TRUE(colour_wanted(ColourMode::automatic, true, "", "xterm")) << "NO_COLOR empty counts as unset";
  EXPECT_FALSE(colour_wanted(ColourMode::automatic, true, nullptr, "dumb"));
  EXPECT_TRUE(colour_wanted(ColourMode::always, false, "1", "dumb")) << "--color=always overrides";
  EXPECT_FALSE(colour_wanted(ColourMode::never, true, nullptr, "xterm"));
}

TEST(ConsoleColour, ParsesTheModes) {
  EXPECT_EQ(parse_colour_mode("auto"), ColourMode::automatic);
  EXPECT_EQ(parse_colour_mode("always"), ColourMode::always);
  EXPECT_EQ(parse_colour_mode("never"), ColourMode::never);
  EXPECT_EQ(parse_colour_mode("sometimes"), std::nullopt);
}

TEST(ConsoleColour, PaintsTheVerdictWordOnly) {
  EXPECT_EQ(paint_word("fail", true), "\x1b[31mfail\x1b[0m");
  EXPECT_EQ(paint_word("warn", true), "\x1b[33mwarn\x1b[0m");
  EXPECT_EQ(paint_word("pass", true), "pass");
  EXPECT_EQ(paint_word("fail", false), "fail");
  EXPECT_EQ(paint_first_verdict("  GPU 1 fail latency.alu.fail_fast: measured warn", true),
            "  GPU 1 \x1b[31mfail\x1b[0m latency.alu.fail_fast: measured warn");
  EXPECT_EQ(paint_first_verdict("GPU 0 warn throughput.x: drifted", true),
            "GPU 0 \x1b[33mwarn\x1b[0m throughput.x: drifted");
  EXPECT_EQ(paint_first_verdict("  throughput.hbm.read  -12.95%  WORSE, verdict pass -> fail", true),
            "  throughput.hbm.read  -12.95%  \x1b[31mWORSE\x1b[0m, verdict pass -> fail");
  EXPECT_EQ(paint_first_verdict("GPU 0 pass latency.failover", true), "GPU 0 pass latency.failover");
  EXPECT_EQ(paint_first_verdict("GPU 1 fail x", false), "GPU 1 fail x");
}

}  // namespace
}  // namespace gpuconform
