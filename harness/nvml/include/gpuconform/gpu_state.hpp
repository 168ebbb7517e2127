// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU's state as NVML reports it, read at run time: NVML is loaded with
// dlopen("libnvidia-ml.so.1"), which every driver installs, so the suite needs
// no NVML header or library at build time and still runs (with the reason
// recorded) where NVML is absent.
//
// Two uses: a snapshot before and after each GPU's run goes into the run
// record; a watch around each probe notices what disturbed its measurement
// (another process on the GPU, a clock-event/throttle reason), so that a
// latency or throughput failure measured under disturbance becomes a warning
// that names the cause instead of a failure of the part.
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "gpuconform/throttle_policy.hpp"
#include "gpuconform/device_info.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/test_result.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {

struct GpuProcess {
  unsigned pid = 0;
  unsigned long long used_memory_bytes = 0;  // 0 when NVML cannot say
  std::string name;                          // from /proc/<pid>/comm where readable
};

// One reading. Fields NVML could not give stay at their defaults and the
// reason goes into `unavailable` (field name -> NVML error text).
struct GpuState {
  bool nvml = false;          // NVML loaded and the device found
  std::string nvml_error;     // why not, when !nvml
  std::string time;           // UTC, utc_timestamp()
  unsigned sm_clock_mhz = 0, sm_clock_max_mhz = 0;
  unsigned mem_clock_mhz = 0, mem_clock_max_mhz = 0;
  unsigned long long clock_event_reasons = 0;      // NVML bit mask
  std::vector<std::string> clock_event_names;      // decoded, idle excluded
  std::vector<GpuProcess> other_processes;         // compute processes other than this one
  int ecc_current = -1, ecc_pending = -1;          // 1 on, 0 off, -1 unknown
  int remapped_rows_pending = -1, remapped_rows_failed = -1;  // -1 unknown
  int mig_current = -1;                            // 1 enabled, 0 disabled, -1 unknown
  int temperature_c = -1;
  double power_w = -1, power_limit_w = -1;
  // The board's firmware, "" where NVML cannot say: a driver or firmware upgrade shows in
  // `compare`, and boards that measure differently can be matched against it.
  std::string vbios_version, board_part_number, inforom_image_version;
  nlohmann::json unavailable = nlohmann::json::object();

  nlohmann::json to_json() const;
};

// Reads the state of `device` (matched by UUID, else PCI bus id). Never throws:
// without NVML the result has nvml == false and the reason.
GpuState read_gpu_state(const DeviceInfo& device);

// The board part number alone ("" without NVML or where it cannot say): which board-part
// overlay judges the board (expectation.hpp). Never throws.
std::string read_board_part_number(const DeviceInfo& device);

// NVML's clock-event (throttle) bit mask decoded with NVML's names (gpu_idle,
// sw_power_cap, hw_slowdown, ...; an unknown bit as "bit_0x200"), idle excluded.
std::vector<std::string> clock_event_names(unsigned long long mask);
// Whether `name` is one of those names (the throttle policy checks its file with it).
bool clock_event_known(const std::string& name);
// The bits of `mask` that disturb a timing: the throttles (power cap, thermal
// and hardware slowdowns, power brake, sync boost). Idle and the clock
// settings (applications/display clocks) are configuration, not disturbance.
unsigned long long disturbing_clock_events(unsigned long long mask);

// A process of this suite that holds a context on the GPU (a runner's parent,
// a sibling worker) and is therefore not "another process". This process is
// always excluded.
void add_own_process(unsigned pid);

// Loads NVML again on next use, from $GPUCONFORM_NVML_LIBRARY if set, else
// libnvidia-ml.so.1: lets tests swap in a fake NVML.
void reload_nvml();

// What disturbed a measurement (Disturbance) is in test_result.hpp (harness/core).

// Watches one GPU while a probe runs: polls NVML from a background thread
// (other compute processes, clock-event reasons other than idle) and compares
// NVML's violation counters before and after. Cheap when NVML is absent (no thread).
class StateWatch {
 public:
  explicit StateWatch(const DeviceInfo& device);
  ~StateWatch();
  StateWatch(const StateWatch&) = delete;
  StateWatch& operator=(const StateWatch&) = delete;
  void start();
  Disturbance stop();   // idempotent; what was seen since start()

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// True for a family whose probes time something (latency, throughput, topology, parallel,
// p2p): another process or a throttle can make them fail on a healthy part. Health readings,
// numeric bits and the self-test drills do not depend on load.
bool family_times_things(Family family);

// A latency, throughput or topology verdict measured under disturbance becomes a
// warning naming the disturbance: a failure always, a pass too when another process
// shared the GPU (its value is not this part's). But a clock event the throttle policy
// calls a fault (hardware or thermal slowdown, power brake: throttle_policy.hpp) fails
// the verdict, naming the event and the policy file. Numeric results do not depend on
// load, and skips stay as they are.
Verdict downgrade_for_disturbance(Verdict verdict, Family family, const Disturbance& disturbance,
                                  const ThrottlePolicy& policy);

}  // namespace gpuconform
