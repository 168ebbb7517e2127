#include "gpuconform/verdict.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpuconform/per_sm.hpp"

namespace gpuconform {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::pass: return "pass";
    case Outcome::fail: return "fail";
    case Outcome::warn: return "warn";
    case Outcome::skip: return "skip";
  }
  return "?";
}

std::string format_value(double value, const std::string& unit) {
  if (unit == "B/s") {
    const double a = std::fabs(value);
    if (a >= 1e12) return fmt::format("{:.3f} TB/s", value / 1e12);
    if (a >= 1e9) return fmt::format("{:.3f} GB/s", value / 1e9);
    return fmt::format("{:.4g} B/s", value);
  }
  if (std::fabs(value) >= 1e6 || (value != 0 && std::fabs(value) < 1e-3))
    return fmt::format("{:.4g} {}", value, unit);
  if (value == std::floor(value)) return fmt::format("{:.0f} {}", value, unit);
  return fmt::format("{:.3f} {}", value, unit);
}

// The fail band alone, e.g. "275.665 cycles ± 21 cycles" or ">= 0.820 of peak".
std::string describe_fail_band(const Expectation& e) {
  switch (e.kind) {
    case ExpectationKind::band:
      return fmt::format("{} ± {}", format_value(*e.value, e.unit),
                         format_value(e.band_half_width(), e.unit));
    case ExpectationKind::min: return ">= " + format_value(*e.min, e.unit);
    case ExpectationKind::max: return "<= " + format_value(*e.max, e.unit);
    case ExpectationKind::fraction_of_peak:
      return fmt::format(">= {:.3f} of peak", *e.min_fraction);
    case ExpectationKind::exact:
      if (e.model.rfind("param:", 0) == 0) return "fitted parameter " + e.model.substr(6);  // numeric.feature.*
      return fmt::format("0 mismatches against model {}", e.model);
    case ExpectationKind::info: return "recorded only";
  }
  return "?";
}

std::string describe_drift_band(const Expectation& e) {
  switch (e.kind) {
    case ExpectationKind::band:
      return fmt::format("{} ± {}", format_value(*e.value, e.unit),
                         format_value(e.drift_half_width(), e.unit));
    case ExpectationKind::min: return ">= " + format_value(*e.drift_min, e.unit);
    case ExpectationKind::max: return "<= " + format_value(*e.drift_max, e.unit);
    case ExpectationKind::fraction_of_peak: return fmt::format(">= {:.3f} of peak", *e.drift_min_fraction);
    default: return describe_fail_band(e);
  }
}

std::string describe_expected(const Expectation& e) {
  if (!e.has_drift()) return describe_fail_band(e);
  return fmt::format("{} (drift band {})", describe_fail_band(e), describe_drift_band(e));
}

static std::string provenance(const Expectation& e) {
  return fmt::format("{}, {}", e.where.str(), e.source);
}

Verdict judge(const Measurement& m, const Expectation& e) {
  if (!e.unit.empty() && !m.unit.empty() && e.unit != m.unit)
    return {Outcome::fail, fmt::format("unit mismatch: the probe measures {} but the expectation is in {} ({})",
                                       m.unit, e.unit, provenance(e))};
  if (!std::isfinite(m.value))
    return {Outcome::fail, fmt::format("measured a non-finite value ({})", m.value)};
  const std::string measured = format_value(m.value, m.unit);
  bool ok = true;
  bool drifted = false;  // inside the fail band but outside the drift band
  std::string detail;
  switch (e.kind) {
    case ExpectationKind::band: {
      const double off = std::fabs(m.value - *e.value);
      ok = off <= e.band_half_width();
      drifted = e.has_drift() && off > e.drift_half_width();
      break;
    }
    case ExpectationKind::min:
      ok = m.value >= *e.min;
      drifted = e.drift_min && m.value < *e.drift_min;
      break;
    case ExpectationKind::max:
      ok = m.value <= *e.max;
      drifted = e.drift_max && m.value > *e.drift_max;
      break;
    case ExpectationKind::fraction_of_peak: {
      if (!m.peak || !(*m.peak > 0))
        return {Outcome::fail, "the probe reported no peak to compare against (probe defect)"};
      const double fraction = m.value / *m.peak;
      ok = fraction >= *e.min_fraction;
      drifted = e.drift_min_fraction && fraction < *e.drift_min_fraction;
      detail = fmt::format(" = {:.3f} of peak {} ({})", fraction, format_value(*m.peak, m.unit),
                           m.peak_formula);
      break;
    }
    case ExpectationKind::exact:
      if (m.compared == 0)
        return {Outcome::fail, "no output was compared (probe defect: an exact test must compare something)"};
      ok = m.value == 0;
      detail = fmt::format(" of {} outputs", m.compared);
      break;
    case ExpectationKind::info:
      return {Outcome::pass, fmt::format("recorded {} (info only)", measured)};
  }
  // --- per-SM uniformity (per_sm.hpp): name every SM outside the band the value left.
  std::string outliers;
  if (e.kind == ExpectationKind::band && (!ok || drifted))
    if (const Series* per_sm = find_per_sm_series(m)) {
      const double half = ok ? e.drift_half_width() : e.band_half_width();
      outliers = describe_per_sm_outliers(*per_sm, *e.value - half, *e.value + half);
      if (!outliers.empty()) outliers = "; outliers: " + outliers;
    }
  // --- end per-SM uniformity
  if (ok && drifted)
    return {Outcome::warn, fmt::format("drifted: measured {}{}, outside the drift band {} but inside the fail band {} ({}){}",
                                       measured, detail, describe_drift_band(e), describe_fail_band(e), provenance(e),
                                       outliers)};
  std::string reason = fmt::format("measured {}{}, expected {} ({})", measured, detail,
                                   describe_expected(e), provenance(e));
  if (!ok && e.kind == ExpectationKind::exact)
    if (const std::string* first = m.find_note("first_mismatch")) reason += "; first mismatch: " + *first;
  if (!ok && e.kind == ExpectationKind::exact)
    if (const std::string* inferred = m.find_note("inferred")) reason += "; inferred " + *inferred;
  reason += outliers;
  // Invariant probes (topology.*, parallel.*) count violated invariants and say which.
  if (!ok)
    if (const std::string* violations = m.find_note("violations")) reason += "; " + *violations;
  return {ok ? Outcome::pass : Outcome::fail, std::move(reason)};
}

Verdict apply_waiver(Verdict v, const Waiver* waiver) {
  if (!waiver || v.outcome != Outcome::fail) return v;
  return {Outcome::warn, fmt::format("waived at {} ({}; {}): {}", waiver->where.str(), waiver->reason,
                                     waiver->link, v.reason)};
}

}  // namespace gpuconform
