// SPDX-License-Identifier: Apache-2.0
// Sensitivity of expectation entries (sensitivity.hpp): how far a healthy measurement must
// move, in the bad direction, before `judge` (verdict.cpp) warns and fails.
#include "gpuconform/sensitivity.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "gpuconform/stats.hpp"

namespace gpuconform {

const char* sensitivity_status_name(SensitivityStatus s) {
  switch (s) {
    case SensitivityStatus::judged: return "judged";
    case SensitivityStatus::not_judged: return "not judged";
    case SensitivityStatus::no_centre: return "no healthy centre";
  }
  return "?";
}

double Sensitivity::warn() const {
  double w = 0;
  if (lower) w = lower->warn;
  if (higher) w = lower ? std::max(w, higher->warn) : higher->warn;
  return w;
}

double Sensitivity::fail() const {
  double f = 0;
  if (lower) f = lower->fail;
  if (higher) f = lower ? std::max(f, higher->fail) : higher->fail;
  return f;
}

namespace {

// The relative change from `centre` to the limit `limit` in one direction: lower (the
// measurement falls to the limit) or higher (it rises to it). The verdict passes at the limit
// itself, so this is the supremum of the passing changes: any larger change leaves the band.
double change_to(double centre, double limit, bool lower) {
  const double scale = std::fabs(centre);
  return lower ? (centre - limit) / scale : (limit - centre) / scale;
}

}  // namespace

Sensitivity sensitivity(const Expectation& e, std::optional<double> centre) {
  Sensitivity s;
  s.centre = centre;
  if (e.kind == ExpectationKind::exact || e.kind == ExpectationKind::info) {
    s.status = SensitivityStatus::not_judged;
    s.why = e.kind == ExpectationKind::exact ? "exact: judged on mismatches, not on size" : "info: recorded only";
    return s;
  }
  if (!centre || !std::isfinite(*centre)) {
    s.status = SensitivityStatus::no_centre;
    s.why = "no healthy centre (no evidence boards in the note)";
    return s;
  }
  if (*centre == 0) {
    s.status = SensitivityStatus::no_centre;
    s.why = "healthy centre is 0: a relative change is undefined";
    return s;
  }
  s.status = SensitivityStatus::judged;
  s.has_drift = e.has_drift();
  const double c = *centre;
  switch (e.kind) {
    case ExpectationKind::band: {
      const double v = e.value.value_or(0), fail_half = e.band_half_width();
      const double warn_half = s.has_drift ? e.drift_half_width() : fail_half;
      s.lower = SensitivitySide{change_to(c, v - warn_half, true), change_to(c, v - fail_half, true)};
      s.higher = SensitivitySide{change_to(c, v + warn_half, false), change_to(c, v + fail_half, false)};
      break;
    }
    case ExpectationKind::min: {
      const double fail = e.min.value_or(0), warn = e.drift_min.value_or(fail);
      s.lower = SensitivitySide{change_to(c, warn, true), change_to(c, fail, true)};
      break;
    }
    case ExpectationKind::fraction_of_peak: {
      const double fail = e.min_fraction.value_or(0), warn = e.drift_min_fraction.value_or(fail);
      s.lower = SensitivitySide{change_to(c, warn, true), change_to(c, fail, true)};
      break;
    }
    case ExpectationKind::max: {
      const double fail = e.max.value_or(0), warn = e.drift_max.value_or(fail);
      s.higher = SensitivitySide{change_to(c, warn, false), change_to(c, fail, false)};
      break;
    }
    default: break;
  }
  // A drift limit at or beyond the fail limit never warns first: the first non-pass is the fail.
  for (std::optional<SensitivitySide>* side : {&s.lower, &s.higher})
    if (*side) (*side)->warn = std::min((*side)->warn, (*side)->fail);
  return s;
}

std::vector<double> board_medians_from_note(const std::string& note) {
  // "bands from N board(s) (ID VALUE[ (median of K)], ID VALUE, ...); ..."
  static const std::string kHead = "bands from ";
  std::vector<double> out;
  const std::size_t head = note.find(kHead);
  if (head == std::string::npos) return out;
  const std::size_t open = note.find(" (", head + kHead.size());
  if (open == std::string::npos) return out;
  const std::size_t close = note.find(");", open);
  if (close == std::string::npos) return out;
  const std::string list = note.substr(open + 2, close - open - 2);
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t end = list.find(", ", pos);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(pos, end - pos);  // "65e99009 0.9834 (median of 3)"
    pos = end + 2;
    const std::size_t space = item.find(' ');
    if (space == std::string::npos) return {};
    const char* begin = item.c_str() + space + 1;
    char* parsed = nullptr;
    const double v = std::strtod(begin, &parsed);
    if (parsed == begin || !std::isfinite(v)) return {};
    out.push_back(v);
  }
  return out;
}

std::optional<double> healthy_centre(const Expectation& e) {
  const std::vector<double> medians = board_medians_from_note(e.note);
  if (!medians.empty()) return median(medians);
  if (e.kind == ExpectationKind::band && e.value) return *e.value;
  return std::nullopt;
}

std::string sensitivity_family(const std::string& probe_id) {
  const std::size_t first = probe_id.find('.');
  if (first == std::string::npos) return probe_id;
  const std::size_t second = probe_id.find('.', first + 1);
  return second == std::string::npos ? probe_id : probe_id.substr(0, second);
}

std::vector<FamilySensitivity> summarise_sensitivity(
    const std::vector<std::pair<std::string, Sensitivity>>& entries) {
  struct Acc {
    FamilySensitivity f;
    std::vector<double> warns, fails;
  };
  std::map<std::string, Acc> by_family;
  for (const auto& [id, s] : entries) {
    Acc& a = by_family[sensitivity_family(id)];
    a.f.family = sensitivity_family(id);
    ++a.f.entries;
    if (s.status == SensitivityStatus::no_centre) ++a.f.no_centre;
    if (s.status != SensitivityStatus::judged) continue;
    ++a.f.judged;
    a.warns.push_back(s.warn());
    a.fails.push_back(s.fail());
    if (a.fails.size() == 1 || s.fail() > a.f.fail_worst) {
      a.f.fail_worst = s.fail();
      a.f.worst_fail_id = id;
    }
  }
  std::vector<FamilySensitivity> out;
  for (auto& [name, a] : by_family) {
    if (a.f.judged == 0 && a.f.no_centre == 0) continue;
    if (a.f.judged > 0) {
      a.f.warn_median = median(a.warns);
      a.f.warn_worst = *std::max_element(a.warns.begin(), a.warns.end());
      a.f.fail_median = median(a.fails);
    }
    out.push_back(a.f);
  }
  return out;
}

}  // namespace gpuconform
