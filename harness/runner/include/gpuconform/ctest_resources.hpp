// SPDX-License-Identifier: Apache-2.0
#pragma once
// CTest resource allocation (CMake >= 3.16) for the GPU test groups: the spec file that
// `gpuconform resources` writes, and the device a test process is given by ctest.
//
//   gpuconform resources --out spec.json
//   ctest --resource-spec-file spec.json -j 8 -L latency
//
// Every group declares RESOURCE_GROUPS "gpus:1" (cmake/GpuconformGroupDiscovery.cmake);
// each GPU has one slot, so ctest runs at most one group per GPU and tells the process
// which one in CTEST_RESOURCE_GROUP_0_GPUS ("id:3,slots:1").
#include <functional>
#include <string>

namespace gpuconform {

// CTest's resource-spec JSON (version 1.0) with one "gpus" entry per CUDA ordinal
// 0..gpu_count-1: id "N", slots 1 (one group per GPU at a time keeps timings clean).
std::string ctest_resource_spec_json(int gpu_count);

// The GPU a test process should use, and where that came from.
struct DeviceChoice {
  int index = 0;
  std::string source;  // "CTEST_RESOURCE_GROUP_0_GPUS", "GPUCONFORM_DEVICE" or "default"
  std::string error;   // non-empty: the environment is unusable, index is meaningless
  bool from_ctest = false;
};

// Looks up an environment variable; nullptr when unset (std::getenv's contract).
using EnvLookup = std::function<const char*(const char*)>;

// ctest's allocation when CTEST_RESOURCE_GROUP_COUNT is set, else GPUCONFORM_DEVICE, else 0.
DeviceChoice choose_device(const EnvLookup& env);

}  // namespace gpuconform
