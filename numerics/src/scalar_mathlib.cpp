// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_mathlib.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <future>
#include <limits>
#include <stdexcept>
#include <thread>

#include "gpuconform/numerics/scalar_math_worst.hpp"
#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::numerics {
namespace {

// The Programming Guide's tables, cited by the entries (expectations/sm_90.toml).
constexpr const char* kStandard = "Standard Functions";
constexpr const char* kIntrinsic = "Intrinsic Functions";

// numeric.math.intrinsic.<fn>: the -use_fast_math forms, in the unit the Guide's Intrinsic
// Functions table states each bound in; where it states two (an absolute error on [0.5, 2],
// ulps outside), two rows, ".abs" the absolute one.
void add_intrinsics(std::vector<ScalarMath>& t) {
  const auto ulp_row = [&](const char* id, const char* name, MathFn fn, double bound, const char* text) {
    MathSpec s{fn};
    s.ftz = true;
    t.push_back({std::string("numeric.math.intrinsic.") + id, name, std::string("__") + name, s, true, bound, "ulp",
                 text, kIntrinsic});
    return &t.back();
  };
  const auto abs_row = [&](const char* id, const char* name, MathFn fn, double lo, double hi, double bound,
                           const char* text) {
    MathSpec s{fn, MathMeasure::absolute, lo, hi, true};
    s.ftz = true;
    t.push_back({std::string("numeric.math.intrinsic.") + id, name, std::string("__") + name, s, true, bound,
                 "absolute error", text, kIntrinsic});
  };
  ScalarMath* e = ulp_row("expf", "expf", MathFn::i_expf, 2, "The maximum ulp error is 2 + floor(abs(1.173 * x))");
  e->spec.allowance_slope = 1.173;
  e->unit = "ulp beyond floor(|1.173 x|)";
  e = ulp_row("exp10f", "exp10f", MathFn::i_exp10f, 2, "The maximum ulp error is 2 + floor(abs(2.97 * x))");
  e->spec.allowance_slope = 2.97;
  e->unit = "ulp beyond floor(|2.97 x|)";
  const struct {
    const char* name;
    MathFn fn;
    double abs_bound, ulp_bound;
    const char* text;
  } logs[] = {
      {"logf", MathFn::i_logf, 3.588787907149952e-07, 3,
       "For x in [0.5, 2], the maximum absolute error is 2^-21.41, otherwise, the maximum ulp error is 3"},
      {"log2f", MathFn::i_log2f, 2.384185791015625e-07, 2,
       "For x in [0.5, 2], the maximum absolute error is 2^-22, otherwise, the maximum ulp error is 2"},
      {"log10f", MathFn::i_log10f, 5.960464477539063e-08, 3,
       "For x in [0.5, 2], the maximum absolute error is 2^-24, otherwise, the maximum ulp error is 3"},
  };
  for (const auto& l : logs) {
    e = ulp_row(l.name, l.name, l.fn, l.ulp_bound, l.text);
    e->spec.lo = 0.5;
    e->spec.hi = 2;
    e->spec.judge_inside = false;
    abs_row((std::string(l.name) + ".abs").c_str(), l.name, l.fn, 0.5, 2, l.abs_bound, l.text);
  }
  const double pi = 3.141592653589793;  // x in [-pi, pi]: |x| <= pi, binary32 pi (above pi) outside
  abs_row("sinf", "sinf", MathFn::i_sinf, -pi, pi, 3.588787907149952e-07,
          "For x in [-pi, pi], the maximum absolute error is 2^-21.41, and larger otherwise");
  abs_row("cosf", "cosf", MathFn::i_cosf, -pi, pi, 4.1799818101693836e-07,
          "For x in [-pi, pi], the maximum absolute error is 2^-21.19, and larger otherwise");
  e = ulp_row("tanf", "tanf", MathFn::i_tanf, 0, "Derived from its implementation as __sinf(x) * (1/__cosf(x))");
  e->judged = false;
  e = ulp_row("fsqrt_rn", "sqrtf", MathFn::i_fsqrt_rn, 0, "IEEE-compliant");
  e->spec.ftz = false;
  e->label = "__fsqrt_rn";
  e = ulp_row("frcp_rn", "rcpf", MathFn::i_frcp_rn, 0, "IEEE-compliant");
  e->spec.ftz = false;
  e->label = "__frcp_rn";
}

std::vector<ScalarMath> make_table() {
  const struct {
    const char* name;
    MathFn fn;
    double bound;
    const char* text;
  } rows[] = {
      {"expf", MathFn::expf, 2, "2 (full range)"},
      {"exp2f", MathFn::exp2f, 2, "2 (full range)"},
      {"logf", MathFn::logf, 1, "1 (full range)"},
      {"log2f", MathFn::log2f, 1, "1 (full range)"},
      {"sinf", MathFn::sinf, 2, "2 (full range)"},
      {"cosf", MathFn::cosf, 2, "2 (full range)"},
      {"tanhf", MathFn::tanhf, 2, "2 (full range)"},
      {"sqrtf", MathFn::sqrtf, 0, "0 when compiled with -prec-sqrt=true"},
      {"rsqrtf", MathFn::rsqrtf, 2, "2 (full range)"},
      {"erff", MathFn::erff, 2, "2 (full range)"},
      {"exp10f", MathFn::exp10f, 2, "2 (full range)"},
      {"expm1f", MathFn::expm1f, 1, "1 (full range)"},
      {"log10f", MathFn::log10f, 2, "2 (full range)"},
      {"log1pf", MathFn::log1pf, 1, "1 (full range)"},
      {"tanf", MathFn::tanf, 4, "4 (full range)"},
      {"sinpif", MathFn::sinpif, 1, "1 (full range)"},
      {"cospif", MathFn::cospif, 1, "1 (full range)"},
      {"asinf", MathFn::asinf, 2, "2 (full range)"},
      {"acosf", MathFn::acosf, 2, "2 (full range)"},
      {"atanf", MathFn::atanf, 2, "2 (full range)"},
      {"sinhf", MathFn::sinhf, 3, "3 (full range)"},
      {"coshf", MathFn::coshf, 2, "2 (full range)"},
      {"asinhf", MathFn::asinhf, 3, "3 (full range)"},
      {"acoshf", MathFn::acoshf, 4, "4 (full range)"},
      {"atanhf", MathFn::atanhf, 3, "3 (full range)"},
      {"erfcf", MathFn::erfcf, 4, "4 (full range)"},
      {"cbrtf", MathFn::cbrtf, 1, "1 (full range)"},
      {"rcbrtf", MathFn::rcbrtf, 1, "1 (full range)"},
      {"tgammaf", MathFn::tgammaf, 5, "5 (full range)"},
      {"normcdff", MathFn::normcdff, 5, "5 (full range)"},
      {"erfinvf", MathFn::erfinvf, 2, "2 (full range)"},
      {"erfcinvf", MathFn::erfcinvf, 4, "4 (full range)"},
  };
  std::vector<ScalarMath> t;
  for (const auto& r : rows) {
    ScalarMath m{
        std::string("numeric.math.") + r.name, r.name, r.name, MathSpec{r.fn}, true, r.bound, "ulp", r.text, kStandard};
    if (r.fn == MathFn::erfinvf || r.fn == MathFn::erfcinvf) m.spec.flag_ulps = 1.0 / (1 << 20);  // header: why
    t.push_back(std::move(m));
  }
  // lgammaf: the bound holds outside (-10.001, -2.264) only; the maximum inside is a note.
  MathSpec lgamma{MathFn::lgammaf};
  lgamma.lo = -10.001;
  lgamma.hi = -2.264;
  lgamma.judge_inside = false;
  t.push_back({"numeric.math.lgammaf", "lgammaf", "lgammaf", lgamma, true, 6, "ulp",
               "6 (outside interval -10.001 ... -2.264; larger inside)", kStandard});
  add_intrinsics(t);
  return t;
}

float as_float(std::uint32_t x) {
  float f = 0;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

std::string f32_text(std::uint32_t x) { return fmt::format("0x{:08x} ({:.9g})", x, as_float(x)); }

const ref::MathCall& call_of(const ScalarMath& row) {
  static thread_local std::string cached_name;
  static thread_local ref::MathCall cached;
  if (cached_name != row.name) {
    const std::optional<ref::MathCall> c = ref::find_math_function(row.name);
    if (!c) throw std::logic_error("math_oracle has no " + row.name);
    cached = *c;
    cached_name = row.name;
  }
  return cached;
}

// f at x as the row's reference reads x, correctly rounded: a subnormal x of a .ftz row as the
// zero it flushes to or as itself, whichever is nearer the returned y (math_reads_unflushed).
ref::MathResult flushed_reference(const ScalarMath& row, std::uint32_t x) {
  const std::uint32_t read = f32_bits_of(math_flush_input(row.spec, as_float(x)));
  return ref::math_reference(call_of(row), ref::Rounding::kRNE, {read});
}
ref::MathResult reference_at(const ScalarMath& row, std::uint32_t x, std::uint32_t y) {
  const std::uint32_t read = f32_bits_of(math_flush_input(row.spec, as_float(x)));
  ref::MathResult flushed = flushed_reference(row, x);
  if (read == x) return flushed;
  ref::MathResult raw = ref::math_reference(call_of(row), ref::Rounding::kRNE, {x});
  const double fv = std::strtod(flushed.exact.c_str(), nullptr), rv = std::strtod(raw.exact.c_str(), nullptr);
  return math_reads_unflushed(as_float(y), fv, rv) ? raw : flushed;
}

}  // namespace

const std::vector<ScalarMath>& scalar_math() {
  static const std::vector<ScalarMath> table = make_table();
  return table;
}

const ScalarMath* find_scalar_math(std::string_view id) {
  for (const ScalarMath& r : scalar_math())
    if (r.id == id) return &r;
  return nullptr;
}

namespace {

double error_of(std::uint64_t key) {
  float f = 0;
  const std::uint32_t bits = static_cast<std::uint32_t>(key >> 32);
  std::memcpy(&f, &bits, sizeof f);
  return static_cast<double>(f);
}

std::uint64_t key_of(double error, std::uint32_t x) { return static_cast<std::uint64_t>(error_key(error)) << 32 | x; }

// One thread's share of decide_flagged.
MathDecision decide_range(const ScalarMath& row, const MathFlagged* begin, const MathFlagged* end) {
  MathDecision d;
  for (const MathFlagged* f = begin; f != end; ++f) {
    const float x = as_float(f->x);
    const ref::MathResult exact = reference_at(row, f->x, f->y);
    const std::uint32_t cr = static_cast<std::uint32_t>(exact.bits);
    if (cr != f->cr64) ++d.rounding_differs;
    const double distance = math_excess(row.spec, x, math_distance(row.spec, f->y, cr));
    const bool judged = math_judged(row.spec, x);
    std::uint64_t& worst = judged ? d.worst : d.worst_unjudged;
    std::uint32_t& result = judged ? d.worst_result : d.worst_unjudged_result;
    if (key_of(distance, f->x) > worst) {
      worst = key_of(distance, f->x);
      result = f->y;
    }
    // The real-valued error against the exact value (40 digits: a binary64 far closer than
    // the error's own 4 digits), where both are finite.
    const double v = std::strtod(exact.exact.c_str(), nullptr), yv = as_float(f->y);
    if (std::isfinite(v) && std::isfinite(yv) && std::fabs(v) <= 3.4028235677973366e38) {
      const std::uint64_t rk = key_of(std::fabs(yv - v) / f32_ulp_at(v), f->x);
      if (rk > d.worst_real) {
        d.worst_real = rk;
        d.worst_real_result = f->y;
      }
    }
  }
  return d;
}

}  // namespace

MathDecision decide_on_every_core(const std::vector<MathFlagged>& flagged, const MathRangeDecider& decide_range) {
  const std::size_t threads =
      ref::math_reference_thread_safe() ? std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 32) : 1;
  const std::size_t per = (flagged.size() + threads - 1) / threads;
  std::vector<std::future<MathDecision>> parts;
  for (std::size_t i = 0; i < flagged.size(); i += per) {
    const MathFlagged* b = flagged.data() + i;
    const MathFlagged* e = flagged.data() + std::min(flagged.size(), i + per);
    parts.push_back(std::async(std::launch::async, [&decide_range, b, e] { return decide_range(b, e); }));
  }
  MathDecision d;
  const auto take = [](std::uint64_t& key, std::uint32_t& result, std::uint64_t k, std::uint32_t r) {
    if (k > key) {
      key = k;
      result = r;
    }
  };
  for (auto& p : parts) {
    const MathDecision q = p.get();
    take(d.worst, d.worst_result, q.worst, q.worst_result);
    take(d.worst_unjudged, d.worst_unjudged_result, q.worst_unjudged, q.worst_unjudged_result);
    take(d.worst_real, d.worst_real_result, q.worst_real, q.worst_real_result);
    d.rounding_differs += q.rounding_differs;
  }
  return d;
}

