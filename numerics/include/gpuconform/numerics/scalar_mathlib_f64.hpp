// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.math.f64.<fn>: the CUDA math library's binary64 univariate functions (exp, log, sin,
// erfc, tgamma, ...) on seeded random inputs spread over each function's domain plus directed
// cases (kernels/numeric/scalar_f64_math.cu), measured as the CUDA C++ Programming Guide states
// its bounds: the integer distance in ulps between the returned result and the correctly
// rounded one (round to nearest even), the real-valued error |y - f(x)| / ulp beside it.
//
// No wider format exists on the GPU, so the reference is decided on the host, in two passes:
// 1. the x87 long double (64-bit significand) libm value L of f(x) (glibc's expl, sinl, ...;
//    sinpi and cospi reduced exactly in binary64 first, rsqrt and rcbrt as 1/sqrtl and
//    1/cbrtl; normcdf, erfinv and erfcinv composed from erfcl/erfl in
//    scalar_mathlib_f64_special.cpp) rounded to binary64: the correctly rounded result unless f(x) lies within
//    glibc's long double error (a few long double ulps = a few 2^-11 binary64 ulps) of a
//    binary64 rounding boundary;
// 2. inputs whose L lies within 2^-flag_log2 binary64 ulps of a boundary (16 long double
//    ulps) are decided by MPFR (reference/math_oracle.hpp), so every reported
//    distance is exact given that margin. tests/unit/numerics/scalar_mathlib_f64_test.cpp
//    checks, against MPFR, that L stays within the margin of f(x) for every function.
// The GPU only evaluates f and returns y; the inputs are a pure function of (function, i),
// regenerated on the host.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/scalar_arith.hpp"  // mix64
#include "gpuconform/numerics/scalar_f64_round.hpp"

namespace gpuconform::numerics {

// The functions, in table order (the kernel's switch and the host's long double pass).
enum class MathF64 : std::uint8_t {
  exp,
  exp2,
  exp10,
  expm1,
  log,
  log2,
  log10,
  log1p,
  sin,
  cos,
  tan,
  sinpi,
  cospi,
  asin,
  acos,
  atan,
  sinh,
  cosh,
  tanh,
  asinh,
  acosh,
  atanh,
  erf,
  erfc,
  cbrt,
  rcbrt,
  sqrt,
  rsqrt,
  tgamma,
  // Appended (the seeds of the rows above depend on their position): functions whose
  // Guide bound is read from the current Programming Guide's tables (make_table).
  normcdf,
  lgamma,
  erfinv,
  erfcinv,
  count
};

// Where a function's inputs are drawn: magnitudes log-uniform in [min_mag, max_mag] (and
// [min_mag, neg_max_mag] for negative inputs, none when neg_max_mag is 0).
struct MathF64Domain {
  double min_mag, max_mag, neg_max_mag;
};

struct MathF64Spec {
  MathF64 fn;
  MathF64Domain domain;
};

inline constexpr int kMathF64SpecialCount = 28;
GC_SCALAR_HD std::uint64_t math_f64_special(int k) {
  const std::uint64_t table[kMathF64SpecialCount] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3fe0000000000000ull,
      0xbfe0000000000000ull, 0x4000000000000000ull, 0x0000000000000001ull, 0x000fffffffffffffull,
      0x0010000000000000ull, 0x7fefffffffffffffull, 0x400921fb54442d18ull, 0x3ff921fb54442d18ull,
      0x3fefffffffffffffull, 0x3ff0000000000001ull, 0x40862e42fefa39efull, 0xc0874910d52d3051ull,  // exp edges
      0x3e10000000000000ull, 0xbe10000000000000ull, 0x4090000000000000ull, 0xc086232bdd7abcd2ull,
      0x4065800000000000ull, 0x403b000000000000ull, 0x3ff8000000000000ull, 0xc00c000000000000ull};
  return table[k];
}

// Input i of a function (class i % 4: 0 any bit pattern, 1 log-uniform over the domain, 2
// uniform in [-8, 8] clipped to the domain, 3 the specials table then log-uniform again).
GC_SCALAR_HD std::uint64_t math_f64_input(const MathF64Spec& s, std::uint64_t i) {
  const std::uint64_t h1 = mix64(i ^ (0x243f6a8885a308d3ull * (static_cast<std::uint64_t>(s.fn) + 1))), h2 = mix64(h1);
  const int klass = static_cast<int>(i % 4);
  if (klass == 0) return h1;
  if (klass == 3 && i / 4 < kMathF64SpecialCount) return math_f64_special(static_cast<int>(i / 4));
  const bool negative = s.domain.neg_max_mag > 0 && (h2 >> 63) != 0;
  const double top = negative ? s.domain.neg_max_mag : s.domain.max_mag;
  double x = 0;
  if (klass == 2) {
    const double lim = top < 8 ? top : 8;
    x = lim * static_cast<double>(h1 >> 11) * 0x1p-53;
    if (x < s.domain.min_mag) x = s.domain.min_mag;
  } else {
    // log2 of the magnitude uniform in [log2 min, log2 top]: exponent then significand.
    const f64::Normal lo = f64::normalise(f64::bits(s.domain.min_mag)), hi = f64::normalise(f64::bits(top));
    const int elo = lo.exp + 52, ehi = hi.exp + 52;
    const int e = elo + static_cast<int>((h2 >> 20) % static_cast<std::uint64_t>(ehi - elo + 1));
    const std::uint64_t sig = (std::uint64_t{1} << 52) | (h1 & 0xfffffffffffffull);
    x = e < -1022 ? f64::from_bits(sig >> (-1022 - e)) : f64::compose(false, sig, e - 52);
    if (x > top) x = top;
    if (x < s.domain.min_mag) x = s.domain.min_mag;
  }
  return f64::bits(negative ? -x : x);
}

