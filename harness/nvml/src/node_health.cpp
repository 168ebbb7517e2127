// SPDX-License-Identifier: Apache-2.0
// Node health checks through NVML (node_health.hpp): one table row per check,
// one reader per row. Each reader asks NVML for what it judges and returns the
// value, the problem in words when the invariant is broken, and notes; a missing
// entry point or an NVML refusal becomes a skip with NVML's own words.
#include "gpuconform/node_health.hpp"

#include <fmt/format.h>

#include <exception>

#include "gpuconform/gpu_state.hpp"  // clock_event_names, disturbing_clock_events
#include "nvml_loader.hpp"

namespace gpuconform {
namespace {

using Reader = void (*)(const nvml::Library&, nvml::Device, NodeHealthReading&);

// Thrown by a reader that cannot judge its check: becomes NodeHealthReading::skipped.
struct Skip {
  std::string why;
};

// Calls one NVML entry point; a missing one or an error other than success is a Skip naming it.
template <typename Fn, typename... Args>
void call(const nvml::Library& lib, const char* name, Fn* fn, Args... args) {
  if (!fn) throw Skip{fmt::format("this NVML lacks {}", name)};
  const nvml::Return r = fn(args...);
  if (r == nvml::kSuccess) return;
  std::string why = fmt::format("{} answers {}", name, lib.describe(r));
  if (r == nvml::kNotSupported) why += ": this GPU or driver does not offer it";
  throw Skip{why};
}

const char* on_off(unsigned state) { return state == 1 ? "enabled" : "disabled"; }  // nvmlEnableState_t

void ecc_enabled(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  unsigned current = 0, pending = 0;
  call(lib, "nvmlDeviceGetEccMode", lib.api().ecc_mode, dev, &current, &pending);
  r.value = current == 1 ? 1 : 0;
  r.notes = {{"ecc_current", on_off(current)}, {"ecc_pending", on_off(pending)}};
  if (current != 1)
    r.problem = fmt::format("ECC is disabled (after the next reboot: {}); `nvidia-smi -e 1` enables it",
                            on_off(pending));
}

void ecc_volatile_uncorrected(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  unsigned long long count = 0;
  call(lib, "nvmlDeviceGetTotalEccErrors", lib.api().total_ecc_errors, dev, nvml::kMemoryErrorUncorrected,
       nvml::kVolatileEcc, &count);
  r.value = static_cast<double>(count);
  r.notes = {{"counter", "NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC (since the driver loaded)"}};
  if (count > 0)
    r.problem = fmt::format("{} uncorrected ECC error{} since the driver loaded", count, count == 1 ? "" : "s");
}

// nvmlDeviceGetRemappedRows, shared by the pending and the failed check.
struct RemappedRows {
  unsigned corrected = 0, uncorrected = 0, pending = 0, failed = 0;
};
RemappedRows remapped_rows(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  RemappedRows rows;
  call(lib, "nvmlDeviceGetRemappedRows", lib.api().remapped_rows, dev, &rows.corrected, &rows.uncorrected,
       &rows.pending, &rows.failed);
  r.notes = {{"rows_remapped", fmt::format("{} for correctable errors, {} for uncorrectable errors", rows.corrected,
                                           rows.uncorrected)}};
  return rows;
}

void row_remap_pending(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const RemappedRows rows = remapped_rows(lib, dev, r);
  r.value = rows.pending ? 1 : 0;
  if (rows.pending)
    r.problem = "a row remap is pending: the memory keeps the faulty row until the GPU is reset";
}

void row_remap_failed(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const RemappedRows rows = remapped_rows(lib, dev, r);
  r.value = rows.failed ? 1 : 0;
  if (rows.failed)
    r.problem = "a row remap failed (no spare row was left in the bank): the board needs service";
}

void retired_pages_pending(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  nvml::EnableState pending = 0;
  call(lib, "nvmlDeviceGetRetiredPagesPendingStatus", lib.api().retired_pages_pending, dev, &pending);
  r.value = pending == nvml::kFeatureEnabled ? 1 : 0;
  if (r.value > 0)
    r.problem = "a page retirement is pending: the page stays in use until the driver reloads or the GPU resets";
}

// Current and maximum PCIe link through NVML, shared by the generation and the width check.
// NVML rather than sysfs (common/pcie_link.hpp): sysfs gives the speed as text
// ("32.0 GT/s PCIe") that must be mapped to a generation, and its max_link_* is
// what the GPU's own port supports, while NVML's Max... is what this link can
// reach (the lower of the GPU and the slot), so a Gen 5 board in a Gen 4 slot
// is not reported as faulty.
struct PcieLinkReading {
  unsigned gen = 0, width = 0, max_gen = 0, max_width = 0;
  std::string text() const { return fmt::format("Gen {} x{}", gen, width); }
  std::string max_text() const { return fmt::format("Gen {} x{}", max_gen, max_width); }
};
PcieLinkReading pcie_link(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const nvml::Api& a = lib.api();
  PcieLinkReading l;
  call(lib, "nvmlDeviceGetCurrPcieLinkGeneration", a.curr_pcie_link_generation, dev, &l.gen);
  call(lib, "nvmlDeviceGetCurrPcieLinkWidth", a.curr_pcie_link_width, dev, &l.width);
  call(lib, "nvmlDeviceGetMaxPcieLinkGeneration", a.max_pcie_link_generation, dev, &l.max_gen);
  call(lib, "nvmlDeviceGetMaxPcieLinkWidth", a.max_pcie_link_width, dev, &l.max_width);
  r.notes = {{"link", l.text()}, {"max_link", l.max_text()}};
  return l;
}

std::string pcie_problem(const PcieLinkReading& l) {
  return fmt::format("PCIe link trained at {}, the link supports {}", l.text(), l.max_text());
}

void pcie_link_gen(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const PcieLinkReading l = pcie_link(lib, dev, r);
  r.value = l.max_gen > l.gen ? static_cast<double>(l.max_gen - l.gen) : 0;
  if (r.value > 0) r.problem = pcie_problem(l);
}

void pcie_link_width(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const PcieLinkReading l = pcie_link(lib, dev, r);
  r.value = l.max_width > l.width ? static_cast<double>(l.max_width - l.width) : 0;
  if (r.value > 0) r.problem = pcie_problem(l);
}

// The throttles of gpu_state.hpp (disturbing_clock_events): power cap, thermal and
// hardware slowdowns, power brake, sync boost. Idle and the clock settings are not
// throttles.
void throttle_idle(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  unsigned long long mask = 0;
  call(lib, "nvmlDeviceGetCurrentClocksEventReasons", lib.api().clock_event_reasons, dev, &mask);
  const std::vector<std::string> throttles = clock_event_names(disturbing_clock_events(mask));
  r.value = static_cast<double>(throttles.size());
  std::string all, named;
  for (const std::string& n : clock_event_names(mask)) all += (all.empty() ? "" : ", ") + n;
  for (const std::string& n : throttles) named += (named.empty() ? "" : ", ") + n;
  r.notes = {{"clock_event_reasons", fmt::format("{:#x}{}", mask, all.empty() ? "" : " (" + all + ")")}};
  if (!throttles.empty()) r.problem = fmt::format("the GPU is throttled while idle: {}", named);
}

void inforom_valid(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const nvml::Api& a = lib.api();
  if (!a.validate_inforom) throw Skip{"this NVML lacks nvmlDeviceValidateInforom"};
  const nvml::Return ret = a.validate_inforom(dev);
  if (ret == nvml::kCorruptedInforom) {
    r.value = 0;
    r.problem = fmt::format("the inforom is corrupted (nvmlDeviceValidateInforom answers {})", lib.describe(ret));
    return;
  }
  if (ret != nvml::kSuccess) call(lib, "nvmlDeviceValidateInforom", a.validate_inforom, dev);  // throws the Skip
  r.value = 1;
}

// NVML's own margin (nvmlDeviceGetMarginTemperature: degrees to the nearest slowdown
// threshold) where the driver has it; else the slowdown threshold less the GPU temperature.
void temperature_idle_margin(const nvml::Library& lib, nvml::Device dev, NodeHealthReading& r) {
  const nvml::Api& a = lib.api();
  nvml::MarginTemperature margin{nvml::kMarginTemperatureV1, 0};
  if (a.margin_temperature && a.margin_temperature(dev, &margin) == nvml::kSuccess) {
    r.value = margin.margin_temperature;
    r.notes = {{"source", "nvmlDeviceGetMarginTemperature"}};
    if (r.value <= 0)
      r.problem = fmt::format("the idle GPU is {} C past its nearest slowdown threshold (NVML's margin {} C)",
                              -margin.margin_temperature, margin.margin_temperature);
    return;
  }
  unsigned temp = 0, slowdown = 0;
  call(lib, "nvmlDeviceGetTemperature", a.temperature, dev, nvml::kTemperatureGpu, &temp);
  call(lib, "nvmlDeviceGetTemperatureThreshold", a.temperature_threshold, dev, nvml::kTemperatureThresholdSlowdown,
       &slowdown);
  r.value = static_cast<double>(slowdown) - static_cast<double>(temp);
  r.notes = {{"source", "nvmlDeviceGetTemperatureThreshold (NVML_TEMPERATURE_THRESHOLD_SLOWDOWN) less "
                        "nvmlDeviceGetTemperature"},
             {"temperature_c", std::to_string(temp)},
             {"slowdown_c", std::to_string(slowdown)}};
  if (r.value <= 0)
    r.problem = fmt::format("the idle GPU is at {} C, at or above its slowdown threshold {} C", temp, slowdown);
}

struct Row {
  NodeHealthCheck check;
  Reader read;
};

// The table: id, summary, unit, invariant, reader.
constexpr std::array<Row, kNodeHealthChecks> kRows{{
    {{"health.ecc.enabled", "ECC mode of the GPU memory (nvmlDeviceGetEccMode): 1 when enabled", "enabled",
      ExpectationKind::min, 1, false},
     &ecc_enabled},
    {{"health.ecc.volatile_uncorrected",
      "uncorrected ECC errors since the driver loaded (nvmlDeviceGetTotalEccErrors, volatile)", "errors",
      ExpectationKind::max, 0, false},
     &ecc_volatile_uncorrected},
    {{"health.row_remap.pending", "a memory row remap waiting for a GPU reset (nvmlDeviceGetRemappedRows isPending)",
      "remaps", ExpectationKind::max, 0, false},
     &row_remap_pending},
    {{"health.row_remap.failed", "a memory row remap that failed (nvmlDeviceGetRemappedRows failureOccurred)",
      "remaps", ExpectationKind::max, 0, false},
     &row_remap_failed},
    {{"health.retired_pages.pending",
      "a memory page retirement waiting for a driver reload (nvmlDeviceGetRetiredPagesPendingStatus)", "pages",
      ExpectationKind::max, 0, false},
     &retired_pages_pending},
    {{"health.pcie.link_gen",
      "PCIe generations the link runs below its maximum (nvmlDeviceGetMaxPcieLinkGeneration less "
      "...CurrPcieLinkGeneration, read again under traffic)",
      "generations", ExpectationKind::max, 0, true},
     &pcie_link_gen},
    {{"health.pcie.link_width",
      "PCIe lanes the link runs below its maximum (nvmlDeviceGetMaxPcieLinkWidth less ...CurrPcieLinkWidth, "
      "read again under traffic)",
      "lanes", ExpectationKind::max, 0, true},
     &pcie_link_width},
    {{"health.throttle.idle",
      "throttle reasons of the idle GPU (nvmlDeviceGetCurrentClocksEventReasons: power cap, thermal and hardware "
      "slowdowns, power brake, sync boost)",
      "reasons", ExpectationKind::max, 0, false},
     &throttle_idle},
    {{"health.inforom.valid", "the inforom's checksum (nvmlDeviceValidateInforom): 1 when valid", "valid",
      ExpectationKind::min, 1, false},
     &inforom_valid},
    {{"health.temperature.idle_margin",
      "degrees C the idle GPU is below its slowdown threshold (nvmlDeviceGetMarginTemperature, else the "
      "NVML_TEMPERATURE_THRESHOLD_SLOWDOWN threshold less the temperature)",
      "C", ExpectationKind::min, 1, false},
     &temperature_idle_margin},
}};

const Row* find_row(const std::string& id) {
  for (const Row& row : kRows)
    if (id == row.check.id) return &row;
  return nullptr;
}

}  // namespace

const std::array<NodeHealthCheck, kNodeHealthChecks>& node_health_checks() {
  static const std::array<NodeHealthCheck, kNodeHealthChecks> checks = [] {
    std::array<NodeHealthCheck, kNodeHealthChecks> c{};
    for (std::size_t i = 0; i < kRows.size(); ++i) c[i] = kRows[i].check;
    return c;
  }();
  return checks;
}

const NodeHealthCheck* find_node_health_check(const std::string& id) {
  const Row* row = find_row(id);
  return row ? &row->check : nullptr;
}

NodeHealthReading read_node_health(const std::string& id, const std::string& uuid, const std::string& pci_bus_id) {
  NodeHealthReading r;
  try {
    const Row* row = find_row(id);
    if (!row) {
      r.skipped = fmt::format("no node health check is named {}", id);
      return r;
    }
    const auto lib = nvml::library();  // held for the whole reading
    std::string why;
    const nvml::Device dev = lib->find_device(uuid, pci_bus_id, &why);
    if (!dev) {
      r.skipped = why;
      return r;
    }
    row->read(*lib, dev, r);
  } catch (const Skip& s) {
    r = NodeHealthReading{};
    r.skipped = s.why;
  } catch (const std::exception& e) {  // allocation failure: a skip that says so, never a throw
    r = NodeHealthReading{};
    r.skipped = std::string("reading the node health failed: ") + e.what();
  }
  return r;
}

}  // namespace gpuconform
