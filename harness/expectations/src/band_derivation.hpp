// SPDX-License-Identifier: Apache-2.0
#pragma once
// The band policy's arithmetic for one entry (record_writer.hpp states the rule): the
// scale sigma, the measurement's uncertainty u, and the drift and fail limits of a band,
// a lower or upper limit, or an invariant, each with a note that shows the numbers.
#include <string>
#include <vector>

#include "gpuconform/band_policy.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/record_writer.hpp"

namespace gpuconform::detail {

// What a derivation knows about one probe's boards, in the judged unit.
struct Evidence {
  const Probe& probe;
  const std::vector<BoardRuns>& boards;
  BoardSpread spread;
  double interval = 0;  // typical (median) 95 % half-width of a run's median
  std::string unit;            // as the note writes it ("cycles", "of peak")
};

// One run's sigma around its board's value: max(typical 95 % half-width / 1.96, noise).
double run_sigma(const Evidence& ev);

void derive_band(const Evidence& ev, const BandPolicy& policy, Expectation& e);
void derive_limit(const Evidence& ev, const BandPolicy& policy, Expectation& e);  // min, max, fraction_of_peak
void derive_invariant(const Evidence& ev, const PolicyInvariant& rule, const BandPolicy& policy, Expectation& e);

// Four significant digits, rounded away from `centre` (a limit never holds less than derived).
double round_away(double x, double centre);
// Three decimals; below 1 four significant digits, so that a small value is not written as 0.
double round_centre(double centre);

}  // namespace gpuconform::detail
