// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a probe returns: named values with units, never printed by the probe
// itself. The harness pairs it with an expectation to reach a verdict.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/sampling.hpp"

namespace gpuconform {

// Curves and maps a probe keeps beside its single value, in one documented
// shape so that `gpuconform report` (and the topology family) can draw any of
// them without knowing the probe. Every axis has a name and a unit.
//
// Series: a curve y(x), x[i] paired with y[i] (same length), e.g. bandwidth
// against bytes in flight per SM, or kernel time against the block count.
// Run record: {"name", "x": {"name", "unit", "values": [...]},
//                      "y": {"name", "unit", "values": [...]}}
struct Series {
  std::string name;                 // "bandwidth_vs_bytes_in_flight"
  std::string x_name, x_unit;       // "bytes in flight per SM", "B"
  std::string y_name, y_unit;       // "bandwidth", "B/s"
  std::vector<double> x, y;
};

// Matrix: values over two axes, values[r * cols.size() + c] at (rows[r],
// cols[c]), e.g. tensor-core throughput over warps per SM x ILP.
// Run record: {"name", "rows": {"name", "unit", "values": [...]},
//              "cols": {"name", "unit", "values": [...]},
//              "values": {"name", "unit", "data": [[row 0], [row 1], ...]}}
struct Matrix {
  std::string name;                      // "warps_x_ilp"
  std::string row_name, row_unit;        // "warps per SM", "warps"
  std::string col_name, col_unit;        // "ILP", "instructions"
  std::string value_name, value_unit;    // "throughput", "FLOP/clk/SM"
  std::vector<double> rows, cols;
  std::vector<double> values;            // row-major, rows.size() * cols.size()
  double at(std::size_t r, std::size_t c) const { return values[r * cols.size() + c]; }
};

struct Measurement {
  double value = 0;             // the figure the expectation checks (a median for timed probes)
  std::string unit;             // "cycles", "B/s", "mismatches", ...
  std::vector<double> samples;  // every sample the value was summarised from
  std::optional<Sampling> sampling;  // throughput probes: the median's interval and why sampling stopped
  // fraction_of_peak: the peak in `unit` derived from this device's own
  // constants and clocks, and the formula in words for the verdict text.
  std::optional<double> peak;
  std::string peak_formula;
  // The same peak at the board's maximum SM clock instead of the measured one, where
  // the peak scales with the SM clock (throughput.hpp); judged for entries with
  // `at_max_clock` (expectation.hpp).
  std::optional<double> peak_at_max_clock;
  std::uint64_t compared = 0;   // numeric probes: output elements compared
  double sm_clock_mhz = 0;      // SM clock measured during the probe; 0 if not measured
  // Ordered facts for people: the model used, SASS opcodes, first mismatches.
  std::vector<std::pair<std::string, std::string>> notes;
  std::vector<Series> series;    // curves, e.g. a sweep behind `value` (see Series)
  std::vector<Matrix> matrices;  // two-axis sweeps (see Matrix)

  void note(std::string key, std::string text) { notes.emplace_back(std::move(key), std::move(text)); }
  const std::string* find_note(const std::string& key) const;
};

}  // namespace gpuconform
