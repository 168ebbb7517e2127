// SPDX-License-Identifier: Apache-2.0
// The long double first pass of numeric.math.f64.{normcdf,erfinv,erfcinv} (declared in
// scalar_mathlib_f64.hpp): glibc has no erfinvl or normcdfl, and the obvious compositions
// lose more than the decider's margin (2^-7 binary64 ulps = 16 long double ulps), so each is
// composed so that its error stays a few long double ulps:
//   normcdf: erfc(u) / 2 at u = -x / sqrt 2. Rounding u to one long double would be amplified
//     by erfc's condition number 2 u^2 (to 2^-53.5 relative at u = 27), so u = u_hi + u_lo
//     exactly enough (fmal gives the product's rounding error exactly) and erfc(u_hi + u_lo) =
//     erfc(u_hi) - u_lo 2/sqrt(pi) exp(-u_hi^2) (the next term is below 2^-120 relative);
//   erfinv/erfcinv: Newton in long double on erfl (target below 1/2) or log erfcl (the
//     target's complement, exact in binary64 by Sterbenz's lemma) from a bisection start,
//     so that near |x| = 1 the root is solved on erfc's small values, not on 1 - erf's
//     cancellation (math_oracle_inverse.cpp reduces the same way for the MPFR decision).
#include <cmath>
#include <limits>

#include "gpuconform/numerics/scalar_mathlib_f64.hpp"
#include "gpuconform/reference/erf_inverse_start.hpp"

namespace gpuconform::numerics {
namespace {

constexpr long double kNaN = std::numeric_limits<long double>::quiet_NaN();
constexpr long double kInf = std::numeric_limits<long double>::infinity();
constexpr long double kTwoOverSqrtPi = 1.128379167095512573896158903121545172L;
// 1/sqrt(2) = kRsqrt2Hi + kRsqrt2Lo: the first 64 bits, then the next 64 (mpmath at 300 bits).
constexpr long double kRsqrt2Hi = 0xb504f333f9de6484p-64L;
constexpr long double kRsqrt2Lo = 0xb2fb1366ea957d3ep-129L;

enum class Fn { erf, erfc };

// The positive root of F(y) = t (t in (0, 1/2) for erf, (0, 1/2] for erfc) by Newton in long
// double from the bisection start. On erfc the step solves log(erfc(y) / t) = 0, whose slope
// -2/sqrt(pi) exp(-y^2) / erfc(y) is about -2y: nearly linear in y, so it converges from a
// start that std::erfc's subnormal results (t below 2^-1022, y above 26.5) leave a few
// hundredths off, where Newton on erfc itself would crawl. Stops once a step no longer moves
// y beyond 2^-58 relative: quadratic convergence leaves the iterate then within the long
// double rounding noise (at most 12 steps; from a binary64-accurate start, one or two).
long double positive_root(Fn f, double t) {
  long double y = ref::erf_inverse_start(f == Fn::erfc, t);
  for (int it = 0; it < 12; ++it) {
    const long double gauss = kTwoOverSqrtPi * expl(-y * y);
    long double step = 0;
    if (f == Fn::erf) {
      step = (erfl(y) - t) / gauss;
    } else {
      const long double e = erfcl(y);
      step = -log1pl((e - t) / t) * e / gauss;  // log(e / t) / (d/dy log erfc(y))
    }
    y -= step;
    if (fabsl(step) <= ldexpl(y, -58)) break;  // the next step would be below the rounding noise
  }
  return y;
}

// erfcinv(c) for c in (0, 1]: erf(y) = 1 - c (exact for c >= 1/2) above 1/2, erfc(y) = c below.
long double erfcinv_upper_half(double c) {
  return c > 0.5 ? positive_root(Fn::erf, 1.0 - c) : positive_root(Fn::erfc, c);
}

}  // namespace

long double normcdf_long_double(double x) {
  if (std::isnan(x)) return kNaN;
  if (std::isinf(x)) return x > 0 ? 1.0L : 0.0L;
  const long double X = x;
  const long double p_hi = X * kRsqrt2Hi;
  const long double p_lo = fmal(X, kRsqrt2Hi, -p_hi) + X * kRsqrt2Lo;  // x/sqrt2 = p_hi + p_lo
  const long double u_hi = -p_hi, u_lo = -p_lo;
  const long double e = erfcl(u_hi) - u_lo * kTwoOverSqrtPi * expl(-u_hi * u_hi);
  return e / 2;
}

long double erfinv_long_double(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return kNaN;
  if (x == 0) return x;  // keeps the sign of zero
  if (std::fabs(x) == 1) return x > 0 ? kInf : -kInf;
  const double t = std::fabs(x);
  const long double y = t < 0.5 ? positive_root(Fn::erf, t) : positive_root(Fn::erfc, 1.0 - t);
  return x < 0 ? -y : y;
}

long double erfcinv_long_double(double c) {
  if (std::isnan(c) || c < 0 || c > 2) return kNaN;
  if (c == 0) return kInf;
  if (c == 2) return -kInf;
  if (c == 1) return 0.0L;
  return c > 1 ? -erfcinv_upper_half(2.0 - c) : erfcinv_upper_half(c);  // 2 - c exact (Sterbenz)
}

}  // namespace gpuconform::numerics
