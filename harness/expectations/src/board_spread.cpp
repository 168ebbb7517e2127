// SPDX-License-Identifier: Apache-2.0
// Robust per-board statistics of the band policy (board_spread.hpp).
#include "gpuconform/board_spread.hpp"

#include <algorithm>
#include <cmath>

#include "gpuconform/stats.hpp"

namespace gpuconform {

double BoardSpread::relative() const { return centre == 0 ? 0 : sigma / std::fabs(centre); }

BoardSpread board_spread(const std::vector<std::vector<double>>& values_per_board) {
  BoardSpread s;
  std::vector<double> board_noise;
  for (const auto& values : values_per_board) {
    if (values.empty()) continue;
    const double mid = median(values);
    s.medians.push_back(mid);
    if (values.size() < 2) continue;
    double worst = 0;
    for (double v : values) worst = std::max(worst, std::fabs(v - mid));
    board_noise.push_back(worst);
  }
  if (s.medians.empty()) return s;
  s.centre = median(s.medians);
  s.lowest = *std::min_element(s.medians.begin(), s.medians.end());
  s.highest = *std::max_element(s.medians.begin(), s.medians.end());
  if (s.medians.size() >= 2) {
    std::vector<double> deviations;
    for (double m : s.medians) deviations.push_back(std::fabs(m - s.centre));
    s.sigma = kMadToSigma * median(deviations);
  }
  if (!board_noise.empty()) s.noise = median(board_noise);
  return s;
}

std::map<std::string, ClassSpread> class_spreads_from_evidence(const BandPolicy& policy,
                                                               const std::vector<ProbeEvidence>& evidence) {
  std::map<std::string, ClassSpread> out;
  std::map<std::string, std::vector<double>> enough;  // class -> relative spreads on >= min_boards boards
  for (const PolicyClass& c : policy.classes) out[c.name];
  for (const ProbeEvidence& e : evidence) {
    const PolicyClass* c = policy.class_for(e.probe);
    if (!c || policy.invariant_for(e.probe)) continue;
    const BoardSpread s = board_spread(e.boards);
    const int boards = static_cast<int>(s.medians.size());
    if (boards < 2 || s.centre == 0) continue;
    ClassSpread& best = out[c->name];
    if (boards < policy.min_boards) {
      if (best.fewer_probe.empty() || s.relative() > best.fewer_rel) {
        best.fewer_rel = s.relative();
        best.fewer_probe = e.probe + " (" + e.sku + ")";
        best.fewer_boards = boards;
      }
      continue;
    }
    enough[c->name].push_back(s.relative());
    if (best.probe.empty() || s.relative() > best.spread_rel) {
      best.spread_rel = s.relative();
      best.probe = e.probe;
      best.sku = e.sku;
      best.boards = boards;
    }
  }
  for (auto& [name, rels] : enough) {
    out[name].median_rel = median(rels);
    out[name].probes = static_cast<int>(rels.size());
  }
  return out;
}

}  // namespace gpuconform
