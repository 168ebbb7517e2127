// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/exit_code.hpp"

#include "gpuconform/runner.hpp"

namespace gpuconform {

RunTally tally_runs(const std::vector<GpuRun>& runs) {
  RunTally t;
  for (const GpuRun& gpu : runs) {
    if (!gpu.device) ++t.gpus_unopened;
    for (const TestResult& r : gpu.results) switch (r.verdict.outcome) {
        case Outcome::pass: ++t.passed; break;
        case Outcome::fail: ++t.failed; break;
        case Outcome::warn: ++t.warned; break;
        case Outcome::skip: ++t.skipped; break;
      }
  }
  return t;
}

RunExit run_exit_code(const RunTally& t) {
  if (t.failed > 0 || t.gpus_unopened > 0) return RunExit::failed;
  // Skips alone are no evidence the GPU conforms: an architecture without an
  // expectation file must not come out green.
  if (t.passed + t.warned == 0) return RunExit::nothing_judged;
  return RunExit::ok;
}

}  // namespace gpuconform
