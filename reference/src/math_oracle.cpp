// SPDX-License-Identifier: Apache-2.0
// The function table and the enclosure loop of math_oracle.hpp.
#include "gpuconform/reference/math_oracle.hpp"

#include <mpfr.h>

#include <array>
#include <stdexcept>

#include "gpuconform/reference/mpfr_format.hpp"
#include "math_oracle_inverse.hpp"

namespace gpuconform::ref {

// Sets y to f(a[, b]) rounded in direction d at y's precision. MPFR's own functions are
// correctly rounded, so RNDD and RNDU give an enclosure; a composed one encloses by
// monotonicity (normcdf).
using Evaluate = void (*)(mpfr_t y, const mpfr_t a, const mpfr_t b, mpfr_rnd_t d);

struct MathFunction {
  std::string_view name;  // binary64 C name
  int arity;
  Evaluate evaluate;
};

namespace {

template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)>
void unary(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) {
  F(y, a, d);
}
template <int (*F)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t)>
void binary(mpfr_t y, const mpfr_t a, const mpfr_t b, mpfr_rnd_t d) {
  F(y, a, b, d);
}

void lgamma_abs(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) {
  int sign = 0;  // lgamma is log|gamma(x)|: the sign is not part of the result
  mpfr_lgamma(y, &sign, a, d);
}
void rcbrt(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) { mpfr_rootn_si(y, a, -3, d); }
// 1/x (__frcp_rn, numeric.math.intrinsic.frcp_rn): no C name, "rcp" as PTX calls it.
void rcp(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) { mpfr_ui_div(y, 1, a, d); }
// MPFR has no inverse error function: a proven root of erf/erfc (math_oracle_inverse.cpp).
void erfinv(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) { detail::erfinv_bound(y, a, d); }
void erfcinv(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) { detail::erfcinv_bound(y, a, d); }

// normcdf(x) = erfc(-x / sqrt 2) / 2, increasing in x: the lower end uses the largest
// u = -x / sqrt 2 the rounding allows (erfc decreases), the upper end the smallest.
void normcdf(mpfr_t y, const mpfr_t a, const mpfr_t, mpfr_rnd_t d) {
  const mpfr_prec_t p = mpfr_get_prec(y) + 32;
  mpfr_t sqrt2, u;
  mpfr_inits2(p, sqrt2, u, static_cast<mpfr_ptr>(nullptr));
  const bool want_upper = d == MPFR_RNDU;
  // want_upper: u as small as possible (round u down), else as large as possible.
  const mpfr_rnd_t u_dir = want_upper ? MPFR_RNDD : MPFR_RNDU;
  mpfr_neg(u, a, MPFR_RNDN);  // exact
  // |u| / sqrt2 shrinks as sqrt2 grows: a positive u rounds down with sqrt2 rounded up.
  const bool u_positive = mpfr_sgn(u) > 0;
  const mpfr_rnd_t s_dir = (u_positive == (u_dir == MPFR_RNDD)) ? MPFR_RNDU : MPFR_RNDD;
  mpfr_sqrt_ui(sqrt2, 2, s_dir);
  mpfr_div(u, u, sqrt2, u_dir);
  mpfr_erfc(y, u, d);
  mpfr_div_2ui(y, y, 1, d);  // exact
  mpfr_clears(sqrt2, u, static_cast<mpfr_ptr>(nullptr));
}

// The CUDA math library's binary64 functions that MPFR computes (erfinv and erfcinv as
// proven roots of MPFR's erf and erfc).
const std::array<MathFunction, 43> kFunctions{{
    {"exp", 1, unary<mpfr_exp>},      {"exp2", 1, unary<mpfr_exp2>},
    {"exp10", 1, unary<mpfr_exp10>},  {"expm1", 1, unary<mpfr_expm1>},
    {"log", 1, unary<mpfr_log>},      {"log2", 1, unary<mpfr_log2>},
    {"log10", 1, unary<mpfr_log10>},  {"log1p", 1, unary<mpfr_log1p>},
    {"sin", 1, unary<mpfr_sin>},      {"cos", 1, unary<mpfr_cos>},
    {"tan", 1, unary<mpfr_tan>},      {"sinpi", 1, unary<mpfr_sinpi>},
    {"cospi", 1, unary<mpfr_cospi>},  {"asin", 1, unary<mpfr_asin>},
    {"acos", 1, unary<mpfr_acos>},    {"atan", 1, unary<mpfr_atan>},
    {"sinh", 1, unary<mpfr_sinh>},    {"cosh", 1, unary<mpfr_cosh>},
    {"tanh", 1, unary<mpfr_tanh>},    {"asinh", 1, unary<mpfr_asinh>},
    {"acosh", 1, unary<mpfr_acosh>},  {"atanh", 1, unary<mpfr_atanh>},
    {"erf", 1, unary<mpfr_erf>},      {"erfc", 1, unary<mpfr_erfc>},
    {"lgamma", 1, lgamma_abs},        {"tgamma", 1, unary<mpfr_gamma>},
    {"cbrt", 1, unary<mpfr_cbrt>},    {"rcbrt", 1, rcbrt},
    {"sqrt", 1, unary<mpfr_sqrt>},    {"rsqrt", 1, unary<mpfr_rec_sqrt>},
    {"normcdf", 1, normcdf},          {"pow", 2, binary<mpfr_pow>},
    {"atan2", 2, binary<mpfr_atan2>}, {"hypot", 2, binary<mpfr_hypot>},
    {"fmod", 2, binary<mpfr_fmod>},   {"remainder", 2, binary<mpfr_remainder>},
    {"fdim", 2, binary<mpfr_dim>},    {"fmax", 2, binary<mpfr_max>},
    {"fmin", 2, binary<mpfr_min>},    {"erfinv", 1, erfinv},
    {"erfcinv", 1, erfcinv},          {"rcp", 1, rcp},
    {"div", 2, binary<mpfr_div>},  // x / y (__fdiv_rn, numeric.math.intrinsic.fdiv_rn)
}};