MathDecision decide_flagged(const ScalarMath& row, const std::vector<MathFlagged>& flagged) {
  // MPFR roots (erfinvf) and lgamma near its roots cost up to a millisecond each: every core.
  return decide_on_every_core(flagged,
                              [&row](const MathFlagged* b, const MathFlagged* e) { return decide_range(row, b, e); });
}

namespace {

std::string bound_note(const ScalarMath& row) {
  return fmt::format("CUDA C++ Programming Guide, Mathematical Functions, {}: {}(x) {}{}", row.table, row.label,
                     row.bound_text, row.judged ? "" : " (no number: recorded, not judged)");
}

// "2 ulp at x = ...: returned ..., correctly rounded ... (exact ...)" or the absolute form.
std::string input_note(const ScalarMath& row, std::uint64_t key, std::uint32_t y) {
  const std::uint32_t x = static_cast<std::uint32_t>(key);
  const ref::MathResult cr = reference_at(row, x, y);
  if (row.spec.measure == MathMeasure::absolute)
    return fmt::format("{:.6g} (2^{:.2f}) at x = {}: returned {}, f(x) = {}", error_of(key), std::log2(error_of(key)),
                       f32_text(x), f32_text(y), cr.exact);
  const double allowance = math_allowance(row.spec, as_float(x));
  return fmt::format(
      "{:.0f} ulp{} at x = {}: returned {}, correctly rounded {} (exact {})", error_of(key),
      allowance > 0 ? fmt::format(" beyond the allowance floor(|{} x|) = {:.0f}", row.spec.allowance_slope, allowance)
                    : "",
      f32_text(x), f32_text(y), f32_text(static_cast<std::uint32_t>(cr.bits)), cr.exact);
}

}  // namespace

