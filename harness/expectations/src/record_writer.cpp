// SPDX-License-Identifier: Apache-2.0
// Derivation of one expectation entry from the runs of one or more boards, following the
// band policy (band_policy.hpp; docs/band-policy.md). The band arithmetic is in
// band_derivation.cpp.
#include "gpuconform/record_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "band_derivation.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

// Rounds seconds up to two significant digits: the runner's time limit comes from them.
double round_up_2sig(double x) {
  if (x <= 0) return x;
  const int exponent = static_cast<int>(std::floor(std::log10(x))) - 1;
  if (exponent >= 0) {
    const double scale = std::pow(10.0, exponent);
    return std::ceil(x / scale - 1e-9) * scale;
  }
  const double inverse = std::pow(10.0, -exponent);
  return std::ceil(x * inverse - 1e-9) / inverse;
}

std::string g4(double v) { return fmt::format("{:.4g}", v); }

// The kind an entry is recorded as: the probe's own, except that a fraction of
// peak measured where the architecture has no cited peak (no run reports one:
// mma_sync s4 on sm_90, emulated with integer instructions) becomes a measured
// minimum of the absolute rate, as L2 bandwidth is.
ExpectationKind recorded_kind(const Probe& probe, const std::vector<BoardRuns>& boards) {
  if (probe.record.kind != ExpectationKind::fraction_of_peak) return probe.record.kind;
  for (const BoardRuns& b : boards)
    for (const Measurement& m : b.runs)
      if (m.peak) return ExpectationKind::fraction_of_peak;
  return ExpectationKind::min;
}

// A run's value in the unit its entry judges.
double judged(ExpectationKind kind, const Probe& probe, const Measurement& m) {
  if (kind != ExpectationKind::fraction_of_peak) return m.value;
  if (!m.peak || *m.peak <= 0) throw std::runtime_error(probe.id + ": the probe reported no peak");
  return m.value / *m.peak;
}

std::vector<std::vector<double>> values_of(ExpectationKind kind, const Probe& probe, const std::vector<BoardRuns>& boards) {
  std::vector<std::vector<double>> out;
  for (const BoardRuns& b : boards) {
    std::vector<double> values;
    for (const Measurement& m : b.runs) values.push_back(judged(kind, probe, m));
    out.push_back(std::move(values));
  }
  return out;
}

// The typical 95 % half-width of a run's median: the median over the runs that report one,
// so that one run cut short by the time cap does not widen every band of its probe.
double typical_interval(ExpectationKind kind, const Probe& probe, const std::vector<BoardRuns>& boards) {
  std::vector<double> widths;
  for (const BoardRuns& b : boards)
    for (const Measurement& m : b.runs) {
      const double width = run_interval_half_width(m);
      if (width <= 0) continue;
      widths.push_back(width * std::fabs(judged(kind, probe, m) / m.value));
    }
  return widths.empty() ? 0 : median(widths);
}

void derive_measured(const Probe& probe, const std::vector<BoardRuns>& boards, const BandPolicy& policy, Expectation& e) {
  const detail::Evidence ev{probe, boards, board_spread(values_of(e.kind, probe, boards)),
                            typical_interval(e.kind, probe, boards),
                            e.kind == ExpectationKind::fraction_of_peak ? "of peak" : e.unit};
  if (const PolicyInvariant* rule = policy.invariant_for(probe.id)) return detail::derive_invariant(ev, *rule, policy, e);
  if (e.kind == ExpectationKind::band) return detail::derive_band(ev, policy, e);
  detail::derive_limit(ev, policy, e);
}

}  // namespace

double run_interval_half_width(const Measurement& m) {
  if (!m.sampling || !m.sampling->interval.valid) return 0;
  const double rel = m.sampling->interval.rel_half_width();
  return std::isfinite(rel) ? rel * std::fabs(m.value) : 0;
}

std::vector<std::vector<double>> judged_values(const Probe& probe, const std::vector<BoardRuns>& boards) {
  return values_of(recorded_kind(probe, boards), probe, boards);
}

std::optional<double> largest_seconds(const std::vector<BoardRuns>& boards) {
  std::optional<double> most;
  for (const BoardRuns& b : boards)
    if (b.seconds) most = std::max(most.value_or(0), *b.seconds);
  if (most) most = round_up_2sig(*most);
  return most;
}

