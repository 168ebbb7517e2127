// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_mathlib_f64.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <thread>

#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::numerics {
namespace {

constexpr double kDblMax = std::numeric_limits<double>::max();

// The legacy Guide's double-precision table, which states the first 29 rows' bounds.
constexpr const char* kTable18 =
    "CUDA C++ Programming Guide (CUDA 13.0), Mathematical Functions, Table 18 (double precision)";
// The current Programming Guide (docs.nvidia.com/cuda/cuda-programming-guide/05-appendices/
// mathematical-functions.html), whose tables state the appended rows' bounds: the legacy Table
// 18 rows of these four were not at hand, and the current tables agree with Table 18 on every
// row both state (erf 2, erfc 5, tgamma 10, exp10 1, rsqrt 1, rcbrt 1).
constexpr const char* kTable51 =
    "CUDA Programming Guide (current edition), 5.5.7.6 Error and Gamma Functions, Table 51 'C++ Mathematical "
    "Standard Library Functions, C Math API Mapping and Accuracy (Maximum ULP), Error and Gamma Functions', double";
constexpr const char* kTable55 =
    "CUDA Programming Guide (current edition), 5.5.8 Non-Standard CUDA Mathematical Functions, Table 55 "
    "'Non-standard CUDA Mathematical functions, float and double, Mapping and Accuracy (Maximum ULP)', double";

std::vector<ScalarMathF64> make_table() {
  // Bounds: CUDA C++ Programming Guide (the edition current at CUDA 13.0), chapter 17
  // Mathematical Functions, Table 18 "Double-Precision Mathematical Standard Library Functions
  // with Maximum ULP Error" (the expectation entries cite it); the appended rows: source.
  const struct {
    const char* name;
    MathF64 fn;
    MathF64Domain domain;
    double bound;
    int flag_log2;
    const char* text = nullptr;  // the row's bound as the table states it, when not "N (full range)"
    const char* source = kTable18;
  } rows[] = {
      {"exp", MathF64::exp, {0x1p-60, 746, 746}, 1, 7},
      {"exp2", MathF64::exp2, {0x1p-60, 1076, 1076}, 1, 7},
      {"exp10", MathF64::exp10, {0x1p-60, 324, 324}, 1, 7},
      {"expm1", MathF64::expm1, {0x1p-60, 710, 40}, 1, 7},
      {"log", MathF64::log, {0x1p-1074, kDblMax, 0}, 1, 7},
      {"log2", MathF64::log2, {0x1p-1074, kDblMax, 0}, 1, 7},
      {"log10", MathF64::log10, {0x1p-1074, kDblMax, 0}, 1, 7},
      {"log1p", MathF64::log1p, {0x1p-1074, kDblMax, 0x1.fffffffffffffp-1}, 1, 7},
      {"sin", MathF64::sin, {0x1p-60, kDblMax, kDblMax}, 2, 7},
      {"cos", MathF64::cos, {0x1p-60, kDblMax, kDblMax}, 2, 7},
      {"tan", MathF64::tan, {0x1p-60, kDblMax, kDblMax}, 2, 7},
      {"sinpi", MathF64::sinpi, {0x1p-60, 0x1p60, 0x1p60}, 2, 7},
      {"cospi", MathF64::cospi, {0x1p-60, 0x1p60, 0x1p60}, 2, 7},
      {"asin", MathF64::asin, {0x1p-60, 1, 1}, 2, 7},
      {"acos", MathF64::acos, {0x1p-60, 1, 1}, 2, 7},
      {"atan", MathF64::atan, {0x1p-60, 0x1p60, 0x1p60}, 2, 7},
      {"sinh", MathF64::sinh, {0x1p-60, 711, 711}, 2, 7},
      {"cosh", MathF64::cosh, {0x1p-60, 711, 711}, 1, 7},
      {"tanh", MathF64::tanh, {0x1p-60, 40, 40}, 1, 7},
      {"asinh", MathF64::asinh, {0x1p-60, kDblMax, kDblMax}, 3, 7},
      {"acosh", MathF64::acosh, {1, kDblMax, 0}, 3, 7},
      {"atanh", MathF64::atanh, {0x1p-60, 1, 1}, 2, 7},
      {"erf", MathF64::erf, {0x1p-60, 8, 8}, 2, 7},
      {"erfc", MathF64::erfc, {0x1p-60, 28, 8}, 5, 7},
      {"cbrt", MathF64::cbrt, {0x1p-1074, kDblMax, kDblMax}, 1, 7},
      {"rcbrt", MathF64::rcbrt, {0x1p-1074, kDblMax, kDblMax}, 1, 7},
      {"sqrt", MathF64::sqrt, {0x1p-1074, kDblMax, 0}, 0, 7},
      {"rsqrt", MathF64::rsqrt, {0x1p-1074, kDblMax, 0}, 1, 7},
      {"tgamma", MathF64::tgamma, {0x1p-60, 172, 180}, 10, 7},
      // normcdf underflows near x = -38.5 and rounds to 1 above 8.3; lgamma's negative inputs
      // beyond 2^53 are all poles (integers); erfinv on (-1, 1); erfcinv on (0, 2), subnormal
      // arguments (results up to 27.3) included.
      {"normcdf", MathF64::normcdf, {0x1p-60, 40, 40}, 5, 7, "5 ULP", kTable55},
      {"lgamma",
       MathF64::lgamma,
       {0x1p-60, kDblMax, 0x1p53},
       4,
       7,
       "<= 4 ULP for x not in [-23.0001, -2.2637]; <= larger otherwise",
       kTable51},
      {"erfinv", MathF64::erfinv, {0x1p-60, 1, 1}, 5, 7, "5 ULP", kTable55},
      {"erfcinv", MathF64::erfcinv, {0x1p-1074, 2, 0}, 6, 7, "6 ULP", kTable55},
  };
  std::vector<ScalarMathF64> t;
  for (const auto& r : rows) {
    const std::string text = r.text         ? std::string(r.text)
                             : r.bound == 0 ? "0 (IEEE-754 round-to-nearest-even)"
                                            : fmt::format("{:.0f} (full range)", r.bound);
    t.push_back(ScalarMathF64{std::string("numeric.math.f64.") + r.name, r.name, MathF64Spec{r.fn, r.domain}, r.bound,
                              text, r.source, r.flag_log2});
    // lgamma: judged outside the closed interval the Guide names (the decimal ends rounded to
    // binary64); the maximum inside is recorded as the note outside_bound, never judged.
    if (r.fn == MathF64::lgamma) {
      t.back().unjudged_lo = -23.0001;
      t.back().unjudged_hi = -2.2637;
    }
  }
  return t;
}

double as_double(std::uint64_t x) {
  double d = 0;
  std::memcpy(&d, &x, sizeof d);
  return d;
}
std::uint64_t bits_of(double d) {
  std::uint64_t x = 0;
  std::memcpy(&x, &d, sizeof x);
  return x;
}
std::string f64_text(std::uint64_t x) { return fmt::format("0x{:016x} ({:.17g})", x, as_double(x)); }

constexpr long double kPiL = 3.141592653589793238462643383279502884L;

// sin(pi t) for t in [-1, 1] (exact binary64), folded to [-1/2, 1/2] where sinl is well
// conditioned (1 - |t| is exact by Sterbenz's lemma).
long double sinpi_reduced(double t) {
  if (t > 0.5) t = 1 - t;
  if (t < -0.5) t = -1 - t;
  if (t == 0) return 0.0L;
  return sinl(kPiL * t);
}

std::int64_t ordered(std::uint64_t b) {
  const std::int64_t mag = static_cast<std::int64_t>(b & ~f64::kSign);
  return (b & f64::kSign) ? -mag : mag;
}

// ulp of the binary64 grid at |v| (finite): 2^-1074 below 2^-1022.
long double grid_ulp(long double v) {
  v = fabsl(v);
  if (v < 0x1p-1022L) return 0x1p-1074L;
  const int e = ilogbl(v);
  return ldexpl(1.0L, (e > 1023 ? 1023 : e) - 52);
}

const ref::MathCall& call_of(const ScalarMathF64& row) {
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

}  // namespace

const std::vector<ScalarMathF64>& scalar_math_f64() {
  static const std::vector<ScalarMathF64> table = make_table();
  return table;
}

const ScalarMathF64* find_scalar_math_f64(std::string_view id) {
  for (const ScalarMathF64& r : scalar_math_f64())
    if (r.id == id) return &r;
  return nullptr;
}

std::string math_f64_description(const ScalarMathF64& row) {
  std::string text = row.name +
                     " (binary64) on 2^20 seeded inputs (2^24 with GPUCONFORM_SCALAR_LONG=1): the largest ulp "
                     "distance from the correctly rounded result";
  // lgamma: judged where the Guide's bound holds; the maximum elsewhere is a note.
  if (row.has_unjudged_range()) text += fmt::format(" outside [{}, {}]", row.unjudged_lo, row.unjudged_hi);
  return text;
}

std::uint64_t math_f64_input_count() {
  const char* v = std::getenv("GPUCONFORM_SCALAR_LONG");
  return std::uint64_t{1} << (v && std::string_view(v) == "1" ? 24 : 20);
}

long double math_f64_long_double(MathF64 fn, double x) {
  const long double X = x;
  switch (fn) {
    case MathF64::exp: return expl(X);
    case MathF64::exp2: return exp2l(X);
    case MathF64::exp10: return exp10l(X);
    case MathF64::expm1: return expm1l(X);
    case MathF64::log: return logl(X);
    case MathF64::log2: return log2l(X);
    case MathF64::log10: return log10l(X);
    case MathF64::log1p: return log1pl(X);
    case MathF64::sin: return sinl(X);
    case MathF64::cos: return cosl(X);
    case MathF64::tan: return tanl(X);
    case MathF64::sinpi: {
      if (!std::isfinite(x)) return std::numeric_limits<long double>::quiet_NaN();
      if (std::fabs(x) < 0x1p-1000) return kPiL * X;   // x / 2 would not be exact
      const double r = x - 2 * std::nearbyint(x / 2);  // exact, in [-1, 1]
      const long double s = sinpi_reduced(r);
      return s == 0 ? copysignl(0.0L, X) : s;
    }
    case MathF64::cospi: {
      if (!std::isfinite(x)) return std::numeric_limits<long double>::quiet_NaN();
      double r = std::fabs(x);
      if (r < 0x1p-1000) return 1.0L;
      r = r - 2 * std::nearbyint(r / 2);  // exact, in [-1, 1]
      r = std::fabs(r);
      // cos(pi r) = sin(pi (1/2 - r)); 1/2 - r is exact for r in [1/4, 1]; cosl is well
      // conditioned below 1/4.
      if (r < 0.25) return cosl(kPiL * r);
      const long double s = sinpi_reduced(0.5 - r);
      return s == 0 ? 0.0L : s;
    }
    case MathF64::asin: return asinl(X);
    case MathF64::acos: return acosl(X);
    case MathF64::atan: return atanl(X);
    case MathF64::sinh: return sinhl(X);
    case MathF64::cosh: return coshl(X);
    case MathF64::tanh: return tanhl(X);
    case MathF64::asinh: return asinhl(X);
    case MathF64::acosh: return acoshl(X);
    case MathF64::atanh: return atanhl(X);
    case MathF64::erf: return erfl(X);
    case MathF64::erfc: return erfcl(X);
    case MathF64::cbrt: return cbrtl(X);
    case MathF64::rcbrt: return 1.0L / cbrtl(X);
    case MathF64::sqrt: return sqrtl(X);
    case MathF64::rsqrt: return 1.0L / sqrtl(X);
    case MathF64::tgamma: return tgammal(X);
    case MathF64::normcdf: return normcdf_long_double(x);
    case MathF64::lgamma: {
      int sign = 0;  // the reentrant form: lgammal writes the global signgam on every core
      return lgammal_r(X, &sign);
    }
    case MathF64::erfinv: return erfinv_long_double(x);
    case MathF64::erfcinv: return erfcinv_long_double(x);
    case MathF64::count: break;
  }
  throw std::logic_error("math_f64_long_double: no such function");
}

long double midpoint_distance_f64(long double L) {
  const long double u = grid_ulp(L);
  const long double q = fabsl(L) / u;  // exact: u is a power of 2
  return fabsl(q - floorl(q) - 0.5L);
}

double ulp_distance_f64(std::uint64_t y, std::uint64_t cr) {
  const bool yn = f64::is_nan_bits(y), cn = f64::is_nan_bits(cr);
  if (yn || cn) return yn && cn ? 0.0 : 18446744073709551616.0;
  // In 128 bits: the difference of two 63-bit ordered codes overflows int64 across zero, and a
  // double would lose the last units of a 2^62-sized code.
  const __int128 d = static_cast<__int128>(ordered(y)) - ordered(cr);
  return static_cast<double>(d < 0 ? -d : d);
}

MathF64Decision decide_math_f64(const ScalarMathF64& row, std::uint64_t xb) {
  const double x = as_double(xb);
  const long double L = math_f64_long_double(row.spec.fn, x);
  const std::uint64_t first = bits_of(static_cast<double>(L));  // RN from extended to binary64
  // A NaN, an infinity, an exact zero or an exactly representable L (the function's exact
  // cases: exp(0), sqrt(4), log(1)) is taken as it is; else near a boundary MPFR decides.
  const bool special = std::isnan(L) || std::isinf(L) || L == 0;
  const bool representable = !special && static_cast<long double>(static_cast<double>(L)) == L;
  if (special || representable || midpoint_distance_f64(L) >= ldexpl(1.0L, -row.flag_log2))
    return {first, false, false, L};
  try {
    const std::uint64_t cr = ref::math_reference(call_of(row), ref::Rounding::kRNE, {xb}).bits;
    return {cr, true, cr != first, L};
  } catch (const std::exception&) {
    // The oracle's enclosure did not settle within its precision (f(x) closer to a midpoint
    // than 2^-140 ulp): no known binary64 function input is that close but an exact
    // midpoint, which L then represents exactly; keep L's rounding.
    return {first, true, false, L};
  }
}

namespace {

// One input's verdict into a thread's partial scan: the judged maximum and the real-valued
// error where the Guide's bound speaks, the unjudged maximum where it does not.
void account(const ScalarMathF64& row, MathF64Scan& s, std::uint64_t xb, std::uint64_t y) {
  const MathF64Decision d = decide_math_f64(row, xb);
  s.by_mpfr += d.by_mpfr;
  s.mpfr_differs += d.differs_from_long_double;
  const double dist = ulp_distance_f64(y, d.cr);
  if (!row.judged(as_double(xb))) {
    ++s.unjudged;
    if (dist > 1e18)
      ++s.nan_unjudged;
    else if (dist > s.worst_unjudged_ulp || (s.unjudged == 1 && dist == 0)) {
      s.worst_unjudged_ulp = dist;
      s.worst_unjudged_x = xb;
      s.worst_unjudged_y = y;
      s.worst_unjudged_cr = d.cr;
    }
    return;
  }
  if (dist > 1e18) {
    if (s.nan_mismatches++ == 0) s.first_nan_mismatch = xb;
    return;
  }
  if (dist > s.worst_ulp || (dist == s.worst_ulp && s.worst_x == 0 && s.worst_y == 0 && dist > 0)) {
    s.worst_ulp = dist;
    s.worst_x = xb;
    s.worst_y = y;
    s.worst_cr = d.cr;
  }
  const double yd = as_double(y);
  if (std::isfinite(yd) && std::isfinite(d.exact) && !f64::is_nan_bits(d.cr) && (d.cr & ~f64::kSign) != f64::kInf) {
    const long double real = fabsl(static_cast<long double>(yd) - d.exact) / grid_ulp(as_double(d.cr));
    if (static_cast<double>(real) > s.worst_real) {
      s.worst_real = static_cast<double>(real);
      s.worst_real_x = xb;
      s.worst_real_y = y;
    }
  }
}

void merge(MathF64Scan& all, const MathF64Scan& s) {
  all.by_mpfr += s.by_mpfr;
  all.mpfr_differs += s.mpfr_differs;
  if (s.nan_mismatches && !all.nan_mismatches) all.first_nan_mismatch = s.first_nan_mismatch;
  all.nan_mismatches += s.nan_mismatches;
  if (s.worst_ulp > all.worst_ulp) {
    all.worst_ulp = s.worst_ulp;
    all.worst_x = s.worst_x;
    all.worst_y = s.worst_y;
    all.worst_cr = s.worst_cr;
  }
  if (s.worst_real > all.worst_real) {
    all.worst_real = s.worst_real;
    all.worst_real_x = s.worst_real_x;
    all.worst_real_y = s.worst_real_y;
  }
  if (s.unjudged && (!all.unjudged || s.worst_unjudged_ulp > all.worst_unjudged_ulp)) {
    all.worst_unjudged_ulp = s.worst_unjudged_ulp;
    all.worst_unjudged_x = s.worst_unjudged_x;
    all.worst_unjudged_y = s.worst_unjudged_y;
    all.worst_unjudged_cr = s.worst_unjudged_cr;
  }
  all.unjudged += s.unjudged;
  all.nan_unjudged += s.nan_unjudged;
}

}  // namespace

MathF64Scan scan_math_f64(const ScalarMathF64& row, const std::vector<std::uint64_t>& ys) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = ys.size();
  const unsigned threads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  std::vector<MathF64Scan> part(threads);
  std::vector<std::thread> pool;
  std::vector<std::string> errors(threads);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        for (std::size_t i = t; i < n; i += threads) account(row, part[t], math_f64_input(row.spec, i), ys[i]);
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (std::thread& th : pool) th.join();
  for (const std::string& e : errors)
    if (!e.empty()) throw std::runtime_error(row.id + ": " + e);
  MathF64Scan all;
  all.compared = n;
  for (const MathF64Scan& s : part) merge(all, s);
  all.host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return all;
}

