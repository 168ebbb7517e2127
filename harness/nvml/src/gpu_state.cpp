// SPDX-License-Identifier: Apache-2.0
// A snapshot of one GPU's state through NVML (gpu_state.hpp), and the
// clock-event names and rules that the watch shares.
#include "gpuconform/gpu_state.hpp"

#include <fmt/format.h>

#include "gpu_processes.hpp"
#include "gpuconform/run_record.hpp"
#include "nvml_loader.hpp"

namespace gpuconform {
namespace {

// nvmlClocksEventReason* bits, nvml.h (NVML API Reference, "ClocksEventReasons";
// the same values as the older nvmlClocksThrottleReason* names).
struct ClockEvent {
  unsigned long long bit;
  const char* name;
  bool disturbs;  // see disturbing_clock_events
};
constexpr ClockEvent kClockEvents[] = {
    {0x1, "gpu_idle", false},                     // nvmlClocksEventReasonGpuIdle
    {0x2, "applications_clocks_setting", false},  // nvmlClocksEventReasonApplicationsClocksSetting
    {0x4, "sw_power_cap", true},                  // nvmlClocksEventReasonSwPowerCap
    {0x8, "hw_slowdown", true},                   // nvmlClocksThrottleReasonHwSlowdown
    {0x10, "sync_boost", true},                   // nvmlClocksEventReasonSyncBoost
    {0x20, "sw_thermal_slowdown", true},          // nvmlClocksEventReasonSwThermalSlowdown
    {0x40, "hw_thermal_slowdown", true},          // nvmlClocksThrottleReasonHwThermalSlowdown
    {0x80, "hw_power_brake_slowdown", true},      // nvmlClocksThrottleReasonHwPowerBrakeSlowdown
    {0x100, "display_clock_setting", false},      // nvmlClocksEventReasonDisplayClockSetting
};
constexpr unsigned long long kGpuIdle = 0x1;

}  // namespace

std::vector<std::string> clock_event_names(unsigned long long mask) {
  std::vector<std::string> names;
  unsigned long long known = 0;
  for (const auto& e : kClockEvents) {
    known |= e.bit;
    if ((mask & e.bit) && e.bit != kGpuIdle) names.emplace_back(e.name);
  }
  for (int b = 0; b < 64; ++b) {
    const unsigned long long bit = 1ULL << b;
    if ((mask & bit) && !(known & bit)) names.push_back(fmt::format("bit_{:#x}", bit));
  }
  return names;
}

bool clock_event_known(const std::string& name) {
  for (const auto& e : kClockEvents)
    if (name == e.name) return true;
  return false;
}

// Which clock events make a timing unfair to the part: the throttles, which
// lower the clocks below what the probe's peak assumes while it runs.
// sw_power_cap counts although a heavy throughput probe can cause it itself:
// a measurement taken under the power cap says how the board's power budget
// limits it, not whether the part is wrong, so a failure then is a warning
// that names the cap. gpu_idle never counts; the application and display clock
// settings are configuration, visible in the state snapshot, not disturbance.
unsigned long long disturbing_clock_events(unsigned long long mask) {
  unsigned long long out = 0;
  for (const auto& e : kClockEvents)
    if (e.disturbs) out |= mask & e.bit;
  return out;
}

void reload_nvml() { nvml::reload(); }

nlohmann::json GpuState::to_json() const {
  nlohmann::json processes = nlohmann::json::array();
  for (const auto& p : other_processes)
    processes.push_back({{"pid", p.pid}, {"name", p.name}, {"used_memory_bytes", p.used_memory_bytes}});
  return {{"nvml", nvml},
          {"nvml_error", nvml_error},
          {"time", time},
          {"sm_clock_mhz", sm_clock_mhz},
          {"sm_clock_max_mhz", sm_clock_max_mhz},
          {"mem_clock_mhz", mem_clock_mhz},
          {"mem_clock_max_mhz", mem_clock_max_mhz},
          {"clock_event_reasons", clock_event_reasons},
          {"clock_event_names", clock_event_names},
          {"other_processes", processes},
          {"ecc_current", ecc_current},
          {"ecc_pending", ecc_pending},
          {"remapped_rows_pending", remapped_rows_pending},
          {"remapped_rows_failed", remapped_rows_failed},
          {"mig_current", mig_current},
          {"temperature_c", temperature_c},
          {"power_w", power_w},
          {"power_limit_w", power_limit_w},
          {"vbios_version", vbios_version},
          {"board_part_number", board_part_number},
          {"inforom_image_version", inforom_image_version},
          {"unavailable", unavailable}};
}

namespace {

// Calls one NVML reading; a missing entry point or an error goes into
// state.unavailable[field] and leaves the field at its default.
template <typename Fn, typename... Args>
bool read_field(GpuState& state, const nvml::Library& lib, const char* field, Fn* fn, Args... args) {
  if (!fn) {
    state.unavailable[field] = "this NVML lacks the entry point";
    return false;
  }
  const nvml::Return r = fn(args...);
  if (r == nvml::kSuccess) return true;
  state.unavailable[field] = lib.describe(r);
  return false;
}

// One NVML text reading (a version or part number) into `out`; "" when unavailable.
void read_text(GpuState& s, const nvml::Library& lib, const char* field,
               nvml::Return (*fn)(nvml::Device, char*, unsigned), nvml::Device dev, std::string& out) {
  char text[96] = {};  // NVML's buffer sizes for these: 32 (VBIOS), 80 (part number), 16 (inforom)
  if (read_field(s, lib, field, fn, dev, text, static_cast<unsigned>(sizeof text))) {
    text[sizeof text - 1] = '\0';
    out = text;
  }
}

void read_firmware(GpuState& s, const nvml::Library& lib, nvml::Device dev) {
  const nvml::Api& a = lib.api();
  read_text(s, lib, "vbios_version", a.vbios_version, dev, s.vbios_version);
  read_text(s, lib, "board_part_number", a.board_part_number, dev, s.board_part_number);
  read_text(s, lib, "inforom_image_version", a.inforom_image_version, dev, s.inforom_image_version);
}

void read_readings(GpuState& s, const nvml::Library& lib, nvml::Device dev) {
  const nvml::Api& a = lib.api();
  unsigned v = 0, w = 0;
  if (read_field(s, lib, "sm_clock_mhz", a.clock_info, dev, nvml::kClockSm, &v)) s.sm_clock_mhz = v;
  if (read_field(s, lib, "sm_clock_max_mhz", a.max_clock_info, dev, nvml::kClockSm, &v)) s.sm_clock_max_mhz = v;
  if (read_field(s, lib, "mem_clock_mhz", a.clock_info, dev, nvml::kClockMem, &v)) s.mem_clock_mhz = v;
  if (read_field(s, lib, "mem_clock_max_mhz", a.max_clock_info, dev, nvml::kClockMem, &v)) s.mem_clock_max_mhz = v;
  unsigned long long reasons = 0;
  if (read_field(s, lib, "clock_event_reasons", a.clock_event_reasons, dev, &reasons)) {
    s.clock_event_reasons = reasons;
    s.clock_event_names = clock_event_names(reasons);
  }
  std::string why;
  if (!detail::other_compute_processes(lib, dev, s.other_processes, why)) s.unavailable["other_processes"] = why;
  if (read_field(s, lib, "ecc", a.ecc_mode, dev, &v, &w)) {
    s.ecc_current = static_cast<int>(v);  // nvmlEnableState_t: NVML_FEATURE_DISABLED 0, ENABLED 1
    s.ecc_pending = static_cast<int>(w);
  }
  unsigned corrected = 0, uncorrected = 0;
  if (read_field(s, lib, "remapped_rows", a.remapped_rows, dev, &corrected, &uncorrected, &v, &w)) {
    s.remapped_rows_pending = static_cast<int>(v);
    s.remapped_rows_failed = static_cast<int>(w);
  }
  if (read_field(s, lib, "mig_current", a.mig_mode, dev, &v, &w)) s.mig_current = static_cast<int>(v);  // NVML_DEVICE_MIG_ENABLE 1
  if (read_field(s, lib, "temperature_c", a.temperature, dev, nvml::kTemperatureGpu, &v)) s.temperature_c = static_cast<int>(v);
  if (read_field(s, lib, "power_w", a.power_usage, dev, &v)) s.power_w = v / 1000.0;  // milliwatts
  if (read_field(s, lib, "power_limit_w", a.enforced_power_limit, dev, &v)) s.power_limit_w = v / 1000.0;
}

}  // namespace

GpuState read_gpu_state(const DeviceInfo& device) {
  GpuState s;
  s.time = utc_timestamp();
  try {
    const auto lib = nvml::library();
    std::string why;
    const nvml::Device dev = lib->find_device(device.uuid, device.pci_bus_id, &why);
    if (!dev) {
      s.nvml_error = why;
      return s;
    }
    s.nvml = true;
    read_readings(s, *lib, dev);
    read_firmware(s, *lib, dev);
  } catch (const std::exception& e) {  // allocation or JSON failure: record, never throw
    s.nvml_error = std::string("reading the GPU state failed: ") + e.what();
  }
  return s;
}

std::string read_board_part_number(const DeviceInfo& device) {
  GpuState s;
  try {
    const auto lib = nvml::library();
    if (const nvml::Device dev = lib->find_device(device.uuid, device.pci_bus_id, nullptr))
      read_text(s, *lib, "board_part_number", lib->api().board_part_number, dev, s.board_part_number);
  } catch (const std::exception&) {  // no NVML: no board-part overlay, the SKU's entries judge
  }
  return s.board_part_number;
}

}  // namespace gpuconform
