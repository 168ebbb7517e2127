// SPDX-License-Identifier: Apache-2.0
#pragma once
// `gpuconform compare --fleet`: which boards of a fleet differ from the others. All
// boards of all given records are pooled per probe; a board is an outlier when its
// median lies outside the leave-one-out band of the others. For a pair probe the unit is
// the pair of boards (RecordedRun::gpu, "A>B"): every pair of every node is pooled, and
// an outlier names the pair.
//   centre = median of the other boards' medians
//   band   = k x 1.4826 x MAD(other boards' medians)   (how far boards spread)
//          + median of the other boards' noise        (how noisy the probe is; see Spread)
//          + threshold x |centre|                     (drift a run cannot see, as in compare)
// k = kFleetK (5): with 3-7 other boards the MAD is a coarse estimate, so the band is
// wide; only boards well apart from the pack are named. Exact counts: any difference
// from the others' median. A probe with fewer than kFleetMinBoards boards is not judged.
#include <string>
#include <vector>

#include "gpuconform/run_record_reader.hpp"

namespace gpuconform {

constexpr double kFleetK = 5;
constexpr int kFleetMinBoards = 4;  // the others must be >= 3 for a median and a MAD

struct FleetOutlier {
  std::string probe, unit, gpu;  // gpu: RecordedRun::gpu, a board or a pair ("A>B")
  double value = 0;              // this board's median
  double centre = 0, band = 0;   // the others' centre and half-width
  double others_min = 0, others_max = 0;
};

struct FleetComparison {
  std::vector<std::string> gpus;    // every unit seen: a board, or a pair of boards ("A>B")
  int pairs = 0;                    // of `gpus`, the pairs of boards
  int probes_judged = 0;            // probes with >= kFleetMinBoards boards
  std::vector<FleetOutlier> outliers;  // largest distance beyond the band (in bands) first
};

FleetComparison compare_fleet(const std::vector<RecordedRun>& runs, double threshold, double k = kFleetK);

}  // namespace gpuconform
