// SPDX-License-Identifier: Apache-2.0
// The fan-out of a run's events (run_listener.hpp): every event reaches every listener in
// the order they were added; a listener that fails during the run stops the event and its
// exception reaches the emitter; one that fails at the end is named on stderr, the others
// still run, and the exit code becomes 2.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpuconform/exit_code.hpp"
#include "gpuconform/gpu_state.hpp"
#include "gpuconform/run_listener.hpp"
#include "gpuconform/run_summary.hpp"

namespace gpuconform {
namespace {

// Logs "<name> <event>" for every call; throws from the events named in `fail_on`.
class LoggingListener : public RunListener {
 public:
  LoggingListener(std::string name, std::vector<std::string>& log, std::vector<std::string> fail_on = {})
      : name_(std::move(name)), log_(log), fail_on_(std::move(fail_on)) {}
  std::string name() const override { return name_; }
  void on_run_started(const RunIdentity&) override { note("run_started"); }
  void on_gpus_opened(const std::vector<OpenedGpu>&, RunLevel, int) override { note("gpus_opened"); }
  void on_gpu_state(std::size_t, const DeviceInfo&, const char* when, const GpuState&) override {
    note(std::string("gpu_state ") + when);
  }
  void on_probe_started(std::size_t, const std::string& probe, int) override { note("started " + probe); }
  void on_probe_verdict(std::size_t, const TestResult& r, const nlohmann::json&, int) override {
    note("verdict " + r.probe->id);
  }
  void on_probe_spread(std::size_t, const RepeatedResult&, const DeviceInfo&) override { note("spread"); }
  void on_gpu_finished(std::size_t gpu) override { note("finished " + std::to_string(gpu)); }
  void on_run_ended(const RunOutcome&) override { note("run_ended"); }

 private:
  void note(const std::string& event) {
    log_.push_back(name_ + " " + event);
    for (const std::string& f : fail_on_)
      if (event.rfind(f, 0) == 0) throw std::runtime_error("cannot write " + name_ + ".out");
  }
  std::string name_;
  std::vector<std::string>& log_;
  std::vector<std::string> fail_on_;
};

const Probe kProbe{"latency.alu.fma.rn.f32", Family::latency, "fma", {}, {}, nullptr};

// Every event once, as a run of one GPU emits them.
void emit_a_run(RunEvents& events) {
  DeviceInfo device;
  TestResult result;
  result.probe = &kProbe;
  RepeatedResult spread;
  spread.result = result;
  events.run_started(RunIdentity{});
  events.gpus_opened({}, RunLevel::standard, 1);
  events.gpu_state(0, device, "before", GpuState{});
  events.probe_started(0, kProbe.id, 0);
  events.probe_verdict(0, result, nlohmann::json::object(), 0);
  events.probe_spread(0, spread, device);
  events.gpu_state(0, device, "after", GpuState{});
  events.gpu_finished(0);
}

TEST(RunEvents, EveryEventReachesEveryListenerInTheOrderTheyWereAdded) {
  std::vector<std::string> log;
  RunEvents events;
  for (const char* name : {"record", "console", "summary"}) events.add(std::make_unique<LoggingListener>(name, log));
  emit_a_run(events);
  RunOutcome outcome;
  outcome.exit_code = 1;
  EXPECT_EQ(events.run_ended(outcome), 1) << "no listener failed: the run's own exit code";
  const std::vector<std::string> expected_events = {"run_started",
                                                    "gpus_opened",
                                                    "gpu_state before",
                                                    "started latency.alu.fma.rn.f32",
                                                    "verdict latency.alu.fma.rn.f32",
                                                    "spread",
                                                    "gpu_state after",
                                                    "finished 0",
                                                    "run_ended"};
  std::vector<std::string> expected;
  for (const std::string& e : expected_events)
    for (const char* name : {"record", "console", "summary"}) expected.push_back(std::string(name) + " " + e);
  EXPECT_EQ(log, expected);
}

TEST(RunEvents, AListenerFailingDuringTheRunStopsTheEventAndTheEmitterSeesIt) {
  std::vector<std::string> log;
  RunEvents events;
  events.add(std::make_unique<LoggingListener>("record", log, std::vector<std::string>{"verdict"}));
  events.add(std::make_unique<LoggingListener>("console", log));
  TestResult result;
  result.probe = &kProbe;
  EXPECT_THROW(events.probe_verdict(0, result, nlohmann::json::object(), 0), std::runtime_error);
  EXPECT_EQ(log, (std::vector<std::string>{"record verdict latency.alu.fma.rn.f32"}))
      << "a verdict the record could not keep is not shown as if it had been";
  events.gpu_finished(0);  // the fan-out is usable after a failure (its lock was released)
  EXPECT_EQ(log.back(), "console finished 0");
}

TEST(RunEvents, AListenerFailingAtTheEndIsNamedTheOthersStillWriteAndTheExitCodeIsTwo) {
  std::vector<std::string> log;
  RunEvents events("gpuconform run");
  events.add(std::make_unique<LoggingListener>("junit", log));
  events.add(std::make_unique<LoggingListener>("--prom", log, std::vector<std::string>{"run_ended"}));
  events.add(std::make_unique<LoggingListener>("--termination-log", log));
  RunOutcome outcome;
  outcome.exit_code = 0;
  testing::internal::CaptureStderr();
  const int code = events.run_ended(outcome);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, static_cast<int>(RunExit::unusable));
  EXPECT_EQ(err, "gpuconform run: --prom: cannot write --prom.out\n");
  EXPECT_EQ(log, (std::vector<std::string>{"junit run_ended", "--prom run_ended", "--termination-log run_ended"}));
}

TEST(RunEvents, AnUnusableRunKeepsItsOwnExitCodeWhenEveryOutputIsWritten) {
  std::vector<std::string> log;
  RunEvents events;
  events.add(std::make_unique<LoggingListener>("summary", log));
  RunOutcome outcome;
  outcome.exit_code = 3;  // gpu_busy
  EXPECT_EQ(events.run_ended(outcome), 3);
}

}  // namespace
}  // namespace gpuconform
