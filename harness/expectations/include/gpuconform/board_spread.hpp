// SPDX-License-Identifier: Apache-2.0
#pragma once
// The statistics the band policy (band_policy.hpp) is applied with: per probe, each board's
// median run, and robust summaries of those medians (median and MAD), so that one odd board
// or one noisy run does not set a margin; and, per policy class, what the evidence says its
// spread_rel and floor_rel should be.
#include <map>
#include <string>
#include <vector>

#include "gpuconform/band_policy.hpp"

namespace gpuconform {

// 1.4826 x MAD estimates the standard deviation of normally distributed values.
inline constexpr double kMadToSigma = 1.4826;

struct BoardSpread {
  std::vector<double> medians;  // one per board with runs, in the order given
  double centre = 0;            // median of the board medians
  double sigma = 0;             // 1.4826 x MAD of the board medians; 0 with fewer than two boards
  // Typical run-to-run noise: the median, over boards with two or more runs, of each
  // board's largest deviation of a run from its own median (0 when no board has two runs).
  double noise = 0;
  double lowest = 0, highest = 0;  // of the board medians
  double relative() const;         // sigma / |centre| (0 when the centre is 0)
};
BoardSpread board_spread(const std::vector<std::vector<double>>& values_per_board);

// One probe's runs on the boards of one SKU (values in the judged unit: fractions of peak
// for throughput), one vector per board.
struct ProbeEvidence {
  std::string probe, sku;
  std::vector<std::vector<double>> boards;
};

// What the evidence says about a class: the largest robust relative spread among its
// probes seen on >= min_boards boards of one SKU (what spread_rel must be at least), their
// median (what floor_rel must be at least), and, for a class no probe of which has enough
// boards yet, the largest seen on two or more.
struct ClassSpread {
  double spread_rel = 0;
  std::string probe, sku;  // the probe that set it ("" when no probe had enough boards)
  int boards = 0;
  double median_rel = 0;
  int probes = 0;          // probe x SKU groups on >= min_boards boards
  double fewer_rel = 0;    // largest on 2 .. min_boards - 1 boards
  std::string fewer_probe;
  int fewer_boards = 0;
};
// Invariants and probes whose centre is 0 (no relative spread) do not count.
std::map<std::string, ClassSpread> class_spreads_from_evidence(const BandPolicy& policy,
                                                               const std::vector<ProbeEvidence>& evidence);

}  // namespace gpuconform
