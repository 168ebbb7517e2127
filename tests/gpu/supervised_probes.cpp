// SPDX-License-Identifier: Apache-2.0
#include "supervised_probes.hpp"

#include <exception>

#include "gpuconform/run_record.hpp"

namespace gpuconform::gpu_tests {

SupervisedProbes::SupervisedProbes(const Session& session, std::optional<double> timeout_s, std::vector<Batch> batches)
    : session_(session), timeout_s_(timeout_s), thread_([this, batches = std::move(batches)] { run(batches); }) {}

SupervisedProbes::~SupervisedProbes() { thread_.join(); }

std::optional<SupervisedProbes::Delivered> SupervisedProbes::wait_for(const std::string& id, std::string& why) {
  std::unique_lock<std::mutex> lock(mutex_);
  arrived_.wait(lock, [&] { return over_ || done_.count(id) > 0; });
  if (const auto it = done_.find(id); it != done_.end()) return it->second;
  why = stopped_.empty() ? "the supervised run ended without a verdict for it" : "the run stopped: " + stopped_;
  return std::nullopt;
}

void SupervisedProbes::run(const std::vector<Batch>& batches) {
  std::string stopped;
  try {
    for (const Batch& batch : batches) run_batch(batch);
  } catch (const std::exception& err) {  // e.g. out of memory: the waiting tests fail saying so
    stopped = err.what();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  stopped_ = stopped;
  over_ = true;
  arrived_.notify_all();
}

void SupervisedProbes::deliver(const std::string& id, Delivered verdict) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_.emplace(id, std::move(verdict));
  arrived_.notify_all();
}

// As run_probe_passes (runner.cpp) runs one GPU's probes with one set of peers: the
// worker's record line as it wrote it, and a line of the parent's own for a probe it failed.
void SupervisedProbes::run_batch(const Batch& batch) {
  const Session& s = session_;
  WorkerArgs worker = s.worker;
  for (const DeviceInfo& peer : batch.peers) worker.peers.push_back(peer.index);
  std::map<std::string, const Probe*> by_id;
  std::vector<std::string> ids;
  for (const Probe* p : batch.probes) {
    by_id[p->id] = p;
    ids.push_back(p->id);
  }
  ProbeSupervision hooks;
  hooks.raise_limit_with = "GPUCONFORM_PROBE_TIMEOUT";  // this binary's --probe-timeout
  hooks.time_limit = [&](const std::string& id) { return probe_time_limit(s.expectations.find(id), timeout_s_); };
  hooks.finished = [&](const std::string& id, const nlohmann::json& record) {
    TestResult r = result_from_record(by_id[id], record, s.expectations);
    r.peers = batch.peers;
    deliver(id, {std::move(r), record});
  };
  hooks.failed = [&](const std::string& id, const std::string& reason, double seconds) {
    TestResult r = judged_by_runner(by_id[id], Outcome::fail, reason, seconds, batch.peers, s.expectations);
    nlohmann::json line = record_json(r, *s.device);
    deliver(id, {std::move(r), std::move(line)});
  };
  supervise_probes(worker_command(), worker_arguments(worker), ids, hooks);
}

}  // namespace gpuconform::gpu_tests
