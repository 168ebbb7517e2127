// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/per_sm.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
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

TpcPairSummary summarize_tpc_pairs(const Series& per_sm) {
  if (per_sm.x.size() != per_sm.y.size())
    throw std::invalid_argument("per-SM series: the SM ids and values differ in number");
  std::map<long long, std::size_t> at;  // SM id -> index
  for (std::size_t i = 0; i < per_sm.x.size(); ++i) {
    if (!(per_sm.y[i] > 0) || !std::isfinite(per_sm.y[i]))
      throw std::invalid_argument(
          fmt::format("SM {:.0f}: value {} is not a positive number", per_sm.x[i], per_sm.y[i]));
    at[std::llround(per_sm.x[i])] = i;
  }
  TpcPairSummary s;
  for (const auto& [sm, i] : at) {
    if (sm % 2 != 0) continue;
    const auto partner = at.find(sm + 1);
    if (partner == at.end()) continue;
    const double a = per_sm.y[i], b = per_sm.y[partner->second];
    s.ratios.push_back(std::max(a, b) / std::min(a, b));
    s.first.push_back(i);
    s.second.push_back(partner->second);
    if (s.ratios.back() > s.ratios[s.worst]) s.worst = s.ratios.size() - 1;
  }
  if (s.ratios.empty()) throw std::invalid_argument("no TPC pair (SMs 2k and 2k+1) among the SMs measured");
  return s;
}

Measurement tpc_pair_measurement(Series per_sm, double named_above) {
  const TpcPairSummary s = summarize_tpc_pairs(per_sm);
  // "SM 37 (285.1) over SM 36 (276.5) cycles: 1.031": the larger value first.
  auto describe = [&](std::size_t p) {
    std::size_t hi = s.first[p], lo = s.second[p];
    if (per_sm.y[lo] > per_sm.y[hi]) std::swap(hi, lo);
    return fmt::format("SM {:.0f} ({:.6g}) over SM {:.0f} ({:.6g}) {}: {:.4f}", per_sm.x[hi], per_sm.y[hi],
                       per_sm.x[lo], per_sm.y[lo], per_sm.y_unit, s.ratios[p]);
  };
  Measurement m;
  m.value = s.ratios[s.worst];
  m.unit = kRatioToPartnerUnit;
  m.samples = s.ratios;
  m.note("tpc_pairs", fmt::format("{} pairs of {} SMs; worst {}", s.ratios.size(), per_sm.x.size(), describe(s.worst)));
  std::string above;
  std::size_t count = 0;
  for (std::size_t p = 0; p < s.ratios.size(); ++p)
    if (s.ratios[p] > named_above && count++ < 8) above += (above.empty() ? "" : "; ") + describe(p);
  if (count > 8) above += fmt::format("; and {} more", count - 8);
  if (count > 0) m.note("pairs_above", fmt::format("{} above {}: {}", count, named_above, above));
  m.series.push_back(std::move(per_sm));
  return m;
}

const Series* find_per_sm_series(const Measurement& m) {
  for (const Series& s : m.series)
    if (s.name == kPerSmSeries) return &s;
  return nullptr;
}

}  // namespace gpuconform
