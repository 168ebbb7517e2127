// SPDX-License-Identifier: Apache-2.0
// The runner's process layer on the CPU: a fake worker (tests/fake_worker)
// hangs, crashes, loses its "context" or talks nonsense, and the runner must
// fail exactly that probe with the reason and carry on with a fresh worker.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "gpuconform/record_listener.hpp"
#include "gpuconform/runner.hpp"
#include "lambda_listener.hpp"

namespace gpuconform {
namespace {

struct Seen {
  std::string probe, verdict, reason;
};

WorkerCommand fake_worker() { return WorkerCommand{GPUCONFORM_FAKE_WORKER, {}}; }

std::vector<Seen> supervise(const std::vector<std::string>& probes, double limit_s = 1,
                               const WorkerCommand& command = fake_worker()) {
  std::vector<Seen> out;
  ProbeSupervision hooks;
  hooks.time_limit = [&](const std::string&) { return limit_s; };
  hooks.finished = [&](const std::string& id, const nlohmann::json& record) {
    out.push_back({id, record.value("verdict", ""), record.value("reason", "")});
  };
  hooks.failed = [&](const std::string& id, const std::string& reason, double) { out.push_back({id, "fail", reason}); };
  hooks.start_limit_s = 2;
  supervise_probes(command, {"--report-fd", "3", "--device", "0"}, probes, hooks);
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(RunnerSupervisor, RunsEveryProbeInOrderInOneWorker) {
  const auto out = supervise({"fake.pass", "fake.fail", "fake.pass"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].verdict, "pass");
  EXPECT_EQ(out[1].verdict, "fail");
  EXPECT_EQ(out[1].reason, "fake") << "the worker's own verdict, untouched";
  EXPECT_EQ(out[2].verdict, "pass");
}

TEST(RunnerSupervisor, AHungProbeTimesOutAndTheRestRunInAFreshWorker) {
  const auto start = std::chrono::steady_clock::now();
  const auto out = supervise({"fake.pass", "fake.hang", "fake.pass", "fake.hang", "fake.fail"}, 1);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].verdict, "pass");
  EXPECT_EQ(out[1].verdict, "fail");
  EXPECT_TRUE(contains(out[1].reason, "timed out after 1 s")) << out[1].reason;
  EXPECT_EQ(out[2].verdict, "pass") << "a fresh worker ran the probe after the hang";
  EXPECT_TRUE(contains(out[3].reason, "timed out after 1 s")) << out[3].reason;
  EXPECT_EQ(out[4].verdict, "fail");
  EXPECT_EQ(out[4].reason, "fake");
  EXPECT_LT(took, 10) << "two 1 s limits must not take long";
}

TEST(RunnerSupervisor, TheLimitIsPerProbe) {
  std::vector<Seen> out;
  ProbeSupervision hooks;
  std::vector<std::string> asked;
  hooks.time_limit = [&](const std::string& id) {
    asked.push_back(id);
    return 0.5;
  };
  hooks.finished = [&](const std::string& id, const nlohmann::json& r) { out.push_back({id, r["verdict"], ""}); };
  hooks.failed = [&](const std::string& id, const std::string& reason, double) { out.push_back({id, "fail", reason}); };
  supervise_probes(fake_worker(), {}, {"fake.pass", "fake.hang"}, hooks);
  EXPECT_EQ(asked, (std::vector<std::string>{"fake.pass", "fake.hang"}));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(contains(out[1].reason, "timed out after 0.5 s")) << out[1].reason;
}

TEST(RunnerSupervisor, ACrashFailsThatProbeWithHowTheWorkerDied) {
  const auto out = supervise({"fake.crash", "fake.pass"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].verdict, "fail");
  EXPECT_TRUE(contains(out[0].reason, "killed by signal 6")) << out[0].reason;
  EXPECT_EQ(out[1].verdict, "pass");
}

TEST(RunnerSupervisor, ALostContextEndsTheWorkerAndTheNextProbeRunsInANewOne) {
  const auto out = supervise({"fake.lost", "fake.pass", "fake.lost", "fake.pass"});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].verdict, "fail");
  EXPECT_EQ(out[0].reason, "fake") << "the worker's verdict names the error; the runner adds nothing";
  EXPECT_EQ(out[1].verdict, "pass");
  EXPECT_EQ(out[3].verdict, "pass");
}

TEST(RunnerSupervisor, AWorkerThatVanishesMidProbeFailsIt) {
  const auto out = supervise({"fake.vanish", "fake.pass"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(contains(out[0].reason, "exited with code 0")) << out[0].reason;
  EXPECT_EQ(out[1].verdict, "pass");
}

TEST(RunnerSupervisor, AWorkerHungBetweenProbesIsReplacedWithoutFailingAnything) {
  const auto start = std::chrono::steady_clock::now();
  const auto out = supervise({"fake.linger", "fake.pass"});  // start limit 2 s
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].verdict, "pass");
  EXPECT_EQ(out[1].verdict, "pass") << out[1].reason;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
}

