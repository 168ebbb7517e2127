// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU test process's probes, run by the runner's executor (runner.hpp:
// supervise_probes) on a thread of their own while gtest's tests report them one by one:
// each test waits for its probe's verdict, so a test's output and time come as its probe
// ends, as when the probes ran inside the test process.
#include <nlohmann/json.hpp>

#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpu_test_session.hpp"

namespace gpuconform::gpu_tests {

class SupervisedProbes {
 public:
  // Probes that meet the same other GPUs (none for a per-GPU probe): one supervise_probes
  // call, whose workers get those GPUs as --peer.
  struct Batch {
    std::vector<DeviceInfo> peers;
    std::vector<const Probe*> probes;
  };
  // A probe's verdict and the run record line `gpuconform run` writes for it (the worker's,
  // or the parent's own for a probe it failed: a time-out, a worker that died).
  struct Delivered {
    TestResult result;
    nlohmann::json line;
  };

  // Starts running `batches` in order on GPU `session.device`, each probe under
  // probe_time_limit(its expectation, `timeout_s`). `session` outlives this object.
  SupervisedProbes(const Session& session, std::optional<double> timeout_s, std::vector<Batch> batches);
  ~SupervisedProbes();  // waits until every probe has ended
  SupervisedProbes(const SupervisedProbes&) = delete;
  SupervisedProbes& operator=(const SupervisedProbes&) = delete;

  // Blocks until probe `id` has its verdict. nullopt, and why in `why`, when the run ended
  // without one (a probe that was not given to it).
  std::optional<Delivered> wait_for(const std::string& id, std::string& why);

 private:
  void run(const std::vector<Batch>& batches);
  void run_batch(const Batch& batch);
  void deliver(const std::string& id, Delivered verdict);

  const Session& session_;
  const std::optional<double> timeout_s_;
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::map<std::string, Delivered> done_;
  bool over_ = false;
  std::string stopped_;  // why the run stopped early (an exception on its thread)
  // Last: it starts running in the constructor, once every other member exists. The
  // workers die with it (PR_SET_PDEATHSIG), so it lives until every probe has ended.
  std::thread thread_;
};

}  // namespace gpuconform::gpu_tests
