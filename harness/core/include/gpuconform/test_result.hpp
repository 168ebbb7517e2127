// SPDX-License-Identifier: Apache-2.0
#pragma once
// One judged test: the probe, its measurement, the expectation it met, the
// verdict, and what disturbed the GPU while it ran. The runner makes it
// (run_conformance_test, conformance.hpp); the run record, JUnit and the
// summaries read it, so it sits on the harness's lowest floor (harness/core).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/expectation_types.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {

// What disturbed a measurement: empty when nothing did.
struct Disturbance {
  std::vector<std::string> reasons;  // "another process used the GPU: pid 4242 (spin)", "clock event: sw_power_cap"
  // Another compute process shared the GPU: the timing measured both, not this part
  // alone. A throttle alone leaves a passing measurement valid (the part met its band
  // even while held down); a shared GPU does not.
  bool shared_gpu = false;
  std::vector<std::string> clock_events;  // the throttles seen, by name (judged by the throttle policy)
  bool any() const { return !reasons.empty(); }
  std::string text() const;  // reasons joined with "; "
  nlohmann::json to_json() const;
};

struct TestResult {
  const Probe* probe = nullptr;
  std::optional<Measurement> measurement;
  std::optional<Expectation> expectation;
  Verdict verdict;
  double seconds = 0;
  // What NVML saw disturbing the measurement; set when the probe ran.
  std::optional<Disturbance> disturbance;
  // Pair and node probes: the other GPUs the result is about (A = the device the
  // result belongs to, B = peers[0]); empty for per-GPU probes. The record line
  // carries them as "peers" and readers key such a result by board_key().
  std::vector<DeviceInfo> peers;
};

}  // namespace gpuconform
