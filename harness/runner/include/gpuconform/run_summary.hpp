// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a finished `gpuconform run` amounts to, for machines: summary.json (its shape:
// harness/schema/summary.schema.json), the Kubernetes termination message and the
// Prometheus textfile (prometheus_textfile.hpp) are all made from one RunOutcome.
#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/run_header.hpp"
#include "gpuconform/run_error.hpp"
#include "gpuconform/run_level.hpp"  // probe_group: summary groups are run-level groups
#include "gpuconform/runner.hpp"

namespace gpuconform {

// Version of summary.json's shape; a reader rejects a newer one.
inline constexpr int kRunSummarySchemaVersion = 1;

struct RunOutcome {
  RunIdentity run;
  std::vector<GpuRun> gpus;  // in device order; a GPU that could not be opened has open_error
  int exit_code = 0;         // as `run` exits (exit_code.hpp; 2 when it could not run)
  std::chrono::system_clock::time_point started, finished;
  std::string record_path;               // "" when none was written
  std::vector<std::string> junit_paths;  // one per opened GPU, or one for all
  std::string summary_path;              // "" when none is written
  std::optional<RunError> error;         // why it could not run (exit 2), run_error.hpp
  std::optional<double> timeout_s;       // the run's deadline (--timeout), when given
};

// The stable code of a result that is not a pass, for machines (summary.json non_pass
// "code"): "run_timeout" (skipped: the run's --timeout expired before or while it ran),
// "probe_timeout" (failed: it outlived its own time limit), "probe_failed" (any other
// failure); "" for a warn or another skip.
std::string result_code(const TestResult& result);

// "ok", "failed", "unusable", "nothing_judged", or "exit N" for any other code.
std::string exit_meaning(int exit_code);
// "2026-11-25T02:47:00Z"
std::string utc_iso(std::chrono::system_clock::time_point t);

// summary.json: verdict counts in total, per GPU and per GPU x probe group, the exit code
// and wall time, and every result that is not a pass with its reason.
nlohmann::json run_summary_json(const RunOutcome& outcome);

// The Kubernetes termination message (/dev/termination-log): one line of totals, the
// error's code, message and next step when the run could not run, then fail/warn lines (fails first) cut to fit `max_bytes` (the kubelet keeps 4096), with
// "... N more" when some did not fit. Never longer than max_bytes.
std::string termination_message(const RunOutcome& outcome, std::size_t max_bytes = 4096);

}  // namespace gpuconform
