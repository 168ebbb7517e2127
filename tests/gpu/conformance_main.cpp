// SPDX-License-Identifier: Apache-2.0
// The GPU conformance tests: one gtest per registered probe, judged against
// the expectations for the GPU in hand. Registration needs no GPU (ctest
// discovery lists the tests anywhere); on a machine without one every test
// skips with the reason.
//
// ctest runs one process per probe group (cmake/GpuconformGroupDiscovery.cmake); exit code
// 77 (ctest: skipped) means every test skipped.
//
// The probes run as in `gpuconform run`, through the runner's executor (runner.hpp): this
// process never creates a CUDA context. Before the first test (ProbeRunner below) it
// identifies the GPU in a describe worker, takes the GPU's lock, loads the expectations, and
// starts the probes of the tests gtest's filter selects, in their order, in worker processes
// of its own binary (`gpuconform_gpu_tests worker ...`, parsed by the runner's
// parse_worker_arguments, like `gpuconform worker`); each test then reports its probe's
// verdict as that probe ends (supervised_probes.hpp). Each probe has its time limit
// (runner.hpp: probe_time_limit, GPUCONFORM_PROBE_TIMEOUT): a hung probe fails alone ("timed
// out after N s"), its worker is killed and the group's remaining tests run in a fresh one. A
// CUDA fault that loses the context fails its probe with the error's name and likewise ends
// only that worker. Fault injection (docs/selftest.md) stays `gpuconform run`'s: its
// variables are cleared for this binary's workers.
//
// The device: ctest's resource allocation (CTEST_RESOURCE_GROUP_0_GPUS, when ctest runs
// with --resource-spec-file; ctest_resources.hpp), else GPUCONFORM_DEVICE, else 0. The
// process holds the GPU's lock (gpu_lock.hpp) while it runs, so two groups never share
// a GPU, whatever ctest's -j. Under a spec file every test that runs this binary must
// declare RESOURCE_GROUPS: ctest gives a test without any CTEST_RESOURCE_GROUP_COUNT=0,
// which this binary refuses (tests/gpu_tests_declare_resources.cmake checks it).
//
// Pair and node probes (p2p.*: Probe::scope) also need the other GPUs, passed to their
// workers as --peer: ctest's further resource groups (CTEST_RESOURCE_GROUP_1_GPUS, ...: the
// p2p groups ask for every GPU, GpuconformGroupDiscovery.cmake), else the machine's other
// GPUs from the next ordinal on. A pair probe gets the first of them, a node probe all. The
// process then holds their locks too (taken in one global order, so two such processes never
// wait for each other). With one GPU they get no peer and skip ("needs a second GPU").
//
// Outputs: gtest's own (its console, --gtest_output), and with GPUCONFORM_RECORD the run
// record through the runner's record listener (record_listener.hpp, run_listener.hpp): one
// verdict event per test, the line `gpuconform run` writes for it, less the run's level
// (this binary writes no header or GPU state lines).
//
// Environment: GPUCONFORM_DEVICE (ordinal, default 0), GPUCONFORM_EXPECTATIONS
// (directory), GPUCONFORM_OVERLAY (one extra file), GPUCONFORM_RECORD (append
// the run record here), GPUCONFORM_QUICK=1 (fewer repeats), GPUCONFORM_PROBE_TIMEOUT
// (seconds, every probe's limit), GPUCONFORM_SELFTEST=1 (register the self-test probes).
// For this binary's CPU test only: GPUCONFORM_GPU_TESTS_FAKE_WORKER (a stand-in worker
// program) and GPUCONFORM_GPU_TESTS_FAKE_GPUS (how many GPUs it pretends; default 1).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_test_session.hpp"
#include "gpuconform/record_listener.hpp"
#include "gpuconform/selftest_injection.hpp"
#include "supervised_probes.hpp"

