// SPDX-License-Identifier: Apache-2.0
// The exit-code contract of `gpuconform run`, case by case (exit_code.hpp).
#include <gtest/gtest.h>

#include "gpuconform/exit_code.hpp"

namespace gpuconform {
namespace {

RunTally tally(std::size_t pass, std::size_t fail, std::size_t warn, std::size_t skip, std::size_t unopened = 0) {
  RunTally t;
  t.passed = pass;
  t.failed = fail;
  t.warned = warn;
  t.skipped = skip;
  t.gpus_unopened = unopened;
  return t;
}

TEST(ExitCode, AllPassedIsZero) { EXPECT_EQ(run_exit_code(tally(5, 0, 0, 0)), RunExit::ok); }

TEST(ExitCode, PassedWithWarningsAndSkipsIsZero) { EXPECT_EQ(run_exit_code(tally(3, 0, 2, 4)), RunExit::ok); }

TEST(ExitCode, OnlyWarningsIsZero) { EXPECT_EQ(run_exit_code(tally(0, 0, 1, 0)), RunExit::ok); }

TEST(ExitCode, OneFailureIsOne) { EXPECT_EQ(run_exit_code(tally(10, 1, 2, 3)), RunExit::failed); }

TEST(ExitCode, FailureAmongSkipsIsOneNotNothingJudged) {
  EXPECT_EQ(run_exit_code(tally(0, 1, 0, 30)), RunExit::failed);
}

TEST(ExitCode, EverySkippedIsNothingJudged) {
  // An L40S or B200 node with no expectation file: every probe skips; never green.
  EXPECT_EQ(run_exit_code(tally(0, 0, 0, 120)), RunExit::nothing_judged);
  EXPECT_EQ(static_cast<int>(RunExit::nothing_judged), 77);
}

TEST(ExitCode, NoResultsAtAllIsNothingJudged) { EXPECT_EQ(run_exit_code(tally(0, 0, 0, 0)), RunExit::nothing_judged); }

TEST(ExitCode, AnUnopenedGpuFailsTheRunEvenWhenTheOthersPassed) {
  EXPECT_EQ(run_exit_code(tally(40, 0, 0, 0, 1)), RunExit::failed);
  EXPECT_EQ(run_exit_code(tally(0, 0, 0, 0, 2)), RunExit::failed);  // every GPU unopened
}

TEST(ExitCode, ValuesAreTheDocumentedOnes) {
  EXPECT_EQ(static_cast<int>(RunExit::ok), 0);
  EXPECT_EQ(static_cast<int>(RunExit::failed), 1);
  EXPECT_EQ(static_cast<int>(RunExit::unusable), 2);
}

}  // namespace
}  // namespace gpuconform