Measurement math_measurement(const ScalarMath& row, const MathScan& scan, const MathDecision& decided) {
  if (scan.flagged_total > scan.flagged.size())
    throw std::runtime_error(
        fmt::format("{}: {} inputs lie near a rounding boundary but only {} were kept (probe defect)", row.id,
                    scan.flagged_total, scan.flagged.size()));
  const bool from_flagged = decided.worst > scan.worst_ulp;
  const std::uint64_t worst = from_flagged ? decided.worst : scan.worst_ulp;
  const bool nan_judged = scan.nan_mismatches > 0;
  const std::uint32_t x = nan_judged ? scan.first_nan_mismatch : static_cast<std::uint32_t>(worst);
  const std::uint32_t y = from_flagged ? decided.worst_result : scan.worst_ulp_result;
  Measurement m;
  m.unit = row.unit;
  m.compared = scan.compared;
  // A NaN mismatch on the judged domain: kMathBeyondBound, finite and over any bound, at its input.
  m.value = nan_judged ? kMathBeyondBound : error_of(worst);
  m.note("function", row.label);
  m.note("bound", bound_note(row));
  m.note("worst_input", nan_judged
                            ? fmt::format("x = {} returns NaN where f(x) is a number or a number where it is NaN "
                                          "(f(x) = {})",
                                          f32_text(x), flushed_reference(row, x).exact)
                            : input_note(row, worst, y));
  if (row.spec.measure == MathMeasure::ulp) {
    const bool real_flagged = decided.worst_real > scan.worst_real;
    const std::uint64_t real = real_flagged ? decided.worst_real : scan.worst_real;
    m.note("max_real_ulp_error",
           fmt::format("{:.4g} ulp at x = {} (returned {})", error_of(real), f32_text(static_cast<std::uint32_t>(real)),
                       f32_text(real_flagged ? decided.worst_real_result : scan.worst_real_result)));
    m.note("flagged", fmt::format("{} inputs within 2^{:.0f} ulp of a rounding boundary in binary64 (wider where the "
                                  "reference carries an absolute error bound), decided by MPFR; {} of them round "
                                  "otherwise than the binary64 reference",
                                  scan.flagged.size(), std::log2(row.spec.flag_ulps), decided.rounding_differs));
  }
  if (row.spec.lo > -kMathNoLimit || row.spec.hi < kMathNoLimit) {
    const bool un_flagged = decided.worst_unjudged > scan.worst_unjudged;
    const std::uint64_t un = un_flagged ? decided.worst_unjudged : scan.worst_unjudged;
    m.note("outside_bound",
           fmt::format("where the bound does not speak (x {} [{}, {}]): {}", row.spec.judge_inside ? "outside" : "in",
                       row.spec.lo, row.spec.hi,
                       input_note(row, un, un_flagged ? decided.worst_unjudged_result : scan.worst_unjudged_result)));
  }
  if (scan.nan_mismatches > 0) {
    const std::string why = fmt::format(
        "{} inputs return NaN where f(x) is a number or a number where it is NaN; "
        "first x = {}",
        scan.nan_mismatches, f32_text(scan.first_nan_mismatch));
    m.note("nan_mismatches", why + " (the value is 2^32, beyond any bound)");
    m.note("violations", why);
  }
  if (scan.nan_unjudged > 0)
    m.note("nan_outside_bound",
           fmt::format("{} inputs where the bound does not speak return NaN where f(x) is a number or a number where "
                       "it is NaN (excluded, not judged); first x = {}",
                       scan.nan_unjudged, f32_text(scan.first_nan_unjudged)));
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  m.note("model", worst_model(m.value, fmt::format("x=0x{:08x}", x)));  // numeric.math.<fn>.worst
  return m;
}

}  // namespace gpuconform::numerics
