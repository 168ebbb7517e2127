// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/fleet_compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "gpuconform/run_compare.hpp"
#include "gpuconform/stats.hpp"

namespace gpuconform {

FleetComparison compare_fleet(const std::vector<RecordedRun>& runs, double threshold, double k) {
  // probe -> unit (board, or pair of boards) -> its runs
  std::map<std::string, std::map<std::string, std::vector<const RecordedRun*>>> by_probe;
  FleetComparison out;
  for (const RecordedRun& r : runs) {
    by_probe[r.probe][r.gpu].push_back(&r);
    if (std::find(out.gpus.begin(), out.gpus.end(), r.gpu) != out.gpus.end()) continue;
    out.gpus.push_back(r.gpu);
    if (!r.peers.empty()) ++out.pairs;
  }
  std::vector<std::pair<double, FleetOutlier>> found;  // (distance in bands, outlier)
  for (const auto& [probe, boards] : by_probe) {
    if (static_cast<int>(boards.size()) < kFleetMinBoards) continue;
    ++out.probes_judged;
    std::vector<std::pair<std::string, Spread>> spreads;
    for (const auto& [gpu, rs] : boards) spreads.emplace_back(gpu, spread_of(rs));
    const std::string unit = boards.begin()->second.front()->measurement.unit;
    const bool exact = unit == "mismatches";
    for (std::size_t i = 0; i < spreads.size(); ++i) {
      std::vector<double> medians, noises;
      for (std::size_t j = 0; j < spreads.size(); ++j)
        if (j != i) {
          medians.push_back(spreads[j].second.median);
          noises.push_back(spreads[j].second.noise);
        }
      const Summary others = summarize(medians);
      const double value = spreads[i].second.median, dist = std::fabs(value - others.median);
      const double band =
          exact ? 0 : k * 1.4826 * others.mad + median(noises) + threshold * std::fabs(others.median);
      if (dist <= band) continue;
      found.push_back({band > 0 ? dist / band : INFINITY,
                       {probe, unit, spreads[i].first, value, others.median, band, others.min, others.max}});
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& [d, o] : found) out.outliers.push_back(std::move(o));
  return out;
}

}  // namespace gpuconform
