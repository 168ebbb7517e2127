// SPDX-License-Identifier: Apache-2.0
#pragma once
// The expectation types every floor of the harness shares (harness/core): an entry,
// its waivers, one parsed file, the resolved set for one device, file:line:col
// diagnostics, and the small helpers every data reader uses (the expectations
// directory, globs, "did you mean"). Parsing and loading the files is
// harness/expectations (expectation.hpp, which includes this header).
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpuconform {

enum class ExpectationKind { band, min, max, fraction_of_peak, exact, info };
const char* kind_name(ExpectationKind k);
std::optional<ExpectationKind> parse_kind(std::string_view text);

struct Location {
  std::string file;
  int line = 0, column = 0;
  std::string str() const;  // "file:line:col" (or "file" when no position is known)
};

struct Diagnostic {
  Location where;
  std::string message;
  std::string str() const { return where.str() + ": " + message; }
};

// Two levels: the fail band (value + tol/tol_rel, min, max, min_fraction) holds every
// healthy board; outside it the part or the software is wrong. The optional drift band
// (drift_*) lies inside it and may be tight: outside it the verdict is `warn`, "this
// value moved, worth a look". README's "Band policy" says how both are derived.
struct Expectation {
  std::string probe_id;
  ExpectationKind kind = ExpectationKind::info;
  std::optional<double> value;                     // band: centre (of both bands)
  std::optional<double> tol;                       // band: absolute half-width
  std::optional<double> tol_rel;                   // band: relative half-width (of |value|)
  std::optional<double> min, max;                  // min / max kinds
  std::optional<double> min_fraction;              // fraction_of_peak
  std::optional<double> drift_tol, drift_tol_rel;  // band: drift half-width
  std::optional<double> drift_min, drift_max;      // min / max kinds: drift limit
  std::optional<double> drift_min_fraction;        // fraction_of_peak: drift limit
  // fraction_of_peak only: min_fraction holds for the peak at the board's maximum SM
  // clock as well as at the clock measured during the probe. For loads that stay below
  // the power cap, so that a healthy board runs them at its maximum clock: a board stuck
  // at a lower clock then fails instead of passing per clock (verdict.cpp). Not for
  // all-SM tensor loads, which run below the maximum under the power cap by design.
  bool at_max_clock = false;
  // Node probes (Scope::node) only: the entry holds for nodes of this many GPUs, the nodes
  // its evidence comes from. A node exchange's rate depends on the node's size: all twelve
  // ordered pairs of a 4-GPU H200 node at once moved 0.41 of the summed egress where a
  // 2-GPU node's exchange moves 0.80 (2026-11-27). On a node of another size the runner
  // skips the test with that reason, and `record --from` pools only nodes of this size.
  std::optional<int> node_gpus;
  std::string model;  // exact: reference model id
  std::string unit;
  std::string source;  // "run:<path>:<line>" or "cite:<reference>"
  std::string note;
  // Wall seconds the probe took when it was recorded (largest over the evidence);
  // the runner's default per-probe time limit is derived from it.
  std::optional<double> seconds;
  std::vector<std::string> sass;  // SASS opcodes that must appear in the timed code
  Location where;                 // the entry's table header

  // Band half-width: the larger of tol and tol_rel * |value|.
  double band_half_width() const;
  // Drift half-width of a band, the same way from drift_tol and drift_tol_rel.
  double drift_half_width() const;
  // True when a drift field of this entry's kind is set.
  bool has_drift() const;
};

struct Waiver {
  std::string tests;                 // glob over probe ids, e.g. "throughput.hbm.*"
  std::vector<std::string> devices;  // PCI device ids ("0x2330") or "*"
  std::string reason, link;
  Location where;
};

// A published figure the file deliberately does not turn into an entry ([[omitted]]): the
// row it comes from and why (no probe in the suite, a quantity the suite does not define).
// An id may not be both an entry and omitted in one file (the parser rejects it).
struct Omission {
  std::string id;      // the probe id the figure would judge (need not be registered)
  std::string source;  // "cite:PAPER, TABLE, ROW"
  std::string reason;
  std::string note;  // optional: the paper's figure as printed
  Location where;
};

// One parsed file, before overlays are applied.
struct ExpectationFile {
  std::string path;
  std::string arch;  // [meta] arch
  std::string sku;   // [meta] sku, overlays only
  // [meta] board_part: a board-part overlay (sku/<sku>/<board part>.toml) for the boards whose
  // NVML board part number is this, applied after the SKU overlay
  std::string board_part;
  std::string description;
  std::vector<Expectation> entries;
  std::vector<Waiver> waivers;
  std::vector<Omission> omitted;  // [[omitted]] records: never judged, never merged
};

// Thrown by load_expectations (expectation.hpp) when any file is unreadable or invalid.
class ExpectationError : public std::runtime_error {
 public:
  explicit ExpectationError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// The resolved view for one device: architecture file, then the SKU overlay,
// then user overlays, later files overriding earlier ones field by field.
class ExpectationSet {
 public:
  const Expectation* find(const std::string& probe_id) const;
  const Waiver* waiver_for(const std::string& probe_id, const std::string& sku) const;
  const std::map<std::string, Expectation>& entries() const { return entries_; }
  const std::vector<std::string>& files() const { return files_; }
  void apply(const ExpectationFile& file);  // merge one file on top

 private:
  std::map<std::string, Expectation> entries_;
  std::vector<Waiver> waivers_;
  std::vector<std::string> files_;
};

// Where expectations are read from: $GPUCONFORM_EXPECTATIONS, else <prefix>/share/
// gpuconform/expectations beside an installed binary, else the source tree it was built from.
std::string default_expectations_dir();

// True when `text` matches the glob `pattern` (fnmatch(3) without flags: '*' any run,
// '?' one char, '[...]' one of a set; '.' and '/' are ordinary characters).
bool glob_match(std::string_view pattern, std::string_view text);
// True when `text` matches at least one of `patterns`.
bool glob_match_any(const std::vector<std::string>& patterns, std::string_view text);

// The closest candidate by edit distance, or "" when none is close.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace gpuconform
