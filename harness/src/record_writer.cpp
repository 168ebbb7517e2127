// Derivation of one expectation entry from the runs of one or more boards, following the
// band policy (band_policy.hpp; README.md, "Band policy").
#include "gpuconform/record_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

// Rounds a tolerance up to two significant digits, so files stay readable
// and the band never shrinks below what was measured.
// Dividing by a power of ten (never multiplying by 0.1) keeps 1.2 from becoming
// 1.2000000000000002 in the file.
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

// Rounds down to `decimals` decimal places.
double floor_to(double x, int decimals) {
  const double inverse = std::pow(10.0, decimals);
  return std::floor(x * inverse + 1e-9) / inverse;
}

// "3ba2d5b8" from "GPU-3ba2d5b8-4d95-...".
std::string short_board(const std::string& gpu) {
  if (gpu.empty()) return "this board";
  const std::string hex = gpu.rfind("GPU-", 0) == 0 ? gpu.substr(4) : gpu;
  return hex.substr(0, 8);
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

// The values a band is derived from: the measurement itself, or its fraction of peak.
std::vector<std::vector<double>> values_per_board(ExpectationKind kind, const Probe& probe,
                                                  const std::vector<BoardRuns>& boards) {
  std::vector<std::vector<double>> out;
  for (const BoardRuns& b : boards) {
    std::vector<double> values;
    for (const Measurement& m : b.runs) {
      if (kind != ExpectationKind::fraction_of_peak) {
        values.push_back(m.value);
        continue;
      }
      if (!m.peak || *m.peak <= 0) throw std::runtime_error(probe.id + ": the probe reported no peak");
      values.push_back(m.value / *m.peak);
    }
    out.push_back(std::move(values));
  }
  return out;
}

// "6 boards (7e7c5466 694.2 ×10, 3e427ed7 701.9, ...); noise 1.819 cycles"
std::string boards_text(const std::vector<BoardRuns>& boards, const BoardSpread& s, const std::string& unit) {
  std::string list;
  for (std::size_t i = 0; i < boards.size(); ++i) {
    list += fmt::format("{}{} {}", i ? ", " : "", short_board(boards[i].gpu), g4(s.medians[i]));
    if (boards[i].runs.size() > 1) list += fmt::format(" (median of {})", boards[i].runs.size());
  }
  return fmt::format("{} board{} ({}); noise {} {}", boards.size(), boards.size() > 1 ? "s" : "", list, g4(s.noise),
                     unit);
}

// Three decimals, as every recorded value had; below 1 four significant digits instead, so a
// small value (an error ratio of 1e-4) is not written as 0.
double round_centre(double centre) {
  if (centre == 0 || std::fabs(centre) >= 1) return std::round(centre * 1000) / 1000;
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::fabs(centre))));
  return std::round(centre * scale) / scale;
}

// sign: '+' when the fail limit lies above the drift limit (a band's half-width, max), '-' below.
std::string margin_text(const PolicyClass* c, double margin, const std::string& unit, char sign = '+') {
  if (!c) return "no class of the band policy matched: fail band = drift band";
  return fmt::format("fail = drift {} {} x {:.3g}% x |centre| = drift {} {} {} (class {})", sign, c->k,
                     c->spread_rel * 100, sign, g4(margin), unit, c->name);
}

void derive_band(const Probe& probe, const std::vector<BoardRuns>& boards, const BoardSpread& s,
                 const BandPolicy& policy, Expectation& e) {
  const PolicyClass* c = policy.class_for(probe.id);
  const double margin = c ? c->k * c->spread_rel * std::fabs(s.centre) : 0;
  const double drift = std::max({probe.record.min_tol, probe.record.min_tol_rel * std::fabs(s.centre),
                                 policy.noise_factor * s.noise + s.half_spread});
  e.value = round_centre(s.centre);
  e.tol = round_up_2sig(drift + margin);
  if (margin > 0) e.drift_tol = round_up_2sig(drift);
  if (e.drift_tol && *e.drift_tol >= *e.tol) e.drift_tol.reset();
  e.note = fmt::format("bands from {}; drift = max(floor, {} x noise + half-spread {}) = ± {}; {} = ± {}",
                       boards_text(boards, s, e.unit), policy.noise_factor, g4(s.half_spread),
                       e.drift_tol.value_or(*e.tol), margin_text(c, margin, e.unit), *e.tol);
}

