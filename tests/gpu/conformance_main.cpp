// SPDX-License-Identifier: Apache-2.0
// The GPU conformance tests: one gtest per registered probe, judged against
// the expectations for the GPU in hand. Registration needs no GPU (ctest
// discovery lists the tests anywhere); on a machine without one every test
// skips with the reason.
//
// ctest runs one process per probe group (cmake/GpuconformGroupDiscovery.cmake). A CUDA
// fault that corrupts the context fails every later test of the process by name, with
// the probe that caused it; exit code 77 (ctest: skipped) means every test skipped.
//
// A watchdog thread gives each probe its time limit (runner.hpp: probe_time_limit).
// A hung kernel cannot be stopped inside its process, so on expiry the test is
// reported failed ("timed out after N s") and the process exits 1 at once: the
// group's remaining tests do not run (`gpuconform run` isolates probes in worker
// processes and continues; use it for a whole GPU).
//
// The device: ctest's resource allocation (CTEST_RESOURCE_GROUP_0_GPUS, when ctest runs
// with --resource-spec-file; ctest_resources.hpp), else GPUCONFORM_DEVICE, else 0. The
// process holds the GPU's lock (gpu_lock.hpp) while it runs, so two groups never share
// a GPU, whatever ctest's -j. Under a spec file every test that runs this binary must
// declare RESOURCE_GROUPS: ctest gives a test without any CTEST_RESOURCE_GROUP_COUNT=0,
// which this binary refuses (tests/gpu_tests_declare_resources.cmake checks it).
//
// Pair and node probes (p2p.*: Probe::scope) also need the other GPUs (RunOptions::peers):
// ctest's further resource groups (CTEST_RESOURCE_GROUP_1_GPUS, ...: the p2p groups ask
// for every GPU, GpuconformGroupDiscovery.cmake), else the machine's other GPUs from the
// next ordinal on. A pair probe gets the first of them, a node probe all. The process
// then holds their locks too (taken in one global order, so two such processes never
// wait for each other). With one GPU they get no peer and skip ("needs a second GPU").
//
// Outputs: gtest's own (its console, --gtest_output), and with GPUCONFORM_RECORD the run
// record through the runner's record listener (record_listener.hpp, run_listener.hpp): one
// verdict event per test, the line `gpuconform run` writes for it, less the run's level
// (this binary writes no header or GPU state lines). The probes run in this process, not
// in the runner's workers: ctest's groups see one gtest per probe, a hung probe ends the
// process (the watchdog below) and a lost context fails the group's later tests by name.
//
// Environment: GPUCONFORM_DEVICE (ordinal, default 0), GPUCONFORM_EXPECTATIONS
// (directory), GPUCONFORM_OVERLAY (one extra file), GPUCONFORM_RECORD (append
// the run record here), GPUCONFORM_QUICK=1 (fewer repeats), GPUCONFORM_PROBE_TIMEOUT
// (seconds, every probe's limit), GPUCONFORM_SELFTEST=1 (register the self-test probes).
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "gpuconform/conformance.hpp"
#include "gpuconform/ctest_resources.hpp"
#include "gpuconform/gpu_lock.hpp"
#include "gpuconform/record_listener.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// The listeners of this process's verdicts: the run record when GPUCONFORM_RECORD names one.
// Never destroyed: the watchdog thread may emit while the process exits.
RunEvents& run_events() {
  static RunEvents* events = [] {
    auto* e = new RunEvents("gpuconform_gpu_tests");
    if (const char* path = env("GPUCONFORM_RECORD")) e->add(std::make_unique<RecordListener>(path));
    return e;
  }();
  return *events;
}

// Device and expectations, resolved once per process on first use.
struct Session {
  std::optional<DeviceInfo> device;
  ExpectationSet expectations;
  std::string unusable;  // why no test can run: no GPU (skip)
  std::string invalid;   // an expectation file or the device choice is broken (fail)
  int count = 0;         // CUDA devices of this machine (as CUDA_VISIBLE_DEVICES shows them)
  // Held for the process's life: one test process per GPU. Peers::get may give it back
  // to take it again with the peers' locks, in order (mutable: Session is shared const).
  mutable std::unique_ptr<GpuLock> lock;

