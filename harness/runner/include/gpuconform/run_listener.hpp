// SPDX-License-Identifier: Apache-2.0
#pragma once
// One output interface: a run emits events, and every output of it (the JSON-lines run
// record, JUnit, summary.json, the Prometheus textfile, the termination log, the console)
// is one listener that turns the events it cares about into its file or its lines.
// googletest's TestEventListener and nvbench's printers are the models.
//
//   front end (cmd_run, the gtest binary)   run started ............................. run ended
//   runner (run_gpus)                           GPUs opened, GPU state, probe started, verdict,
//                                               spread, GPU finished
//        |
//     RunEvents  --  in the order they were added, one call at a time -->  listener 1, 2, ...
//
// The runner emits what happens to the GPUs; the front end, which owns the run's identity
// and its exit code, emits the start and the end. Events come from several threads (one
// per GPU); RunEvents serialises them, so a listener never sees two calls at once.
//
// Failures: during the run a listener that throws stops the event there (the listeners
// after it do not see it) and the exception reaches whoever emitted it: the runner stops
// that GPU and rethrows once every GPU is done, so a run that cannot write its record does
// not go on as if it had. At the end every listener gets run_ended even after one failed,
// each failure is printed with the listener's name, and the exit code becomes 2: a health
// check must not read "ok" from a run whose outputs are missing.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gpuconform/run_level.hpp"

namespace gpuconform {

struct DeviceInfo;
struct GpuState;
struct OpenedGpu;
struct RunIdentity;
struct RunOutcome;
struct TestResult;

// `gpu` in every per-GPU event is the GPU's position in the run's GPUs (run_gpus order),
// not its CUDA ordinal. Every method does nothing unless overridden.
class RunListener {
 public:
  virtual ~RunListener() = default;
  // Names the listener in an error message: "summary", "--prom", ...
  virtual std::string name() const = 0;

  // The run has an identity and its outputs a place; nothing has been checked yet.
  virtual void on_run_started(const RunIdentity& run);
  // Every GPU of the run after its describe worker (an unopened one has open_error), before
  // any probe; `passes` runs of each selected probe at `level`.
  virtual void on_gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel level, int passes);
  // The GPU's NVML state before its first probe and after its last ("before", "after").
  virtual void on_gpu_state(std::size_t gpu, const DeviceInfo& device, const char* when, const GpuState& state);
  // A worker started `probe`; `pass` counts from 0 (several at --level long).
  virtual void on_probe_started(std::size_t gpu, const std::string& probe, int pass);
  // One verdict, as it arrives, with its run record line.
  virtual void on_probe_verdict(std::size_t gpu, const TestResult& result, const nlohmann::json& record, int pass);
  // --level long: a probe's runs merged, once all its passes are in.
  virtual void on_probe_spread(std::size_t gpu, const RepeatedResult& spread, const DeviceInfo& device);
  // The GPU's last verdict is in.
  virtual void on_gpu_finished(std::size_t gpu);
  // The run is over: its outcome, exit code included. Throws when its output cannot be written.
  virtual void on_run_ended(const RunOutcome& outcome);
};

// The fan-out: calls every listener, in the order they were added.
class RunEvents {
 public:
  // `program` starts the message of a listener that failed at the end ("gpuconform run").
  explicit RunEvents(std::string program = "gpuconform");
  RunEvents(const RunEvents&) = delete;
  RunEvents& operator=(const RunEvents&) = delete;

  // Takes the listener; it is called after those added before it.
  RunListener& add(std::unique_ptr<RunListener> listener);

  void run_started(const RunIdentity& run);
  void gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel level, int passes);
  void gpu_state(std::size_t gpu, const DeviceInfo& device, const char* when, const GpuState& state);
  void probe_started(std::size_t gpu, const std::string& probe, int pass);
  void probe_verdict(std::size_t gpu, const TestResult& result, const nlohmann::json& record, int pass);
  void probe_spread(std::size_t gpu, const RepeatedResult& spread, const DeviceInfo& device);
  void gpu_finished(std::size_t gpu);
  // Every listener, even after one failed ("<program>: <name>: <what>" on stderr for each
  // failure). Returns outcome.exit_code, or 2 when a listener failed.
  int run_ended(const RunOutcome& outcome);

 private:
  template <class Call>
  void each(Call&& call);

  std::string program_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<RunListener>> listeners_;
};

}  // namespace gpuconform
