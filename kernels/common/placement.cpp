// SPDX-License-Identifier: Apache-2.0
#include "common/placement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include "gpuconform/stats.hpp"
#include "latency/chase_plan.hpp"

namespace gpuconform::kernels::placement {
namespace {

std::string plural(const std::string& unit, std::size_t n) { return n == 1 ? unit : unit + "s"; }

// The slots of 0..expected-1 with no reading.
std::vector<int> missing_slots(const Launch& l) {
  std::set<int> seen;
  for (const Reading& r : l.readings) seen.insert(r.slot);
  std::vector<int> out;
  for (int s = 0; s < l.expected; ++s)
    if (!seen.count(s)) out.push_back(s);
  return out;
}

void check_launch(const Launch& l, std::size_t index, const std::string& unit, double min_fraction) {
  if (l.expected < 1) throw std::runtime_error(fmt::format("launch {} expected no {}", index, plural(unit, 2)));
  for (const Reading& r : l.readings)
    if (!(r.value > 0) || !std::isfinite(r.value))
      throw std::runtime_error(fmt::format("{} read {} cycles per hop in launch {}", r.where, r.value, index));
  const auto missing = missing_slots(l);
  const std::size_t measured = static_cast<std::size_t>(l.expected) - missing.size();
  if (static_cast<double>(measured) < min_fraction * l.expected) {
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 16; ++i) list += fmt::format("{}{}", i ? ", " : "", missing[i]);
    if (missing.size() > 16) list += fmt::format(" and {} more", missing.size() - 16);
    throw std::runtime_error(
        fmt::format("launch {} measured {} of {} {} (fewer than {:.0f} %; missing {} {}{})", index, measured,
                    l.expected, plural(unit, 2), 100 * min_fraction, unit, list,
                    l.outside ? fmt::format("; {} blocks reported an SM id outside 0..{}", l.outside, l.expected - 1)
                              : std::string()));
  }
}

// Each placement's median over the launches it reported in, sorted by place.
std::vector<Place> per_place(const std::vector<Launch>& launches) {
  std::map<int, std::vector<double>> values;
  std::map<int, std::string> where;
  for (const Launch& l : launches)
    for (const Reading& r : l.readings) {
      values[r.place].push_back(r.value);
      where[r.place] = r.where;
    }
  std::vector<Place> out;
  for (const auto& [place, v] : values) out.push_back({place, median(v), static_cast<int>(v.size()), where[place]});
  return out;
}

// "SM 40 (2 of 7 launches)" for every slot missing in some launch.
std::vector<std::string> missing_list(const std::vector<Launch>& launches, const std::string& unit) {
  std::map<int, int> count;
  for (const Launch& l : launches)
    for (int s : missing_slots(l)) ++count[s];
  std::vector<std::string> out;
  for (const auto& [slot, n] : count)
    out.push_back(fmt::format("{} {} ({} of {} launches)", unit, slot, n, launches.size()));
  return out;
}

}  // namespace

Summary summarize(const std::vector<Launch>& launches, const std::string& unit, double min_fraction) {
  if (launches.empty()) throw std::runtime_error("no launch to summarize over " + plural(unit, 2));
  Summary s;
  s.unit = unit;
  s.fewest_measured = launches.front().expected;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const Launch& l = launches[i];
    check_launch(l, i, unit, min_fraction);
    std::vector<double> v;
    for (const Reading& r : l.readings) v.push_back(r.value);
    s.samples.push_back(median(v));
    s.mean_samples.push_back(std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()));
    s.expected = std::max(s.expected, l.expected);
    s.fewest_measured = std::min(s.fewest_measured, l.expected - static_cast<int>(missing_slots(l).size()));
    s.outside += l.outside;
  }
  s.value = median(s.samples);
  s.mean_value = median(s.mean_samples);
  s.places = per_place(launches);
  std::vector<double> medians;
  for (const Place& p : s.places) medians.push_back(p.median);
  s.median = median(medians);
  for (std::size_t i = 0; i < s.places.size(); ++i) {
    if (s.places[i].median < s.places[s.fastest].median) s.fastest = i;
    if (s.places[i].median > s.places[s.slowest].median) s.slowest = i;
  }
  s.min = s.places[s.fastest].median;
  s.max = s.places[s.slowest].median;
  s.missing = missing_list(launches, unit);
  return s;
}