// min and fraction_of_peak: limits below the lowest board (sign = +1); max: above the highest (sign = -1).
void derive_limit(const Probe& probe, const std::vector<BoardRuns>& boards, const BoardSpread& s,
                  const BandPolicy& policy, Expectation& e) {
  const PolicyClass* c = policy.class_for(probe.id);
  // Without a class, a fraction of peak keeps the probe's own margin (RecordHint), as
  // fractions always had one.
  const bool own_margin = !c && e.kind == ExpectationKind::fraction_of_peak;
  const double relative = c ? c->k * c->spread_rel * std::fabs(s.centre)
                            : own_margin ? probe.record.fraction_margin * std::fabs(s.centre) : 0;
  const double margin = e.kind == ExpectationKind::fraction_of_peak ? relative : std::max(relative, probe.record.min_tol);
  const bool upper = e.kind == ExpectationKind::max;
  const double worst = upper ? *std::max_element(s.medians.begin(), s.medians.end())
                             : *std::min_element(s.medians.begin(), s.medians.end());
  const double noise = policy.noise_factor * s.noise;
  const double drift = upper ? worst + noise : worst - noise;
  const double fail = upper ? drift + margin : drift - margin;
  std::string what;
  double written = fail;  // the fail limit as the file holds it
  if (e.kind == ExpectationKind::fraction_of_peak) {
    // Two decimals, rounded away from the boards, as fractions of peak always were.
    e.min_fraction = written = floor_to(fail, 2);
    if (margin > 0) e.drift_min_fraction = floor_to(drift, 2);
    if (e.drift_min_fraction && *e.drift_min_fraction <= *e.min_fraction) e.drift_min_fraction.reset();
    what = "of peak";
  } else if (upper) {
    e.max = fail;
    if (margin > 0) e.drift_max = drift;
  } else {
    e.min = fail;
    if (margin > 0) e.drift_min = drift;
  }
  const std::string unit = what.empty() ? e.unit : what;
  e.note = fmt::format("bands from {}; drift limit = {} board {} {} {} x noise = {}; {} = {}", boards_text(boards, s, unit),
                       upper ? "highest" : "lowest", g4(worst), upper ? "+" : "-", policy.noise_factor, g4(drift),
                       own_margin ? fmt::format("no class of the band policy matched: fail = drift - the probe's "
                                                "margin {} x |centre| = drift - {} {}",
                                                probe.record.fraction_margin, g4(margin), unit)
                                  : margin_text(c, margin, unit, upper ? '+' : '-'),
                       g4(written));
}

}  // namespace

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
      derive_band(probe, boards, board_spread(values_per_board(e.kind, probe, boards)), policy, e);
      break;
    case ExpectationKind::min:
    case ExpectationKind::max:
    case ExpectationKind::fraction_of_peak:
      derive_limit(probe, boards, board_spread(values_per_board(e.kind, probe, boards)), policy, e);
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
      for (const auto& values : values_per_board(e.kind, probe, boards)) all.insert(all.end(), values.begin(), values.end());
      e.note = fmt::format("recorded {}", g4(median(all)));
      break;
    }
  }
  std::string others;
  for (std::size_t i = 1; i < boards.size(); ++i) others += (others.empty() ? "" : ", ") + boards[i].source;
  if (!others.empty()) e.note += "; also " + others;
  return e;
}

bool differs_beyond_drift(const Expectation& derived, const Expectation& base) {
  if (derived.kind != base.kind) return true;
  switch (base.kind) {
    case ExpectationKind::band: {
      // Differs when the base drift band does not hold the SKU's own drift band, i.e.
      // every board of the SKU seen (not only their centre): otherwise a healthy board
      // of the SKU would warn on the base file.
      const double base_half = base.has_drift() ? base.drift_half_width() : base.band_half_width();
      const double own_half = derived.has_drift() ? derived.drift_half_width() : derived.band_half_width();
      return std::fabs(*derived.value - *base.value) + own_half > base_half;
    }
    case ExpectationKind::min:
      return derived.drift_min.value_or(*derived.min) < base.drift_min.value_or(*base.min);
    case ExpectationKind::max:
      return derived.drift_max.value_or(*derived.max) > base.drift_max.value_or(*base.max);
    case ExpectationKind::fraction_of_peak:
      return derived.drift_min_fraction.value_or(*derived.min_fraction) <
             base.drift_min_fraction.value_or(*base.min_fraction);
    case ExpectationKind::exact: return derived.model != base.model;
    case ExpectationKind::info: return false;
  }
  return true;
}

}  // namespace gpuconform
