// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which clock events (NVML's throttle reasons, named as gpu_state.cpp names them)
// during a timed probe are a fault of the part rather than how it works. Data, not
// code: <expectations>/evidence/throttle_policy.toml (beside the band policy),
//
//   fault = ["hw_slowdown", "hw_thermal_slowdown", ...]
//
// A latency, throughput, topology, parallel or p2p verdict measured while a fault
// event was active fails, naming the event (downgrade_for_disturbance, gpu_state.hpp);
// the other throttles (sw_power_cap: how a 700 W part runs under all-SM load) keep
// today's rule: a failure under them is a warning that names them.
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/expectation_types.hpp"  // Diagnostic

namespace gpuconform {

struct ThrottlePolicy {
  std::vector<std::string> faults;  // clock-event names
  std::string source;               // the file, or "" where there is none (then nothing is a fault)
  bool is_fault(const std::string& event) const;
};

// Strict: a key other than `fault`, a name gpu_state.cpp does not know, or text toml++
// cannot read safely is a diagnostic with file:line.
ThrottlePolicy parse_throttle_policy_text(std::string_view text, const std::string& path,
                                          std::vector<Diagnostic>& diagnostics);

// The policy of the expectations directory in use (default_expectations_dir()),
// read once per process. No file: no event is a fault. A malformed file throws
// std::runtime_error with its diagnostics: a run must not silently judge throttles
// by another rule than the file states.
const ThrottlePolicy& throttle_policy();

}  // namespace gpuconform
