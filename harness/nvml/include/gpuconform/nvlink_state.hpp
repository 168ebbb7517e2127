// SPDX-License-Identifier: Apache-2.0
#pragma once
// A GPU's NVLink links as NVML reports them: which are up, at what rate, to
// which peer, and the data-link error counters (replay, recovery, CRC). Read
// through the run-time-loaded NVML (nvml_loader.hpp), so a node without NVML
// or without NVLink (a PCIe card, a pass-through VM) gives a reading that says
// so instead of failing.
//
// Two readings around a run tell whether the links degraded under load:
// nvlink_counter_rises names every counter that went up.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuconform {

// NVML's data-link error counters (nvmlNvLinkErrorCounter_t DL_REPLAY,
// DL_RECOVERY, DL_CRC_FLIT, DL_CRC_DATA), for one link or summed.
struct NvLinkCounters {
  unsigned long long replay = 0, recovery = 0, crc_flit = 0, crc_data = 0;
};

struct NvLinkLink {
  unsigned link = 0;
  bool active = false;
  double rate_bytes_per_s = 0;        // 0: NVML did not say (always 0 for an inactive link)
  std::string remote_pci_bus_id;      // "" when unknown
  // Per-link DL counters, when NVML gives them (a counter NVML refuses while
  // others answer reads 0).
  std::optional<NvLinkCounters> errors;
};

struct NvLinkState {
  std::string unavailable;            // why nothing could be read ("" when read): no NVML, no such GPU...
  std::vector<NvLinkLink> links;      // every link NVML shows (GetNvLinkState answered success), in link order
  std::optional<NvLinkCounters> totals;  // sum of the per-link counters, else the *_TOTAL field values, else none
  std::string counter_source;         // "nvmlDeviceGetNvLinkErrorCounter", "nvmlDeviceGetFieldValues (*_TOTAL)" or ""

  int active_links() const;
  double slowest_active_rate() const; // 0 when none known
  nlohmann::json to_json() const;     // for run records and notes
};

// Reads the GPU's links through nvml::library(), finding the handle by uuid / PCI bus id (nvml::Library::find_device). Never throws.
NvLinkState read_nvlink_state(const std::string& uuid, const std::string& pci_bus_id);

// Human-readable rises between two readings, e.g. "link 3: replay +2, crc_flit +1"; "totals: recovery +1" when only totals are known; empty when nothing rose.
std::vector<std::string> nvlink_counter_rises(const NvLinkState& before, const NvLinkState& after);

}  // namespace gpuconform