namespace {
// Where the bound does not speak: recorded, never judged (lgamma near its negative zeros).
std::string unjudged_note(const ScalarMathF64& row, const MathF64Scan& scan) {
  std::string text = fmt::format("where the bound does not speak (x in [{}, {}]): ", row.unjudged_lo, row.unjudged_hi);
  if (scan.unjudged == 0) return text + "no input there";
  text += fmt::format("{:.0f} ulp at x = {}: returned {}, correctly rounded {} ({} inputs)", scan.worst_unjudged_ulp,
                      f64_text(scan.worst_unjudged_x), f64_text(scan.worst_unjudged_y),
                      f64_text(scan.worst_unjudged_cr), scan.unjudged);
  if (scan.nan_unjudged > 0)
    text +=
        fmt::format("; {} of them return NaN where f(x) is a number or a number where it is NaN", scan.nan_unjudged);
  return text;
}
}  // namespace

Measurement math_f64_measurement(const ScalarMathF64& row, const MathF64Scan& scan) {
  Measurement m;
  m.unit = "ulp";
  m.compared = scan.compared;
  m.value = scan.nan_mismatches > 0 ? std::numeric_limits<double>::infinity() : scan.worst_ulp;
  m.note("function", row.name + " (binary64)");
  m.note("bound", fmt::format("{}: {} {}", row.bound_source, row.name, row.bound_text));
  m.note("worst_input", fmt::format("{:.0f} ulp at x = {}: returned {}, correctly rounded {}", scan.worst_ulp,
                                    f64_text(scan.worst_x), f64_text(scan.worst_y), f64_text(scan.worst_cr)));
  m.note("max_real_ulp_error", fmt::format("{:.4g} ulp at x = {} (returned {})", scan.worst_real,
                                           f64_text(scan.worst_real_x), f64_text(scan.worst_real_y)));
  m.note("flagged", fmt::format("{} of {} inputs within 2^-{} ulp of a binary64 rounding boundary in long double, "
                                "decided by MPFR; {} of them round otherwise than the long double value",
                                scan.by_mpfr, scan.compared, row.flag_log2, scan.mpfr_differs));
  m.note("inputs", fmt::format("{} seeded inputs (numerics/scalar_mathlib_f64.hpp math_f64_input: any bit pattern, "
                               "log-uniform over the domain, uniform in [-8, 8], {} directed cases)",
                               scan.compared, kMathF64SpecialCount));
  if (scan.nan_mismatches > 0) {
    const std::string why = fmt::format(
        "{} inputs return NaN where f(x) is a number or a number where it is NaN; "
        "first x = {}",
        scan.nan_mismatches, f64_text(scan.first_nan_mismatch));
    m.note("nan_mismatches", why + " (the value is +inf)");
    m.note("violations", why);
  }
  if (row.has_unjudged_range()) m.note("outside_bound", unjudged_note(row, scan));
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  m.note("host_ms", fmt::format("{:.1f}", scan.host_ms));
  return m;
}

}  // namespace gpuconform::numerics