  static const Session& get() {
    static const Session session = make();
    return session;
  }

  static Session make() {
    Session s;
    std::string why;
    const int count = device_count(&why);
    s.count = count;
    if (count == 0) {
      s.unusable = why + "; GPU tests need an NVIDIA GPU and driver";
      return s;
    }
    const DeviceChoice choice = choose_device([](const char* name) { return std::getenv(name); });
    if (!choice.error.empty()) {
      s.invalid = choice.error;
      return s;
    }
    const int index = choice.index;
    if (index >= count) {
      s.invalid = choice.source + " gives GPU " + std::to_string(index) + " but this machine has " +
                  std::to_string(count) + " GPU(s)" +
                  (choice.from_ctest ? "; regenerate the spec file here: gpuconform resources --out FILE" : "");
      return s;
    }
    try {
      s.device = query_device(index);
      s.lock = std::make_unique<GpuLock>(gpu_lock_path(s.device->uuid), [&] {
        std::fprintf(stderr, "waiting for GPU %d (%s): another gpuconform test process is using it (lock %s)\n",
                     index, s.device->uuid.c_str(), gpu_lock_path(s.device->uuid).c_str());
      });
      std::vector<std::string> overlays;
      if (env("GPUCONFORM_OVERLAY")) overlays.push_back(env("GPUCONFORM_OVERLAY"));
      s.expectations = load_device_expectations(*s.device, default_expectations_dir(), overlays);
    } catch (const ExpectationError& err) {
      s.invalid = std::string("invalid expectation file(s):\n") + err.what();
    } catch (const std::exception& err) {
      s.invalid = err.what();
    }
    return s;
  }
};

// Environment lookup that reads ctest's resource group `group` under group 0's names, so
// choose_device (ctest_resources.hpp) validates and parses any group's one GPU.
EnvLookup ctest_group_as_first(int group) {
  return [group](const char* name) -> const char* {
    const std::string n = name;
    const std::string first = "CTEST_RESOURCE_GROUP_0";
    if (n.rfind(first, 0) != 0) return std::getenv(name);  // CTEST_RESOURCE_GROUP_COUNT, GPUCONFORM_DEVICE
    const std::string mine = "CTEST_RESOURCE_GROUP_" + std::to_string(group) + n.substr(first.size());
    return std::getenv(mine.c_str());
  };
}

// The other GPUs a pair or node probe measures against (Probe::scope), found and locked
// once per process, on the first such probe.
struct Peers {
  std::vector<DeviceInfo> devices;  // a pair probe takes the first, a node probe all
  std::string invalid;              // ctest's allocation or a peer GPU is unusable (fail)
  std::vector<std::unique_ptr<GpuLock>> locks;

  static const Peers& get(const Session& s) {
    static const Peers peers = make(s);
    return peers;
  }

  // ctest's groups 1..COUNT-1 when it allotted more than one GPU (a multi-GPU group under
  // --resource-spec-file), else every other GPU of the machine from the next ordinal on.
  static std::vector<int> indices(const Session& s, std::string& error) {
    const int self = s.device->index;
    std::vector<int> out;
    const char* groups = std::getenv("CTEST_RESOURCE_GROUP_COUNT");
    const long n = groups && *groups ? std::strtol(groups, nullptr, 10) : 0;
    if (n >= 2) {
      for (int g = 1; g < n; ++g) {
        const DeviceChoice c = choose_device(ctest_group_as_first(g));
        if (!c.error.empty()) {
          error = "ctest's resource group " + std::to_string(g) + ": " + c.error;
          return {};
        }
        if (c.index >= s.count || c.index == self || std::count(out.begin(), out.end(), c.index)) {
          error = "ctest's resource group " + std::to_string(g) + " gives GPU " + std::to_string(c.index) +
                  ", which is not another GPU of this machine (" + std::to_string(s.count) +
                  " GPU(s)); regenerate the spec file here: gpuconform resources --out FILE";
          return {};
        }
        out.push_back(c.index);
      }
      return out;
    }
    for (int i = 1; i < s.count; ++i) out.push_back((self + i) % s.count);
    return out;
  }