Expectation derive_expectation(const Probe& probe, const std::vector<Measurement>& runs, const std::string& source,
                               const BandPolicy& policy) {
  return derive_expectation_across(probe, {BoardRuns{"", source, runs, std::nullopt}}, policy);
}

Expectation derive_expectation_across(const Probe& probe, const std::vector<BoardRuns>& boards,
                                      const BandPolicy& policy) {
  if (boards.empty() || std::any_of(boards.begin(), boards.end(), [](const BoardRuns& b) { return b.runs.empty(); }))
    throw std::invalid_argument("derive_expectation needs at least one run of every board");
  Expectation e;
  e.probe_id = probe.id;
  e.kind = recorded_kind(probe, boards);
  e.unit = boards.front().runs.front().unit;
  e.source = boards.front().source;
  e.seconds = largest_seconds(boards);
  switch (e.kind) {
    case ExpectationKind::band:
    case ExpectationKind::min:
    case ExpectationKind::max:
    case ExpectationKind::fraction_of_peak:
      derive_measured(probe, boards, policy, e);
      break;
    case ExpectationKind::exact: {
      std::uint64_t compared = 0;
      for (const BoardRuns& b : boards)
        for (const Measurement& m : b.runs) {
          if (m.value != 0) {
            const std::string* first = m.find_note("first_mismatch");
            throw std::runtime_error(fmt::format("{}: {} of {} outputs differ from model {}{}", probe.id, m.value,
                                                 m.compared, m.find_note("model") ? *m.find_note("model") : "?",
                                                 first ? "; first: " + *first : ""));
          }
          compared += m.compared;
        }
      const std::string* model = boards.front().runs.front().find_note("model");
      if (!model) throw std::runtime_error(probe.id + ": the probe did not name its model");
      e.model = *model;
      e.note = boards.size() > 1 ? fmt::format("{} outputs over {} boards matched bit for bit", compared, boards.size())
                                 : fmt::format("{} outputs matched bit for bit", boards.front().runs.front().compared);
      break;
    }
    case ExpectationKind::info: {
      std::vector<double> all;
      for (const auto& values : values_of(e.kind, probe, boards)) all.insert(all.end(), values.begin(), values.end());
      e.note = fmt::format("recorded {}", g4(median(all)));
      break;
    }
  }
  std::string others;
  for (std::size_t i = 1; i < boards.size(); ++i) others += (others.empty() ? "" : ", ") + boards[i].source;
  if (!others.empty()) e.note += "; also " + others;
  return e;
}

BoardsSeen boards_seen(const Probe& probe, const std::vector<BoardRuns>& boards, const BandPolicy& policy) {
  const ExpectationKind kind = recorded_kind(probe, boards);
  const detail::Evidence ev{probe, boards, board_spread(values_of(kind, probe, boards)),
                            typical_interval(kind, probe, boards), ""};
  const double margin = policy.z_warn * detail::run_sigma(ev);
  return BoardsSeen{ev.spread.lowest - margin, ev.spread.highest + margin};
}

bool differs_beyond_drift(const Expectation& derived, const Expectation& base, const BoardsSeen& seen) {
  if (derived.kind != base.kind) return true;
  switch (base.kind) {
    case ExpectationKind::band: {
      const double base_half = base.has_drift() ? base.drift_half_width() : base.band_half_width();
      // Only where its boards would warn: a band's width is the base's choice (a cited
      // policy band, the per-SM uniformity's 5 %, stays one band for every SKU).
      return seen.low < *base.value - base_half || seen.high > *base.value + base_half;
    }
    case ExpectationKind::min:
      return seen.low < base.drift_min.value_or(*base.min) || *derived.min > *base.min;
    case ExpectationKind::max:
      return seen.high > base.drift_max.value_or(*base.max) || *derived.max < *base.max;
    case ExpectationKind::fraction_of_peak:
      return seen.low < base.drift_min_fraction.value_or(*base.min_fraction) || *derived.min_fraction > *base.min_fraction;
    case ExpectationKind::exact: return derived.model != base.model;
    case ExpectationKind::info: return false;
  }
  return true;
}

}  // namespace gpuconform
