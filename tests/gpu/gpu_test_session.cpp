// SPDX-License-Identifier: Apache-2.0
#include "gpu_test_session.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "gpuconform/conformance.hpp"
#include "gpuconform/ctest_resources.hpp"

namespace gpuconform::gpu_tests {
namespace {

constexpr const char* kFakeWorkerVar = "GPUCONFORM_GPU_TESTS_FAKE_WORKER";
constexpr const char* kFakeGpusVar = "GPUCONFORM_GPU_TESTS_FAKE_GPUS";

// The GPUs of this machine. Counting initialises the CUDA driver but creates no context.
// With the CPU test's stand-in worker, GPUCONFORM_GPU_TESTS_FAKE_GPUS (default 1) of them.
int gpu_count(std::string& why) {
  if (!env(kFakeWorkerVar)) return device_count(&why);
  const char* fake = env(kFakeGpusVar);
  const int count = fake ? std::atoi(fake) : 1;
  if (count <= 0) why = std::string("no CUDA device found (") + kFakeGpusVar + "=" + fake + ")";
  return std::max(count, 0);
}

// What every worker of this process is given, but the GPU: the expectations the parent
// loads too, GPUCONFORM_OVERLAY and GPUCONFORM_QUICK. GPUCONFORM_SELFTEST reaches the
// workers through the environment they inherit.
WorkerArgs base_worker_args() {
  WorkerArgs a;
  a.expectations_dir = default_expectations_dir();
  if (const char* overlay = env("GPUCONFORM_OVERLAY")) a.overlays.push_back(overlay);
  a.quick = env("GPUCONFORM_QUICK") != nullptr;
  return a;
}

// Opens GPU `index` in a describe worker: its identity, or nullopt and why in `error`.
std::optional<DeviceInfo> describe(const WorkerArgs& base, int index, std::string& error) {
  WorkerArgs args = base;
  args.device = index;
  std::string why;
  std::optional<DeviceInfo> device = describe_device(worker_command(), worker_arguments(args), why);
  if (!device) error = fmt::format("GPU {} could not be opened: {}", index, why);
  return device;
}

Session make_session() {
  Session s;
  std::string why;
  const int count = gpu_count(why);
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
  s.worker = base_worker_args();
  s.worker.device = index;
  try {
    s.device = describe(s.worker, index, s.invalid);
    if (!s.device) return s;
    s.lock = std::make_unique<GpuLock>(gpu_lock_path(s.device->uuid), [&] {
      std::fprintf(stderr, "waiting for GPU %d (%s): another gpuconform test process is using it (lock %s)\n", index,
                   s.device->uuid.c_str(), gpu_lock_path(s.device->uuid).c_str());
    });
    // The parent loads the files the workers load: for each probe's time limit and the
    // expectation of a verdict it makes itself (a time-out).
    s.expectations = load_device_expectations(*s.device, s.worker.expectations_dir, s.worker.overlays);
  } catch (const ExpectationError& err) {
    s.invalid = std::string("invalid expectation file(s):\n") + err.what();
  } catch (const std::exception& err) {
    s.invalid = err.what();
  }
  return s;
}

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

// ctest's groups 1..COUNT-1 when it allotted more than one GPU (a multi-GPU group under
// --resource-spec-file), else every other GPU of the machine from the next ordinal on.
std::vector<int> peer_indices(const Session& s, std::string& error) {
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

// Every lock in one order (their paths): two processes that each need two GPUs then never
// hold one each and wait for the other's. Without waiting when all are free; else this
// GPU's lock is given back first and every lock taken in order.
void lock_peers(const Session& s, Peers& p) {
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
  if (all_free) return;
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

Peers make_peers(const Session& s) {
  Peers p;
  const std::vector<int> others = peer_indices(s, p.invalid);
  if (!p.invalid.empty() || others.empty()) return p;  // one GPU: the probes skip themselves
  try {
    for (int i : others) {
      std::string error;
      const std::optional<DeviceInfo> peer = describe(s.worker, i, error);
      if (!peer) throw std::runtime_error(error);
      p.devices.push_back(*peer);
    }
    lock_peers(s, p);
  } catch (const std::exception& err) {
    p.devices.clear();
    p.invalid = std::string("the other GPU(s) of this pair or node probe: ") + err.what();
  }
  return p;
}

}  // namespace

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

WorkerCommand worker_command() {
  if (const char* fake = env(kFakeWorkerVar)) return WorkerCommand{fake, {}};
  return self_worker_command();
}

const Session& Session::get() {
  static const Session session = make_session();
  return session;
}

const Peers& Peers::get(const Session& s) {
  static const Peers peers = make_peers(s);
  return peers;
}

}  // namespace gpuconform::gpu_tests
