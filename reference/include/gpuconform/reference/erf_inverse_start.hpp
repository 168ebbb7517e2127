// SPDX-License-Identifier: Apache-2.0
#pragma once
// The binary64 start both inverse-erf references refine: the long double Newton of
// numeric.math.f64.{erfinv,erfcinv} (numerics/src/scalar_mathlib_f64_special.cpp) and the
// MPFR oracle's proven enclosure (reference/src/math_oracle_inverse.cpp).

namespace gpuconform::ref {

// The binary64 y >= 0 nearest below where erf(y) (erfc(y) with `complement`) crosses t, by
// bisection over the bit patterns of the non-negative doubles, which order as their values:
// at most 64 halvings on the C library's erf/erfc, and monotonic, so it cannot diverge
// whatever t is. erfc(30) < 2^-1300: every positive target's root lies below 30.
double erf_inverse_start(bool complement, double t);

}  // namespace gpuconform::ref
