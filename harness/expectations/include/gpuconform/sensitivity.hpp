// SPDX-License-Identifier: Apache-2.0
#pragma once
// Sensitivity of an expectation entry: the smallest relative change of a healthy measurement,
// in the bad direction(s), that the verdict (verdict.cpp, `judge`) no longer passes: first a
// warn (outside the drift band) and then a fail (outside the fail band). What `gpuconform list
// --sensitivity` prints, and README's "What the suite catches" summarises.
//
// The change is relative to the healthy centre: the median over the evidence boards of each
// board's median run (the "bands from N boards (...)" of the entry's note, record_writer.cpp),
// in the unit the entry is judged in (for fraction_of_peak the fraction of peak).
//   band:             both directions (lower and higher);
//   min, fraction:    lower only;
//   max:              higher only;
//   exact, info:      not judged by size.
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/expectation.hpp"

namespace gpuconform {

// The relative changes (0.05 = 5 %) at which one direction first warns and first fails.
// warn is the first change that does not pass (a warn, or a fail where the entry has no
// drift band: then warn == fail). A value <= 0 means the centre itself already warns/fails.
struct SensitivitySide {
  double warn = 0, fail = 0;
};

enum class SensitivityStatus { judged, not_judged, no_centre };
const char* sensitivity_status_name(SensitivityStatus s);

struct Sensitivity {
  SensitivityStatus status = SensitivityStatus::not_judged;
  std::string why;  // for not_judged / no_centre
  std::optional<double> centre;
  std::optional<SensitivitySide> lower, higher;
  bool has_drift = false;
  // The weakest side (the larger change) of each level; only for status judged.
  double warn() const;
  double fail() const;
};

// Sensitivity of `e` around the healthy centre `centre` (nullopt: no centre known).
Sensitivity sensitivity(const Expectation& e, std::optional<double> centre);

// The board medians listed by a derived entry's note ("bands from 3 boards (65e99009 0.9834
// (median of 3), b74bacc8 0.9796, ...)"), in note order; empty when the note lists none.
std::vector<double> board_medians_from_note(const std::string& note);

// The healthy centre of an entry: the median of the board medians in its note; else, for a
// band, its own value (the band's centre); else nothing ("no healthy centre").
std::optional<double> healthy_centre(const Expectation& e);

// "throughput.hbm" from "throughput.hbm.read.cg": the id's first two components.
std::string sensitivity_family(const std::string& probe_id);

struct FamilySensitivity {
  std::string family;
  int entries = 0;    // all entries of the family
  int judged = 0;     // with a sensitivity
  int no_centre = 0;  // judged by size but without a healthy centre
  double warn_median = 0, warn_worst = 0;  // over judged entries; worst = largest change
  double fail_median = 0, fail_worst = 0;
  std::string worst_fail_id;  // the entry of fail_worst
};

// Per family (sorted by name): families with no entry judged by size are left out.
std::vector<FamilySensitivity> summarise_sensitivity(
    const std::vector<std::pair<std::string, Sensitivity>>& entries);

}  // namespace gpuconform
