// SPDX-License-Identifier: Apache-2.0
#pragma once
// The band policy (expectations/evidence/policy.toml): how `record --from` turns the runs
// of several boards into a drift band and a fail band, and which runs it must not use.
//
// Per entry, a scale sigma of where a healthy board's next run may lie: the boards' spread
// (their own robust one, 1.4826 x MAD of the board medians, once there are min_boards of
// them, else the class's spread_rel x |centre|; never below the class's floor_rel x |centre|)
// and one run's own error (its reported 95 % interval / 1.96, or the typical run-to-run
// noise), added in quadrature. Warn lies z_warn x sigma from the centre (the median of the
// board medians), fail z_fail x sigma; both also hold every board seen. board_spread.hpp
// computes the statistics, record_writer.hpp the entries; docs/band-policy.md has the
// argument for the numbers.
//
// Runs that must never be used: [[exclude]] (one board's runs of some probes) and
// [[supersede]] (every run of some probes measured before a fix, judged on the run's
// time). [[invariant]] lists counts that are 0 by definition (violations of the
// programming model): their entries allow exactly 0.
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/expectation.hpp"

namespace gpuconform {

struct PolicyClass {
  std::string name;
  std::vector<std::string> probes;  // id globs; the first class with a match wins
  // The largest robust relative spread (1.4826 x MAD / |median| of the board medians) among
  // its probes seen on >= min_boards non-superseded boards of one SKU: the scale of an entry
  // with fewer boards than that (tests/unit/committed_policy_test.cpp checks it).
  double spread_rel = 0;
  // The smallest relative scale any entry of the class is given (0: none); when set it
  // replaces the probes' own absolute floors (RecordHint::min_tol, min_tol_rel) for bands.
  double floor_rel = 0;
  std::string why;  // the evidence behind both numbers
  Location where;
};

// Runs of one board to leave out, e.g. measured before a probe was fixed.
struct PolicyExclusion {
  std::string gpu;                  // UUID prefix, e.g. "GPU-20f8467d"
  std::vector<std::string> probes;  // id globs
  std::string reason;
  Location where;
};

// Every run of some probes measured before a fix: never used for their entries, on any
// board, however many boards are added later (the rule is the run's time, not a file list).
struct PolicySupersede {
  std::vector<std::string> probes;     // id globs
  std::vector<std::string> except;     // id globs the fix did not change
  std::string before;                  // UTC, "YYYY-MM-DDTHH:MM:SSZ" (a TOML date means 00:00:00Z)
  std::string fix;                     // the commit that fixed the probes
  std::string reason;
  Location where;
  bool covers(const std::string& probe_id) const;
};

// Counts that are 0 on every healthy board by definition (a violation of the programming
// model or of the chip's layout): the entry is `max = 0`, and a board showing one is a
// finding to supersede or exclude with a reason, never a spread to widen the band by.
struct PolicyInvariant {
  std::vector<std::string> probes;  // id globs
  std::string why;
  Location where;
};

// A measurement on a healthy board that the fail bands must hold (e.g. a board that failed
// a band fitted too tightly); a unit test checks them against the committed files.
struct PolicyObservation {
  std::string probe;
  double measured = 0;
  std::string board;   // what the board was, e.g. "healthy 7th H100"
  std::string source;  // where the number comes from
  std::string sku;     // judged with this SKU's overlay ("" = the architecture file alone)
  Location where;
};

// Probes whose healthy values split by the board's part number within one SKU (two kinds of
// board, e.g. two memory suppliers): `record --from --sku S --board-part P` derives them from
// that part's boards alone into sku/S/P.toml, so each kind is judged around its own centre
// instead of one band wide enough for both.
struct PolicyBoardPart {
  std::string sku;                  // "0x2335"
  std::vector<std::string> probes;  // id globs
  std::string why;
  Location where;
};

struct BandPolicy {
  std::string path;
  double z_warn = 3;   // warn at centre -+ z_warn x sigma
  double z_fail = 5;   // fail at centre -+ z_fail x sigma
  int min_boards = 5;  // an entry's own spread counts from this many boards
  std::vector<PolicyClass> classes;
  std::vector<PolicyExclusion> exclusions;
  std::vector<PolicySupersede> supersedes;
  std::vector<PolicyInvariant> invariants;
  std::vector<PolicyObservation> observations;
  std::vector<PolicyBoardPart> board_parts;

  const PolicyClass* class_for(const std::string& probe_id) const;
  const PolicyExclusion* exclusion_for(const std::string& gpu, const std::string& probe_id) const;
  // The supersede rule that retires a run of `probe_id` measured at `time` (UTC, as run
  // records write it); a run whose time cannot be read is retired by any rule covering the
  // probe, since nothing shows it postdates the fix.
  const PolicySupersede* superseded_by(const std::string& probe_id, const std::string& time) const;
  const PolicyInvariant* invariant_for(const std::string& probe_id) const;
  // Whether `probe_id` splits by board part on `sku` ([[board_part]]).
  bool splits_by_board_part(const std::string& sku, const std::string& probe_id) const;
};

// Strict parse (unknown keys, wrong types, missing fields: diagnostics with file:line:col).
BandPolicy parse_band_policy_text(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics);
BandPolicy parse_band_policy_file(const std::string& path, std::vector<Diagnostic>& diagnostics);

// "2026-11-25T04:17:03Z" (or with fractional seconds or +00:00) -> "2026-11-25T04:17:03Z";
// "" when it is not a UTC time stamp. How run times and `before` are compared.
std::string canonical_utc(std::string_view time);

}  // namespace gpuconform
