// SPDX-License-Identifier: Apache-2.0
// A fake libnvidia-ml for the unit tests of gpu_state.hpp: the entry points
// the harness uses, with the C signatures of nvml.h, answering from
// environment variables read at each call so one test process can stage
// several GPU states:
//   FAKE_NVML_INIT_RESULT      nvmlInit_v2's return code (default 0, success)
//   FAKE_NVML_PIDS             compute processes: comma-separated pids, "self" for this process
//                              (fake_nvml_set_pids replaces it while threads poll: setenv is not thread-safe)
//   FAKE_NVML_CLOCK_EVENTS     clock-event bit mask (strtoull base 0: "0x4")
//   FAKE_NVML_MEM_CLOCK_MHZ    the current memory clock (default 2619, the maximum: an H100's HBM3);
//                              "ns" answers NOT_SUPPORTED (clock_health_test.cpp)
//   FAKE_NVML_POWER_VIOLATION_NS_PER_CALL  what each power-violation reading adds
// NVLink (nvlink_state_test.cpp; not in the FAKE_NVML_LEGACY build):
//   FAKE_NVML_NVLINK_LINKS     how many links the GPU shows (default 0 = none, as on a
//                              pass-through VM: every link then answers NOT_SUPPORTED;
//                              a link past the count answers INVALID_ARGUMENT)
//   FAKE_NVML_NVLINK_DOWN      comma-separated link numbers that are inactive (their rate
//                              field reads 0 and their remote PCI info NOT_SUPPORTED)
//   FAKE_NVML_NVLINK_SPEED_MBPS  every active link's rate, and the common rate (default 26562)
//   FAKE_NVML_NVLINK_SLOW_LINK, FAKE_NVML_NVLINK_SLOW_MBPS  one link at a lower rate
//   FAKE_NVML_NVLINK_NO_LINK_SPEED=1  the per-link rate field (NVML_FI_DEV_NVLINK_GET_SPEED)
//                              answers NOT_SUPPORTED, as on older drivers: only the common rate
//   FAKE_NVML_NVLINK_REPLAY_PER_CALL  each reading of link 0's replay count (its
//                              error counter, or the REPLAY_ERROR_COUNT_TOTAL field) adds
//                              this first, so two readings show a rise (default 0)
//   FAKE_NVML_NVLINK_NO_ERROR_COUNTER=1  nvmlDeviceGetNvLinkErrorCounter answers
//                              NOT_SUPPORTED, so the totals come from field values
// Node health (node_health_test.cpp), every build unless noted; the defaults are a
// healthy H100 except the pending row remap that gpu_state_test.cpp expects:
//   FAKE_NVML_ECC_MODE         current ECC mode, 1 on (default) or 0 off; the pending mode stays 1
//   FAKE_NVML_ECC_NOT_SUPPORTED=1  nvmlDeviceGetEccMode and ...TotalEccErrors answer
//                              NOT_SUPPORTED, as on a board without ECC memory
//   FAKE_NVML_ECC_VOLATILE_UNCORRECTED  the volatile uncorrected ECC count (default 0)
//   FAKE_NVML_REMAP_PENDING, FAKE_NVML_REMAP_FAILED  nvmlDeviceGetRemappedRows' isPending
//                              (default 1) and failureOccurred (default 0); not in FAKE_NVML_LEGACY
//   FAKE_NVML_RETIRED_PAGES_PENDING  nvmlDeviceGetRetiredPagesPendingStatus (default 0); the
//                              value "ns" answers NOT_SUPPORTED, as Ampere and later do
//   FAKE_NVML_PCIE_GEN, FAKE_NVML_PCIE_WIDTH  the current PCIe link (default 5 and 16)
//   FAKE_NVML_PCIE_MAX_GEN, FAKE_NVML_PCIE_MAX_WIDTH  the link's maximum (default 5 and 16)
//   FAKE_NVML_INFOROM_RESULT   nvmlDeviceValidateInforom's return code (default 0; 14 corrupted)
//   FAKE_NVML_TEMPERATURE_C    the GPU temperature (default 41)
//   FAKE_NVML_SLOWDOWN_C       NVML_TEMPERATURE_THRESHOLD_SLOWDOWN (default 87; other thresholds NOT_SUPPORTED)
//   FAKE_NVML_NO_MARGIN=1      nvmlDeviceGetMarginTemperature answers NOT_SUPPORTED (it is
//                              slowdown less temperature otherwise; absent from FAKE_NVML_LEGACY)
// Firmware (gpu_state_test.cpp), every build:
//   FAKE_NVML_VBIOS, FAKE_NVML_BOARD_PART, FAKE_NVML_INFOROM_IMAGE  the texts (defaults
//                              "fake-vbios-1", "fake-board-1", "fake-inforom-1"); the value "ns"
//                              answers NOT_SUPPORTED
// The busy guard (gpu_busy_test.cpp, ctest outputs.gpu_busy), every build:
//   FAKE_NVML_DEVICE_COUNT     nvmlDeviceGetCount_v2 (default 1); GPU 0 is "GPU-fake", GPU i
//                              "GPU-other-i", each reachable by nvmlDeviceGetHandleByIndex_v2
//   FAKE_NVML_PIDS_GPU<i>      compute processes of GPU i >= 1 (GPU 0's are FAKE_NVML_PIDS)
//   FAKE_NVML_COMPUTE_MODE     nvmlDeviceGetComputeMode (0 default, 2 prohibited, 3 exclusive
//                              process); FAKE_NVML_COMPUTE_MODE_GPU<i> for GPU i alone
// Link L counts recovery L % 2, crc_flit L and crc_data 2 L; replay is 0 except on
// link 0; the *_TOTAL fields are the sums over the shown links. Link L's remote
// end is 00000000:(0x80 + L):00.0.
// The GPU is "GPU-fake" (or PCI bus id 00000000:01:00.0). Built three times: as
// the current NVML; with FAKE_NVML_LEGACY as an older driver's (only
// ...ClocksThrottleReasons, ..._v2 processes, no remapped rows, no violation
// counters, no NVLink entry points); with FAKE_NVML_CC_RECORD as an R530-era
// driver's, whose _v3 process records carry usedGpuCcProtectedMemory (32 bytes each).
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Dummy {} gpu;
constexpr unsigned kMaxFakeGpus = 16;
Dummy other_gpus[kMaxFakeGpus];  // GPUs 1.. of FAKE_NVML_DEVICE_COUNT
using Device = Dummy*;
std::atomic<unsigned long long> power_violation_ns{0};

