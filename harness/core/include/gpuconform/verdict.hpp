// SPDX-License-Identifier: Apache-2.0
#pragma once
// Pairs a measurement with its expectation. Every verdict carries one line a
// person can act on: what was measured, what was expected, and where the
// expectation came from.
#include <string>

#include "gpuconform/expectation_types.hpp"
#include "gpuconform/measurement.hpp"

namespace gpuconform {

enum class Outcome { pass, fail, warn, skip };
const char* outcome_name(Outcome o);  // "pass", "fail", "warn", "skip"

struct Verdict {
  Outcome outcome = Outcome::skip;
  std::string reason;
};

// "4.00 ± 0.25 cycles", ">= 0.90 of peak", "0 mismatches against model X", ...; with a
// drift band: "275.665 cycles ± 21 cycles (drift band 275.665 cycles ± 3.1 cycles)".
std::string describe_expected(const Expectation& e);
std::string describe_fail_band(const Expectation& e);
std::string describe_drift_band(const Expectation& e);  // the fail band when there is no drift band

// Outside the fail band: fail. Inside it but outside the drift band: warn, with a reason
// that starts "drifted:" and names both bands and the provenance. Otherwise: pass.
// A measurement with its own 95 % interval (Measurement::sampling) fails only when the whole
// interval lies outside the fail band; where only the interval reaches in, it has drifted.
// A fraction_of_peak entry with `at_max_clock` also fails when the value is below
// min_fraction of the peak at the board's maximum SM clock (Measurement::peak_at_max_clock).

// Formats a measured value with its unit for people ("3.02 TB/s", "4.01 cycles").
std::string format_value(double value, const std::string& unit);

// How the run level changes a judgement. The drift bands are derived from standard-level
// samples (a throughput median known to +-0.3 %); --level quick samples for a fraction of
// the time (+-1 %, fewer repeats), so a healthy board's quick value leaves a tight drift
// band now and then. A health check that warns on healthy boards teaches operators to
// ignore warns: at quick level a value outside the drift band but inside the fail band
// passes, its reason starting "drifted (not warned at --level quick ...)" so that the
// record still says it moved. A fail stays a fail at every level.
// A sampled value (Measurement::sampling) is also known no better than the level's sampling
// target: quick stops at +-1 % and warms up to 2 % agreement, and a healthy H100 read
// mma_sync s8 at 0.654-0.655 at quick level in 2 of 6 runs on two boards (2026-11-26) where
// standard runs read 0.661-0.664, its interval narrower than the bias.
struct JudgeOptions {
  bool drift_warns = true;           // false at --level quick
  double sampled_rel_interval = 0;   // the least interval a sampled value carries (quick: its target)
  // The lowest fraction of its maximum SM clock a healthy board sustains under load: the
  // fail limit of health.under_load.sm_clock where the expectation set has one (1 without).
  // An at_max_clock entry fails on the clock only below min_fraction x this, so the one
  // 15 MHz step a healthy H100 drops under an all-SM load (753d632f and dea38b06 read
  // 1964-1972 MHz) is judged by the clock entry's band, not by 0.8 % of pipe margin.
  double max_clock_floor = 1.0;
};

// The options `run` judges with at a level (quick or not), for the expectations of one GPU:
// the clock floor is the fail limit of the set's health.under_load.sm_clock entry. `judge`
// of a run record uses the same, so a value judged again is judged as it was.
JudgeOptions judge_options_for(const ExpectationSet& expectations, bool quick);

// Pure judgement of one measurement; no waivers (see apply_waiver).
Verdict judge(const Measurement& m, const Expectation& e, const JudgeOptions& options = {});

// A failure covered by a waiver becomes a warning that names the waiver.
struct Waiver;
Verdict apply_waiver(Verdict v, const Waiver* waiver);

}  // namespace gpuconform
