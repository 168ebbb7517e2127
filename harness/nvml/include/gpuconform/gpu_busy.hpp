// SPDX-License-Identifier: Apache-2.0
#pragma once
// The busy guard of `gpuconform run`: before any probe (before the CUDA runtime is even
// initialised), are the GPUs this run would use in use by someone else? A node-health
// check that runs on a GPU holding a user's job would slow the job down and measure the
// job, not the part; on a GPU in EXCLUSIVE_PROCESS or PROHIBITED compute mode its worker
// could not create a context, and the node would be drained for a healthy GPU. Such a run
// stops with the run-error code gpu_busy (exit 3) instead, and the recipes skip the check.
//
// A GPU is busy when NVML lists a compute process on it that is not this process, or when
// its compute mode is EXCLUSIVE_PROCESS, EXCLUSIVE_THREAD or PROHIBITED.
//
// Which GPUs: NVML numbers the GPUs in PCI bus order. The run's GPUs are those
// CUDA_VISIBLE_DEVICES names (integers as NVML indices, "GPU-..." as UUID prefixes; an
// entry that is neither, or names no GPU, ends the list as it does for CUDA), or all; then
// `--device N` picks the Nth of those. Integer indices mean the same GPU to CUDA and NVML
// when CUDA_DEVICE_ORDER=PCI_BUS_ID (the Slurm recipe sets it) or, in CUDA's default
// fastest-first order, on a node of identical GPUs.
#include <optional>
#include <string>
#include <vector>

namespace gpuconform {

struct BusyGpu {
  unsigned nvml_index = 0;
  std::string uuid;    // "" when NVML could not say
  std::string reason;  // "compute mode EXCLUSIVE_PROCESS", "2 other compute process(es): pid 4242 (python), ..."
};

struct BusyCheck {
  bool checked = false;        // NVML answered for every GPU of the run
  std::string not_checked;     // why not (no NVML, an entry point missing): the run goes on
  std::vector<unsigned> gpus;  // the NVML indices checked, in the run's order
  std::vector<BusyGpu> busy;

  // "GPU 0 (GPU-3ba2d5b8): 1 other compute process: pid 4242 (python); GPU 1 ...".
  std::string describe() const;
};

// The NVML indices of the GPUs CUDA would show, in CUDA's order: `cuda_visible_devices`
// (nullopt = unset) resolved against the node's GPUs (their UUIDs, by NVML index).
std::vector<unsigned> visible_nvml_indices(const std::optional<std::string>& cuda_visible_devices,
                                           const std::vector<std::string>& uuids);

// Checks the run's GPUs: `devices` are CUDA ordinals among the visible ones (empty = all
// visible); an ordinal past the end is left to the run's own argument check. Reads
// CUDA_VISIBLE_DEVICES. Never throws: without NVML, checked is false and not_checked says why.
BusyCheck check_gpus_busy(const std::vector<int>& devices);

}  // namespace gpuconform
