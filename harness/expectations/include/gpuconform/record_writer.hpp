// SPDX-License-Identifier: Apache-2.0
#pragma once
// `gpuconform record`: turns repeated measurements of a probe, on one board or several,
// into an expectation entry with a fail band and (where the band policy gives a margin)
// a drift band, and a note that says where both came from.
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/band_policy.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/expectation_writer.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform {

// The runs of one probe on one board.
struct BoardRuns {
  std::string gpu;                // the board's UUID ("GPU-3ba2d5b8-..."); the note shows its first 8 hex digits
  std::string source;             // "run:PATH:LINE" of its first run
  std::vector<Measurement> runs;  // at least one
  std::optional<double> seconds;  // largest wall seconds of its runs, when the records say
};

// One expectation from the runs of one or more boards of one SKU, following `policy`
// (band_policy.hpp; docs/band-policy.md). Per board the median of its runs; centre = the
// median of the board medians; sigma = hypot(board, run): board = the boards' own robust
// spread (1.4826 x MAD) from policy.min_boards boards, else the class's spread_rel x
// |centre|, at least its floor_rel x |centre|; run = the larger of the typical 95 %
// interval of a run's median / 1.96 and the typical run-to-run noise. Band: drift
// half-width = max(z_warn x sigma, the farthest board + z_warn x run, the probe's floors
// unless the class sets floor_rel); fail = drift + (z_fail - z_warn) x sigma. min /
// fraction_of_peak: drift limit = min(centre - z_warn x sigma, lowest board - z_warn x run),
// fail = drift - (z_fail - z_warn) x sigma (at least the probe's min_tol for min; the
// probe's fraction_margin x |centre| for a fraction no class matches); max: mirrored.
// Limits keep four significant digits, rounded away from the centre. An [[invariant]] is
// `max = 0` and refuses a board that read anything else. The first board's source is the
// entry's source; the others go into the note. Throws std::runtime_error when the runs
// cannot make an expectation (an exact probe that mismatched its model, a throughput
// probe with no peak, a violated invariant).
Expectation derive_expectation_across(const Probe& probe, const std::vector<BoardRuns>& boards,
                                      const BandPolicy& policy = {});

// The largest wall seconds of any board's runs, rounded up to two digits (the entry's
// `seconds`); none when no run record said.
std::optional<double> largest_seconds(const std::vector<BoardRuns>& boards);

// The same for the runs of one board.
Expectation derive_expectation(const Probe& probe, const std::vector<Measurement>& runs, const std::string& source,
                               const BandPolicy& policy = {});

// The values a band is derived from, one vector per board: each run's value in the unit its
// entry judges (its fraction of peak for a fraction_of_peak entry).
std::vector<std::vector<double>> judged_values(const Probe& probe, const std::vector<BoardRuns>& boards);

// The 95 % interval of a run's median as the probe reported it (Measurement::sampling:
// throughput probes since issue 18), half-width in the run's unit; 0 without one. A few
// launch samples of a latency probe give no such interval (7 samples span their min and
// max): their run-to-run noise stands for it instead.
double run_interval_half_width(const Measurement& m);

// Where a SKU's boards lie, in the judged unit: from the lowest board median - z_warn x one
// run's sigma to the highest + z_warn x that sigma (what the derivation's drift band holds
// "every board seen" with).
struct BoardsSeen {
  double low = 0, high = 0;
};
BoardsSeen boards_seen(const Probe& probe, const std::vector<BoardRuns>& boards, const BandPolicy& policy);

// For a SKU overlay: true when the SKU needs its own entry beside `base` (the architecture
// file's). Either its boards (`seen`) would warn on the base (they leave its drift band, its
// fail band where it has none: a slower SKU, or one centred elsewhere); or, for one-sided
// limits, its own fail limit is tighter than the base's (a faster SKU gets its own floor).
// Otherwise the base stands for the SKU, with the base SKU's spread, and the overlay
// leaves it out.
bool differs_beyond_drift(const Expectation& derived, const Expectation& base, const BoardsSeen& seen);

}  // namespace gpuconform
