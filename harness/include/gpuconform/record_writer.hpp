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

// One expectation from the runs of one or more boards of one SKU. Bands (band, min, max,
// fraction_of_peak) follow `policy`: per board the median of its runs; noise = the
// largest deviation of a run from its own board's median; centre and half-spread of the
// board medians. Drift half-width = max(the probe's floors, noise_factor x noise +
// half-spread); fail half-width = drift + k x spread_rel x |centre| of the probe's class.
// min / fraction kinds: drift limit = lowest board median - noise_factor x noise; the
// fail limit lies the class margin below it (max: mirrored). A probe no class matches
// gets a fail band equal to the drift band and no drift fields, and its note says so.
// The first board's source is the entry's source; the others go into the note.
// Throws std::runtime_error when the runs cannot make an expectation (an exact probe
// that mismatched its model, a throughput probe with no peak).
Expectation derive_expectation_across(const Probe& probe, const std::vector<BoardRuns>& boards,
                                      const BandPolicy& policy = {});

// The largest wall seconds of any board's runs, rounded up to two digits (the entry's
// `seconds`); none when no run record said.
std::optional<double> largest_seconds(const std::vector<BoardRuns>& boards);

// The same for the runs of one board.
Expectation derive_expectation(const Probe& probe, const std::vector<Measurement>& runs, const std::string& source,
                               const BandPolicy& policy = {});

// For a SKU overlay: true when `derived` (from that SKU's boards) lies outside the drift
// band of the architecture file's entry `base` (its fail band when it has none): for a
// band the centre, for min / fraction kinds the drift limit (a lower limit only), so the
// SKU needs its own entry.
bool differs_beyond_drift(const Expectation& derived, const Expectation& base);

}  // namespace gpuconform