mpfr_rnd_t mpfr_direction(Rounding r) {
  switch (r) {
    case Rounding::kRZ: return MPFR_RNDZ;
    case Rounding::kRU: return MPFR_RNDU;
    case Rounding::kRD: return MPFR_RNDD;
    case Rounding::kRNA: return MPFR_RNDNA;
    case Rounding::kRNE: break;
  }
  return MPFR_RNDN;
}

std::string forty_digits(const mpfr_t x) {
  if (mpfr_nan_p(x)) return "nan";
  if (mpfr_inf_p(x)) return mpfr_signbit(x) ? "-inf" : "inf";
  if (mpfr_zero_p(x)) return mpfr_signbit(x) ? "-0" : "0";
  char buf[96];
  mpfr_snprintf(buf, sizeof buf, "%.39Re", x);  // 1 + 39 digits
  return buf;
}

constexpr mpfr_prec_t kFirstPrecision = 192;  // > 40 decimal digits
constexpr mpfr_prec_t kLastPrecision = 1 << 16;

// x rounded to f in direction r. round_to_format takes at most 200 bits; an enclosure end of
// more (atan2 of a subnormal y over x = 2: y / 2 a binary32 midpoint, atan2 below it by a
// relative 2^-250) is first rounded to odd at kOddPrecision bits, which rounds on to any format
// of at most kOddPrecision - 2 bits, in every direction, as x itself does.
constexpr mpfr_prec_t kOddPrecision = 128;
std::uint64_t round_end(const FloatFormat& f, const mpfr_t x, Rounding r) {
  if (mpfr_get_prec(x) <= 200 || !mpfr_regular_p(x)) return mpfr::round_to_format(f, x, r);
  mpfr_t odd;
  mpfr_init2(odd, kOddPrecision);
  // Toward zero, then the last bit set where that was inexact: an even result moves one ulp
  // away from zero (no exponent bound is near: MPFR's range is far wider than any format's).
  if (mpfr_set(odd, x, MPFR_RNDZ) != 0 && mpfr_min_prec(odd) < kOddPrecision) {
    if (mpfr_sgn(odd) > 0)
      mpfr_nextabove(odd);
    else
      mpfr_nextbelow(odd);
  }
  const std::uint64_t bits = mpfr::round_to_format(f, odd, r);
  mpfr_clear(odd);
  return bits;
}

}  // namespace

int MathCall::arity() const { return function ? function->arity : 0; }

bool math_reference_thread_safe() { return mpfr_buildopt_tls_p() != 0; }

std::optional<MathCall> find_math_function(std::string_view name) {
  for (const MathFunction& f : kFunctions)
    if (f.name == name) return MathCall{&f, &kFp64, std::string(name)};
  if (!name.empty() && name.back() == 'f') {
    const std::string_view base = name.substr(0, name.size() - 1);
    for (const MathFunction& f : kFunctions)
      if (f.name == base) return MathCall{&f, &kFp32, std::string(name)};
  }
  return std::nullopt;
}

std::vector<std::string_view> math_function_names() {
  std::vector<std::string_view> names;
  for (const MathFunction& f : kFunctions) names.push_back(f.name);
  return names;
}

MathResult math_reference(const MathCall& call, Rounding r, const std::vector<std::uint64_t>& args) {
  if (!call.function || !call.format) throw std::invalid_argument("math_reference: no function");
  if (static_cast<int>(args.size()) != call.arity())
    throw std::invalid_argument(call.name + " takes " + std::to_string(call.arity()) + " argument(s), got " +
                                std::to_string(args.size()));
  const FloatFormat& f = *call.format;
  mpfr_t a, b;
  mpfr_inits2(f.man_bits + 1, a, b, static_cast<mpfr_ptr>(nullptr));  // exact inputs
  mpfr::set_from_bits(a, f, args[0]);
  mpfr::set_from_bits(b, f, args.size() > 1 ? args[1] : 0);
  MathResult out;
  for (mpfr_prec_t p = kFirstPrecision; p <= kLastPrecision; p *= 2) {
    mpfr_t lo, hi;
    mpfr_inits2(p, lo, hi, static_cast<mpfr_ptr>(nullptr));
    call.function->evaluate(lo, a, b, MPFR_RNDD);
    call.function->evaluate(hi, a, b, MPFR_RNDU);
    const std::uint64_t lo_bits = round_end(f, lo, r);
    const std::uint64_t hi_bits = round_end(f, hi, r);
    const bool decided = lo_bits == hi_bits || (mpfr_nan_p(lo) && mpfr_nan_p(hi));
    if (decided) {
      out.bits = lo_bits;
      out.exact = forty_digits(mpfr_equal_p(lo, hi) || mpfr_nan_p(lo) ? lo : hi);
      mpfr_t back;
      mpfr_init2(back, f.man_bits + 1);
      mpfr::set_from_bits(back, f, lo_bits);
      out.exact_is_representable = mpfr_equal_p(lo, hi) && mpfr_equal_p(back, lo);
      mpfr_clear(back);
    }
    mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
    if (decided) break;
    if (p * 2 > kLastPrecision)
      throw std::runtime_error(call.name + ": the enclosure did not decide the rounding at " +
                               std::to_string(p) + " bits (an exact value on a rounding boundary the table "
                               "does not compute exactly)");
  }
  mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
  return out;
}

}  // namespace gpuconform::ref
