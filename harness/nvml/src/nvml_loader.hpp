// SPDX-License-Identifier: Apache-2.0
#pragma once
// NVML loaded at run time, private to the harness. The build machine has no
// nvml.h, so the few entry points the suite uses are declared here by hand
// with their documented C signatures (NVML API Reference, docs.nvidia.com/
// deploy/nvml-api). A missing library, a failed nvmlInit or a missing symbol
// is recorded as text, never a crash.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace gpuconform::nvml {

// nvmlReturn_t is a C enum (int-sized); nvmlDevice_t an opaque pointer.
using Return = int;
using Device = struct DeviceOpaque*;

// Values from nvml.h (the same numbers appear in NVIDIA's Python binding
// nvidia-ml-py, pynvml.py).
constexpr Return kSuccess = 0;             // NVML_SUCCESS
constexpr Return kNotSupported = 3;        // NVML_ERROR_NOT_SUPPORTED
constexpr Return kInsufficientSize = 7;    // NVML_ERROR_INSUFFICIENT_SIZE
constexpr Return kFunctionNotFound = 13;   // NVML_ERROR_FUNCTION_NOT_FOUND
constexpr unsigned kClockSm = 1;           // nvmlClockType_t NVML_CLOCK_SM
constexpr unsigned kClockMem = 2;          // nvmlClockType_t NVML_CLOCK_MEM
constexpr unsigned kTemperatureGpu = 0;    // nvmlTemperatureSensors_t NVML_TEMPERATURE_GPU
constexpr unsigned kPerfPolicyPower = 0;   // nvmlPerfPolicyType_t NVML_PERF_POLICY_POWER
constexpr unsigned kPerfPolicyThermal = 1; // nvmlPerfPolicyType_t NVML_PERF_POLICY_THERMAL
// Clock-event bits the watch relates to the violation counters (nvml.h
// nvmlClocksEventReason*; the full table is in gpu_state.cpp).
constexpr unsigned long long kClockEventSwPowerCap = 0x4;
constexpr unsigned long long kClockEventSwThermalSlowdown = 0x20;
constexpr unsigned long long kClockEventHwThermalSlowdown = 0x40;

// --- Node health (node_health.hpp; nvml.h, the same numbers in nvidia-ml-py's pynvml.py) ---
// nvmlComputeMode_t (nvml.h; pynvml.py NVML_COMPUTEMODE_*).
constexpr int kComputeModeDefault = 0;
constexpr int kComputeModeExclusiveThread = 1;  // deprecated, still reported by old drivers
constexpr int kComputeModeProhibited = 2;
constexpr int kComputeModeExclusiveProcess = 3;
constexpr Return kCorruptedInforom = 14;        // NVML_ERROR_CORRUPTED_INFOROM (nvmlDeviceValidateInforom)
constexpr unsigned kMemoryErrorUncorrected = 1; // nvmlMemoryErrorType_t NVML_MEMORY_ERROR_TYPE_UNCORRECTED
constexpr unsigned kVolatileEcc = 0;            // nvmlEccCounterType_t NVML_VOLATILE_ECC (since the last driver load)
constexpr unsigned kTemperatureThresholdSlowdown = 1;  // nvmlTemperatureThresholds_t NVML_TEMPERATURE_THRESHOLD_SLOWDOWN
// nvmlMarginTemperature_v1_t {unsigned version; int marginTemperature}: degrees C
// to the nearest slowdown threshold. Its version word is
// NVML_STRUCT_VERSION(MarginTemperature, 1) = sizeof | 1 << 24 = 0x1000008
// (pynvml.py: nvmlMarginTemperature_v1 = 0x1000008).
struct MarginTemperature {
  unsigned version;
  int margin_temperature;
};
static_assert(sizeof(MarginTemperature) == 8, "nvmlMarginTemperature_v1_t is 8 bytes");
constexpr unsigned kMarginTemperatureV1 = 0x1000008;

// nvmlViolationTime_t: both in nanoseconds.
struct ViolationTime {
  unsigned long long reference_time;
  unsigned long long violation_time;
};

// --- NVLink (nvml.h "NvLink Methods" and "Field Value Queries") ---

// nvmlEnableState_t (NVML_FEATURE_DISABLED 0, NVML_FEATURE_ENABLED 1) and
// nvmlNvLinkErrorCounter_t are C enums: int-sized.
using EnableState = int;
using NvLinkErrorCounter = int;
constexpr EnableState kFeatureEnabled = 1;   // NVML_FEATURE_ENABLED
constexpr Return kInvalidArgument = 2;       // NVML_ERROR_INVALID_ARGUMENT
// NVML_NVLINK_MAX_LINKS: 36 in current nvml.h (18 on older drivers, which
// answer a link past that with NVML_ERROR_INVALID_ARGUMENT, as every driver
// does for a link past what the GPU has).
constexpr unsigned kNvLinkMaxLinks = 36;
constexpr NvLinkErrorCounter kNvLinkErrorDlReplay = 0;    // NVML_NVLINK_ERROR_DL_REPLAY
constexpr NvLinkErrorCounter kNvLinkErrorDlRecovery = 1;  // NVML_NVLINK_ERROR_DL_RECOVERY
constexpr NvLinkErrorCounter kNvLinkErrorDlCrcFlit = 2;   // NVML_NVLINK_ERROR_DL_CRC_FLIT
constexpr NvLinkErrorCounter kNvLinkErrorDlCrcData = 3;   // NVML_NVLINK_ERROR_DL_CRC_DATA

