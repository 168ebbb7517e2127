// SPDX-License-Identifier: Apache-2.0
// Loads NVML with dlopen and looks up the entry points of nvml_loader.hpp.
#include "nvml_loader.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <mutex>

namespace gpuconform::nvml {
namespace {

// Every driver installs this soname; the unversioned libnvidia-ml.so comes
// only with -dev packages, which GPU nodes lack.
constexpr const char* kDefaultLibrary = "libnvidia-ml.so.1";

template <typename Fn>
bool bind(void* handle, const char* name, Fn& out) {
  out = reinterpret_cast<Fn>(dlsym(handle, name));
  return out != nullptr;
}

}  // namespace

std::shared_ptr<const Library> Library::load(const std::string& path) {
  std::shared_ptr<Library> lib(new Library());
  dlerror();
  lib->handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib->handle_) {
    const char* why = dlerror();
    lib->error_ = fmt::format("NVML not loaded: {} ({}); the NVIDIA driver installs it", path,
                              why ? why : "dlopen failed");
    return lib;
  }
  void* h = lib->handle_;
  Api& a = lib->api_;
  auto need = [&](const char* name, auto& fn) {
    if (!bind(h, name, fn)) lib->missing_.push_back(name);
  };
  need("nvmlInit_v2", a.init);
  need("nvmlShutdown", a.shutdown);
  need("nvmlErrorString", a.error_string);
  need("nvmlDeviceGetHandleByUUID", a.handle_by_uuid);
  need("nvmlDeviceGetHandleByPciBusId_v2", a.handle_by_pci_bus_id);
  need("nvmlDeviceGetClockInfo", a.clock_info);
  need("nvmlDeviceGetMaxClockInfo", a.max_clock_info);
  // NVML 12.x renamed ...ClocksThrottleReasons to ...ClocksEventReasons; older drivers have only the old name.
  if (!bind(h, "nvmlDeviceGetCurrentClocksEventReasons", a.clock_event_reasons))
    need("nvmlDeviceGetCurrentClocksThrottleReasons", a.clock_event_reasons);
  // The process list: _v3 where the driver has it, else _v2 (both take nvmlProcessInfo_t arrays).
  // Drivers that exported _v3 with nvmlDeviceGetConfComputeMemSizeInfo but not yet
  // nvmlDeviceGetRunningProcessDetailList (R530-era) used a 32-byte record with
  // usedGpuCcProtectedMemory; every other driver uses the 24-byte v2 record
  // (the rule nvitop applies, nvitop/api/libnvml.py).
  if (bind(h, "nvmlDeviceGetComputeRunningProcesses_v3", a.compute_processes)) {
    lib->process_function_ = "nvmlDeviceGetComputeRunningProcesses_v3";
    if (dlsym(h, "nvmlDeviceGetConfComputeMemSizeInfo") && !dlsym(h, "nvmlDeviceGetRunningProcessDetailList"))
      lib->process_info_bytes_ = 32;
  } else if (bind(h, "nvmlDeviceGetComputeRunningProcesses_v2", a.compute_processes)) {
    lib->process_function_ = "nvmlDeviceGetComputeRunningProcesses_v2";
  } else {
    lib->missing_.push_back("nvmlDeviceGetComputeRunningProcesses_v3");
  }
  need("nvmlDeviceGetEccMode", a.ecc_mode);
  need("nvmlDeviceGetRemappedRows", a.remapped_rows);
  need("nvmlDeviceGetMigMode", a.mig_mode);
  need("nvmlDeviceGetTemperature", a.temperature);
  need("nvmlDeviceGetPowerUsage", a.power_usage);
  need("nvmlDeviceGetEnforcedPowerLimit", a.enforced_power_limit);
  need("nvmlDeviceGetViolationStatus", a.violation_status);
  // NVLink: absent from drivers that predate it, and unusable (NOT_SUPPORTED) on
  // GPUs without NVLink or in VMs that do not pass it through.
  need("nvmlDeviceGetNvLinkState", a.nvlink_state);
  need("nvmlDeviceGetNvLinkErrorCounter", a.nvlink_error_counter);
  need("nvmlDeviceGetNvLinkRemotePciInfo_v2", a.nvlink_remote_pci_info);
  need("nvmlDeviceGetFieldValues", a.field_values);
  // Node health (node_health.cpp). nvmlDeviceGetMarginTemperature came with R555: older
  // drivers lack it and the margin is then the slowdown threshold less the temperature.
  need("nvmlDeviceGetTotalEccErrors", a.total_ecc_errors);
  need("nvmlDeviceGetRetiredPagesPendingStatus", a.retired_pages_pending);
  need("nvmlDeviceGetCurrPcieLinkGeneration", a.curr_pcie_link_generation);
  need("nvmlDeviceGetCurrPcieLinkWidth", a.curr_pcie_link_width);
  need("nvmlDeviceGetMaxPcieLinkGeneration", a.max_pcie_link_generation);
  need("nvmlDeviceGetMaxPcieLinkWidth", a.max_pcie_link_width);
  need("nvmlDeviceValidateInforom", a.validate_inforom);
  need("nvmlDeviceGetTemperatureThreshold", a.temperature_threshold);
  need("nvmlDeviceGetMarginTemperature", a.margin_temperature);
  need("nvmlDeviceGetCount_v2", a.device_count);
  need("nvmlDeviceGetHandleByIndex_v2", a.handle_by_index);
  need("nvmlDeviceGetUUID", a.uuid);
  need("nvmlDeviceGetComputeMode", a.compute_mode);
  need("nvmlDeviceGetVbiosVersion", a.vbios_version);
  need("nvmlDeviceGetBoardPartNumber", a.board_part_number);
  need("nvmlDeviceGetInforomImageVersion", a.inforom_image_version);

