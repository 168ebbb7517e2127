// A fake libnvidia-ml for the unit tests of gpu_state.hpp: the entry points
// the harness uses, with the C signatures of nvml.h, answering from
// environment variables read at each call so one test process can stage
// several GPU states:
//   FAKE_NVML_INIT_RESULT      nvmlInit_v2's return code (default 0, success)
//   FAKE_NVML_PIDS             compute processes: comma-separated pids, "self" for this process
//                              (fake_nvml_set_pids replaces it while threads poll: setenv is not thread-safe)
//   FAKE_NVML_CLOCK_EVENTS     clock-event bit mask (strtoull base 0: "0x4")
//   FAKE_NVML_POWER_VIOLATION_NS_PER_CALL  what each power-violation reading adds
// The GPU is "GPU-fake" (or PCI bus id 00000000:01:00.0). Built three times: as
// the current NVML; with FAKE_NVML_LEGACY as an older driver's (only
// ...ClocksThrottleReasons, ..._v2 processes, no remapped rows, no violation
// counters); with FAKE_NVML_CC_RECORD as an R530-era driver's, whose _v3
// process records carry usedGpuCcProtectedMemory (32 bytes each).
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Dummy {} gpu;
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

std::vector<unsigned> fake_pids() {
  std::vector<unsigned> pids;
  std::string list;
  {
    std::lock_guard<std::mutex> lock(pids_mutex);
    const char* v = std::getenv("FAKE_NVML_PIDS");
    list = pids_set ? pids_override : v ? v : "";
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

int processes(Device, unsigned* count, ProcessInfo* infos) {
  const auto pids = fake_pids();
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
int nvmlDeviceGetClockInfo(Device, unsigned type, unsigned* mhz) {
  *mhz = type == 1 ? 1755 : 2619;  // NVML_CLOCK_SM : NVML_CLOCK_MEM
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
  *corr = 0, *unc = 0, *pending = 1, *failed = 0;
  return 0;
}
int nvmlDeviceGetViolationStatus(Device, unsigned policy, ViolationTime* t) {
  t->referenceTime = 0;
  t->violationTime = policy == 0 ? power_violation_ns += env_number("FAKE_NVML_POWER_VIOLATION_NS_PER_CALL", 0) : 0;
  return 0;
}
#endif
int nvmlDeviceGetEccMode(Device, unsigned* current, unsigned* pending) {
  *current = 1, *pending = 1;
  return 0;
}
int nvmlDeviceGetMigMode(Device, unsigned*, unsigned*) { return 3; }  // NVML_ERROR_NOT_SUPPORTED
int nvmlDeviceGetTemperature(Device, unsigned, unsigned* c) {
  *c = 41;
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
