// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/per_sm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "gpuconform/stats.hpp"

namespace gpuconform {

PerSmSummary summarize_per_sm(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("per-SM summary of no SMs");
  PerSmSummary s;
  s.median = median(values);
  if (!(s.median > 0) || !std::isfinite(s.median))
    throw std::invalid_argument(fmt::format("per-SM median {} is not a positive number", s.median));
  for (double v : values) s.ratios.push_back(v / s.median);
  for (std::size_t i = 0; i < s.ratios.size(); ++i)
    if (std::fabs(s.ratios[i] - 1) > std::fabs(s.ratios[s.worst] - 1)) s.worst = i;
  s.worst_ratio = s.ratios[s.worst];
  return s;
}

std::string describe_per_sm_outliers(const Series& per_sm, double lo, double hi, std::size_t limit) {
  if (per_sm.y.empty() || per_sm.x.size() != per_sm.y.size()) return {};
  const PerSmSummary s = summarize_per_sm(per_sm.y);
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.ratios.size(); ++i)
    if (!(s.ratios[i] >= lo && s.ratios[i] <= hi)) out.push_back(i);
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(s.ratios[a] - 1) > std::fabs(s.ratios[b] - 1);
  });
  std::string text;
  for (std::size_t k = 0; k < out.size() && k < limit; ++k)
    text += fmt::format("{}SM {:.0f}: {} {:.3f} of the median of {} SMs", k ? "; " : "", per_sm.x[out[k]],
                        per_sm.y_name, s.ratios[out[k]], s.ratios.size());
  if (out.size() > limit) text += fmt::format("; and {} more", out.size() - limit);
  return text;
}

Measurement per_sm_measurement(Series per_sm) {
  const PerSmSummary s = summarize_per_sm(per_sm.y);
  Measurement m;
  m.value = s.worst_ratio;
  m.unit = kRatioToMedianUnit;
  m.samples = s.ratios;
  m.note("per_sm", fmt::format("median {:.6g} {} over {} SMs; farthest SM {:.0f} at {:.4f} of it", s.median,
                               per_sm.y_unit, s.ratios.size(), per_sm.x[s.worst], s.worst_ratio));
  m.series.push_back(std::move(per_sm));
  return m;
}

const Series* find_per_sm_series(const Measurement& m) {
  for (const Series& s : m.series)
    if (s.name == kPerSmSeries) return &s;
  return nullptr;
}

}  // namespace gpuconform
