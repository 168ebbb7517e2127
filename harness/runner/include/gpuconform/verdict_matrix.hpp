// SPDX-License-Identifier: Apache-2.0
#pragma once
// The end of `gpuconform run`: a probe-group x GPU matrix of verdict counts, so one bad
// board or one bad group stands out on a node of eight, then only the lines that need
// reading (fail, warn, skip). Every verdict is in the run record and JUnit file.
#include <string>
#include <vector>

#include "gpuconform/runner.hpp"

namespace gpuconform {

// Rows: probe groups (probe_group) in the order they first ran, then "all"; columns:
// the GPUs in `runs` order. A cell is "pass/fail/warn/skip" counts; a GPU that could
// not be opened shows "not opened" in its column. Pair and node results (non-empty
// TestResult::peers) are left out of the GPU columns and counted in a second table,
// only when there are any, whose columns are the pairs as they ran ("GPU 0>1", gpu_label).
// Column keys follow the tables.
std::string verdict_matrix(const std::vector<GpuRun>& runs);

// "GPU 1 fail latency.mem.hbm: measured ..." for every verdict that is not a pass,
// fails first, then warns, then skips, each in run order; and each unopened GPU. A pair
// result is named by its pair: "GPU 0>1 fail p2p.bandwidth...: ...".
std::vector<std::string> non_pass_lines(const std::vector<GpuRun>& runs);

}  // namespace gpuconform
