// SPDX-License-Identifier: Apache-2.0
#pragma once
// Why a `gpuconform run` could not run (exit 2), for machines: a stable code, a severity
// and the next step, written wherever a verdict goes (summary.json "error", line 2 of the
// termination log, the Prometheus metric gpuconform_run_error_info), so a node-health
// framework does not drain a node on "0 pass, 0 fail on 0 GPU(s)" without knowing why.
// DCGM's error codes are the model: one class per cause, each with what to do.
#include <string>
#include <vector>

namespace gpuconform {

struct RunError {
  std::string code;     // one of run_error_codes()
  std::string message;  // what happened, as printed on stderr
};

struct RunErrorClass {
  const char* code;
  const char* severity;   // "node": the node cannot run the suite; "invocation": fix the command or files;
                          // "busy": someone else's work holds the GPU (exit 3, gpu_busy.hpp)
  const char* next_step;  // one sentence
};

// The exit code that goes with `code`: 3 for gpu_busy, 2 for every other.
int run_error_exit_code(const std::string& code);

// Every code a run can report, in the order docs/running.md lists them.
const std::vector<RunErrorClass>& run_error_codes();
// The class of `code`; throws std::logic_error for a code not in the table (a bug).
const RunErrorClass& run_error_class(const std::string& code);

}  // namespace gpuconform
