// SPDX-License-Identifier: Apache-2.0
#pragma once
// What both report formats show, worked out once from a RecordData: verdict counts, strip
// rows, curve charts with their markers, heat maps and the numeric model table. The HTML
// (report_html.cpp) and Markdown (report_markdown.cpp) writers only lay these out.
#include <map>
#include <string>
#include <vector>

#include "gpuconform/report.hpp"
#include "gpuconform/report_svg.hpp"

namespace gpuconform::report {

// Worse verdicts rank higher: fail/error 4, warn 3, an unknown verdict 2, skip 1, pass and
// recorded 0.
int verdict_rank(const std::string& verdict);

// "3ba2d5b8" from "GPU-3ba2d5b8-4d95-...".
std::string short_gpu(const std::string& gpu);

// Families in the record: latency, throughput, numeric, topology, parallel first (in that
// order), then any other in alphabetical order.
std::vector<std::string> families(const RecordData& r);

// counts[family][gpu][verdict]
using VerdictCounts = std::map<std::string, std::map<std::string, std::map<std::string, int>>>;
VerdictCounts verdict_counts(const RecordData& r);

// One row per measured probe of `family`, sorted by probe id; a point per run and board.
std::vector<StripRow> strip_rows(const RecordData& r, const std::string& family);
// The row's band as text: "4.016 ± 0.27 (drift ± 0.25)", ">= 0.7 (drift >= 0.76)", "= 0", "none".
std::string band_text(const StripRow& row, const std::string& unit);
// Where a value lies: "inside the drift band", "between drift and fail band", "outside the fail band", "no band".
std::string position_text(const StripRow& row, double value);

struct CurveChart {
  std::string family, probe, name, title;
  Series axes;                 // names and units (the values are in curves)
  std::vector<Curve> curves;   // one per board: its last run
  std::vector<Marker> markers;
};
// Every Series of the probes of `family`, one chart per (probe, series name). Latency
// staircases get their edges marked: the device's reported L2 size, a capacity-edge probe's
// measured edge, and the L1 hit / L2 hit / HBM latencies the record holds when they fall in
// the chart.
std::vector<CurveChart> curve_charts(const RecordData& r, const std::string& family);

struct HeatMap {
  std::string family, probe, gpu, title;
  Matrix m;  // the board's last run
};
std::vector<HeatMap> heat_maps(const RecordData& r, const std::string& family);

struct NumericRow {
  std::string probe, gpu, model, unit, verdict;
  int runs = 0;
  std::uint64_t compared = 0;  // output elements compared, largest run
  double mismatches = 0;       // largest over the runs
};
// numeric.* probes, one row per probe and board.
std::vector<NumericRow> numeric_rows(const RecordData& r);

// Test lines whose verdict is not pass or recorded (fail, warn, skip, error), worst first.
std::vector<const Entry*> non_pass(const RecordData& r);

}  // namespace gpuconform::report
