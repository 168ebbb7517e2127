// SPDX-License-Identifier: Apache-2.0
#pragma once
// Peaks are data: one table per architecture (expectations/peaks/sm_XX.toml)
// of per-SM, per-clock rates, each with a citation. A throughput probe names
// the entry its work loads; the harness multiplies the rate by the SMs the
// probe used and the SM clock measured during it (throughput.hpp). No peak is
// ever typed into C++, and an architecture without the entry skips the probe.
//
//   [meta]
//   arch = "sm_90"
//
//   [peak."fp32.fma"]
//   per_sm_per_clock = 256
//   unit = "FLOP/clk/SM"       # FLOP/clk/SM | op/clk/SM | B/clk/SM
//   source = "cite:CUDA C++ Programming Guide, Arithmetic Instructions"
//   note = "128 FMA results x 2 FLOP"   # optional
//
// The parser is as strict as the expectation parser: unknown keys, wrong
// types, a missing source or a non-positive rate are errors with file:line.
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/expectation_types.hpp"

namespace gpuconform {

struct PeakEntry {
  std::string id;               // "fp32.fma", "mma.f16.f32", "smem.load", ...
  double per_sm_per_clock = 0;  // in `unit`
  std::string unit;             // "FLOP/clk/SM", "op/clk/SM" or "B/clk/SM"
  std::string source;           // "cite:..." (a peak is never measured)
  std::string note;
  Location where;
};

struct PeakTable {
  std::string path;   // "" when the architecture has no table
  std::string arch;
  std::map<std::string, PeakEntry> entries;
  const PeakEntry* find(const std::string& id) const;
};

// Units a peak entry may use, and the rate unit a probe then reports:
// "FLOP/clk/SM" -> "FLOP/s", "op/clk/SM" -> "op/s", "B/clk/SM" -> "B/s".
const std::vector<std::string>& peak_units();
std::string rate_unit(const std::string& per_clock_unit);

PeakTable parse_peak_text(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics);
PeakTable parse_peak_file(const std::string& path, std::vector<Diagnostic>& diagnostics);

// True for a path inside a "peaks" directory: `gpuconform lint` parses such
// files as peak tables rather than expectations.
bool is_peak_table_path(const std::string& path);

// The directory of peak tables: $GPUCONFORM_PEAKS, else
// default_expectations_dir()/peaks.
std::string peak_table_dir();

// The table for `arch` ("sm_90"), parsed once per process. A missing file
// yields an empty table (every probe that needs it skips, naming the file);
// an invalid file throws ExpectationError.
const PeakTable& peak_table_for(const std::string& arch);

}  // namespace gpuconform
