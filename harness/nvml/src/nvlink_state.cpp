// SPDX-License-Identifier: Apache-2.0
// NVLink link state, rates and error counters through NVML (nvlink_state.hpp).
// Every NVML call may fail on its own (an older driver, a GPU or VM without
// NVLink, a counter a generation dropped): each failure leaves its value
// unknown and the rest of the reading stands.
#include "gpuconform/nvlink_state.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <exception>

#include "nvml_loader.hpp"

namespace gpuconform {
namespace {

constexpr const char* kPerLinkSource = "nvmlDeviceGetNvLinkErrorCounter";
constexpr const char* kTotalsSource = "nvmlDeviceGetFieldValues (*_TOTAL)";
// nvml.h gives both NVLink speed fields (NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON,
// NVML_FI_DEV_NVLINK_GET_SPEED) in MBps: 10^6 bytes per second.
constexpr double kBytesPerMB = 1e6;

// One table for the four counters, so reading, summing, comparing and
// printing cannot disagree about which is which.
struct CounterKind {
  const char* name;
  nvml::NvLinkErrorCounter counter;  // per link: nvmlDeviceGetNvLinkErrorCounter
  unsigned total_field;              // all links: nvmlDeviceGetFieldValues
  unsigned long long NvLinkCounters::*member;
};
constexpr CounterKind kCounterKinds[] = {
    {"replay", nvml::kNvLinkErrorDlReplay, nvml::kFiNvLinkReplayErrorTotal, &NvLinkCounters::replay},
    {"recovery", nvml::kNvLinkErrorDlRecovery, nvml::kFiNvLinkRecoveryErrorTotal, &NvLinkCounters::recovery},
    {"crc_flit", nvml::kNvLinkErrorDlCrcFlit, nvml::kFiNvLinkCrcFlitErrorTotal, &NvLinkCounters::crc_flit},
    {"crc_data", nvml::kNvLinkErrorDlCrcData, nvml::kFiNvLinkCrcDataErrorTotal, &NvLinkCounters::crc_data},
};

// A field value as a number, whatever member NVML filled; none when NVML
// refused this entry, named a type this code does not know, or gave a
// negative count (never a valid rate or counter).
std::optional<double> field_number(const nvml::FieldValue& f) {
  if (f.nvml_return != nvml::kSuccess) return std::nullopt;
  double v = 0;
  switch (f.value_type) {
    case nvml::kValueDouble: v = f.value.d; break;
    case nvml::kValueUnsignedInt: v = f.value.ui; break;
    case nvml::kValueUnsignedLong: v = static_cast<double>(f.value.ul); break;
    case nvml::kValueUnsignedLongLong: v = static_cast<double>(f.value.ull); break;
    case nvml::kValueSignedLongLong: v = static_cast<double>(f.value.sll); break;
    case nvml::kValueSignedInt: v = f.value.si; break;
    case nvml::kValueUnsignedShort: v = f.value.us; break;
    default: return std::nullopt;
  }
  if (v < 0) return std::nullopt;
  return v;
}

// Counters are 64-bit: read them without the trip through double, which
// rounds above 2^53.
std::optional<unsigned long long> field_count(const nvml::FieldValue& f) {
  if (f.nvml_return == nvml::kSuccess && f.value_type == nvml::kValueUnsignedLongLong) return f.value.ull;
  if (const auto v = field_number(f)) return static_cast<unsigned long long>(*v);
  return std::nullopt;
}

nvml::FieldValue field_request(unsigned field_id, unsigned scope_id) {
  nvml::FieldValue f{};
  f.field_id = field_id;
  f.scope_id = scope_id;
  return f;
}

// Asks NVML for all `fields` in one call. When the entry point is missing or
// the call as a whole fails, every entry carries that failure, so callers
// look only at each entry's own return code.
void read_fields(const nvml::Api& api, nvml::Device dev, std::vector<nvml::FieldValue>& fields) {
  if (fields.empty()) return;
  nvml::Return r = nvml::kFunctionNotFound;
  if (api.field_values) r = api.field_values(dev, static_cast<int>(fields.size()), fields.data());
  if (r == nvml::kSuccess) return;
  for (auto& f : fields) f.nvml_return = r;
}

// Every link that answers nvmlDeviceGetNvLinkState. All NVML_NVLINK_MAX_LINKS
// are asked, not up to the first refusal: a GPU may leave a link number out.
std::vector<NvLinkLink> list_links(const nvml::Api& api, nvml::Device dev) {
  std::vector<NvLinkLink> links;
  for (unsigned link = 0; link < nvml::kNvLinkMaxLinks; ++link) {
    nvml::EnableState active = 0;
    if (api.nvlink_state(dev, link, &active) != nvml::kSuccess) continue;
    NvLinkLink l;
    l.link = link;
    l.active = active == nvml::kFeatureEnabled;
    links.push_back(l);
  }
  return links;
}

// Rate of each active link: its own NVML_FI_DEV_NVLINK_GET_SPEED, else the
// common NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON (older drivers have only that).
// An inactive link carries no traffic, so it keeps 0 rather than the common rate.
void read_rates(const nvml::Api& api, nvml::Device dev, std::vector<NvLinkLink>& links) {
  std::vector<nvml::FieldValue> fields{field_request(nvml::kFiNvLinkSpeedMbpsCommon, 0)};
  for (const auto& l : links)
    if (l.active) fields.push_back(field_request(nvml::kFiNvLinkGetSpeed, l.link));
  if (fields.size() == 1) return;
  read_fields(api, dev, fields);
  const std::optional<double> common = field_number(fields[0]);
  std::size_t next = 1;
  for (auto& l : links) {
    if (!l.active) continue;
    std::optional<double> mbps = field_number(fields[next++]);
    if (!mbps || *mbps <= 0) mbps = common;
    if (mbps) l.rate_bytes_per_s = *mbps * kBytesPerMB;
  }
}

// The PCI bus id of what each link ends at (a peer GPU or an NVSwitch): the
// full busId, else the legacy short form.
void read_remote_pci(const nvml::Api& api, nvml::Device dev, std::vector<NvLinkLink>& links) {
  if (!api.nvlink_remote_pci_info) return;
  for (auto& l : links) {
    nvml::PciInfo pci{};
    if (api.nvlink_remote_pci_info(dev, l.link, &pci) != nvml::kSuccess) continue;
    const char* id = pci.bus_id[0] ? pci.bus_id : pci.bus_id_legacy;
    const std::size_t cap = pci.bus_id[0] ? sizeof pci.bus_id : sizeof pci.bus_id_legacy;
    l.remote_pci_bus_id.assign(id, strnlen(id, cap));  // NVML terminates it; a bad driver must not overrun
  }
}

// One link's DL counters; none when NVML answers none of the four.
std::optional<NvLinkCounters> read_link_counters(const nvml::Api& api, nvml::Device dev, unsigned link) {
  if (!api.nvlink_error_counter) return std::nullopt;
  NvLinkCounters c;
  bool any = false;
  for (const auto& k : kCounterKinds) {
    unsigned long long v = 0;
    if (api.nvlink_error_counter(dev, link, k.counter, &v) != nvml::kSuccess) continue;
    c.*k.member = v;
    any = true;
  }
  return any ? std::optional<NvLinkCounters>(c) : std::nullopt;
}

// The device-wide *_TOTAL fields: what drivers that dropped the per-link
// counter (NOT_SUPPORTED) still give. None when NVML answers none of the four.
std::optional<NvLinkCounters> read_total_fields(const nvml::Api& api, nvml::Device dev) {
  std::vector<nvml::FieldValue> fields;
  for (const auto& k : kCounterKinds) fields.push_back(field_request(k.total_field, 0));
  read_fields(api, dev, fields);
  NvLinkCounters c;
  bool any = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const auto v = field_count(fields[i]);
    if (!v) continue;
    c.*kCounterKinds[i].member = *v;
    any = true;
  }
  return any ? std::optional<NvLinkCounters>(c) : std::nullopt;
}

void add_counters(NvLinkCounters& sum, const NvLinkCounters& c) {
  for (const auto& k : kCounterKinds) sum.*k.member += c.*k.member;
}

// Per-link counters where NVML gives them (their sum is the totals, so the two
// always agree); the *_TOTAL fields otherwise. A GPU that shows no link has
// no counters to read: totals stay absent.
void read_counters(const nvml::Api& api, nvml::Device dev, NvLinkState& s) {
  if (s.links.empty()) return;
  NvLinkCounters sum;
  bool any = false;
  for (auto& l : s.links) {
    l.errors = read_link_counters(api, dev, l.link);
    if (!l.errors) continue;
    add_counters(sum, *l.errors);
    any = true;
  }
  if (any) {
    s.totals = sum;
    s.counter_source = kPerLinkSource;
  } else if ((s.totals = read_total_fields(api, dev))) {
    s.counter_source = kTotalsSource;
  }
}

void read_links(const nvml::Library& lib, nvml::Device dev, NvLinkState& s) {
  const nvml::Api& api = lib.api();
  if (!api.nvlink_state) {
    s.unavailable = "this NVML lacks nvmlDeviceGetNvLinkState";
    return;
  }
  s.links = list_links(api, dev);
  read_rates(api, dev, s.links);
  read_remote_pci(api, dev, s.links);
  read_counters(api, dev, s);
}

nlohmann::json counters_json(const std::optional<NvLinkCounters>& c) {
  if (!c) return nullptr;
  nlohmann::json j = nlohmann::json::object();
  for (const auto& k : kCounterKinds) j[k.name] = (*c).*k.member;
  return j;
}

// "replay +2, crc_flit +1": the counters that went up. A counter that went
// down was reset (driver reload, GPU reset), which is no error: not listed.
std::string rises_text(const NvLinkCounters& before, const NvLinkCounters& after) {
  std::string out;
  for (const auto& k : kCounterKinds)
    if (after.*k.member > before.*k.member)
      out += fmt::format("{}{} +{}", out.empty() ? "" : ", ", k.name, after.*k.member - before.*k.member);
  return out;
}

const NvLinkLink* find_link(const NvLinkState& s, unsigned link) {
  for (const auto& l : s.links)
    if (l.link == link) return &l;
  return nullptr;
}

}  // namespace

