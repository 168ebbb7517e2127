// SPDX-License-Identifier: Apache-2.0
#pragma once
// Per-SM values judged against the board's own median (the topology.uniformity.*
// probes): "SM 37 of this board is 11% slower than the other 131" is invisible to
// every whole-GPU test. A probe measures each SM separately and hands the values
// over as a Series named kPerSmSeries (x: SM id, y: the value in its own unit); its
// Measurement value is the ratio to the median of the SM farthest from it, and the
// expectation is a band around 1 (a policy fraction, expectations/sm_XX.toml). When
// the verdict fails or drifts, judge() names every SM outside the band it left:
//   "SM 37: FFMA rate 0.890 of the median of 132 SMs"
#include <cstddef>
#include <string>
#include <vector>

#include "gpuconform/measurement.hpp"

namespace gpuconform {

inline constexpr const char* kPerSmSeries = "per_sm";
inline constexpr const char* kRatioToMedianUnit = "x median";

struct PerSmSummary {
  double median = 0;           // of the values
  std::vector<double> ratios;  // value / median, in the order given
  std::size_t worst = 0;       // index of the ratio farthest from 1
  double worst_ratio = 1;
};

// Throws std::invalid_argument on no values or a median that is not positive
// (a rate or latency of zero is a probe defect, not a slow SM).
PerSmSummary summarize_per_sm(const std::vector<double>& values);

// One line per SM of `per_sm` whose ratio to the median lies outside [lo, hi],
// farthest first, at most `limit` named (then "and N more"); "" when none.
std::string describe_per_sm_outliers(const Series& per_sm, double lo, double hi, std::size_t limit = 8);

// The measurement of a uniformity probe: value = worst ratio, unit "x median",
// samples = every ratio, the series kept for the report and the judge.
Measurement per_sm_measurement(Series per_sm);

// TPC partners. Hopper numbers the two SMs of a TPC 2k and 2k+1: across 183 recorded
// runs of topology.uniformity.l2_latency (75 H100, 108 H200) the two read within 0.5 % of
// each other, while neighbouring TPCs sit up to 3 % apart and the board's SMs 8 % apart
// (an SM's distance to L2 follows where it sits). So a partner is the one reference that
// shares an SM's position: an SM slower than its partner is slow, whatever the layout.
inline constexpr const char* kRatioToPartnerUnit = "x TPC partner";

struct TpcPairSummary {
  std::vector<double> ratios;       // per pair: the larger value over the smaller
  std::vector<std::size_t> first;   // per pair: index (into the series) of SM 2k
  std::vector<std::size_t> second;  // per pair: index of SM 2k+1
  std::size_t worst = 0;            // pair of the largest ratio
};

// Pairs SMs 2k and 2k+1 of `per_sm` (x: SM id); an SM whose partner is missing is left
// out. Throws std::invalid_argument when no pair is complete or a value is not positive.
TpcPairSummary summarize_tpc_pairs(const Series& per_sm);

// The measurement of a TPC-pair probe: value = the largest ratio of a pair (>= 1, unit
// "x TPC partner"), samples = every pair's ratio, a note naming the worst pair and every
// pair above `named_above`, the series kept.
Measurement tpc_pair_measurement(Series per_sm, double named_above = 1.01);

// The series named kPerSmSeries, or null.
const Series* find_per_sm_series(const Measurement& m);

}  // namespace gpuconform
