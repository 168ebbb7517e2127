// SPDX-License-Identifier: Apache-2.0
// Run records judged again by other expectation files (recorded_judgement.hpp, `gpuconform
// judge`): the value is judged as `run` judged it, what the run decided with the GPU stands.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpuconform/numerics/xz_stream.hpp"
#include "gpuconform/recorded_judgement.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {

// One test line of a run record: `extra` goes into the line, `measured_extra` into "measured".
std::string line(const std::string& probe, double value, const std::string& verdict, const std::string& reason,
                 const std::string& extra = "", const std::string& measured_extra = "") {
  return fmt::format(
      R"({{"schema_version":2,"record":"test","probe":"{}","verdict":"{}","reason":"{}","level":"standard",)"
      R"("device":{{"arch":"sm_90","sku":"0x2330","uuid":"GPU-0000aaaa"}},)"
      R"("measured":{{"value":{},"unit":"B/s"{}}}{}}})",
      probe, verdict, reason, value, measured_extra, extra);
}

RecordedRun recorded(const std::string& text) {
  const std::vector<RecordedRun> runs = parse_run_record_text(text + "\n", "test.jsonl");
  EXPECT_EQ(runs.size(), 1u);
  return runs.empty() ? RecordedRun{} : runs.front();
}

Expectation min_entry(const std::string& probe, double min, std::optional<double> drift_min = std::nullopt) {
  Expectation e;
  e.probe_id = probe;
  e.kind = ExpectationKind::min;
  e.min = min;
  e.drift_min = drift_min;
  e.unit = "B/s";
  e.source = "cite:fixture";
  return e;
}

ExpectationSet set_of(std::vector<Expectation> entries) {
  ExpectationFile file;
  file.path = "fixture.toml";
  file.arch = "sm_90";
  file.entries = std::move(entries);
  ExpectationSet set;
  set.apply(file);
  return set;
}

TEST(RecordedJudgement, TighterFilesFailWhatTheRunPassedAndWiderFilesPassWhatItFailed) {
  const RecordedRun passed = recorded(line("throughput.x", 9, "pass", "measured 9 B/s"));
  const RecordedJudgement tighter = judge_recorded(passed, set_of({min_entry("throughput.x", 10)}));
  EXPECT_TRUE(tighter.judged);
  EXPECT_EQ(tighter.verdict.outcome, Outcome::fail) << tighter.verdict.reason;
  EXPECT_FALSE(tighter.kept_from_run);

  const RecordedRun failed = recorded(line("throughput.x", 9, "fail", "failed in 2 of 2 measurements"));
  const RecordedJudgement wider = judge_recorded(failed, set_of({min_entry("throughput.x", 8)}));
  EXPECT_EQ(wider.verdict.outcome, Outcome::pass) << wider.verdict.reason;
}

TEST(RecordedJudgement, AWarnTheRunMadeOfAFailStaysAWarn) {
  for (const char* reason : {"a transient: 1 of 3 measurements failed, 2 passed (...)",
                             "measured under disturbance (clock event sw_power_cap); the measurement would fail: x"}) {
    const RecordedJudgement j =
        judge_recorded(recorded(line("throughput.x", 9, "warn", reason)), set_of({min_entry("throughput.x", 10)}));
    EXPECT_EQ(j.verdict.outcome, Outcome::warn) << reason;
    EXPECT_TRUE(j.kept_from_run) << reason;
    EXPECT_NE(j.verdict.reason.find(reason), std::string::npos) << j.verdict.reason;
  }
  // A drift warn is the value's own: judged again, it fails tighter files.
  const RecordedJudgement drift = judge_recorded(recorded(line("throughput.x", 9, "warn", "drifted: measured 9 B/s")),
                                                 set_of({min_entry("throughput.x", 10)}));
  EXPECT_EQ(drift.verdict.outcome, Outcome::fail);
}

