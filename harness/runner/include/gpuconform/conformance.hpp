// SPDX-License-Identifier: Apache-2.0
#pragma once
// One conformance test = one probe run on one device and judged against the
// resolved expectation. Both front ends (gtest and the CLI) call this.
#include <optional>
#include <string>

#include "gpuconform/device_info.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/gpu_state.hpp"
#include "gpuconform/test_result.hpp"  // TestResult
#include "gpuconform/probe.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {

struct RunOptions {
  bool quick = false;
  std::vector<DeviceInfo> peers;  // pair and node probes (ProbeContext::peers)
};

// Why this device cannot run the probe, or "" when it can.
std::string unmet_requirement(const Probe& probe, const DeviceInfo& device);

// Runs the probe and judges it. Never throws for a probe failure: a CUDA
// error or exception becomes a failed verdict with its message. A StateWatch
// (gpu_state.hpp) surrounds the measurement: a latency/throughput failure
// measured while something disturbed the GPU becomes a warning naming it, unless the
// throttle policy calls the clock event a fault. A timed value that fails (confirms_failures)
// is measured again, up to three times in all: majority_verdict decides.
TestResult run_conformance_test(const Probe& probe, const DeviceInfo& device,
                                const ExpectationSet& expectations, const RunOptions& options = {});

// Whether a failed value of this family and entry kind is measured again before it is called
// a fault of the part: timed families (latency, throughput, topology, parallel, p2p) with a
// measured band; never bits (exact), readings (health), records (info) or the self-test drills.
bool confirms_failures(Family family, ExpectationKind kind);

// The verdict of a value that failed and was measured again: `fails` of the fails + passes
// measurements failed (`values` lists them). Fail when 2 or more failed (or none passed); else
// a warn naming the transient, with the failing measurement's reason.
Verdict majority_verdict(int fails, int passes, const std::string& values, const std::string& first_reason);

// Runs the probe with no expectation (for `record`). Throws ProbeSkipped when
// the device cannot run it, and CudaError / std::exception on failure.
Measurement run_probe(const Probe& probe, const DeviceInfo& device, const RunOptions& options = {});

// Hint for a probe with no expectation on this device.
std::string how_to_record(const Probe& probe, const DeviceInfo& device);

// Loads the expectations for `device` from `dir` plus overlays, checking ids
// against the registry. In self-test mode (selftest_enabled()) `dir`/selftest.toml,
// the self-test probes' expectations, is applied before the user overlays.
ExpectationSet load_device_expectations(const DeviceInfo& device, const std::string& dir,
                                        const std::vector<std::string>& overlays);

}  // namespace gpuconform
