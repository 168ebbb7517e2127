// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU test process's GPUs (conformance_main.cpp): which GPU it measures, the other GPUs
// its pair and node probes meet, their locks, and the expectations. The process itself
// never creates a CUDA context: counting the GPUs initialises the driver only, and each GPU
// is identified by a describe worker (runner.hpp: describe_device), as `gpuconform run`
// does; the probes run in the runner's workers (supervised_probes.hpp).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/gpu_lock.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform::gpu_tests {

// The value of environment variable `name`, or nullptr when it is unset or empty.
const char* env(const char* name);

// The program the workers run: this binary's `worker` (main), or, for the CPU test of this
// binary only (tests/gpu/fake_gpu_worker.py), GPUCONFORM_GPU_TESTS_FAKE_WORKER.
WorkerCommand worker_command();

// Device and expectations, resolved once per process before the first test.
struct Session {
  std::optional<DeviceInfo> device;
  ExpectationSet expectations;
  std::string unusable;  // why no test can run: no GPU (skip)
  std::string invalid;   // an expectation file or the device choice is broken (fail)
  int count = 0;         // CUDA devices of this machine (as CUDA_VISIBLE_DEVICES shows them)
  WorkerArgs worker;     // what every worker of this process is given (device, files, quick)
  // Held for the process's life: one test process per GPU. Peers::get may give it back
  // to take it again with the peers' locks, in order (mutable: Session is shared const).
  mutable std::unique_ptr<GpuLock> lock;

  static const Session& get();
};

// The other GPUs a pair or node probe measures against (Probe::scope), found and locked
// once per process, before the first probe when a selected test needs them.
struct Peers {
  std::vector<DeviceInfo> devices;  // a pair probe takes the first, a node probe all
  std::string invalid;              // ctest's allocation or a peer GPU is unusable (fail)
  std::vector<std::unique_ptr<GpuLock>> locks;

  static const Peers& get(const Session& s);
};

}  // namespace gpuconform::gpu_tests
