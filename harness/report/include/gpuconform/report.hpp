// SPDX-License-Identifier: Apache-2.0
#pragma once
// `gpuconform report`: one self-contained file (HTML with inline SVG and CSS, or Markdown)
// that shows what a run record holds: verdict counts per family and GPU, each probe's
// value against its bands, the curves (latency staircases, sweeps, per-SM series) and
// matrices (warps x ILP, per-SM maps) the probes kept, the numeric models, and the deltas
// against a baseline record. It draws what the record holds and says what is absent.
// Drawing pieces: report_svg.hpp.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/run_compare.hpp"

namespace gpuconform::report {

// What a test line's "expected" says, as far as drawing needs it.
struct ExpectedBand {
  std::string kind;  // band, min, max, fraction_of_peak, exact, info; empty when the line has none
  std::optional<double> value, tol, tol_rel, drift_tol, drift_tol_rel, min, drift_min, max, drift_max, min_fraction, drift_min_fraction;
  std::string model;  // numeric probes: the model the outputs are compared with
};

// One test line of the record (every verdict, measured or not).
struct Entry {
  int line = 0;
  std::string probe, family;  // family: the probe id up to its first '.'
  std::string gpu, gpu_name, driver;  // gpu: UUID (PCI bus id when the UUID is empty)
  int cuda_runtime = 0;
  std::string verdict, reason, time;
  ExpectedBand expected;
  bool measured = false;
  Measurement m;                  // value, unit, samples, peak, compared, notes, series, matrices
  std::optional<double> l2_bytes;  // the device's reported L2 size, when the line says
};

struct RecordData {
  std::string path;
  std::vector<Entry> entries;   // test lines in file order; other record kinds are skipped
  std::vector<std::string> gpus;  // in order of first appearance
  int other_lines = 0;             // lines of other record kinds (gpu_state, header, ...)
  std::string suite_commit;
};

// Reads a run record for the report: every test line, with its bands, curves and
// matrices, and the latency staircases the memory probes keep in their notes
// ("staircase*": {"bytes": [...], "cycles": [...]}) as Series. Lines of other record
// kinds are counted and skipped. Throws std::runtime_error naming file:line for a line
// that is not a run record or whose curves are malformed (x and y of different lengths).
RecordData parse_record_text(std::string_view text, const std::string& path);
RecordData load_record(const std::string& path);

// The family of a probe id: "latency" for "latency.mem.l2_hit".
std::string family_of(const std::string& probe);

// The sections of the report, in order, and whether the record has data for each.
struct Section {
  std::string id, title;
  bool present = false;
  std::string absent_why;  // when not present
};
struct Options {
  std::optional<PairedComparison> baseline;  // deltas against a baseline record
  std::string baseline_path;
  double threshold = 0.02;
};

std::vector<Section> sections(const RecordData& r, const Options& o);

std::string render_html(const RecordData& r, const Options& o);
std::string render_markdown(const RecordData& r, const Options& o);

}  // namespace gpuconform::report