// nvmlFieldValue_t field ids, nvml.h NVML_FI_DEV_* (the same numbers are in
// nvidia-ml-py's pynvml.py).
constexpr unsigned kFiNvLinkCrcFlitErrorTotal = 38;   // NVML_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL
constexpr unsigned kFiNvLinkCrcDataErrorTotal = 45;   // NVML_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL
constexpr unsigned kFiNvLinkReplayErrorTotal = 52;    // NVML_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL
constexpr unsigned kFiNvLinkRecoveryErrorTotal = 59;  // NVML_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL
constexpr unsigned kFiNvLinkSpeedMbpsCommon = 90;     // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON (MB/s, all links)
constexpr unsigned kFiNvLinkLinkCount = 91;           // NVML_FI_DEV_NVLINK_LINK_COUNT
constexpr unsigned kFiNvLinkGetSpeed = 164;           // NVML_FI_DEV_NVLINK_GET_SPEED (MB/s, scopeId = link)

// nvmlValueType_t: which member of FieldValue::value NVML filled.
enum ValueType : int {
  kValueDouble = 0,            // NVML_VALUE_TYPE_DOUBLE
  kValueUnsignedInt = 1,       // NVML_VALUE_TYPE_UNSIGNED_INT
  kValueUnsignedLong = 2,      // NVML_VALUE_TYPE_UNSIGNED_LONG
  kValueUnsignedLongLong = 3,  // NVML_VALUE_TYPE_UNSIGNED_LONG_LONG
  kValueSignedLongLong = 4,    // NVML_VALUE_TYPE_SIGNED_LONG_LONG
  kValueSignedInt = 5,         // NVML_VALUE_TYPE_SIGNED_INT
  kValueUnsignedShort = 6,     // NVML_VALUE_TYPE_UNSIGNED_SHORT
};

// nvmlPciInfo_t (the layout of nvmlDeviceGetPciInfo_v3 and
// nvmlDeviceGetNvLinkRemotePciInfo_v2): busIdLegacy is
// NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE (16) bytes, busId
// NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE (32).
struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};
static_assert(sizeof(PciInfo) == 68, "nvmlPciInfo_t is 68 bytes");

