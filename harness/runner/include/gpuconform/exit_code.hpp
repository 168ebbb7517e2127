// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exit-code contract of `gpuconform run` (and of anything that reports a
// conformance run): a pure function of what was judged, so it is unit-tested.
//
//   0  every judged test passed or warned
//   1  a test failed, or a GPU could not be opened (that GPU failed)
//   2  could not run at all (no GPU, an invalid file, a filter matching no probe):
//      decided before anything is judged, so not computed here
//   3  a GPU of the run is in use by others (run error gpu_busy, gpu_busy.hpp): nothing
//      was run; a health check skips rather than drains. Decided before any probe.
//   77 nothing was judged: every selected probe skipped (e.g. no expectation
//      file for this architecture); never green, never red
#include <cstddef>
#include <vector>

namespace gpuconform {

struct GpuRun;

enum class RunExit : int { ok = 0, failed = 1, unusable = 2, busy = 3, nothing_judged = 77 };

struct RunTally {
  std::size_t passed = 0, failed = 0, warned = 0, skipped = 0;
  std::size_t gpus_unopened = 0;  // GPUs that could not be opened
};

// The verdicts of a run's GPUs counted, and the GPUs that could not be opened.
RunTally tally_runs(const std::vector<GpuRun>& runs);
RunExit run_exit_code(const RunTally& tally);

}  // namespace gpuconform
