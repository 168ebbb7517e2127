// SPDX-License-Identifier: Apache-2.0
// erfinv and erfcinv for math_oracle.cpp (private header). MPFR has no inverse error
// function, so each is the root y of erf(y) = x (or erfc(y) = c), found by Newton's method
// and then PROVEN: a bound is returned only once MPFR's directed erf/erfc show
// erf(lo) <= x <= erf(hi) (monotonicity), so the oracle's enclosure loop stays a proof.
#pragma once

#include <mpfr.h>

namespace gpuconform::ref::detail {

// y = a lower (d = MPFR_RNDD) or upper (d = MPFR_RNDU) bound of erfinv(a) at y's precision;
// the exact special values (+-0, +-inf, NaN) whatever d.
void erfinv_bound(mpfr_t y, const mpfr_t a, mpfr_rnd_t d);
// The same for erfcinv(a): +inf at 0, -inf at 2, +0 at 1, NaN outside [0, 2].
void erfcinv_bound(mpfr_t y, const mpfr_t a, mpfr_rnd_t d);

}  // namespace gpuconform::ref::detail