// nvmlFieldValue_t: the caller sets field_id and scope_id (a link for
// per-link fields); NVML fills the rest, with a return code per entry.
struct FieldValue {
  unsigned field_id;
  unsigned scope_id;
  long long timestamp;     // microseconds since 1970
  long long latency_usec;
  int value_type;          // ValueType
  Return nvml_return;
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

// The entry points, each null when the library lacks it.
struct Api {
  Return (*init)() = nullptr;                                   // nvmlInit_v2
  Return (*shutdown)() = nullptr;                               // nvmlShutdown
  const char* (*error_string)(Return) = nullptr;                // nvmlErrorString
  Return (*handle_by_uuid)(const char*, Device*) = nullptr;     // nvmlDeviceGetHandleByUUID
  Return (*handle_by_pci_bus_id)(const char*, Device*) = nullptr;  // nvmlDeviceGetHandleByPciBusId_v2
  Return (*clock_info)(Device, unsigned, unsigned*) = nullptr;      // nvmlDeviceGetClockInfo
  Return (*max_clock_info)(Device, unsigned, unsigned*) = nullptr;  // nvmlDeviceGetMaxClockInfo
  // nvmlDeviceGetCurrentClocksEventReasons, or the older name
  // nvmlDeviceGetCurrentClocksThrottleReasons (same signature and bits).
  Return (*clock_event_reasons)(Device, unsigned long long*) = nullptr;
  // nvmlDeviceGetComputeRunningProcesses_v3 or _v2 (unsigned* count, nvmlProcessInfo_t* infos);
  // the element size differs between drivers: see process_info_bytes.
  Return (*compute_processes)(Device, unsigned*, void*) = nullptr;
  Return (*ecc_mode)(Device, unsigned*, unsigned*) = nullptr;       // nvmlDeviceGetEccMode (nvmlEnableState_t*)
  // nvmlDeviceGetRemappedRows(device, corrRows, uncRows, isPending, failureOccurred)
  Return (*remapped_rows)(Device, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  Return (*mig_mode)(Device, unsigned*, unsigned*) = nullptr;       // nvmlDeviceGetMigMode(current, pending)
  Return (*temperature)(Device, unsigned, unsigned*) = nullptr;     // nvmlDeviceGetTemperature (deg C)
  Return (*power_usage)(Device, unsigned*) = nullptr;               // nvmlDeviceGetPowerUsage (mW)
  Return (*enforced_power_limit)(Device, unsigned*) = nullptr;      // nvmlDeviceGetEnforcedPowerLimit (mW)
  Return (*violation_status)(Device, unsigned, ViolationTime*) = nullptr;  // nvmlDeviceGetViolationStatus
  Return (*nvlink_state)(Device, unsigned, EnableState*) = nullptr;  // nvmlDeviceGetNvLinkState(link, isActive)
  // nvmlDeviceGetNvLinkErrorCounter(link, counter, counterValue)
  Return (*nvlink_error_counter)(Device, unsigned, NvLinkErrorCounter, unsigned long long*) = nullptr;
  Return (*nvlink_remote_pci_info)(Device, unsigned, PciInfo*) = nullptr;  // nvmlDeviceGetNvLinkRemotePciInfo_v2
  Return (*field_values)(Device, int, FieldValue*) = nullptr;  // nvmlDeviceGetFieldValues(valuesCount, values)
  // Node health (node_health.cpp), each documented in the NVML API Reference, "Device Queries":
  // nvmlDeviceGetTotalEccErrors(errorType, counterType, unsigned long long* eccCounts)
  Return (*total_ecc_errors)(Device, unsigned, unsigned, unsigned long long*) = nullptr;
  Return (*retired_pages_pending)(Device, EnableState*) = nullptr;  // nvmlDeviceGetRetiredPagesPendingStatus
  Return (*curr_pcie_link_generation)(Device, unsigned*) = nullptr; // nvmlDeviceGetCurrPcieLinkGeneration
  Return (*curr_pcie_link_width)(Device, unsigned*) = nullptr;      // nvmlDeviceGetCurrPcieLinkWidth
  // nvmlDeviceGetMaxPcieLinkGeneration / ...Width: the most the link can train to
  // (the lower of what the GPU and the slot above it support).
  Return (*max_pcie_link_generation)(Device, unsigned*) = nullptr;
  Return (*max_pcie_link_width)(Device, unsigned*) = nullptr;
  Return (*validate_inforom)(Device) = nullptr;                     // nvmlDeviceValidateInforom
  // nvmlDeviceGetTemperatureThreshold(thresholdType, unsigned* temp) (deg C)
  Return (*temperature_threshold)(Device, unsigned, unsigned*) = nullptr;
  Return (*margin_temperature)(Device, MarginTemperature*) = nullptr;  // nvmlDeviceGetMarginTemperature (R555+)
  // The busy guard (gpu_busy.hpp): every GPU of the node by NVML index (PCI bus order),
  // its UUID and its compute mode (nvmlComputeMode_t, an int-sized C enum).
  Return (*device_count)(unsigned*) = nullptr;             // nvmlDeviceGetCount_v2
  Return (*handle_by_index)(unsigned, Device*) = nullptr;  // nvmlDeviceGetHandleByIndex_v2
  Return (*uuid)(Device, char*, unsigned) = nullptr;       // nvmlDeviceGetUUID
  Return (*compute_mode)(Device, int*) = nullptr;          // nvmlDeviceGetComputeMode
  // Firmware, recorded in the state snapshot (gpu_state.cpp): (device, char* text, length)
  Return (*vbios_version)(Device, char*, unsigned) = nullptr;          // nvmlDeviceGetVbiosVersion
  Return (*board_part_number)(Device, char*, unsigned) = nullptr;      // nvmlDeviceGetBoardPartNumber
  Return (*inforom_image_version)(Device, char*, unsigned) = nullptr;  // nvmlDeviceGetInforomImageVersion
};

// One loaded and initialised NVML. Shut down and closed when the last user
// lets go of it.
class Library {
 public:
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }   // why NVML is unusable
  const Api& api() const { return api_; }
  // Entry points the library lacks (each one's readings are then "unavailable").
  const std::vector<std::string>& missing() const { return missing_; }
  // Size of one process record of compute_processes: 24 bytes for
  // nvmlProcessInfo_v2_t {pid, usedGpuMemory, gpuInstanceId, computeInstanceId};
  // 32 for the short-lived v3 layout with usedGpuCcProtectedMemory appended.
  // pid is at offset 0 and usedGpuMemory at offset 8 in both.
  std::size_t process_info_bytes() const { return process_info_bytes_; }
  const char* process_function() const { return process_function_; }

  // "NVML_ERROR_NOT_SUPPORTED"-style text for a return code.
  std::string describe(Return r) const;
  // The handle of the GPU with this UUID, else this PCI bus id; nullptr and `why` when neither.
  Device find_device(const std::string& uuid, const std::string& pci_bus_id, std::string* why) const;

  static std::shared_ptr<const Library> load(const std::string& path);

 private:
  Library() = default;
  void* handle_ = nullptr;
  bool initialised_ = false;
  std::string error_;
  Api api_;
  std::vector<std::string> missing_;
  std::size_t process_info_bytes_ = 24;
  const char* process_function_ = "";
};

// The process's NVML, loaded and initialised on first use (thread-safe) from
// $GPUCONFORM_NVML_LIBRARY or else libnvidia-ml.so.1. Never null.
std::shared_ptr<const Library> library();

// Drops the process's NVML so that the next library() loads it again
// (re-reading $GPUCONFORM_NVML_LIBRARY): for tests with a fake NVML.
void reload();

}  // namespace gpuconform::nvml