// One row of the table (numerics/src/scalar_mathlib_f64.cpp).
struct ScalarMathF64 {
  std::string id;    // "numeric.math.f64.exp"
  std::string name;  // "exp" (the math_oracle name)
  MathF64Spec spec;
  double bound;              // the Programming Guide's maximum ulp error
  std::string bound_text;    // as the Guide's table states it
  std::string bound_source;  // the table the bound is read from (the measurement's bound note)
  int flag_log2;             // inputs within 2^-flag_log2 binary64 ulps of a boundary go to MPFR
  // Where the Guide's bound does not speak (lgamma: "4 ULP for x not in [-23.0001, -2.2637],
  // larger otherwise"): inputs in [unjudged_lo, unjudged_hi] are measured but not judged, their
  // maximum a note (outside_bound). Empty (lo > hi) for a full-range bound.
  double unjudged_lo = 1, unjudged_hi = 0;
  bool judged(double x) const { return !(x >= unjudged_lo && x <= unjudged_hi); }
  bool has_unjudged_range() const { return unjudged_lo <= unjudged_hi; }
};
const std::vector<ScalarMathF64>& scalar_math_f64();
const ScalarMathF64* find_scalar_math_f64(std::string_view id);
// The probe's description (gpuconform list): what it measures, and where it judges.
std::string math_f64_description(const ScalarMathF64& row);

// Inputs per probe: 2^20 at the standard level, 2^24 with GPUCONFORM_SCALAR_LONG=1 (the
// probe cannot see the run level; tools/device/scalar_f64_batch.sh sets it for --level long).
std::uint64_t math_f64_input_count();

// The long double first pass for one input: L = f(x) in x87 extended precision.
long double math_f64_long_double(MathF64 fn, double x);

// The composed first passes (scalar_mathlib_f64_special.cpp), each within a few long double
// ulps of f(x) (the margin test checks them against MPFR):
//   normcdf(x) = erfc(-x / sqrt 2) / 2 with -x / sqrt 2 carried in two long doubles, since
//     erfc amplifies an argument error by 2 u^2 (about 1500 at the underflow near x = -38.5);
//   erfinv, erfcinv: Newton in long double on erfl (|target| < 1/2) or on log erfcl (the
//     target's complement, exact by Sterbenz's lemma) from a bisection start.
long double normcdf_long_double(double x);
long double erfinv_long_double(double x);
long double erfcinv_long_double(double c);

// What the host decided for one input: the correctly rounded binary64 result, and whether
// MPFR had to decide it (L within the margin of a boundary).
struct MathF64Decision {
  std::uint64_t cr;
  bool by_mpfr;
  bool differs_from_long_double;  // MPFR's result is not L rounded to binary64
  long double exact;              // L (for the real-valued error)
};
MathF64Decision decide_math_f64(const ScalarMathF64& row, std::uint64_t x);

// The distance of L from the nearest binary64 rounding boundary, in binary64 ulps (0.5 at a
// representable value); overflow's threshold counts as a boundary.
long double midpoint_distance_f64(long double L);

// The integer distance in ulps between binary64 results (NaN against NaN 0, NaN against a
// number 2^64: beyond any bound; +0 and -0 are one value).
double ulp_distance_f64(std::uint64_t y, std::uint64_t cr);

// What one scan found (host side, from the GPU's results).
struct MathF64Scan {
  std::uint64_t compared = 0;
  double worst_ulp = 0;
  std::uint64_t worst_x = 0, worst_y = 0, worst_cr = 0;
  double worst_real = 0;
  std::uint64_t worst_real_x = 0, worst_real_y = 0;
  std::uint64_t by_mpfr = 0, mpfr_differs = 0;
  std::uint64_t nan_mismatches = 0, first_nan_mismatch = 0;
  // Inputs where the bound does not speak (ScalarMathF64::judged false): never in the value.
  std::uint64_t unjudged = 0;
  double worst_unjudged_ulp = 0;
  std::uint64_t worst_unjudged_x = 0, worst_unjudged_y = 0, worst_unjudged_cr = 0;
  std::uint64_t nan_unjudged = 0;
  double gpu_ms = 0, host_ms = 0;
};
// Decides every result ys[i] of inputs 0..n-1 on every core.
MathF64Scan scan_math_f64(const ScalarMathF64& row, const std::vector<std::uint64_t>& ys);

// value = the largest integer ulp distance where the bound speaks (unit "ulp", +inf on a NaN
// mismatch there); notes: function, bound, worst_input, max_real_ulp_error, flagged (decided
// by MPFR), outside_bound (the maximum where the bound does not speak), gpu_ms, host_ms.
Measurement math_f64_measurement(const ScalarMathF64& row, const MathF64Scan& scan);

}  // namespace gpuconform::numerics
