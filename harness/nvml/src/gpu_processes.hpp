// SPDX-License-Identifier: Apache-2.0
#pragma once
// The compute processes NVML lists on a GPU, less this suite's own: shared by
// the state snapshot and the per-probe watch.
#include <string>
#include <vector>

#include "gpuconform/gpu_state.hpp"
#include "nvml_loader.hpp"

namespace gpuconform::detail {

// /proc/<pid>/comm without its newline; "" where unreadable (gone, or in
// another pid namespace).
std::string process_name(unsigned pid);

// This process or one registered with add_own_process.
bool is_own_process(unsigned pid);

// Fills `out` with the other compute processes on `device` (not this process,
// also when it appears under a host pid from inside a container: see
// gpu_processes.cpp). False, with the NVML error in `why`, when NVML cannot list them.
// `may_hold_gpu` false (the busy guard, before this process touched any GPU): every
// listed pid but this process's is another's, even one invisible from this pid namespace.
bool other_compute_processes(const nvml::Library& lib, nvml::Device device, std::vector<GpuProcess>& out,
                             std::string& why, bool may_hold_gpu = true);

// "pid 4242 (gpu_spinner)", or "pid 4242" when the name is unknown.
std::string describe_process(const GpuProcess& p);

}  // namespace gpuconform::detail