TEST(RecordedJudgement, AThrottleFaultStaysAFailWhateverTheValue) {
  const RecordedRun fault =
      recorded(line("throughput.x", 9, "fail", "clock event hw_slowdown while the probe ran: a fault of the part"));
  const RecordedJudgement j = judge_recorded(fault, set_of({min_entry("throughput.x", 1)}));
  EXPECT_EQ(j.verdict.outcome, Outcome::fail);
  EXPECT_TRUE(j.kept_from_run);
  EXPECT_NE(j.verdict.reason.find("hw_slowdown"), std::string::npos) << j.verdict.reason;
}

TEST(RecordedJudgement, AProbeWithoutAnEntryIsNotJudged) {
  const RecordedJudgement j =
      judge_recorded(recorded(line("throughput.y", 9, "pass", "")), set_of({min_entry("throughput.x", 10)}));
  EXPECT_FALSE(j.judged);
  EXPECT_EQ(j.verdict.outcome, Outcome::skip);
}

// A node entry holds for nodes of its size: a 2-GPU node's line is not judged by a 4-GPU entry.
TEST(RecordedJudgement, ANodeEntryJudgesOnlyNodesOfItsSize) {
  Expectation e = min_entry("p2p.x", 10);
  e.node_gpus = 4;
  const std::string peers = R"(,"peers":[{"index":1,"uuid":"GPU-0000bbbb"}])";
  const RecordedJudgement two = judge_recorded(recorded(line("p2p.x", 9, "pass", "", peers)), set_of({e}));
  EXPECT_FALSE(two.judged);
  EXPECT_NE(two.verdict.reason.find("nodes of 4 GPUs; this line's node has 2"), std::string::npos)
      << two.verdict.reason;
  e.node_gpus = 2;
  EXPECT_EQ(judge_recorded(recorded(line("p2p.x", 9, "pass", "", peers)), set_of({e})).verdict.outcome, Outcome::fail);
}

// The record's sampling interval is read back: a value below the fail limit whose 95 %
// interval reaches above it has drifted (verdict.hpp), as the run would have judged it.
TEST(RecordedJudgement, TheRecordedSamplingIntervalIsJudgedAsTheRunJudgedIt) {
  const std::string sampling = R"(,"sampling":{"median_ci95":[9.9,10.05],"rel_half_width":0.01})";
  const RecordedRun r = recorded(line("throughput.x", 9.95, "warn", "drifted", "", sampling));
  ASSERT_TRUE(r.measurement.sampling);
  EXPECT_DOUBLE_EQ(r.measurement.sampling->interval.high, 9.95 * 1.01);  // the half-width around the value
  EXPECT_EQ(judge_recorded(r, set_of({min_entry("throughput.x", 10)})).verdict.outcome, Outcome::warn);
  // Without the interval the same value fails.
  EXPECT_EQ(
      judge_recorded(recorded(line("throughput.x", 9.95, "warn", "drifted")), set_of({min_entry("throughput.x", 10)}))
          .verdict.outcome,
      Outcome::fail);
}

TEST(RecordedJudgement, AQuickRunsDriftIsNotWarned) {
  std::string quick = line("throughput.x", 10.5, "pass", "");
  quick.replace(quick.find(R"("level":"standard")"), 18, R"("level":"quick")");
  const ExpectationSet set = set_of({min_entry("throughput.x", 10, 11)});
  EXPECT_EQ(judge_recorded(recorded(quick), set).verdict.outcome, Outcome::pass);
  EXPECT_EQ(judge_recorded(recorded(line("throughput.x", 10.5, "pass", "")), set).verdict.outcome, Outcome::warn);
}