  static Peers make(const Session& s) {
    Peers p;
    const std::vector<int> others = indices(s, p.invalid);
    if (!p.invalid.empty() || others.empty()) return p;  // one GPU: the probes skip themselves
    try {
      for (int i : others) p.devices.push_back(query_device(i));
      use_device(s.device->index);  // query_device made the last peer current
      // Every lock in one order (their paths): two processes that each need two GPUs
      // then never hold one each and wait for the other's. Without waiting when all are
      // free; else this GPU's lock is given back first and every lock taken in order.
      std::vector<std::string> paths;
      for (const DeviceInfo& d : p.devices) paths.push_back(gpu_lock_path(d.uuid));
      bool all_free = true;
      for (const std::string& path : paths) {
        p.locks.push_back(std::make_unique<GpuLock>(path));
        if (!p.locks.back()->held()) {
          all_free = false;
          break;
        }
      }
      if (!all_free) {
        p.locks.clear();
        s.lock.reset();
        paths.push_back(gpu_lock_path(s.device->uuid));
        std::sort(paths.begin(), paths.end());
        paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
        for (const std::string& path : paths)
          p.locks.push_back(std::make_unique<GpuLock>(path, [&path] {
            std::fprintf(stderr, "waiting for the GPU of lock %s: another gpuconform test process is using it\n",
                         path.c_str());
          }));
      }
    } catch (const std::exception& err) {
      p.devices.clear();
      p.invalid = std::string("the other GPU(s) of this pair or node probe: ") + err.what();
    }
    return p;
  }
};

// A sticky CUDA error (illegal address, trap, ...) survives in the context: every later
// call returns it. The probe that left it is remembered so later tests can say so.
struct ContextHealth {
  std::string poisoned_by;  // probe id
  std::string error;

  static ContextHealth& get() {
    static ContextHealth health;
    return health;
  }
  // Called after each probe: a failing synchronize means the context is gone.
  void check_after(const std::string& probe) {
    if (!poisoned_by.empty()) return;
    const cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return;
    poisoned_by = probe;
    error = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  }
};

// Fails the running probe and ends the process when it outlives its limit.
class Watchdog {
 public:
  static Watchdog& get() {
    static Watchdog* dog = new Watchdog;  // never destroyed: its thread may outlive main's statics
    return *dog;
  }
  // Arms the limit for one probe; `on_timeout` runs on the watchdog thread just before the exit.
  void arm(const Probe& probe, double limit_s, std::function<void(const std::string&)> on_timeout) {
    std::lock_guard<std::mutex> lock(mutex_);
    probe_ = &probe;
    limit_s_ = limit_s;
    on_timeout_ = std::move(on_timeout);
    deadline_ = std::chrono::steady_clock::now() +
                std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(limit_s));
    armed_ = true;
    wake_.notify_all();
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
    wake_.notify_all();
  }

 private:
  Watchdog() : thread_([this] { watch(); }) { thread_.detach(); }

  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (!armed_) {
        wake_.wait(lock);
        continue;
      }
      if (wake_.wait_until(lock, deadline_) == std::cv_status::no_timeout) continue;
      if (!armed_ || std::chrono::steady_clock::now() < deadline_) continue;
      const std::string reason = fmt_reason();
      std::fprintf(stderr, "%s:%d: Failure\n%s: %s\n[  FAILED  ] %s.%s\n", __FILE__, __LINE__, probe_->id.c_str(),
                   reason.c_str(), test_suite_name(*probe_).c_str(), test_name(*probe_).c_str());
      if (on_timeout_) on_timeout_(reason);
      std::fflush(stdout);
      std::fflush(stderr);
      std::_Exit(1);  // the hung kernel's thread cannot be stopped; exit is the only way on
    }
  }
  std::string fmt_reason() const {
    char text[512];
    std::snprintf(text, sizeof text,
                  "timed out after %g s; a hung kernel cannot be stopped inside this process, so it exits and the "
                  "remaining tests of this process are not run (gpuconform run --filter '%s' continues in a fresh "
                  "process; raise the limit with GPUCONFORM_PROBE_TIMEOUT)",
                  limit_s_, probe_->id.c_str());
    return text;
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  bool armed_ = false;
  const Probe* probe_ = nullptr;
  double limit_s_ = 0;
  std::function<void(const std::string&)> on_timeout_;
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;
};

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

