// SPDX-License-Identifier: Apache-2.0
// The band policy's arithmetic for one entry (band_derivation.hpp).
#include "band_derivation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpuconform::detail {
namespace {

std::string g4(double v) { return fmt::format("{:.4g}", v); }

// "3ba2d5b8" from "GPU-3ba2d5b8-4d95-...".
std::string short_board(const std::string& gpu) {
  if (gpu.empty()) return "this board";
  const std::string hex = gpu.rfind("GPU-", 0) == 0 ? gpu.substr(4) : gpu;
  return hex.substr(0, 8);
}

// "6 boards (7e7c5466 694.2 (median of 10), 3e427ed7 701.9, ...); noise 1.819 cycles, typical
// 95% CI +-0.2 cycles". `list` gives sensitivity.cpp the board medians (4 significant digits).
std::string boards_text(const Evidence& ev) {
  std::string list;
  for (std::size_t i = 0; i < ev.boards.size(); ++i) {
    list += fmt::format("{}{} {}", i ? ", " : "", short_board(ev.boards[i].gpu), g4(ev.spread.medians[i]));
    if (ev.boards[i].runs.size() > 1) list += fmt::format(" (median of {})", ev.boards[i].runs.size());
  }
  return fmt::format("{} board{} ({}); noise {} {}, typical 95% CI +-{} {}", ev.boards.size(),
                     ev.boards.size() > 1 ? "s" : "", list, g4(ev.spread.noise), ev.unit, g4(ev.interval),
                     ev.unit);
}

// How far a healthy board's next run is expected to lie from the centre: the boards'
// spread and the run's own error, added in quadrature, and where the numbers came from.
struct Scale {
  double board = 0;  // sigma of the board medians: own, class or floor
  double run = 0;    // sigma of one run around its board's value
  double sigma = 0;  // sqrt(board^2 + run^2)
  std::string how;
};

Scale scale_of(const Evidence& ev, const PolicyClass* c, const BandPolicy& policy) {
  const BoardSpread& s = ev.spread;
  const double centre = std::fabs(s.centre);
  const int n = static_cast<int>(s.medians.size());
  Scale out;
  std::string board;
  if (n >= policy.min_boards) {
    out.board = s.sigma;
    board = fmt::format("1.4826 x MAD of the {} board medians {}", n, g4(s.sigma));
  } else if (c) {
    out.board = c->spread_rel * centre;
    board = fmt::format("class spread {:.3g}% x |centre| {} ({} board{}, fewer than {})", c->spread_rel * 100,
                        g4(out.board), n, n > 1 ? "s" : "", policy.min_boards);
  } else {
    board = fmt::format("0 ({} board{} and no class)", n, n > 1 ? "s" : "");
  }
  if (c && c->floor_rel * centre > out.board) {
    out.board = c->floor_rel * centre;
    board += fmt::format(" raised to the class floor {:.3g}% x |centre| {}", c->floor_rel * 100, g4(out.board));
  }
  out.run = run_sigma(ev);
  out.sigma = std::hypot(out.board, out.run);
  out.how = fmt::format("sigma = sqrt(board^2 + run^2) = {} (board: {}; run: max(CI / 1.96, noise) {})",
                        g4(out.sigma), board, g4(out.run));
  return out;
}

std::string class_text(const PolicyClass* c) {
  return c ? fmt::format("(class {})", c->name) : "(no class of the band policy matched)";
}

double round_sig(double x, bool up) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int exponent = static_cast<int>(std::floor(std::log10(std::fabs(x)))) - 3;
  // Dividing by a power of ten (never multiplying by 0.1) keeps 1.2 from becoming
  // 1.2000000000000002 in the file.
  if (exponent >= 0) {
    const double scale = std::pow(10.0, exponent);
    return (up ? std::ceil(x / scale - 1e-9) : std::floor(x / scale + 1e-9)) * scale;
  }
  const double inverse = std::pow(10.0, -exponent);
  return (up ? std::ceil(x * inverse - 1e-9) : std::floor(x * inverse + 1e-9)) / inverse;
}

}  // namespace

// A run's reported 95 % interval is 1.96 sigma wide on each side; the typical largest run
// deviation of a board stands for it where the probe reports none.
double run_sigma(const Evidence& ev) { return std::max(ev.interval / 1.959964, ev.spread.noise); }

// Rounded to four significant digits away from `centre`, and never short of x itself: round_sig's
// slack (which keeps 1.2 from turning into 1.2001) could otherwise write a limit a hair inside
// the board it was drawn through (a deterministic 25.875 against 22.078 + 3.797 read as drifted).
double round_away(double x, double centre) {
  const bool up = x > centre;
  double r = round_sig(x, up);
  if (r == x || x == 0 || !std::isfinite(x)) return r;
  const double step = std::pow(10.0, std::floor(std::log10(std::fabs(x))) - 3);
  if (up && r < x) r = round_sig(r + step, true);
  if (!up && r > x) r = round_sig(r - step, false);
  return r;
}

double round_centre(double centre) {
  if (centre == 0 || std::fabs(centre) >= 1) return std::round(centre * 1000) / 1000;
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::fabs(centre))));
  return std::round(centre * scale) / scale;
}