TEST(RunnerSupervisor, AWorkerThatNeverStartsAProbeFailsThemAllOnce) {
  std::vector<std::string> reasons;
  ProbeSupervision hooks;
  hooks.time_limit = [](const std::string&) { return 1.0; };
  hooks.finished = [&](const std::string& id, const nlohmann::json&) { reasons.push_back(id); };
  hooks.failed = [&](const std::string&, const std::string& reason, double) { reasons.push_back(reason); };
  hooks.start_limit_s = 0.5;
  supervise_probes(fake_worker(), {"--device", "8"}, {"fake.pass", "fake.pass"}, hooks);  // device 8 never reports
  ASSERT_EQ(reasons.size(), 2u) << "no endless restarts";
  for (const auto& r : reasons) EXPECT_TRUE(contains(r, "did not start a probe within 0.5 s")) << r;
}

TEST(RunnerSupervisor, AProtocolViolationFailsTheProbeAndTheRunGoesOn) {
  const auto out = supervise({"fake.garbage", "fake.pass"});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(contains(out[0].reason, "broke the protocol")) << out[0].reason;
  EXPECT_EQ(out[1].verdict, "pass");
}

TEST(RunnerSupervisor, AFatalWorkerFailsEveryRemainingProbeOnce) {
  const auto out = supervise({"fake.pass", "fake.unknown", "fake.pass"});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].verdict, "pass");
  EXPECT_TRUE(contains(out[1].reason, "knows no probe fake.unknown")) << out[1].reason;
  EXPECT_TRUE(contains(out[2].reason, "not run")) << out[2].reason;
}

TEST(RunnerSupervisor, AWorkerThatCannotStartFailsEveryProbeWithTheReason) {
  const auto out = supervise({"fake.pass", "fake.pass"}, 1, WorkerCommand{"/nonexistent/gpuconform", {}});
  ASSERT_EQ(out.size(), 2u);
  for (const auto& o : out) EXPECT_TRUE(contains(o.reason, "cannot start the worker")) << o.reason;
}

TEST(RunnerSupervisor, DescribeReportsTheDeviceOrWhyItCannotBeOpened) {
  std::string error;
  const auto device = describe_device(fake_worker(), {"--device", "0"}, error);
  ASSERT_TRUE(device) << error;
  EXPECT_EQ(device->name, "Fake GPU");
  EXPECT_FALSE(describe_device(fake_worker(), {"--device", "9"}, error));
  EXPECT_TRUE(contains(error, "fallen off the bus")) << error;
  EXPECT_FALSE(describe_device(fake_worker(), {"--device", "8"}, error, 0.5));
  EXPECT_TRUE(contains(error, "did not finish within 0.5 s")) << error;
}

// One GPU end to end (run_gpus) with the fake worker: verdicts, the run record, an unopened GPU.
class RunGpu : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("gpuconform_runner_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    config_.worker = fake_worker();
    config_.expectations_dir = dir_.string();  // empty: no expectation file for the fake GPU
    record_path_ = (dir_ / "run.jsonl").string();
    events_.add(std::make_unique<RecordListener>(record_path_));
    config_.probe_timeout_s = 1;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::vector<nlohmann::json> record() const {
    std::vector<nlohmann::json> lines;
    std::ifstream in(record_path_);
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    return lines;
  }
  std::filesystem::path dir_;
  std::string record_path_;
  RunnerConfig config_;
  RunEvents events_;
};

TEST_F(RunGpu, WritesEveryVerdictBetweenTwoStateSnapshots) {
  const Probe pass{"fake.pass", Family::latency, "s", {}, {}, nullptr};
  const Probe hang{"fake.hang", Family::latency, "s", {}, {}, nullptr};
  std::vector<std::string> seen;
  auto& hooks = static_cast<test::LambdaListener&>(events_.add(std::make_unique<test::LambdaListener>()));
  std::vector<std::string> started;
  hooks.started = [&](std::size_t, const std::string& id, int pass) {
    started.push_back(id + " " + std::to_string(pass));
  };
  hooks.verdict = [&](std::size_t, const TestResult& r, int) {
    seen.push_back(r.probe->id + " " + outcome_name(r.verdict.outcome));
  };
  const OpenedGpu gpu = open_gpu(0, {&pass, &hang, &pass}, config_);
  ASSERT_TRUE(gpu.device);
  EXPECT_EQ(gpu.device->name, "Fake GPU");
  EXPECT_EQ(gpu.probes.size(), 3u) << "standard level: every probe";
  const GpuRun run = run_gpus({gpu}, config_, events_).at(0);
  EXPECT_EQ(started, (std::vector<std::string>{"fake.pass 0", "fake.hang 0", "fake.pass 0"}));
  EXPECT_TRUE(run.open_error.empty());
  EXPECT_EQ(seen, (std::vector<std::string>{"fake.pass pass", "fake.hang fail", "fake.pass pass"}));
  const auto lines = record();
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["record"], "gpu_state");
  EXPECT_EQ(lines[0]["when"], "before");
  EXPECT_EQ(lines[2]["probe"], "fake.hang");
  EXPECT_TRUE(contains(lines[2]["reason"].get<std::string>(), "timed out after 1 s"));
  EXPECT_EQ(lines[2]["device"]["name"], "Fake GPU") << "a runner-made verdict carries the device too";
  EXPECT_EQ(lines[4]["when"], "after");
}

