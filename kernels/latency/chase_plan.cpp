// SPDX-License-Identifier: Apache-2.0
#include "latency/chase_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <unordered_set>

namespace gpuconform::chase {

std::vector<std::uint32_t> single_cycle(std::size_t n, std::uint64_t seed) {
  if (n == 0) throw std::invalid_argument("single_cycle needs at least one slot");
  if (n > std::numeric_limits<std::uint32_t>::max()) throw std::invalid_argument("single_cycle: too many slots");
  // Sattolo: shuffle an order in which element i is swapped only with an
  // element strictly below it, then link each element to the next in order.
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(seed);
  for (std::size_t i = n - 1; i > 0; --i) {
    std::uniform_int_distribution<std::size_t> pick(0, i - 1);
    std::swap(order[i], order[pick(rng)]);
  }
  std::vector<std::uint32_t> next(n);
  for (std::size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  return next;
}

bool is_single_cycle(const std::vector<std::uint32_t>& next) {
  if (next.empty()) return false;
  std::vector<bool> seen(next.size(), false);
  std::uint32_t at = 0;
  for (std::size_t step = 0; step < next.size(); ++step) {
    if (at >= next.size() || seen[at]) return false;
    seen[at] = true;
    at = next[at];
  }
  return at == 0;
}

std::vector<std::uint32_t> visit_order(const std::vector<std::uint32_t>& next, std::uint32_t start) {
  std::vector<std::uint32_t> order;
  order.reserve(next.size());
  std::uint32_t at = start;
  for (std::size_t i = 0; i < next.size(); ++i) {
    order.push_back(at);
    at = next.at(at);
    if (at == start) break;
  }
  return order;
}

std::vector<std::uint64_t> distinct_sample(std::uint64_t total, std::size_t count, std::uint64_t seed) {
  if (count > total) throw std::invalid_argument("distinct_sample: more samples than slots");
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> out;
  out.reserve(count);
  if (count * 4 >= total) {  // dense: shuffle all and keep a prefix
    std::vector<std::uint64_t> all(total);
    std::iota(all.begin(), all.end(), 0ull);
    std::shuffle(all.begin(), all.end(), rng);
    out.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(count));
  } else {  // sparse: rejection
    std::unordered_set<std::uint64_t> taken;
    std::uniform_int_distribution<std::uint64_t> pick(0, total - 1);
    while (out.size() < count) {
      const std::uint64_t v = pick(rng);
      if (taken.insert(v).second) out.push_back(v);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint64_t> footprint_sweep(std::uint64_t lo, std::uint64_t hi, int per_octave, std::uint64_t align) {
  if (lo == 0 || hi < lo || per_octave < 1 || align == 0) throw std::invalid_argument("footprint_sweep: bad range");
  std::vector<std::uint64_t> out;
  const double steps = std::log2(static_cast<double>(hi) / static_cast<double>(lo)) * per_octave;
  const int n = static_cast<int>(std::floor(steps + 1e-9));
  for (int i = 0; i <= n; ++i) {
    const double f = static_cast<double>(lo) * std::exp2(static_cast<double>(i) / per_octave);
    const std::uint64_t b = std::max<std::uint64_t>(align, static_cast<std::uint64_t>(f) / align * align);
    if (out.empty() || b > out.back()) out.push_back(b);
  }
  const std::uint64_t top = std::max<std::uint64_t>(align, hi / align * align);
  if (out.back() < top) out.push_back(top);
  return out;
}

std::optional<double> plateau(const std::vector<StairPoint>& points, double lo, double hi) {
  std::vector<double> v;
  for (const StairPoint& p : points)
    if (p.bytes >= lo && p.bytes <= hi) v.push_back(p.cycles);
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

std::optional<double> first_crossing(const std::vector<StairPoint>& points, double level) {
  if (points.empty()) return std::nullopt;
  if (points.front().cycles > level) return points.front().bytes;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const StairPoint& a = points[i - 1];
    const StairPoint& b = points[i];
    if (a.cycles <= level && b.cycles > level) {
      const double t = (level - a.cycles) / (b.cycles - a.cycles);
      return std::exp(std::log(a.bytes) + t * (std::log(b.bytes) - std::log(a.bytes)));
    }
  }
  return std::nullopt;
}

std::optional<double> capacity_edge(const std::vector<StairPoint>& points, double low, double rise) {
  if (!(low > 0) || !(rise > 0)) return std::nullopt;
  return first_crossing(points, low * (1 + rise));
}

std::string staircase_json(const std::vector<StairPoint>& points) {
  std::string bytes, cycles;
  for (const StairPoint& p : points) {
    bytes += fmt::format("{}{:.0f}", bytes.empty() ? "" : ",", p.bytes);
    cycles += fmt::format("{}{:.2f}", cycles.empty() ? "" : ",", p.cycles);
  }
  return fmt::format("{{\"bytes\":[{}],\"cycles\":[{}]}}", bytes, cycles);
}

TwoMeans two_means(const std::vector<double>& values) {
  if (values.size() < 2) throw std::invalid_argument("two_means needs at least two values");
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  TwoMeans r;
  r.low = v[v.size() / 10];
  r.high = v[v.size() - 1 - v.size() / 10];
  for (int iter = 0; iter < 100; ++iter) {
    const double cut = 0.5 * (r.low + r.high);
    double s0 = 0, s1 = 0;
    std::size_t n0 = 0, n1 = 0;
    for (double x : v) (x <= cut ? (s0 += x, ++n0) : (s1 += x, ++n1));
    const double low = n0 ? s0 / n0 : r.low, high = n1 ? s1 / n1 : r.high;
    const bool done = low == r.low && high == r.high;
    r.low = low;
    r.high = high;
    r.low_count = n0;
    r.high_count = n1;
    if (done) break;
  }
  r.threshold = 0.5 * (r.low + r.high);
  double ss = 0;
  for (double x : v) {
    const double c = x <= r.threshold ? r.low : r.high;
    ss += (x - c) * (x - c);
  }
  const double spread = std::sqrt(ss / static_cast<double>(v.size()));
  r.separation = spread > 0 ? (r.high - r.low) / spread : (r.high > r.low ? 1e9 : 0);
  return r;
}

bool shows_partitions(const TwoMeans& split, double min_ratio) {
  const double n = static_cast<double>(split.low_count + split.high_count);
  return split.separation >= 4 && split.low_count >= 0.1 * n && split.high_count >= 0.1 * n &&
         split.high >= min_ratio * split.low;
}

std::optional<std::size_t> best_partition_trial(const std::vector<PartitionTrial>& trials) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const TwoMeans& s = trials[i].split;
    if (!shows_partitions(s)) continue;
    if (!best || s.high - s.low > trials[*best].split.high - trials[*best].split.low) best = i;
  }
  return best;
}

}  // namespace gpuconform::chase
