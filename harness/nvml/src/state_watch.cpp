// SPDX-License-Identifier: Apache-2.0
// StateWatch: what disturbed one probe's measurement, seen by polling NVML
// from a background thread while the probe runs (gpu_state.hpp).
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "gpu_processes.hpp"
#include "gpuconform/gpu_state.hpp"
#include "nvml_loader.hpp"

namespace gpuconform {
namespace {

// Often enough that a probe of a few tens of milliseconds is seen more than
// once; the first poll happens as the probe starts, so even a probe shorter
// than this is seen once. Each poll costs two NVML calls.
constexpr auto kPollInterval = std::chrono::milliseconds(25);

// NVML's violation counters (nanoseconds the clocks were held down by power or
// heat) integrate over the whole probe, so they also catch a throttle between
// two polls. Below this much the counter's granularity, not a throttle, speaks.
constexpr unsigned long long kViolationThresholdNs = 1'000'000;  // 1 ms

struct Violations {
  bool power_known = false, thermal_known = false;
  unsigned long long power_ns = 0, thermal_ns = 0;
};

Violations read_violations(const nvml::Library& lib, nvml::Device dev) {
  Violations v;
  auto* fn = lib.api().violation_status;
  if (!fn) return v;
  nvml::ViolationTime t{};
  if (fn(dev, nvml::kPerfPolicyPower, &t) == nvml::kSuccess) v.power_known = true, v.power_ns = t.violation_time;
  if (fn(dev, nvml::kPerfPolicyThermal, &t) == nvml::kSuccess) v.thermal_known = true, v.thermal_ns = t.violation_time;
  return v;
}

}  // namespace

struct StateWatch::Impl {
  std::shared_ptr<const nvml::Library> lib;
  nvml::Device device = nullptr;  // null: nothing to watch (no NVML, unknown GPU)

  std::thread poller;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;

  // Written by the poller, read by stop() after join().
  std::map<unsigned, GpuProcess> processes;
  unsigned long long clock_events = 0;  // disturbing bits seen
  Violations before, after;

  Disturbance result;

  void poll_once() {
    std::vector<GpuProcess> now;
    std::string why;  // a failed listing is recorded by the snapshot, not here
    if (detail::other_compute_processes(*lib, device, now, why))
      for (auto& p : now) processes.emplace(p.pid, std::move(p));
    unsigned long long reasons = 0;
    if (auto* fn = lib->api().clock_event_reasons; fn && fn(device, &reasons) == nvml::kSuccess)
      clock_events |= disturbing_clock_events(reasons);
  }

  void run() {
    before = read_violations(*lib, device);
    // At least one poll, even when stop() comes first: a probe shorter than
    // the thread's start-up is still checked once.
    std::unique_lock<std::mutex> lock(mutex);
    do {
      lock.unlock();
      poll_once();
      lock.lock();
    } while (!wake.wait_for(lock, kPollInterval, [this] { return stopping; }));
    lock.unlock();
    after = read_violations(*lib, device);
  }

  Disturbance summarise() const {
    Disturbance d;
    if (!processes.empty()) {
      std::string who;
      for (const auto& [pid, p] : processes) who += (who.empty() ? "" : ", ") + detail::describe_process(p);
      d.reasons.push_back(fmt::format("another process used the GPU: {}", who));
      d.shared_gpu = true;
    }
    d.clock_events = clock_event_names(clock_events);
    for (const auto& name : d.clock_events) d.reasons.push_back("clock event: " + name);
    auto violation = [&](bool known, unsigned long long b, unsigned long long a, unsigned long long bit,
                         const char* what) {
      if (!known || a <= b || a - b < kViolationThresholdNs || (clock_events & bit)) return;
      d.reasons.push_back(fmt::format("{} held the clocks down for {:.1f} ms (NVML violation counter)", what,
                                      (a - b) / 1e6));
    };
    violation(before.power_known && after.power_known, before.power_ns, after.power_ns, nvml::kClockEventSwPowerCap,
              "power capping");
    violation(before.thermal_known && after.thermal_known, before.thermal_ns, after.thermal_ns,
              nvml::kClockEventSwThermalSlowdown | nvml::kClockEventHwThermalSlowdown, "thermal slowdown");
    return d;
  }
};

StateWatch::StateWatch(const DeviceInfo& device) : impl_(std::make_unique<Impl>()) {
  try {
    impl_->lib = nvml::library();
    impl_->device = impl_->lib->find_device(device.uuid, device.pci_bus_id, nullptr);
  } catch (const std::exception&) {
    impl_->device = nullptr;  // no watch; the snapshot records why NVML is unusable
  }
}

StateWatch::~StateWatch() {
  try {
    stop();
  } catch (...) {  // a destructor must not throw; the result is lost with the watch anyway
  }
}

void StateWatch::start() {
  Impl& w = *impl_;
  if (!w.device || w.poller.joinable()) return;
  w.processes.clear();
  w.clock_events = 0;
  w.before = w.after = {};
  w.result = {};
  w.stopping = false;
  try {
    w.poller = std::thread([&w] { w.run(); });
  } catch (const std::exception&) {
    // No thread to be had: the probe runs unwatched rather than not at all.
  }
}

Disturbance StateWatch::stop() {
  Impl& w = *impl_;
  if (!w.poller.joinable()) return w.result;
  {
    std::lock_guard<std::mutex> lock(w.mutex);
    w.stopping = true;
  }
  w.wake.notify_one();
  w.poller.join();
  w.result = w.summarise();
  return w.result;
}

}  // namespace gpuconform