TEST_F(RunGpu, AGpuThatCannotBeOpenedIsAFailureOfThatGpu) {
  const Probe pass{"fake.pass", Family::latency, "s", {}, {}, nullptr};
  const GpuRun run = run_gpus({open_gpu(9, {&pass}, config_)}, config_, events_).at(0);
  EXPECT_FALSE(run.device);
  EXPECT_TRUE(contains(run.open_error, "GPU 9 could not be opened: fake GPU 9 has fallen off the bus"))
      << run.open_error;
  EXPECT_TRUE(run.results.empty());
  const auto lines = record();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["record"], "gpu_open");
  EXPECT_EQ(lines[0]["verdict"], "fail");
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

// The run's deadline (run --timeout): what ran keeps its verdict; the probe running at the
// deadline and every probe after it are skipped with a "run timeout: " reason, long before
// their own limits.
TEST(RunnerSupervisorDeadline, ProbesLeftAtTheDeadlineAreSkippedWithTheReason) {
  std::vector<Seen> out;
  ProbeSupervision hooks;
  hooks.time_limit = [](const std::string&) { return 30.0; };
  hooks.finished = [&](const std::string& id, const nlohmann::json& r) { out.push_back({id, r["verdict"], ""}); };
  hooks.failed = [&](const std::string& id, const std::string& reason, double) { out.push_back({id, "fail", reason}); };
  hooks.skipped = [&](const std::string& id, const std::string& reason, double) {
    out.push_back({id, "skip", reason});
  };
  hooks.run_deadline = WorkerProcess::Clock::now() + std::chrono::milliseconds(1500);
  const auto start = std::chrono::steady_clock::now();
  supervise_probes(fake_worker(), {}, {"fake.pass", "fake.hang", "fake.pass", "fake.fail"}, hooks);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].verdict, "pass");
  EXPECT_EQ(out[1].verdict, "skip");
  EXPECT_EQ(out[1].reason.rfind(kRunTimeoutPrefix, 0), 0u) << out[1].reason;
  EXPECT_TRUE(contains(out[1].reason, "expired while it ran")) << out[1].reason;
  for (int i : {2, 3}) {
    EXPECT_EQ(out[i].verdict, "skip") << out[i].probe;
    EXPECT_TRUE(contains(out[i].reason, "expired before it started")) << out[i].reason;
  }
  EXPECT_LT(took, 10) << "the 30 s probe limit must not be waited for";
}

TEST(RunnerSupervisorDeadline, AnExpiredDeadlineStartsNoWorker) {
  std::vector<Seen> out;
  ProbeSupervision hooks;
  hooks.time_limit = [](const std::string&) { return 30.0; };
  hooks.finished = [&](const std::string& id, const nlohmann::json& r) { out.push_back({id, r["verdict"], ""}); };
  hooks.failed = [&](const std::string& id, const std::string& reason, double) { out.push_back({id, "fail", reason}); };
  hooks.skipped = [&](const std::string& id, const std::string& reason, double) {
    out.push_back({id, "skip", reason});
  };
  hooks.run_deadline = WorkerProcess::Clock::now() - std::chrono::seconds(1);
  supervise_probes(WorkerCommand{"/nonexistent/worker", {}}, {}, {"fake.pass", "fake.pass"}, hooks);
  ASSERT_EQ(out.size(), 2u);
  for (const Seen& s : out) EXPECT_EQ(s.verdict, "skip") << s.reason;
}

TEST(RunnerSupervisorDeadline, AProbePastItsOwnLimitStillFails) {
  std::vector<Seen> out;
  ProbeSupervision hooks;
  hooks.time_limit = [](const std::string&) { return 0.5; };
  hooks.finished = [&](const std::string& id, const nlohmann::json& r) { out.push_back({id, r["verdict"], ""}); };
  hooks.failed = [&](const std::string& id, const std::string& reason, double) { out.push_back({id, "fail", reason}); };
  hooks.skipped = [&](const std::string& id, const std::string& reason, double) {
    out.push_back({id, "skip", reason});
  };
  hooks.run_deadline = WorkerProcess::Clock::now() + std::chrono::seconds(20);
  supervise_probes(fake_worker(), {}, {"fake.hang", "fake.pass"}, hooks);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].verdict, "fail");
  EXPECT_EQ(out[0].reason.rfind(kProbeTimeoutPrefix, 0), 0u) << out[0].reason;
  EXPECT_EQ(out[1].verdict, "pass");
}

}  // namespace
}  // namespace gpuconform
