// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace gpuconform {

double Summary::cv() const { return mean == 0 ? 0 : stddev / std::fabs(mean); }

double percentile(std::vector<double> samples, double pct) {
  if (samples.empty()) throw std::invalid_argument("percentile of an empty sample set");
  if (!(pct >= 0 && pct <= 100)) throw std::invalid_argument("percentile outside [0, 100]");
  std::sort(samples.begin(), samples.end());
  const double rank = pct / 100.0 * static_cast<double>(samples.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const auto hi = static_cast<std::size_t>(std::ceil(rank));
  const double frac = rank - static_cast<double>(lo);
  return samples[lo] + (samples[hi] - samples[lo]) * frac;
}

double median(std::vector<double> samples) { return percentile(std::move(samples), 50); }

Summary summarize(const std::vector<double>& samples) {
  if (samples.empty()) throw std::invalid_argument("summary of an empty sample set");
  Summary s;
  s.n = samples.size();
  s.median = median(samples);
  std::vector<double> deviations(samples.size());
  std::transform(samples.begin(), samples.end(), deviations.begin(),
                 [&](double x) { return std::fabs(x - s.median); });
  s.mad = median(deviations);
  s.p5 = percentile(samples, 5);
  s.p95 = percentile(samples, 95);
  auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.n);
  double sq = 0;
  for (double x : samples) sq += (x - s.mean) * (x - s.mean);
  s.stddev = s.n > 1 ? std::sqrt(sq / static_cast<double>(s.n - 1)) : 0.0;
  return s;
}

std::vector<double> repeat_until_stable(const std::function<double()>& sample,
                                        const RepeatPolicy& policy) {
  if (policy.min_samples == 0 || policy.max_samples < policy.min_samples)
    throw std::invalid_argument("repeat policy needs 0 < min_samples <= max_samples");
  std::vector<double> samples;
  while (samples.size() < policy.max_samples) {
    samples.push_back(sample());
    if (samples.size() < policy.min_samples) continue;
    const Summary s = summarize(samples);
    if (s.median != 0 && s.mad / std::fabs(s.median) <= policy.max_rel_mad) break;
  }
  return samples;
}

}  // namespace gpuconform