class ConformanceTest : public testing::Test {
 public:
  explicit ConformanceTest(const Probe& probe) : probe_(probe) {}

  void TestBody() override {
    const Session& s = Session::get();
    if (!s.unusable.empty()) GTEST_SKIP() << s.unusable;
    ASSERT_TRUE(s.invalid.empty()) << s.invalid;
    ContextHealth& health = ContextHealth::get();
    ASSERT_TRUE(health.poisoned_by.empty())
        << "not run: the CUDA context was lost after probe " << health.poisoned_by << " (" << health.error
        << ") earlier in this process; run this probe alone: gpuconform_gpu_tests --gtest_filter="
        << test_suite_name(probe_) << "." << test_name(probe_) << " (or gpuconform run --filter " << probe_.id << ")";
    RunOptions options;
    options.quick = env("GPUCONFORM_QUICK") != nullptr;
    if (probe_.scope != Scope::gpu) {
      const Peers& peers = Peers::get(s);
      ASSERT_TRUE(peers.invalid.empty()) << probe_.id << ": " << peers.invalid;
      if (!peers.devices.empty()) {
        if (probe_.scope == Scope::pair)
          options.peers = {peers.devices.front()};
        else
          options.peers = peers.devices;
      }
    }
    const double limit = probe_time_limit(s.expectations.find(probe_.id), probe_timeout_override());
    Watchdog::get().arm(probe_, limit, [this, &s, &options, limit](const std::string& reason) {
      TestResult timed_out;
      timed_out.probe = &probe_;
      timed_out.verdict = {Outcome::fail, reason};
      timed_out.seconds = limit;
      timed_out.peers = options.peers;
      if (const Expectation* e = s.expectations.find(probe_.id)) timed_out.expectation = *e;
      try {
        run_events().probe_verdict(0, timed_out, record_json(timed_out, *s.device), 0);
      } catch (const std::exception&) {  // the process exits failed whatever the record says
      }
    });
    const TestResult r = run_conformance_test(probe_, *s.device, s.expectations, options);
    health.check_after(probe_.id);
    Watchdog::get().disarm();
    RecordProperty("probe", probe_.id);
    RecordProperty("verdict", outcome_name(r.verdict.outcome));
    RecordProperty("reason", r.verdict.reason);
    if (!options.peers.empty()) {
      std::string uuids;
      for (const DeviceInfo& d : options.peers) uuids += (uuids.empty() ? "" : ",") + d.uuid;
      RecordProperty("peers", uuids);
    }
    if (r.measurement) {
      RecordProperty("measured", std::to_string(r.measurement->value));
      RecordProperty("unit", r.measurement->unit);
    }
    if (r.expectation) RecordProperty("expected", describe_expected(*r.expectation));
    run_events().probe_verdict(0, r, record_json(r, *s.device), 0);
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

}  // namespace
}  // namespace gpuconform

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  for (const gpuconform::Probe& probe : gpuconform::Registry::instance().all()) {
    if (!gpuconform::is_selectable(probe)) continue;  // self-tests only with GPUCONFORM_SELFTEST=1
    // The listing's "# GetParam() = ID" names the probe, and "ID scope=pair" (or node) a probe
    // that needs other GPUs: GpuconformGroupDiscovery.cmake gives its group every GPU.
    std::string param = probe.id;
    if (probe.scope != gpuconform::Scope::gpu) param += std::string(" scope=") + gpuconform::scope_name(probe.scope);
    testing::RegisterTest(gpuconform::test_suite_name(probe).c_str(), gpuconform::test_name(probe).c_str(), nullptr,
                          param.c_str(), __FILE__, __LINE__,
                          [&probe]() -> testing::Test* { return new gpuconform::ConformanceTest(probe); });
  }
  const int status = RUN_ALL_TESTS();
  const testing::UnitTest& all = *testing::UnitTest::GetInstance();
  // Nothing ran and nothing failed (no GPU, or no expectation for any probe selected):
  // ctest's SKIP_RETURN_CODE, so a group of skips is reported as skipped, not passed.
  if (status == 0 && all.successful_test_count() == 0 && all.skipped_test_count() > 0) return 77;
  return status;
}