// nvmlProcessInfo_v2_t layout: 24 bytes (32 with the R530-era CC field).
struct ProcessInfo {
  unsigned pid;
  unsigned long long usedGpuMemory;
  unsigned gpuInstanceId, computeInstanceId;
#ifdef FAKE_NVML_CC_RECORD
  unsigned long long usedGpuCcProtectedMemory;
#endif
};
#ifdef FAKE_NVML_CC_RECORD
static_assert(sizeof(ProcessInfo) == 32, "R530-era nvmlProcessInfo_t is 32 bytes");
#else
static_assert(sizeof(ProcessInfo) == 24, "nvmlProcessInfo_v2_t is 24 bytes");
#endif

unsigned long long env_number(const char* name, unsigned long long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 0) : fallback;
}

std::mutex pids_mutex;
bool pids_set = false;
std::string pids_override;

// The index of a fake GPU handle (0 for `gpu`).
unsigned gpu_index(Device d) { return d == &gpu ? 0 : static_cast<unsigned>(d - other_gpus); }

std::vector<unsigned> fake_pids(unsigned index = 0) {
  std::vector<unsigned> pids;
  std::string list;
  if (index == 0) {
    std::lock_guard<std::mutex> lock(pids_mutex);
    const char* v = std::getenv("FAKE_NVML_PIDS");
    list = pids_set ? pids_override : v ? v : "";
  } else {
    const char* v = std::getenv(("FAKE_NVML_PIDS_GPU" + std::to_string(index)).c_str());
    list = v ? v : "";
  }
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(start, end - start);
    if (item == "self") pids.push_back(static_cast<unsigned>(getpid()));
    else if (!item.empty()) pids.push_back(static_cast<unsigned>(std::strtoul(item.c_str(), nullptr, 10)));
    start = end + 1;
  }
  return pids;
}

#ifndef FAKE_NVML_LEGACY
// --- NVLink ---
constexpr int kInvalidArgument = 2, kNotSupported = 3;  // NVML_ERROR_*
constexpr unsigned kMaxLinks = 36;                      // NVML_NVLINK_MAX_LINKS
constexpr unsigned long long kNoLink = ~0ULL;
std::atomic<unsigned long long> link0_replay{0};