  if (!a.init || !a.shutdown) {
    lib->error_ = fmt::format("NVML at {} lacks nvmlInit_v2 or nvmlShutdown: not a usable NVML library", path);
    return lib;
  }
  const Return r = a.init();
  if (r != kSuccess) {
    lib->error_ = fmt::format("nvmlInit_v2 failed: {}", lib->describe(r));
    return lib;
  }
  lib->initialised_ = true;
  return lib;
}

Library::~Library() {
  if (initialised_ && api_.shutdown) api_.shutdown();
  if (handle_) dlclose(handle_);
}

std::string Library::describe(Return r) const {
  const char* text = api_.error_string ? api_.error_string(r) : nullptr;
  return fmt::format("{} (NVML error {})", text ? text : "unknown error", r);
}

Device Library::find_device(const std::string& uuid, const std::string& pci_bus_id, std::string* why) const {
  std::string reasons;
  if (!ok()) {
    if (why) *why = error_;
    return nullptr;
  }
  Device dev = nullptr;
  if (!uuid.empty() && api_.handle_by_uuid) {
    const Return r = api_.handle_by_uuid(uuid.c_str(), &dev);
    if (r == kSuccess) return dev;
    reasons = fmt::format("UUID {}: {}", uuid, describe(r));
  }
  if (!pci_bus_id.empty() && api_.handle_by_pci_bus_id) {
    const Return r = api_.handle_by_pci_bus_id(pci_bus_id.c_str(), &dev);
    if (r == kSuccess) return dev;
    reasons += fmt::format("{}PCI bus id {}: {}", reasons.empty() ? "" : "; ", pci_bus_id, describe(r));
  }
  if (why) *why = "NVML does not know this GPU (" + (reasons.empty() ? "no UUID or PCI bus id to look it up by" : reasons) + ")";
  return nullptr;
}

namespace {
std::mutex library_mutex;
std::shared_ptr<const Library> current;
}  // namespace

std::shared_ptr<const Library> library() {
  std::lock_guard<std::mutex> lock(library_mutex);
  if (!current) {
    const char* override_path = std::getenv("GPUCONFORM_NVML_LIBRARY");
    current = Library::load(override_path && *override_path ? override_path : kDefaultLibrary);
  }
  return current;
}

void reload() {
  std::shared_ptr<const Library> old;
  {
    std::lock_guard<std::mutex> lock(library_mutex);
    old.swap(current);
  }
  // `old` shuts NVML down here unless a StateWatch still holds it.
}

}  // namespace gpuconform::nvml