namespace gpuconform::gpu_tests {
namespace {

// The listeners of this process's verdicts: the run record when GPUCONFORM_RECORD names one.
RunEvents& run_events() {
  static RunEvents* events = [] {
    auto* e = new RunEvents("gpuconform_gpu_tests");
    if (const char* path = env("GPUCONFORM_RECORD")) e->add(std::make_unique<RecordListener>(path));
    return e;
  }();
  return *events;
}

std::optional<double> probe_timeout_override() {
  const char* text = env("GPUCONFORM_PROBE_TIMEOUT");
  if (!text) return std::nullopt;
  char* end = nullptr;
  const double s = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(s > 0)) {
    std::fprintf(stderr, "GPUCONFORM_PROBE_TIMEOUT=%s is not a positive number of seconds\n", text);
    std::exit(2);
  }
  return s;
}

// "Suite.name" of each registered test -> its probe.
std::map<std::string, const Probe*>& registered() {
  static std::map<std::string, const Probe*> tests;
  return tests;
}

bool same_gpus(const std::vector<DeviceInfo>& a, const std::vector<DeviceInfo>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].uuid != b[i].uuid) return false;
  return true;
}

// At the start of each pass over the tests (--gtest_repeat: every probe runs again in each,
// as each test ran its probe before): starts the probes of the tests that will run (after
// --gtest_filter), in the tests' order; at its end, waits until every probe has ended. (Under
// --gtest_shuffle the suites' order can differ from the probes': a test then waits longer.)
// A listener, not a gtest Environment: an Environment is set up once for all passes unless
// --gtest_recreate_environments_when_repeating.
class ProbeRunner : public testing::EmptyTestEventListener {
 public:
  static ProbeRunner*& instance() {
    static ProbeRunner* runner = nullptr;
    return runner;
  }

  void OnTestIterationStart(const testing::UnitTest& unit_test, int /*iteration*/) override {
    probes_.reset();
    not_run_.clear();
    if (unit_test.test_to_run_count() == 0) return;  // no GPU is touched for no test
    const Session& s = Session::get();
    if (!s.unusable.empty() || !s.invalid.empty()) return;  // every test says so
    const std::optional<double> timeout_s = probe_timeout_override();
    std::vector<SupervisedProbes::Batch> batches;
    for (const Probe* probe : selected_probes()) {
      std::vector<DeviceInfo> peers;
      if (probe->scope != Scope::gpu) {
        const Peers& p = Peers::get(s);
        if (!p.invalid.empty()) {
          not_run_[probe->id] = probe->id + ": " + p.invalid;
          continue;
        }
        if (!p.devices.empty())
          peers = probe->scope == Scope::pair ? std::vector<DeviceInfo>{p.devices.front()} : p.devices;
      }
      // Consecutive probes with the same peers share workers; the order stays the tests'.
      if (batches.empty() || !same_gpus(batches.back().peers, peers)) batches.push_back({peers, {}});
      batches.back().probes.push_back(probe);
    }
    if (!batches.empty()) probes_ = std::make_unique<SupervisedProbes>(s, timeout_s, std::move(batches));
  }
  void OnTestIterationEnd(const testing::UnitTest&, int /*iteration*/) override { probes_.reset(); }

  // Why probe `id` was not run (its peers are unusable), or nullptr.
  const std::string* not_run(const std::string& id) const {
    const auto it = not_run_.find(id);
    return it == not_run_.end() ? nullptr : &it->second;
  }
  std::optional<SupervisedProbes::Delivered> wait_for(const std::string& id, std::string& why) {
    if (probes_) return probes_->wait_for(id, why);
    why = "no probe was started";
    return std::nullopt;
  }

 private:
  static std::vector<const Probe*> selected_probes() {
    std::vector<const Probe*> out;
    const testing::UnitTest& all = *testing::UnitTest::GetInstance();
    for (int i = 0; i < all.total_test_suite_count(); ++i) {
      const testing::TestSuite& suite = *all.GetTestSuite(i);
      for (int j = 0; j < suite.total_test_count(); ++j) {
        const testing::TestInfo& test = *suite.GetTestInfo(j);
        if (!test.should_run()) continue;
        const auto it = registered().find(std::string(test.test_suite_name()) + "." + test.name());
        if (it != registered().end()) out.push_back(it->second);
      }
    }
    return out;
  }

  std::unique_ptr<SupervisedProbes> probes_;
  std::map<std::string, std::string> not_run_;
};

class ConformanceTest : public testing::Test {
 public:
  explicit ConformanceTest(const Probe& probe) : probe_(probe) {}