std::string spread_note(const Summary& s, const std::string& value_unit) {
  const Place& lo = s.places[s.fastest];
  const Place& hi = s.places[s.slowest];
  std::string missing = s.missing.empty() ? "none" : "";
  for (std::size_t i = 0; i < s.missing.size() && i < 8; ++i) missing += (i ? ", " : "") + s.missing[i];
  if (s.missing.size() > 8) missing += fmt::format(" and {} more", s.missing.size() - 8);
  return fmt::format(
      "median {:.6g} {} over {} {} (min {:.6g} on {}, max {:.6g} on {}); slowest {} at {:.4f} of the "
      "median; {} launches, each measured at least {} of {} {}; missing: {}{}",
      s.median, value_unit, s.places.size(), plural(s.unit, s.places.size()), s.min, lo.where, s.max, hi.where,
      hi.where, hi.median / s.median, s.samples.size(), s.fewest_measured, s.expected, plural(s.unit, 2), missing,
      s.outside ? fmt::format("; {} blocks reported an SM id outside 0..{}", s.outside, s.expected - 1)
                : std::string());
}

std::string note_key(const Summary& s) {
  std::string key = "per_" + s.unit;
  std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return std::tolower(c); });
  return key;
}

Measurement to_measurement(const Summary& s, const std::string& method, const std::string& value_unit, Over over) {
  Measurement m;
  m.value = over == Over::mean ? s.mean_value : s.value;
  m.samples = over == Over::mean ? s.mean_samples : s.samples;
  m.unit = value_unit;
  m.note("method", method);
  m.note(note_key(s), spread_note(s, m.unit));
  Series series{"latency_" + note_key(s), "SM", "SM the " + s.unit + " measured from", "latency", value_unit, {}, {}};
  for (const Place& p : s.places) {
    series.x.push_back(p.place);
    series.y.push_back(p.median);
  }
  m.series.push_back(std::move(series));
  return m;
}

std::string alone_note(const Summary& s, int place, double alone) {
  std::string among = fmt::format("{} {} did not measure among every {}", s.unit, place, s.unit);
  for (const Place& p : s.places)
    if (p.place == place) among = fmt::format("{} {} among every {} {:.2f}", s.unit, place, s.unit, p.median);
  return fmt::format("{} {} chasing alone (the single-block method): {:.2f} cycles per hop; {}; median over {} {:.2f}",
                     s.unit, place, alone, among, plural(s.unit, 2), s.median);
}

std::vector<std::uint32_t> disjoint_cycles(std::size_t units, std::size_t per_unit) {
  if (units == 0 || per_unit == 0) throw std::invalid_argument("disjoint_cycles: no node");
  if (units * per_unit > 0xFFFFFFFFull) throw std::invalid_argument("disjoint_cycles: too many nodes");
  std::vector<std::uint32_t> next(units * per_unit);
  for (std::size_t u = 0; u < units; ++u)
    for (std::size_t k = 0; k < per_unit; ++k)
      next[u * per_unit + k] = static_cast<std::uint32_t>(u * per_unit + (k + 1) % per_unit);
  return next;
}

std::vector<std::uint32_t> spread_starts(const std::vector<std::uint32_t>& next, std::uint32_t start,
                                         std::size_t units) {
  if (units == 0) throw std::invalid_argument("spread_starts: no chaser");
  const auto order = chase::visit_order(next, start);
  if (order.size() != next.size()) throw std::invalid_argument("spread_starts: `next` is not a single cycle");
  std::vector<std::uint32_t> out(units);
  for (std::size_t u = 0; u < units; ++u) out[u] = order[u * order.size() / units];
  return out;
}

}  // namespace gpuconform::kernels::placement