void derive_band(const Evidence& ev, const BandPolicy& policy, Expectation& e) {
  const PolicyClass* c = policy.class_for(ev.probe.id);
  const Scale scale = scale_of(ev, c, policy);
  e.value = round_centre(ev.spread.centre);
  double farthest = 0;  // every board seen lies inside the drift band, with a run's error
  for (double m : ev.spread.medians) farthest = std::max(farthest, std::fabs(m - *e.value));
  // A class floor replaces the probe's own absolute floors (which predate the policy).
  const bool probe_floor = !(c && c->floor_rel > 0);
  const double floor = probe_floor ? std::max(ev.probe.record.min_tol, ev.probe.record.min_tol_rel * std::fabs(*e.value))
                                   : 0;
  const double drift = std::max({policy.z_warn * scale.sigma, farthest + policy.z_warn * scale.run, floor});
  const double fail = drift + (policy.z_fail - policy.z_warn) * scale.sigma;
  e.tol = round_away(fail, 0);
  if (round_away(drift, 0) < *e.tol) e.drift_tol = round_away(drift, 0);
  e.note = fmt::format(
      "bands from {}; centre = median {}; {}; drift = +- max({} x sigma, farthest board {} + {} x run{}) = +- {}; "
      "fail = drift + ({} - {}) x sigma = +- {} {}",
      boards_text(ev), g4(ev.spread.centre), scale.how, policy.z_warn, g4(farthest), policy.z_warn,
      floor > 0 ? fmt::format(", the probe's floor {}", g4(floor)) : "", e.drift_tol.value_or(*e.tol), policy.z_fail,
      policy.z_warn, *e.tol, class_text(c));
}

void derive_limit(const Evidence& ev, const BandPolicy& policy, Expectation& e) {
  const PolicyClass* c = policy.class_for(ev.probe.id);
  const Scale scale = scale_of(ev, c, policy);
  const double centre = ev.spread.centre;
  const bool upper = e.kind == ExpectationKind::max;
  const bool fraction = e.kind == ExpectationKind::fraction_of_peak;
  const double from_centre = policy.z_warn * scale.sigma, from_worst = policy.z_warn * scale.run;
  const double drift = upper ? std::max(centre + from_centre, ev.spread.highest + from_worst)
                             : std::min(centre - from_centre, ev.spread.lowest - from_worst);
  double gap = (policy.z_fail - policy.z_warn) * scale.sigma;
  std::string gap_text = fmt::format("({} - {}) x sigma", policy.z_fail, policy.z_warn);
  if (!fraction && ev.probe.record.min_tol > gap) {  // a count's resolution: one step
    gap = ev.probe.record.min_tol;
    gap_text = fmt::format("the probe's step {}", g4(gap));
  }
  if (fraction && !c && ev.probe.record.fraction_margin * std::fabs(centre) > gap) {
    // Fractions always had a margin: without a class, the probe's own.
    gap = ev.probe.record.fraction_margin * std::fabs(centre);
    gap_text = fmt::format("the probe's margin {} x |centre|", ev.probe.record.fraction_margin);
  }
  const double fail = upper ? drift + gap : drift - gap;
  const double written_drift = round_away(drift, centre), written_fail = round_away(fail, centre);
  const bool two_levels = written_fail != written_drift;
  if (fraction) {
    e.min_fraction = written_fail;
    if (two_levels) e.drift_min_fraction = written_drift;
  } else if (upper) {
    e.max = written_fail;
    if (two_levels) e.drift_max = written_drift;
  } else {
    e.min = written_fail;
    if (two_levels) e.drift_min = written_drift;
  }
  const char* sign = upper ? "+" : "-";
  e.note = fmt::format(
      "bands from {}; centre = median {}; {}; drift limit = {}(centre {} {} x sigma, {} board {} {} {} x run) = {}; "
      "fail = drift {} {} = {} {}",
      boards_text(ev), g4(centre), scale.how, upper ? "max" : "min", sign, policy.z_warn, upper ? "highest" : "lowest",
      g4(upper ? ev.spread.highest : ev.spread.lowest), sign, policy.z_warn, g4(written_drift), sign, gap_text,
      g4(written_fail), class_text(c));
}

void derive_invariant(const Evidence& ev, const PolicyInvariant& rule, const BandPolicy& policy, Expectation& e) {
  if (e.kind != ExpectationKind::max)
    throw std::runtime_error(fmt::format("{}: [[invariant]] at {} covers it, but it is not a max entry", ev.probe.id,
                                         rule.where.str()));
  for (const BoardRuns& b : ev.boards)
    for (const Measurement& m : b.runs)
      if (m.value != 0)
        throw std::runtime_error(fmt::format(
            "{}: {} read {} {} in a run ({}), but [[invariant]] at {} says a healthy board reads 0: supersede or "
            "exclude the run with a reason, or fix the probe",
            ev.probe.id, short_board(b.gpu), g4(m.value), e.unit, b.source, rule.where.str()));
  e.max = 0;
  e.note = fmt::format("bands from {}; an [[invariant]] of the band policy: every board read 0, so max = 0 exactly {}",
                       boards_text(ev), class_text(policy.class_for(ev.probe.id)));
}

}  // namespace gpuconform::detail
