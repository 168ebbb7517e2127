// SPDX-License-Identifier: Apache-2.0
#pragma once
// Human-readable output of the CLI: the device header and the end of a run.
#include <string>
#include <vector>

#include "gpuconform/conformance.hpp"
#include "gpuconform/exit_code.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform::cli {

// Whether verdict words are coloured (console_colour.hpp): decided once per command from
// --color, the terminal and NO_COLOR; off until set.
void set_colour(bool on);
bool colour();
// Decides colour for stdout from a --color value; false (after a message) for a bad value.
bool setup_colour(const std::string& mode, const char* command);

void print_device_header(const DeviceInfo& d, const ExpectationSet& expectations);
// --level long: per probe, the median, MAD, min and max over its runs.
void print_spreads(const GpuRun& gpu);
// The probe-group x GPU verdict matrix, then every verdict that is not a pass with its
// reason, then the totals.
void print_run_end(const std::vector<GpuRun>& runs, const RunTally& totals);

}  // namespace gpuconform::cli
