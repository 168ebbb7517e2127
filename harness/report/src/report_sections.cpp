// SPDX-License-Identifier: Apache-2.0
// Which sections a report has, and why one is absent: shared by the HTML and Markdown
// writers, so both say the same about the same record.
#include <fmt/format.h>

#include "gpuconform/report.hpp"
#include "gpuconform/report_model.hpp"

namespace gpuconform::report {

std::vector<Section> sections(const RecordData& r, const Options& o) {
  bool measured = false;
  for (const Entry& e : r.entries) measured = measured || e.measured;
  const bool latency_curves = !curve_charts(r, "latency").empty();
  const bool tensor = !heat_maps(r, "throughput").empty();
  const bool throughput_curves = !curve_charts(r, "throughput").empty();
  const bool topology = !curve_charts(r, "topology").empty() || !heat_maps(r, "topology").empty();
  bool other = !heat_maps(r, "latency").empty();
  for (const std::string& f : families(r))
    if (f != "latency" && f != "throughput" && f != "topology")
      other = other || !curve_charts(r, f).empty() || !heat_maps(r, f).empty();
  const bool numeric = !numeric_rows(r).empty();

  std::vector<Section> out = {
      {"summary", "Per-family summary", !r.entries.empty(), "the record holds no test line"},
      {"bands", "Measured against bands", measured, "no test line carries a measurement"},
      {"staircase", "Latency staircase", latency_curves,
       "no latency probe kept a curve (a Series, or a 'staircase' note of the latency.mem.* probes)"},
      {"tensor", "Tensor-core sweeps (warps × ILP)", tensor, "no throughput probe kept a Matrix (warps × ILP sweep)"},
      {"throughput-curves", "Throughput curves", throughput_curves, "no throughput probe kept a Series"},
      {"topology", "Per-SM maps (topology)", topology, "no topology probe kept a Series or Matrix"},
      {"other", "Other curves and maps", other, "no other probe kept a Series or Matrix"},
      {"numeric", "Numeric models", numeric, "the record holds no numeric.* probe"},
      {"deltas", "Baseline deltas", o.baseline.has_value(), "no --baseline record given"},
  };
  return out;
}

}  // namespace gpuconform::report