// nvmlFieldValue_t (40 bytes).
struct FieldValue {
  unsigned fieldId, scopeId;
  long long timestamp, latencyUsec;
  int valueType, nvmlReturn;
  union {
    double d;
    unsigned ui;
    unsigned long ul;
    unsigned long long ull;
    long long sll;
    int si;
    unsigned short us;
  } value;
};
static_assert(sizeof(FieldValue) == 40, "nvmlFieldValue_t is 40 bytes");

unsigned shown_links() { return static_cast<unsigned>(env_number("FAKE_NVML_NVLINK_LINKS", 0)); }

// Whether `link` is a link this GPU shows: NOT_SUPPORTED without NVLink, INVALID_ARGUMENT past the last.
int link_status(unsigned link) {
  const unsigned n = shown_links();
  if (n == 0) return kNotSupported;
  return link < n && link < kMaxLinks ? 0 : kInvalidArgument;
}

bool link_down(unsigned link) {
  const char* v = std::getenv("FAKE_NVML_NVLINK_DOWN");
  std::string list = v ? v : "";
  std::size_t start = 0;
  while (start < list.size()) {
    std::size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(start, end - start);
    if (!item.empty() && std::strtoul(item.c_str(), nullptr, 10) == link) return true;
    start = end + 1;
  }
  return false;
}

unsigned speed_mbps() { return static_cast<unsigned>(env_number("FAKE_NVML_NVLINK_SPEED_MBPS", 26562)); }

unsigned link_speed_mbps(unsigned link) {
  if (link_down(link)) return 0;
  if (env_number("FAKE_NVML_NVLINK_SLOW_LINK", kNoLink) == link)
    return static_cast<unsigned>(env_number("FAKE_NVML_NVLINK_SLOW_MBPS", speed_mbps()));
  return speed_mbps();
}

// Link 0's replay count, raised by FAKE_NVML_NVLINK_REPLAY_PER_CALL at each reading.
unsigned long long read_link0_replay() {
  return link0_replay += env_number("FAKE_NVML_NVLINK_REPLAY_PER_CALL", 0);
}

// Counter `counter` (nvmlNvLinkErrorCounter_t 0 replay, 1 recovery, 2 crc_flit,
// 3 crc_data) of `link`; the replay reading of link 0 raises it.
unsigned long long link_counter(unsigned link, int counter) {
  switch (counter) {
    case 0: return link == 0 ? read_link0_replay() : 0;
    case 1: return link % 2;
    case 2: return link;
    default: return 2ULL * link;
  }
}

// The *_TOTAL field of `counter`: the sum over the shown links.
unsigned long long counter_total(int counter) {
  unsigned long long sum = 0;
  for (unsigned link = 0; link < shown_links() && link < kMaxLinks; ++link) sum += link_counter(link, counter);
  return sum;
}

void answer_uint(FieldValue& f, unsigned v) {
  f.valueType = 1;  // NVML_VALUE_TYPE_UNSIGNED_INT
  f.value.ui = v;
}

void answer_ull(FieldValue& f, unsigned long long v) {
  f.valueType = 3;  // NVML_VALUE_TYPE_UNSIGNED_LONG_LONG
  f.value.ull = v;
}

// One nvmlDeviceGetFieldValues entry: the NVLink fields, per link (164) or for the
// whole GPU; NOT_SUPPORTED for any other field, or for all of them without NVLink.
void answer_field(FieldValue& f) {
  f.timestamp = 1, f.latencyUsec = 0;
  if (f.fieldId == 164) {  // NVML_FI_DEV_NVLINK_GET_SPEED, scopeId = link
    f.nvmlReturn = link_status(f.scopeId);
    if (f.nvmlReturn == 0 && env_number("FAKE_NVML_NVLINK_NO_LINK_SPEED", 0) == 1) f.nvmlReturn = kNotSupported;
    if (f.nvmlReturn == 0) answer_uint(f, link_speed_mbps(f.scopeId));
    return;
  }
  if ((f.nvmlReturn = shown_links() > 0 ? 0 : kNotSupported)) return;
  switch (f.fieldId) {
    case 38: return answer_ull(f, counter_total(2));  // NVML_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL
    case 45: return answer_ull(f, counter_total(3));  // ..._CRC_DATA_ERROR_COUNT_TOTAL
    case 52: return answer_ull(f, counter_total(0));  // ..._REPLAY_ERROR_COUNT_TOTAL
    case 59: return answer_ull(f, counter_total(1));  // ..._RECOVERY_ERROR_COUNT_TOTAL
    case 90: return answer_uint(f, speed_mbps());     // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON
    case 91: return answer_uint(f, shown_links());    // NVML_FI_DEV_NVLINK_LINK_COUNT
    default: f.nvmlReturn = kNotSupported;
  }
}
#endif  // FAKE_NVML_LEGACY