  void TestBody() override {
    const Session& s = Session::get();
    if (!s.unusable.empty()) GTEST_SKIP() << s.unusable;
    ASSERT_TRUE(s.invalid.empty()) << s.invalid;
    ProbeRunner& runner = *ProbeRunner::instance();
    if (const std::string* why = runner.not_run(probe_.id)) FAIL() << *why;
    std::string why;
    const std::optional<SupervisedProbes::Delivered> delivered = runner.wait_for(probe_.id, why);
    ASSERT_TRUE(delivered) << probe_.id << ": not run: " << why;
    const TestResult& r = delivered->result;
    RecordProperty("probe", probe_.id);
    RecordProperty("verdict", outcome_name(r.verdict.outcome));
    RecordProperty("reason", r.verdict.reason);
    if (!r.peers.empty()) {
      std::string uuids;
      for (const DeviceInfo& d : r.peers) uuids += (uuids.empty() ? "" : ",") + d.uuid;
      RecordProperty("peers", uuids);
    }
    if (r.measurement) {
      RecordProperty("measured", std::to_string(r.measurement->value));
      RecordProperty("unit", r.measurement->unit);
    }
    if (r.expectation) RecordProperty("expected", describe_expected(*r.expectation));
    run_events().probe_verdict(0, r, delivered->line, 0);
    switch (r.verdict.outcome) {
      case Outcome::skip: GTEST_SKIP() << r.verdict.reason;
      case Outcome::fail: FAIL() << probe_.id << ": " << r.verdict.reason;
      case Outcome::warn: std::cout << "WARN " << probe_.id << ": " << r.verdict.reason << "\n"; break;
      case Outcome::pass: std::cout << probe_.id << ": " << r.verdict.reason << "\n"; break;
    }
  }

 private:
  const Probe& probe_;
};

// `gpuconform_gpu_tests worker ARGS`: a worker process this binary's ProbeRunner
// started, with the arguments `gpuconform worker` takes (the runner's one parser).
int worker_main(int argc, char** argv) {
  try {
    return run_worker(parse_worker_arguments(std::vector<std::string>(argv + 2, argv + argc)));
  } catch (const std::invalid_argument& err) {
    std::fprintf(stderr, "%s worker: %s\n", argv[0], err.what());
    return kWorkerExitFatal;
  }
}

}  // namespace
}  // namespace gpuconform::gpu_tests

int main(int argc, char** argv) {
  using namespace gpuconform;
  if (argc >= 2 && std::string_view(argv[1]) == "worker") return gpu_tests::worker_main(argc, argv);
  // Fault injection is `gpuconform run`'s (docs/selftest.md); this binary's workers inherit
  // the environment, so it is cleared here.
  ::unsetenv(selftest::kSmLimitVar);
  ::unsetenv(selftest::kHbmThiefVar);
  testing::InitGoogleTest(&argc, argv);
  for (const Probe& probe : Registry::instance().all()) {
    if (!is_selectable(probe)) continue;  // self-tests only with GPUCONFORM_SELFTEST=1
    // The listing's "# GetParam() = ID" names the probe, and "ID scope=pair" (or node) a probe
    // that needs other GPUs: GpuconformGroupDiscovery.cmake gives its group every GPU.
    std::string param = probe.id;
    if (probe.scope != Scope::gpu) param += std::string(" scope=") + scope_name(probe.scope);
    gpu_tests::registered()[test_suite_name(probe) + "." + test_name(probe)] = &probe;
    testing::RegisterTest(test_suite_name(probe).c_str(), test_name(probe).c_str(), nullptr, param.c_str(), __FILE__,
                          __LINE__, [&probe]() -> testing::Test* { return new gpu_tests::ConformanceTest(probe); });
  }
  gpu_tests::ProbeRunner::instance() = new gpu_tests::ProbeRunner;
  testing::UnitTest::GetInstance()->listeners().Append(gpu_tests::ProbeRunner::instance());  // gtest owns it
  const int status = RUN_ALL_TESTS();
  const testing::UnitTest& all = *testing::UnitTest::GetInstance();
  // Nothing ran and nothing failed (no GPU, or no expectation for any probe selected):
  // ctest's SKIP_RETURN_CODE, so a group of skips is reported as skipped, not passed.
  if (status == 0 && all.successful_test_count() == 0 && all.skipped_test_count() > 0) return 77;
  return status;
}
