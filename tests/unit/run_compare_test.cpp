// compare_runs: what counts as moved, and in which order it is reported.
#include "gpuconform/run_compare.hpp"

#include <gtest/gtest.h>

namespace gpuconform {
namespace {

RecordedRun run(const std::string& probe, double value, const std::string& unit, const std::string& verdict = "pass") {
  RecordedRun r;
  r.probe = probe;
  r.verdict = verdict;
  r.gpu = "GPU-test";
  r.measurement.value = value;
  r.measurement.unit = unit;
  return r;
}

TEST(RunCompare, MovedMeansBeyondTheThresholdOrAnyExactDifference) {
  const std::vector<RecordedRun> base = {run("a", 100, "cycles"), run("b", 100, "cycles"),
                                         run("n", 0, "mismatches"), run("gone", 1, "cycles")};
  const std::vector<RecordedRun> cand = {run("a", 101, "cycles"), run("b", 90, "cycles", "fail"),
                                         run("n", 1, "mismatches", "fail"), run("new", 1, "cycles")};
  const RunComparison c = compare_runs(base, cand, 0.02);
  ASSERT_EQ(c.probes.size(), 3u);
  EXPECT_EQ(c.moved_count(), 2);
  // moved first, largest change first: n (+1 from 0 counts as 100%), then b (-10%), then a
  EXPECT_EQ(c.probes[0].probe, "n");
  EXPECT_EQ(c.probes[1].probe, "b");
  EXPECT_NEAR(c.probes[1].relative, -0.10, 1e-12);
  EXPECT_TRUE(c.probes[1].verdict_changed);
  EXPECT_EQ(c.probes[2].probe, "a");
  EXPECT_FALSE(c.probes[2].moved);  // +1% under a 2% threshold
  EXPECT_EQ(c.only_baseline, std::vector<std::string>{"gone"});
  EXPECT_EQ(c.only_candidate, std::vector<std::string>{"new"});
}

TEST(RunCompare, SeveralRunsCompareByMedianAndRecordedIsNoVerdict) {
  const std::vector<RecordedRun> base = {run("a", 100, "cycles", "recorded"), run("a", 200, "cycles", "recorded"),
                                         run("a", 101, "cycles", "recorded")};
  const std::vector<RecordedRun> cand = {run("a", 101, "cycles", "pass")};
  const RunComparison c = compare_runs(base, cand, 0.02);
  ASSERT_EQ(c.probes.size(), 1u);
  EXPECT_DOUBLE_EQ(c.probes[0].baseline, 101);
  EXPECT_EQ(c.probes[0].baseline_runs, 3);
  EXPECT_FALSE(c.probes[0].moved);
  EXPECT_FALSE(c.probes[0].verdict_changed);
}

TEST(RunCompare, AChangedUnitIsAMove) {
  const RunComparison c = compare_runs({run("a", 1, "cycles")}, {run("a", 1, "ns")}, 0.02);
  ASSERT_EQ(c.probes.size(), 1u);
  EXPECT_TRUE(c.probes[0].moved);
}

}  // namespace
}  // namespace gpuconform