// An at_max_clock entry needs the peak at the board's maximum clock: a field of the record,
// or in older records the leading number of the note.
TEST(RecordedJudgement, ThePeakAtTheMaximumClockComesFromTheFieldOrTheNote) {
  Expectation e;
  e.probe_id = "throughput.x";
  e.kind = ExpectationKind::fraction_of_peak;
  e.min_fraction = 0.9;
  e.at_max_clock = true;
  e.unit = "B/s";
  e.source = "cite:fixture";
  const ExpectationSet set = set_of({e});
  // 95 of a peak of 100 at the measured clock; 120 at the maximum clock: 0.79 there, a lost clock.
  for (const std::string extra : {std::string(R"(,"peak":100,"peak_at_max_clock":120)"),
                                  std::string(R"j(,"peak":100,"notes":{"peak_at_max_clock":"120 B/s (x)"})j")}) {
    const RecordedRun r = recorded(line("throughput.x", 95, "pass", "", "", extra));
    ASSERT_TRUE(r.measurement.peak_at_max_clock) << extra;
    EXPECT_DOUBLE_EQ(*r.measurement.peak_at_max_clock, 120);
    EXPECT_EQ(judge_recorded(r, set).verdict.outcome, Outcome::fail) << extra;
  }
}

// The command: exit 1 when a line fails the files given, 0 when none does, 2 for input it
// cannot use (an unknown architecture, a record that is not one), each with its reason.
TEST(JudgeCli, ExitsByWhatTheFilesSayAndNamesUnusableInput) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("gpuconform-judge-{}", ::getpid());
  fs::create_directories(dir / "expectations");
  fs::copy_file(test::fixture("valid.toml"), dir / "expectations" / "sm_90.toml");  // hbm.read >= 0.8 of peak
  fs::copy(test::fixture("evidence"), dir / "expectations" / "evidence");           // the run records it cites
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text << "\n";
    return (dir / name).string();
  };
  const std::string hbm = R"(,"peak":100)";
  const std::string slow = write("slow.jsonl", line("throughput.hbm.read", 70, "pass", "", "", hbm));
  const std::string fast = write("fast.jsonl", line("throughput.hbm.read", 90, "fail", "", "", hbm));
  std::string other_arch = line("throughput.hbm.read", 90, "pass", "", "", hbm);
  other_arch.replace(other_arch.find("sm_90"), 5, "sm_99");
  const std::string unknown = write("unknown.jsonl", other_arch);
  const std::string broken = write("broken.jsonl", "{not json");
  auto judge = [&](const std::string& record, std::string* out) {
    const std::string cmd = fmt::format("'{}' judge --expectations '{}' '{}' >'{}' 2>&1", GPUCONFORM_CLI,
                                        (dir / "expectations").string(), record, (dir / "out.txt").string());
    const int status = std::system(cmd.c_str());
    std::stringstream text;
    text << std::ifstream(dir / "out.txt").rdbuf();
    *out = text.str();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  std::string out;
  EXPECT_EQ(judge(slow, &out), 1) << out;
  EXPECT_NE(out.find("pass     -> fail  GPU-0000aaaa throughput.hbm.read"), std::string::npos) << out;
  // An xz-compressed record (the excerpts of expectations/evidence/unseen/) reads the same.
  const std::string slow_xz = (dir / "slow.jsonl.xz").string();
  {
    const std::string text = line("throughput.hbm.read", 70, "pass", "", "", hbm) + "\n";
    const std::unique_ptr<ByteSink> sink = create_sink(slow_xz);
    sink->write(text.data(), text.size());
    sink->finish();
  }
  EXPECT_EQ(judge(slow_xz, &out), 1) << out;
  EXPECT_NE(out.find("pass     -> fail  GPU-0000aaaa throughput.hbm.read"), std::string::npos) << out;
  EXPECT_EQ(judge(fast, &out), 0) << out;
  EXPECT_NE(out.find("fail     -> pass"), std::string::npos) << out;
  EXPECT_EQ(judge(unknown, &out), 2) << out;
  EXPECT_NE(out.find("no expectation file for sm_99"), std::string::npos) << out;
  EXPECT_EQ(judge(broken, &out), 2) << out;
  EXPECT_NE(out.find("broken.jsonl:1"), std::string::npos) << out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpuconform
