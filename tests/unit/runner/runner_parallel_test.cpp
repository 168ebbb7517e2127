// SPDX-License-Identifier: Apache-2.0
// All GPUs at once (run_gpus) with the fake worker (tests/fake_worker): four fake GPUs
// run concurrently, one hangs and one crashes on the same probe, and the record still
// holds, per GPU UUID, every verdict between two state snapshots, in whole lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "gpuconform/record_listener.hpp"
#include "gpuconform/runner.hpp"
#include "lambda_listener.hpp"

namespace gpuconform {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class RunGpus : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("gpuconform_parallel_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "expectations");
    config_.worker = WorkerCommand{GPUCONFORM_FAKE_WORKER, {}};
    config_.expectations_dir = (dir_ / "expectations").string();  // empty: no file for the fake GPUs
    record_path_ = (dir_ / "run.jsonl").string();
    events_.add(std::make_unique<RecordListener>(record_path_));
    config_.probe_timeout_s = 1;
  }
  void TearDown() override {
    ::unsetenv("GPUCONFORM_FAKE_RENDEZVOUS_DIR");
    ::unsetenv("GPUCONFORM_FAKE_RENDEZVOUS_COUNT");
    std::filesystem::remove_all(dir_);
  }
  // Every line must parse on its own: no two writers' bytes mixed.
  std::vector<nlohmann::json> record() const {
    std::vector<nlohmann::json> lines;
    std::ifstream in(record_path_);
    for (std::string line; std::getline(in, line);) {
      EXPECT_NO_THROW(lines.push_back(nlohmann::json::parse(line))) << line.substr(0, 200);
    }
    return lines;
  }
  static std::vector<const Probe*> ptrs(const std::vector<Probe>& probes) {
    std::vector<const Probe*> out;
    for (const Probe& p : probes) out.push_back(&p);
    return out;
  }
  // The listener the test watches the run through, after the record's.
  test::LambdaListener& watch() {
    return static_cast<test::LambdaListener&>(events_.add(std::make_unique<test::LambdaListener>()));
  }
  std::filesystem::path dir_;
  std::string record_path_;
  RunnerConfig config_;
  RunEvents events_;
};

Probe fake(const std::string& id, Scope scope = Scope::gpu) {
  return Probe{id, Family::latency, "s", {}, {}, nullptr, scope};
}

// Pair and node probes (Probe::scope) wait for every GPU's own probes, then run one worker
// at a time: a pair probe once per ordered pair with --peer B, a node probe once on the
// first GPU with every other as a peer; their results join GPU A's run.
TEST_F(RunGpus, PairProbesRunPerOrderedPairAfterTheGpusOwnProbes) {
  std::filesystem::create_directories(dir_ / "peers");
  ::setenv("GPUCONFORM_FAKE_PEERS_DIR", (dir_ / "peers").c_str(), 1);
  const std::vector<Probe> probes = {fake("fake.pass"), fake("fake.peers", Scope::pair)};
  const std::vector<Probe> node = {fake("fake.peers", Scope::node)};
  auto opened = open_gpus({0, 1, 2}, ptrs(probes), config_);
  auto node_opened = open_gpus({0, 1, 2}, ptrs(node), config_);
  std::vector<std::string> order;
  test::LambdaListener& hooks = watch();
  hooks.verdict = [&](std::size_t gpu, const TestResult& r, int) {
    std::string peers;
    for (const DeviceInfo& p : r.peers) peers += (peers.empty() ? ">" : ",") + std::to_string(p.index);
    order.push_back(std::to_string(gpu) + peers + " " + r.probe->id);
  };
  const auto runs = run_gpus(opened, config_, events_);
  ::unsetenv("GPUCONFORM_FAKE_PEERS_DIR");
  ASSERT_EQ(order.size(), 9u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(order[i].substr(1), " fake.pass") << "own probes first";
  EXPECT_EQ(std::vector<std::string>(order.begin() + 3, order.end()),
            (std::vector<std::string>{"0>1 fake.peers", "0>2 fake.peers", "1>0 fake.peers", "1>2 fake.peers",
                                      "2>0 fake.peers", "2>1 fake.peers"}));
  ASSERT_EQ(runs[1].results.size(), 3u);
  EXPECT_EQ(runs[1].results[2].verdict.reason, "peers: 2");
  EXPECT_EQ(runs[1].results[2].verdict.outcome, Outcome::pass) << "two pair workers overlapped";
  int pair_lines = 0;
  for (const nlohmann::json& line : record())
    if (line.value("probe", "") == "fake.peers") ++pair_lines;
  EXPECT_EQ(pair_lines, 6);

  hooks.verdict = nullptr;
  const auto node_runs = run_gpus(node_opened, config_, events_);
  ASSERT_EQ(node_runs[0].results.size(), 1u);
  EXPECT_EQ(node_runs[0].results[0].verdict.reason, "peers: 1,2");
  ASSERT_EQ(node_runs[0].results[0].peers.size(), 2u);
  EXPECT_TRUE(node_runs[1].results.empty()) << "a node probe runs once, on the first GPU";
}

// With one GPU there is no pair phase: the pair probe runs with the GPU's own probes,
// without a peer (the real probes then skip, saying a second GPU is needed).
TEST_F(RunGpus, OneGpuRunsItsPairProbesWithoutAPeer) {
  const std::vector<Probe> probes = {fake("fake.peers", Scope::pair)};
  const auto runs = run_gpus(open_gpus({0}, ptrs(probes), config_), config_, events_);
  ASSERT_EQ(runs[0].results.size(), 1u);
  EXPECT_EQ(runs[0].results[0].verdict.reason, "peers: ");
  EXPECT_TRUE(runs[0].results[0].peers.empty());
}

TEST_F(RunGpus, FourGpusRunAtOnce) {
  // Each GPU's worker waits at the rendezvous until all four are there: run one after
  // another, the first would wait alone and fail after 20 s.
  std::filesystem::create_directories(dir_ / "rendezvous");
  ::setenv("GPUCONFORM_FAKE_RENDEZVOUS_DIR", (dir_ / "rendezvous").c_str(), 1);
  ::setenv("GPUCONFORM_FAKE_RENDEZVOUS_COUNT", "4", 1);
  config_.probe_timeout_s = 60;
  const std::vector<Probe> probes = {fake("fake.rendezvous"), fake("fake.pass")};
  const auto opened = open_gpus({0, 1, 4, 5}, ptrs(probes), config_);
  const auto runs = run_gpus(opened, config_, events_);
  ASSERT_EQ(runs.size(), 4u);
  for (const GpuRun& run : runs) {
    ASSERT_EQ(run.results.size(), 2u);
    EXPECT_EQ(run.results[0].verdict.outcome, Outcome::pass) << "GPU " << run.index << " ran alone";
    EXPECT_EQ(run.results[1].verdict.outcome, Outcome::pass);
  }
}

TEST_F(RunGpus, OneBoardHangsAnotherCrashesAndTheRecordHoldsEveryGpusFullSet) {
  const std::vector<Probe> probes = {fake("fake.board"), fake("fake.big"), fake("fake.pass")};
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};
  std::map<std::size_t, std::vector<std::string>> seen;
  test::LambdaListener& hooks = watch();
  hooks.verdict = [&](std::size_t gpu, const TestResult& r, int) {
    if (inside.fetch_add(1) != 0) overlapped = true;
    seen[gpu].push_back(r.probe->id + " " + outcome_name(r.verdict.outcome));
    inside.fetch_sub(1);
  };
  std::set<std::size_t> finished;
  hooks.finished = [&](std::size_t gpu) { finished.insert(gpu); };
  const auto opened = open_gpus({0, 1, 2, 3}, ptrs(probes), config_);
  const auto runs = run_gpus(opened, config_, events_);
  EXPECT_FALSE(overlapped) << "listener calls are serialised";
  EXPECT_EQ(finished, (std::set<std::size_t>{0, 1, 2, 3}));

  ASSERT_EQ(runs.size(), 4u);
  for (std::size_t g = 0; g < 4; ++g) {
    ASSERT_EQ(runs[g].results.size(), 3u) << "GPU " << g;
    EXPECT_EQ(runs[g].index, static_cast<int>(g));
    EXPECT_EQ(runs[g].results[1].verdict.outcome, Outcome::pass) << "a fresh worker ran the rest on GPU " << g;
    EXPECT_EQ(runs[g].results[2].verdict.outcome, Outcome::pass);
    EXPECT_EQ(seen[g].size(), 3u);
  }
  EXPECT_EQ(runs[0].results[0].verdict.outcome, Outcome::pass);
  EXPECT_EQ(runs[1].results[0].verdict.outcome, Outcome::pass);
  EXPECT_TRUE(contains(runs[2].results[0].verdict.reason, "timed out after 1 s")) << runs[2].results[0].verdict.reason;
  EXPECT_TRUE(contains(runs[3].results[0].verdict.reason, "killed by signal 6")) << runs[3].results[0].verdict.reason;

  std::map<std::string, std::multiset<std::string>> tests, states;
  for (const nlohmann::json& line : record()) {
    const std::string uuid = line["device"].value("uuid", "");
    if (line.value("record", "") == "gpu_state") states[uuid].insert(line["when"].get<std::string>());
    if (line.value("record", "test") == "test") {
      tests[uuid].insert(line["probe"].get<std::string>());
      EXPECT_EQ(line.value("level", ""), "standard");
      if (line["probe"] == "fake.big") EXPECT_EQ(line["reason"].get<std::string>().size(), 1u << 20);
    }
  }
  ASSERT_EQ(tests.size(), 4u);
  for (int g = 0; g < 4; ++g) {
    const std::string uuid = "GPU-fake-" + std::to_string(g);
    EXPECT_EQ(tests[uuid], (std::multiset<std::string>{"fake.board", "fake.big", "fake.pass"})) << uuid;
    EXPECT_EQ(states[uuid], (std::multiset<std::string>{"after", "before"})) << uuid;
  }
}

TEST_F(RunGpus, AnUnopenedGpuFailsAloneAndTheOthersRun) {
  const std::vector<Probe> probes = {fake("fake.pass")};
  const auto opened = open_gpus({0, 9, 1}, ptrs(probes), config_);
  ASSERT_EQ(opened.size(), 3u);
  EXPECT_FALSE(opened[1].device);
  EXPECT_TRUE(contains(opened[1].open_error, "fallen off the bus")) << opened[1].open_error;
  const auto runs = run_gpus(opened, config_, events_);
  EXPECT_EQ(runs[0].results.size(), 1u);
  EXPECT_TRUE(runs[1].results.empty());
  EXPECT_EQ(runs[2].results.size(), 1u);
  int open_failures = 0;
  for (const auto& line : record()) open_failures += line.value("record", "") == "gpu_open";
  EXPECT_EQ(open_failures, 1);
}

TEST_F(RunGpus, AnInvalidExpectationFileStopsTheRunBeforeAnyProbe) {
  std::ofstream(dir_ / "bad.toml") << "[probe.\"fake.pass\"]\nkind = \"nonsense\"\n";
  config_.overlays = {(dir_ / "bad.toml").string()};
  const std::vector<Probe> probes = {fake("fake.pass")};
  EXPECT_THROW(open_gpus({0, 1}, ptrs(probes), config_), ExpectationError);
  EXPECT_FALSE(std::filesystem::exists(record_path_)) << "nothing ran, nothing recorded";
}

TEST_F(RunGpus, LongRunsEveryProbeRepeatedlyAndRecordsTheSpread) {
  config_.level = RunLevel::long_run;
  config_.repeats = 3;
  const std::vector<Probe> probes = {fake("fake.value"), fake("fake.board")};
  std::vector<int> passes;
  watch().verdict = [&](std::size_t, const TestResult&, int pass) { passes.push_back(pass); };
  const auto runs = run_gpus(open_gpus({0, 3}, ptrs(probes), config_), config_, events_);
  EXPECT_EQ(passes.size(), 2u * 2u * 3u);
  for (const GpuRun& run : runs) {
    ASSERT_EQ(run.results.size(), 2u) << "one merged result per probe";
    ASSERT_EQ(run.repeated.size(), 2u);
    EXPECT_EQ(run.repeated[0].runs, 3);
    ASSERT_TRUE(run.repeated[0].spread);
    EXPECT_EQ(run.repeated[0].spread->n, 3u);
    EXPECT_LE(run.repeated[0].spread->min, run.repeated[0].spread->median);
    EXPECT_LE(run.repeated[0].spread->median, run.repeated[0].spread->max);
  }
  EXPECT_EQ(runs[1].results[1].verdict.outcome, Outcome::fail);
  EXPECT_TRUE(contains(runs[1].results[1].verdict.reason, "killed by signal 6")) << runs[1].results[1].verdict.reason;
  std::map<std::string, int> test_lines, spread_lines;
  for (const auto& line : record()) {
    const std::string key = line["device"].value("uuid", "") + " " + line.value("probe", "");
    if (line.value("record", "test") == "test") {
      ++test_lines[key];
      EXPECT_EQ(line["repeat"]["of"], 3);
      EXPECT_EQ(line["level"], "long");
    }
    if (line.value("record", "") == "spread") {
      ++spread_lines[key];
      if (line["probe"] == "fake.value") EXPECT_EQ(line["stats"]["n"], 3);
    }
  }
  for (const char* key : {"GPU-fake-0 fake.value", "GPU-fake-0 fake.board", "GPU-fake-3 fake.value",
                          "GPU-fake-3 fake.board"}) {
    EXPECT_EQ(test_lines[key], 3) << key;
    EXPECT_EQ(spread_lines[key], 1) << key;
  }
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

// run --timeout across GPUs: GPU 2's probe hangs past the run's deadline; every GPU keeps
// the verdicts it had, what the deadline left is a skip whose reason says so, in the
// results and in the record, and the run ends at the deadline, not at the probe limit.
TEST_F(RunGpus, TheRunsDeadlineSkipsWhatItLeftOnEveryGpu) {
  config_.probe_timeout_s = 60;
  const std::vector<Probe> probes = {fake("fake.pass"), fake("fake.board"), fake("fake.value")};
  const auto opened = open_gpus({0, 2}, ptrs(probes), config_);
  config_.deadline = WorkerProcess::Clock::now() + std::chrono::seconds(4);
  const auto start = std::chrono::steady_clock::now();
  const auto runs = run_gpus(opened, config_, events_);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 20) << "the 60 s probe limit was waited for";
  ASSERT_EQ(runs.size(), 2u);
  ASSERT_EQ(runs[1].results.size(), 3u);
  EXPECT_EQ(runs[1].results[0].verdict.outcome, Outcome::pass);
  for (int i : {1, 2}) {
    EXPECT_EQ(runs[1].results[i].verdict.outcome, Outcome::skip) << i;
    EXPECT_EQ(runs[1].results[i].verdict.reason.rfind(kRunTimeoutPrefix, 0), 0u) << runs[1].results[i].verdict.reason;
  }
  ASSERT_EQ(runs[0].results.size(), 3u);
  EXPECT_EQ(runs[0].results[1].verdict.outcome, Outcome::pass) << "GPU 0's fake.board does not hang";
  int skipped_lines = 0;
  for (const nlohmann::json& line : record())
    if (line.value("verdict", "") == "skip" && line.value("reason", "").rfind(kRunTimeoutPrefix, 0) == 0)
      ++skipped_lines;
  EXPECT_GE(skipped_lines, 2);
}

}  // namespace
}  // namespace gpuconform