int NvLinkState::active_links() const {
  return static_cast<int>(std::count_if(links.begin(), links.end(), [](const NvLinkLink& l) { return l.active; }));
}

double NvLinkState::slowest_active_rate() const {
  double slowest = 0;
  for (const auto& l : links)
    if (l.active && l.rate_bytes_per_s > 0 && (slowest == 0 || l.rate_bytes_per_s < slowest))
      slowest = l.rate_bytes_per_s;
  return slowest;
}

nlohmann::json NvLinkState::to_json() const {
  nlohmann::json j_links = nlohmann::json::array();
  for (const auto& l : links)
    j_links.push_back({{"link", l.link},
                       {"active", l.active},
                       {"rate_bytes_per_s", l.rate_bytes_per_s},
                       {"remote_pci_bus_id", l.remote_pci_bus_id},
                       {"errors", counters_json(l.errors)}});
  return {{"unavailable", unavailable},
          {"links", j_links},
          {"active_links", active_links()},
          {"slowest_active_rate_bytes_per_s", slowest_active_rate()},
          {"totals", counters_json(totals)},
          {"counter_source", counter_source}};
}

NvLinkState read_nvlink_state(const std::string& uuid, const std::string& pci_bus_id) {
  NvLinkState s;
  try {
    const auto lib = nvml::library();  // held for the whole reading: reload() cannot close it underneath
    std::string why;
    const nvml::Device dev = lib->find_device(uuid, pci_bus_id, &why);
    if (!dev) {
      s.unavailable = why;
      return s;
    }
    read_links(*lib, dev, s);
  } catch (const std::exception& e) {  // allocation failure: record, never throw
    s = NvLinkState{};
    s.unavailable = std::string("reading the NVLink state failed: ") + e.what();
  }
  return s;
}

// Per link where both readings have that link's counters; the totals only
// where no link could be compared and both came from the same source (a
// per-link sum and a device-wide field need not count the same events).
std::vector<std::string> nvlink_counter_rises(const NvLinkState& before, const NvLinkState& after) {
  std::vector<std::string> rises;
  bool compared = false;
  for (const auto& l : after.links) {
    const NvLinkLink* b = find_link(before, l.link);
    if (!l.errors || !b || !b->errors) continue;
    compared = true;
    const std::string text = rises_text(*b->errors, *l.errors);
    if (!text.empty()) rises.push_back(fmt::format("link {}: {}", l.link, text));
  }
  if (compared || !before.totals || !after.totals || before.counter_source != after.counter_source) return rises;
  const std::string text = rises_text(*before.totals, *after.totals);
  if (!text.empty()) rises.push_back("totals: " + text);
  return rises;
}

}  // namespace gpuconform
