// SPDX-License-Identifier: Apache-2.0
// The busy guard (gpu_busy.hpp): NVML's compute processes and compute mode of the run's GPUs.
#include "gpuconform/gpu_busy.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>

#include "gpu_processes.hpp"
#include "nvml_loader.hpp"

namespace gpuconform {
namespace {

std::string trim(const std::string& s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

const char* compute_mode_name(int mode) {
  switch (mode) {
    case nvml::kComputeModeExclusiveThread: return "EXCLUSIVE_THREAD";
    case nvml::kComputeModeProhibited: return "PROHIBITED";
    case nvml::kComputeModeExclusiveProcess: return "EXCLUSIVE_PROCESS";
    default: return nullptr;  // DEFAULT: shared
  }
}

}  // namespace

std::vector<unsigned> visible_nvml_indices(const std::optional<std::string>& cuda_visible_devices,
                                           const std::vector<std::string>& uuids) {
  std::vector<unsigned> out;
  if (!cuda_visible_devices) {
    for (unsigned i = 0; i < uuids.size(); ++i) out.push_back(i);
    return out;
  }
  const std::string& list = *cuda_visible_devices;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string item = trim(list.substr(start, end - start));
    std::optional<unsigned> found;
    if (all_digits(item)) {
      const unsigned long index = std::strtoul(item.c_str(), nullptr, 10);
      if (index < uuids.size()) found = static_cast<unsigned>(index);
    } else if (item.rfind("GPU-", 0) == 0) {
      // A unique prefix of a UUID, as CUDA accepts it.
      for (unsigned i = 0; i < uuids.size(); ++i)
        if (uuids[i].rfind(item, 0) == 0) {
          if (found) {
            found.reset();
            break;
          }
          found = i;
        }
    }
    if (!found) break;  // CUDA ignores an invalid entry and every entry after it
    out.push_back(*found);
    start = end + 1;
  }
  return out;
}

std::string BusyCheck::describe() const {
  std::string out;
  for (const BusyGpu& b : busy)
    out += fmt::format("{}GPU {}{}: {}", out.empty() ? "" : "; ", b.nvml_index,
                       b.uuid.empty() ? "" : fmt::format(" ({})", b.uuid), b.reason);
  return out;
}

BusyCheck check_gpus_busy(const std::vector<int>& devices) {
  BusyCheck check;
  const std::shared_ptr<const nvml::Library> lib = nvml::library();
  if (!lib->ok()) {
    check.not_checked = lib->error();
    return check;
  }
  const nvml::Api& api = lib->api();
  if (!api.device_count || !api.handle_by_index || !api.compute_processes) {
    check.not_checked = "NVML lacks nvmlDeviceGetCount_v2, nvmlDeviceGetHandleByIndex_v2 or the process list";
    return check;
  }
  unsigned count = 0;
  if (const nvml::Return r = api.device_count(&count); r != nvml::kSuccess) {
    check.not_checked = "nvmlDeviceGetCount_v2: " + lib->describe(r);
    return check;
  }
  std::vector<nvml::Device> handles(count, nullptr);
  std::vector<std::string> uuids(count);
  for (unsigned i = 0; i < count; ++i) {
    if (const nvml::Return r = api.handle_by_index(i, &handles[i]); r != nvml::kSuccess) {
      check.not_checked = fmt::format("nvmlDeviceGetHandleByIndex_v2({}): {}", i, lib->describe(r));
      return check;
    }
    char uuid[96] = {};
    if (api.uuid && api.uuid(handles[i], uuid, sizeof uuid) == nvml::kSuccess) uuids[i] = uuid;
  }
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  const std::vector<unsigned> visible =
      visible_nvml_indices(env ? std::optional<std::string>(env) : std::nullopt, uuids);
  if (devices.empty()) {
    check.gpus = visible;
  } else {
    for (int d : devices)
      if (d >= 0 && static_cast<std::size_t>(d) < visible.size()) check.gpus.push_back(visible[d]);
  }
  for (unsigned index : check.gpus) {
    BusyGpu b{index, uuids[index], ""};
    int mode = nvml::kComputeModeDefault;
    if (api.compute_mode && api.compute_mode(handles[index], &mode) == nvml::kSuccess)
      if (const char* name = compute_mode_name(mode))
        b.reason = fmt::format("compute mode {} (a job holds the GPU, or none may use it)", name);
    std::vector<GpuProcess> others;
    std::string why;
    if (!detail::other_compute_processes(*lib, handles[index], others, why, /*may_hold_gpu=*/false)) {
      check.not_checked = fmt::format("GPU {}: {}", index, why);
      return check;
    }
    if (!others.empty()) {
      std::string list;
      for (const GpuProcess& p : others) list += (list.empty() ? "" : ", ") + detail::describe_process(p);
      b.reason += fmt::format("{}{} other compute process(es): {}", b.reason.empty() ? "" : "; ", others.size(), list);
    }
    if (!b.reason.empty()) check.busy.push_back(std::move(b));
  }
  check.checked = true;
  return check;
}

}  // namespace gpuconform
