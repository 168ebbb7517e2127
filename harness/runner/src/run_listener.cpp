// SPDX-License-Identifier: Apache-2.0
// The listeners' do-nothing defaults and the fan-out (run_listener.hpp).
#include "gpuconform/run_listener.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "gpuconform/exit_code.hpp"
#include "gpuconform/run_summary.hpp"

namespace gpuconform {

void RunListener::on_run_started(const RunIdentity&) {}
void RunListener::on_gpus_opened(const std::vector<OpenedGpu>&, RunLevel, int) {}
void RunListener::on_gpu_state(std::size_t, const DeviceInfo&, const char*, const GpuState&) {}
void RunListener::on_probe_started(std::size_t, const std::string&, int) {}
void RunListener::on_probe_verdict(std::size_t, const TestResult&, const nlohmann::json&, int) {}
void RunListener::on_probe_spread(std::size_t, const RepeatedResult&, const DeviceInfo&) {}
void RunListener::on_gpu_finished(std::size_t) {}
void RunListener::on_run_ended(const RunOutcome&) {}

RunEvents::RunEvents(std::string program) : program_(std::move(program)) {}

RunListener& RunEvents::add(std::unique_ptr<RunListener> listener) {
  std::lock_guard<std::mutex> lock(mutex_);
  listeners_.push_back(std::move(listener));
  return *listeners_.back();
}

// One event, listener after listener, under the lock: the GPUs' threads never call two
// listeners (or one twice) at once. An exception leaves the loop and the lock.
template <class Call>
void RunEvents::each(Call&& call) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& listener : listeners_) call(*listener);
}

void RunEvents::run_started(const RunIdentity& run) {
  each([&](RunListener& l) { l.on_run_started(run); });
}

void RunEvents::gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel level, int passes) {
  each([&](RunListener& l) { l.on_gpus_opened(gpus, level, passes); });
}

void RunEvents::gpu_state(std::size_t gpu, const DeviceInfo& device, const char* when, const GpuState& state) {
  each([&](RunListener& l) { l.on_gpu_state(gpu, device, when, state); });
}

void RunEvents::probe_started(std::size_t gpu, const std::string& probe, int pass) {
  each([&](RunListener& l) { l.on_probe_started(gpu, probe, pass); });
}

void RunEvents::probe_verdict(std::size_t gpu, const TestResult& result, const nlohmann::json& record, int pass) {
  each([&](RunListener& l) { l.on_probe_verdict(gpu, result, record, pass); });
}

void RunEvents::probe_spread(std::size_t gpu, const RepeatedResult& spread, const DeviceInfo& device) {
  each([&](RunListener& l) { l.on_probe_spread(gpu, spread, device); });
}

void RunEvents::gpu_finished(std::size_t gpu) {
  each([&](RunListener& l) { l.on_gpu_finished(gpu); });
}

int RunEvents::run_ended(const RunOutcome& outcome) {
  int code = outcome.exit_code;
  each([&](RunListener& l) {
    try {
      l.on_run_ended(outcome);
    } catch (const std::exception& e) {
      fmt::print(stderr, "{}: {}: {}\n", program_, l.name(), e.what());
      code = static_cast<int>(RunExit::unusable);
    }
  });
  return code;
}

}  // namespace gpuconform