int processes(Device d, unsigned* count, ProcessInfo* infos) {
  const auto pids = fake_pids(gpu_index(d));
  const unsigned room = *count;
  *count = static_cast<unsigned>(pids.size());
  if (pids.size() > room) return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  for (std::size_t i = 0; i < pids.size(); ++i) {
    infos[i] = ProcessInfo{};
    infos[i].pid = pids[i];
    infos[i].usedGpuMemory = (i + 1) << 20;
    infos[i].gpuInstanceId = infos[i].computeInstanceId = 0xFFFFFFFFu;  // not MIG
  }
  return 0;
}
}  // namespace

extern "C" {
struct ViolationTime {
  unsigned long long referenceTime, violationTime;
};

// The pid list from now on; nullptr goes back to FAKE_NVML_PIDS.
void fake_nvml_set_pids(const char* list) {
  std::lock_guard<std::mutex> lock(pids_mutex);
  pids_set = list != nullptr;
  pids_override = list ? list : "";
}

int nvmlInit_v2() { return static_cast<int>(env_number("FAKE_NVML_INIT_RESULT", 0)); }
int nvmlShutdown() { return 0; }
const char* nvmlErrorString(int r) {
  switch (r) {
    case 3: return "Not Supported";
    case 6: return "Not Found";
    case 9: return "Driver Not Loaded";
    default: return "Unknown Error";
  }
}
int nvmlDeviceGetHandleByUUID(const char* uuid, Device* d) {
  if (std::strcmp(uuid, "GPU-fake") != 0) return 6;  // NVML_ERROR_NOT_FOUND
  *d = &gpu;
  return 0;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char* bus, Device* d) {
  if (std::strcmp(bus, "00000000:01:00.0") != 0) return 6;
  *d = &gpu;
  return 0;
}
int nvmlDeviceGetCount_v2(unsigned* count) {
  *count = static_cast<unsigned>(env_number("FAKE_NVML_DEVICE_COUNT", 1));
  return 0;
}
int nvmlDeviceGetHandleByIndex_v2(unsigned index, Device* d) {
  if (index >= env_number("FAKE_NVML_DEVICE_COUNT", 1) || index >= kMaxFakeGpus) return 2;  // INVALID_ARGUMENT
  *d = index == 0 ? &gpu : &other_gpus[index];
  return 0;
}
int nvmlDeviceGetUUID(Device d, char* uuid, unsigned length) {
  const unsigned index = gpu_index(d);
  const std::string text = index == 0 ? "GPU-fake" : "GPU-other-" + std::to_string(index);
  if (text.size() + 1 > length) return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  std::memcpy(uuid, text.c_str(), text.size() + 1);
  return 0;
}
namespace {
int firmware_text(const char* var, const char* fallback, char* out, unsigned length) {
  const char* env = std::getenv(var);
  const std::string text = env && *env ? env : fallback;
  if (text == "ns") return 3;              // NVML_ERROR_NOT_SUPPORTED
  if (text.size() + 1 > length) return 7;  // NVML_ERROR_INSUFFICIENT_SIZE
  std::memcpy(out, text.c_str(), text.size() + 1);
  return 0;
}
}  // namespace
int nvmlDeviceGetVbiosVersion(Device, char* v, unsigned n) {
  return firmware_text("FAKE_NVML_VBIOS", "fake-vbios-1", v, n);
}
int nvmlDeviceGetBoardPartNumber(Device, char* v, unsigned n) {
  return firmware_text("FAKE_NVML_BOARD_PART", "fake-board-1", v, n);
}
int nvmlDeviceGetInforomImageVersion(Device, char* v, unsigned n) {
  return firmware_text("FAKE_NVML_INFOROM_IMAGE", "fake-inforom-1", v, n);
}
int nvmlDeviceGetComputeMode(Device d, int* mode) {
  const std::string own = "FAKE_NVML_COMPUTE_MODE_GPU" + std::to_string(gpu_index(d));
  *mode = static_cast<int>(env_number(own.c_str(), env_number("FAKE_NVML_COMPUTE_MODE", 0)));
  return 0;
}
int nvmlDeviceGetClockInfo(Device, unsigned type, unsigned* mhz) {
  if (type == 2) {  // NVML_CLOCK_MEM
    const char* v = std::getenv("FAKE_NVML_MEM_CLOCK_MHZ");
    if (v && std::strcmp(v, "ns") == 0) return 3;  // NVML_ERROR_NOT_SUPPORTED
    *mhz = static_cast<unsigned>(env_number("FAKE_NVML_MEM_CLOCK_MHZ", 2619));
    return 0;
  }
  *mhz = 1755;  // NVML_CLOCK_SM
  return 0;
}
int nvmlDeviceGetMaxClockInfo(Device, unsigned type, unsigned* mhz) {
  *mhz = type == 1 ? 1980 : 2619;
  return 0;
}
#ifdef FAKE_NVML_LEGACY
int nvmlDeviceGetCurrentClocksThrottleReasons(Device, unsigned long long* mask) {
  *mask = env_number("FAKE_NVML_CLOCK_EVENTS", 0);
  return 0;
}
int nvmlDeviceGetComputeRunningProcesses_v2(Device d, unsigned* count, ProcessInfo* infos) {
  return processes(d, count, infos);
}
#else
int nvmlDeviceGetCurrentClocksEventReasons(Device, unsigned long long* mask) {
  *mask = env_number("FAKE_NVML_CLOCK_EVENTS", 0);
  return 0;
}
int nvmlDeviceGetComputeRunningProcesses_v3(Device d, unsigned* count, ProcessInfo* infos) {
  return processes(d, count, infos);
}
#ifdef FAKE_NVML_CC_RECORD
int nvmlDeviceGetConfComputeMemSizeInfo() { return 3; }  // without ...DetailList: 32-byte records
#else
int nvmlDeviceGetRunningProcessDetailList() { return 3; }  // present in current drivers: 24-byte records
#endif
int nvmlDeviceGetRemappedRows(Device, unsigned* corr, unsigned* unc, unsigned* pending, unsigned* failed) {
  *corr = 0, *unc = 0;
  *pending = static_cast<unsigned>(env_number("FAKE_NVML_REMAP_PENDING", 1));
  *failed = static_cast<unsigned>(env_number("FAKE_NVML_REMAP_FAILED", 0));
  return 0;
}
// nvmlMarginTemperature_v1_t; version must be nvmlMarginTemperature_v1 (0x1000008).
struct MarginTemperature {
  unsigned version;
  int marginTemperature;
};
int nvmlDeviceGetMarginTemperature(Device, MarginTemperature* m) {
  if (env_number("FAKE_NVML_NO_MARGIN", 0) == 1) return kNotSupported;
  if (m->version != 0x1000008) return 25;  // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
  m->marginTemperature = static_cast<int>(env_number("FAKE_NVML_SLOWDOWN_C", 87)) -
                         static_cast<int>(env_number("FAKE_NVML_TEMPERATURE_C", 41));
  return 0;
}
int nvmlDeviceGetViolationStatus(Device, unsigned policy, ViolationTime* t) {
  t->referenceTime = 0;
  t->violationTime = policy == 0 ? power_violation_ns += env_number("FAKE_NVML_POWER_VIOLATION_NS_PER_CALL", 0) : 0;
  return 0;
}
int nvmlDeviceGetNvLinkState(Device, unsigned link, int* isActive) {
  if (const int r = link_status(link)) return r;
  *isActive = link_down(link) ? 0 : 1;  // NVML_FEATURE_DISABLED / ENABLED
  return 0;
}
int nvmlDeviceGetNvLinkErrorCounter(Device, unsigned link, int counter, unsigned long long* value) {
  if (const int r = link_status(link)) return r;
  if (env_number("FAKE_NVML_NVLINK_NO_ERROR_COUNTER", 0) == 1) return kNotSupported;
  if (counter < 0 || counter > 3) return kInvalidArgument;
  *value = link_counter(link, counter);
  return 0;
}
struct PciInfo {
  char busIdLegacy[16];
  unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
  char busId[32];
};
int nvmlDeviceGetNvLinkRemotePciInfo_v2(Device, unsigned link, PciInfo* pci) {
  if (const int r = link_status(link)) return r;
  if (link_down(link)) return kNotSupported;
  *pci = PciInfo{};
  pci->bus = 0x80 + link;
  std::snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "0000:%02x:00.0", pci->bus);
  std::snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", pci->bus);
  return 0;
}
int nvmlDeviceGetFieldValues(Device, int count, FieldValue* values) {
  if (count < 0) return kInvalidArgument;
  for (int i = 0; i < count; ++i) answer_field(values[i]);
  return 0;
}
#endif
int nvmlDeviceGetEccMode(Device, unsigned* current, unsigned* pending) {
  if (env_number("FAKE_NVML_ECC_NOT_SUPPORTED", 0) == 1) return 3;  // NVML_ERROR_NOT_SUPPORTED
  *current = static_cast<unsigned>(env_number("FAKE_NVML_ECC_MODE", 1)), *pending = 1;
  return 0;
}
// errorType 1 NVML_MEMORY_ERROR_TYPE_UNCORRECTED, counterType 0 NVML_VOLATILE_ECC; 0 for the others.
int nvmlDeviceGetTotalEccErrors(Device, unsigned errorType, unsigned counterType, unsigned long long* count) {
  if (env_number("FAKE_NVML_ECC_NOT_SUPPORTED", 0) == 1) return 3;
  *count = errorType == 1 && counterType == 0 ? env_number("FAKE_NVML_ECC_VOLATILE_UNCORRECTED", 0) : 0;
  return 0;
}
int nvmlDeviceGetRetiredPagesPendingStatus(Device, int* isPending) {
  const char* v = std::getenv("FAKE_NVML_RETIRED_PAGES_PENDING");
  if (v && std::strcmp(v, "ns") == 0) return 3;
  *isPending = static_cast<int>(env_number("FAKE_NVML_RETIRED_PAGES_PENDING", 0));  // nvmlEnableState_t
  return 0;
}
int nvmlDeviceGetCurrPcieLinkGeneration(Device, unsigned* gen) {
  *gen = static_cast<unsigned>(env_number("FAKE_NVML_PCIE_GEN", 5));
  return 0;
}
int nvmlDeviceGetCurrPcieLinkWidth(Device, unsigned* width) {
  *width = static_cast<unsigned>(env_number("FAKE_NVML_PCIE_WIDTH", 16));
  return 0;
}
int nvmlDeviceGetMaxPcieLinkGeneration(Device, unsigned* gen) {
  *gen = static_cast<unsigned>(env_number("FAKE_NVML_PCIE_MAX_GEN", 5));
  return 0;
}
int nvmlDeviceGetMaxPcieLinkWidth(Device, unsigned* width) {
  *width = static_cast<unsigned>(env_number("FAKE_NVML_PCIE_MAX_WIDTH", 16));
  return 0;
}
int nvmlDeviceValidateInforom(Device) { return static_cast<int>(env_number("FAKE_NVML_INFOROM_RESULT", 0)); }
int nvmlDeviceGetTemperatureThreshold(Device, unsigned type, unsigned* c) {
  if (type != 1) return 3;  // only NVML_TEMPERATURE_THRESHOLD_SLOWDOWN
  *c = static_cast<unsigned>(env_number("FAKE_NVML_SLOWDOWN_C", 87));
  return 0;
}
int nvmlDeviceGetMigMode(Device, unsigned*, unsigned*) { return 3; }  // NVML_ERROR_NOT_SUPPORTED
int nvmlDeviceGetTemperature(Device, unsigned, unsigned* c) {
  *c = static_cast<unsigned>(env_number("FAKE_NVML_TEMPERATURE_C", 41));
  return 0;
}
int nvmlDeviceGetPowerUsage(Device, unsigned* mw) {
  *mw = 123456;
  return 0;
}
int nvmlDeviceGetEnforcedPowerLimit(Device, unsigned* mw) {
  *mw = 700000;
  return 0;
}
}
