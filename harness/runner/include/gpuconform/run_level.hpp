// SPDX-License-Identifier: Apache-2.0
#pragma once
// Run levels of `gpuconform run --level quick|standard|long`: which probes run, how
// often, and how the repeats of one probe become one verdict. Pure functions of the
// registry, the device and its expectations (no GPU), so `gpuconform list --level`
// shows exactly what a run would select.
//
// quick     a verdict from every probe group in a node-health-check budget. Per group
//           (the id's first two fields, as ctest groups them): among the probes this GPU
//           can run that have an entry other than `info`, those of quick_required_probes()
//           (whatever they cost), then the cheapest by the entry's recorded `seconds`;
//           further ones cheapest-first while the group has fewer than
//           kQuickProbesPerGroup and its recorded seconds (the required ones' included)
//           stay within kQuickGroupSeconds. A group with no such probe contributes its first probe,
//           whose skip verdict says why (no expectation, an unmet requirement). The
//           health family (NVML readings, milliseconds each) runs whole. Probes
//           run with fewer repeats (RunOptions::quick) and the worker disassembles no
//           SASS unless a selected entry asserts opcodes (runner_worker.cpp). A value
//           outside its drift band but inside its fail band passes at this level, its
//           reason saying it drifted (JudgeOptions, verdict.hpp).
// standard  every selected probe once (the default).
// long      every selected probe `repeats` times (whole passes over the selection, so
//           slow drifts show); the record holds each run and a "spread" line per probe.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/conformance.hpp"
#include "gpuconform/stats.hpp"

namespace gpuconform {

enum class RunLevel { quick, standard, long_run };
const char* level_name(RunLevel level);  // "quick", "standard", "long"
std::optional<RunLevel> parse_level(std::string_view text);

// Policy, not measurement: how much of each group a health check affords.
constexpr std::size_t kQuickProbesPerGroup = 3;
constexpr double kQuickGroupSeconds = 1.0;
// Runs of each probe at --level long unless --repeats says otherwise.
constexpr int kLongRepeatsDefault = 5;

// The probes quick judges wherever this GPU can judge them (an entry other than `info`
// and the requirements met), each for what it catches (run_level.cpp says why).
const std::vector<std::string>& quick_required_probes();

// "latency.alu" for "latency.alu.fma.rn.f32": the probe group (ctest's group too).
std::string probe_group(std::string_view id);

// What `level` runs of `probes` (already filtered, in registry order) on `device`,
// in the same order.
std::vector<const Probe*> select_for_level(const std::vector<const Probe*>& probes,
                                           const ExpectationSet& expectations, const DeviceInfo& device,
                                           RunLevel level);

// The seconds an entry was recorded in, when it says.
std::optional<double> recorded_seconds(const ExpectationSet& expectations, const std::string& probe_id);

// The runs of one probe at --level long, summarised: the spread of the measured
// values (runs without a value, e.g. skipped or crashed ones, are left out) and one
// verdict, the worst of the runs (fail > warn > pass > skip): a board that fails one
// run in five is not conformant.
struct RepeatedResult {
  TestResult result;               // the worst run's verdict, the median run's measurement
  std::optional<Summary> spread;   // over the runs with a measurement
  std::vector<double> values;      // those values, in run order
  int runs = 0;
};
RepeatedResult aggregate_runs(const std::vector<TestResult>& runs);

}  // namespace gpuconform
