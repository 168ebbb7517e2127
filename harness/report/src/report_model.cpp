// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/report_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "gpuconform/stats.hpp"

namespace gpuconform::report {
namespace {

const std::vector<std::string> kFamilyOrder = {"latency", "throughput", "numeric", "topology", "parallel"};

int gpu_index(const RecordData& r, const std::string& gpu) {
  const auto it = std::find(r.gpus.begin(), r.gpus.end(), gpu);
  return static_cast<int>(it - r.gpus.begin());
}

// The value a strip plots: a fraction of peak for fraction_of_peak entries.
std::optional<double> plotted(const Entry& e) {
  if (!e.measured || !std::isfinite(e.m.value)) return std::nullopt;
  if (e.expected.kind == "fraction_of_peak") {
    if (!e.m.peak || !(*e.m.peak > 0)) return std::nullopt;
    return e.m.value / *e.m.peak;
  }
  return e.m.value;
}

void set_band(StripRow& row, const ExpectedBand& b) {
  row.kind = b.kind;
  if (b.kind == "band" && b.value) {
    const double half = std::max(b.tol.value_or(0), b.tol_rel.value_or(0) * std::fabs(*b.value));
    row.fail_lo = *b.value - half;
    row.fail_hi = *b.value + half;
    const double drift = std::max(b.drift_tol.value_or(0), b.drift_tol_rel.value_or(0) * std::fabs(*b.value));
    if (drift > 0 && drift < half) {
      row.drift_lo = *b.value - drift;
      row.drift_hi = *b.value + drift;
    }
  } else if (b.kind == "min" && b.min) {
    row.fail_lo = b.min;
    row.drift_lo = b.drift_min;
  } else if (b.kind == "max" && b.max) {
    row.fail_hi = b.max;
    row.drift_hi = b.drift_max;
  } else if (b.kind == "fraction_of_peak" && b.min_fraction) {
    row.fail_lo = b.min_fraction;
    row.drift_lo = b.drift_min_fraction;
  } else if (b.kind == "exact") {
    row.fail_lo = row.fail_hi = b.value.value_or(0);  // mismatches: none
  } else {
    row.kind.clear();  // info, or a band the line does not spell out: values only
  }
}

std::optional<double> median_of(const RecordData& r, const std::string& probe, const std::string& gpu) {
  std::vector<double> v;
  for (const Entry& e : r.entries)
    if (e.probe == probe && e.gpu == gpu && e.measured && std::isfinite(e.m.value)) v.push_back(e.m.value);
  if (v.empty()) return std::nullopt;
  return median(v);
}

// The edges and plateaus a latency staircase is read against.
std::vector<Marker> staircase_markers(const RecordData& r, const CurveChart& c, const std::string& gpu,
                                      std::optional<double> l2_bytes) {
  std::vector<Marker> out;
  double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
  for (const Curve& cv : c.curves) {
    for (double x : cv.x) xlo = std::min(xlo, x), xhi = std::max(xhi, x);
    for (double y : cv.y) ylo = std::min(ylo, y), yhi = std::max(yhi, y);
  }
  if (c.axes.x_unit == "B") {
    if (l2_bytes && *l2_bytes >= xlo && *l2_bytes <= xhi)
      out.push_back({*l2_bytes, "L2 size (reported) " + format_quantity(*l2_bytes, "B"), true});
    if (c.probe.find("capacity_edge") != std::string::npos)
      if (const auto v = median_of(r, c.probe, gpu)) {
        std::string unit;
        for (const Entry& e : r.entries)
          if (e.probe == c.probe && e.measured) unit = e.m.unit;
        std::optional<double> edge;
        if (unit == "bytes" || unit == "B") edge = *v;
        else if (unit == "ratio" && l2_bytes) edge = *v * *l2_bytes;  // the L2 edge is recorded over the L2 size
        if (edge) out.push_back({*edge, "measured edge " + format_quantity(*edge, "B"), true});
      }
  }
  if (c.axes.y_unit == "cycles")
    for (const auto& [probe, label] : std::vector<std::pair<std::string, std::string>>{
             {"latency.mem.l1_hit", "L1 hit"}, {"latency.mem.l2_hit", "L2 hit"}, {"latency.mem.hbm", "HBM"}})
      if (const auto v = median_of(r, probe, gpu); v && *v >= ylo * 0.8 && *v <= yhi * 1.25)
        out.push_back({*v, fmt::format("{} {:.4g} cycles", label, *v), false});
  return out;
}

}  // namespace

int verdict_rank(const std::string& v) {
  if (v == "fail" || v == "error") return 4;
  if (v == "warn") return 3;
  if (v == "skip") return 1;
  if (v == "pass" || v == "recorded") return 0;
  return 2;
}

std::string short_gpu(const std::string& gpu) {
  const std::string hex = gpu.rfind("GPU-", 0) == 0 ? gpu.substr(4) : gpu;
  return hex.substr(0, 8);
}

std::vector<std::string> families(const RecordData& r) {
  std::set<std::string> present;
  for (const Entry& e : r.entries) present.insert(e.family);
  std::vector<std::string> out;
  for (const auto& f : kFamilyOrder)
    if (present.erase(f)) out.push_back(f);
  out.insert(out.end(), present.begin(), present.end());
  return out;
}

VerdictCounts verdict_counts(const RecordData& r) {
  VerdictCounts c;
  for (const Entry& e : r.entries) ++c[e.family][e.gpu][e.verdict.empty() ? "none" : e.verdict];
  return c;
}

std::vector<StripRow> strip_rows(const RecordData& r, const std::string& family) {
  std::map<std::string, StripRow> rows;
  std::map<std::string, std::vector<double>> values;
  std::map<std::string, std::string> units;
  for (const Entry& e : r.entries) {
    if (e.family != family || !e.measured) continue;
    StripRow& row = rows[e.probe];
    if (row.label.empty()) {
      row.label = e.probe;
      set_band(row, e.expected);
    }
    const auto v = plotted(e);
    if (!v) continue;
    values[e.probe].push_back(*v);
    units[e.probe] = e.m.unit;
    if (e.expected.kind != "fraction_of_peak") row.unit = e.m.unit;
    if (row.points.empty() || verdict_rank(e.verdict) >= verdict_rank(row.verdict)) row.verdict = e.verdict;
    std::string tip = fmt::format("{} {}: {} ({})", e.probe, short_gpu(e.gpu),
                                  e.expected.kind == "fraction_of_peak" ? fmt::format("{:.4g} of peak", *v)
                                                                        : format_quantity(*v, e.m.unit),
                                  e.verdict);
    if (!e.reason.empty()) tip += "\n" + e.reason;
    row.points.push_back({*v, gpu_index(r, e.gpu), std::move(tip)});
  }
  std::vector<StripRow> out;
  for (auto& [probe, row] : rows) {
    if (row.points.empty()) continue;
    const double med = median(values[probe]);
    row.value_text = row.kind == "fraction_of_peak" ? fmt::format("{:.3f} of peak", med)
                                                    : format_quantity(med, units[probe]);
    out.push_back(std::move(row));
  }
  return out;
}

std::string band_text(const StripRow& row, const std::string& unit) {
  auto q = [&](double v) { return row.kind == "fraction_of_peak" ? fmt::format("{:.3g}", v) : format_quantity(v, unit); };
  if (row.kind == "band" && row.fail_lo && row.fail_hi) {
    const double c = (*row.fail_lo + *row.fail_hi) / 2;
    std::string s = fmt::format("{} ± {}", q(c), q((*row.fail_hi - *row.fail_lo) / 2));
    if (row.drift_hi) s += fmt::format(" (drift ± {})", q(*row.drift_hi - c));
    return s;
  }
  if (row.kind == "exact" && row.fail_lo) return "= " + q(*row.fail_lo);
  if (row.fail_lo && !row.fail_hi) {
    std::string s = "≥ " + q(*row.fail_lo) + (row.kind == "fraction_of_peak" ? " of peak" : "");
    if (row.drift_lo) s += " (drift ≥ " + q(*row.drift_lo) + ")";
    return s;
  }
  if (row.fail_hi && !row.fail_lo) {
    std::string s = "≤ " + q(*row.fail_hi);
    if (row.drift_hi) s += " (drift ≤ " + q(*row.drift_hi) + ")";
    return s;
  }
  return "none";
}

std::string position_text(const StripRow& row, double v) {
  if (row.kind.empty()) return "no band";
  const bool in_fail = (!row.fail_lo || v >= *row.fail_lo) && (!row.fail_hi || v <= *row.fail_hi);
  if (!in_fail) return "outside the fail band";
  const bool in_drift = (!row.drift_lo || v >= *row.drift_lo) && (!row.drift_hi || v <= *row.drift_hi);
  if (row.drift_lo || row.drift_hi) return in_drift ? "inside the drift band" : "between drift and fail band";
  return "inside the fail band";
}

std::vector<CurveChart> curve_charts(const RecordData& r, const std::string& family) {
  // (probe, series name) -> gpu -> its last run's series
  std::map<std::pair<std::string, std::string>, std::map<std::string, const Series*>> last;
  std::map<std::string, std::optional<double>> l2;
  for (const Entry& e : r.entries) {
    if (e.family != family) continue;
    if (e.l2_bytes) l2[e.gpu] = e.l2_bytes;
    for (const Series& s : e.m.series) last[{e.probe, s.name}][e.gpu] = &s;
  }
  std::vector<CurveChart> out;
  for (const auto& [key, by_gpu] : last) {
    CurveChart c;
    c.family = family;
    c.probe = key.first;
    c.name = key.second;
    c.title = key.first + " · " + key.second;
    c.axes = *by_gpu.begin()->second;
    c.axes.x.clear();
    c.axes.y.clear();
    for (const std::string& gpu : r.gpus)  // the record's board order, so colours match the strips
      if (const auto it = by_gpu.find(gpu); it != by_gpu.end())
        c.curves.push_back({short_gpu(gpu), it->second->x, it->second->y});
    if (family == "latency") {
      const std::string& first_gpu = [&]() -> const std::string& {
        for (const std::string& g : r.gpus)
          if (by_gpu.count(g)) return g;
        return r.gpus.front();
      }();
      c.markers = staircase_markers(r, c, first_gpu, l2[first_gpu]);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<HeatMap> heat_maps(const RecordData& r, const std::string& family) {
  std::map<std::tuple<std::string, std::string, int>, HeatMap> last;
  for (const Entry& e : r.entries) {
    if (e.family != family) continue;
    for (const Matrix& m : e.m.matrices) {
      HeatMap& h = last[{e.probe, m.name, gpu_index(r, e.gpu)}];
      h = {family, e.probe, e.gpu, fmt::format("{} · {} · {}", e.probe, m.name, short_gpu(e.gpu)), m};
    }
  }
  std::vector<HeatMap> out;
  for (auto& [key, h] : last) out.push_back(std::move(h));
  return out;
}

std::vector<NumericRow> numeric_rows(const RecordData& r) {
  std::map<std::pair<std::string, int>, NumericRow> rows;
  for (const Entry& e : r.entries) {
    if (e.family != "numeric") continue;
    NumericRow& row = rows[{e.probe, gpu_index(r, e.gpu)}];
    if (row.probe.empty()) {
      row.probe = e.probe;
      row.gpu = e.gpu;
    }
    if (row.runs++ == 0) row.verdict = e.verdict;
    if (row.model.empty()) row.model = e.expected.model;
    if (row.model.empty())
      if (const std::string* m = e.m.find_note("model")) row.model = *m;
    if (e.measured) {
      row.unit = e.m.unit;
      row.compared = std::max(row.compared, e.m.compared);
      if (std::isfinite(e.m.value)) row.mismatches = std::max(row.mismatches, e.m.value);
    }
    if (verdict_rank(e.verdict) >= verdict_rank(row.verdict)) row.verdict = e.verdict;
  }
  std::vector<NumericRow> out;
  for (auto& [k, row] : rows) out.push_back(std::move(row));
  return out;
}

std::vector<const Entry*> non_pass(const RecordData& r) {
  std::vector<const Entry*> out;
  for (const Entry& e : r.entries)
    if (verdict_rank(e.verdict) > 0) out.push_back(&e);
  std::stable_sort(out.begin(), out.end(),
                   [](const Entry* a, const Entry* b) { return verdict_rank(a->verdict) > verdict_rank(b->verdict); });
  return out;
}

}  // namespace gpuconform::report
