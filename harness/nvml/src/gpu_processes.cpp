// SPDX-License-Identifier: Apache-2.0
// Lists the other compute processes on a GPU through NVML.
#include "gpu_processes.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>

namespace gpuconform {
namespace {
std::mutex own_mutex;
std::set<unsigned>& own_pids() {
  static std::set<unsigned> pids;
  return pids;
}
}  // namespace

void add_own_process(unsigned pid) {
  std::lock_guard<std::mutex> lock(own_mutex);
  own_pids().insert(pid);
}

namespace detail {
namespace {

bool visible_here(unsigned pid) { return access(("/proc/" + std::to_string(pid)).c_str(), F_OK) == 0; }

// NVML reports pids of the host's pid namespace. In a container with its own
// pid namespace this process appears under a pid that is not getpid() and is
// not visible in our /proc. When NVML did not list getpid() and exactly one
// listed pid is invisible here, that one is taken to be this process (seen
// from outside) and dropped; with several invisible pids, one of which is
// this process, all stay, so a disturbance is over- rather than under-reported.
void drop_this_process_seen_from_another_namespace(std::vector<GpuProcess>& others, bool listed_this_process) {
  if (listed_this_process) return;
  std::size_t invisible = 0, where = 0;
  for (std::size_t i = 0; i < others.size(); ++i)
    if (!visible_here(others[i].pid)) ++invisible, where = i;
  if (invisible == 1) others.erase(others.begin() + static_cast<std::ptrdiff_t>(where));
}

}  // namespace

std::string process_name(unsigned pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

bool is_own_process(unsigned pid) {
  if (pid == static_cast<unsigned>(getpid())) return true;
  std::lock_guard<std::mutex> lock(own_mutex);
  return own_pids().count(pid) != 0;
}

bool other_compute_processes(const nvml::Library& lib, nvml::Device device, std::vector<GpuProcess>& out,
                             std::string& why, bool may_hold_gpu) {
  out.clear();
  auto* list = lib.api().compute_processes;
  if (!list) {
    why = "NVML lacks nvmlDeviceGetComputeRunningProcesses_v3/_v2";
    return false;
  }
  const std::size_t stride = lib.process_info_bytes();
  // Room for 16 processes first (one call in the usual case); if more appeared,
  // NVML says how many and the second call gets room for them and a few more.
  unsigned capacity = 16;
  std::vector<unsigned char> records;
  nvml::Return r = nvml::kInsufficientSize;
  unsigned count = 0;
  for (int attempt = 0; attempt < 3 && r == nvml::kInsufficientSize; ++attempt) {
    records.assign(std::size_t{capacity} * stride, 0);
    count = capacity;
    r = list(device, &count, records.data());
    capacity = std::max(capacity, count) + 8;
  }
  if (r != nvml::kSuccess) {
    why = fmt::format("{}: {}", lib.process_function(), lib.describe(r));
    return false;
  }
  count = std::min<unsigned>(count, static_cast<unsigned>(records.size() / stride));
  bool listed_this_process = false;
  for (unsigned i = 0; i < count; ++i) {
    const unsigned char* rec = records.data() + std::size_t{i} * stride;
    GpuProcess p;
    std::memcpy(&p.pid, rec, sizeof p.pid);                                  // offset 0: pid
    std::memcpy(&p.used_memory_bytes, rec + 8, sizeof p.used_memory_bytes);  // offset 8: usedGpuMemory
    // NVML_VALUE_NOT_AVAILABLE (all ones) where the driver cannot say (e.g. WDDM).
    if (p.used_memory_bytes == ~0ULL) p.used_memory_bytes = 0;
    if (p.pid == static_cast<unsigned>(getpid())) listed_this_process = true;
    if (is_own_process(p.pid)) continue;
    p.name = process_name(p.pid);
    out.push_back(std::move(p));
  }
  if (may_hold_gpu) drop_this_process_seen_from_another_namespace(out, listed_this_process);
  return true;
}

std::string describe_process(const GpuProcess& p) {
  return p.name.empty() ? fmt::format("pid {}", p.pid) : fmt::format("pid {} ({})", p.pid, p.name);
}

}  // namespace detail
}  // namespace gpuconform
