// SPDX-License-Identifier: Apache-2.0
// erfinv / erfcinv as proven enclosures (math_oracle_inverse.hpp). Both reduce to a positive
// root: erfinv(x) = sign(x) * y with erf(y) = |x| for |x| < 1/2 and erfc(y) = 1 - |x| (exact)
// above, so that near |x| = 1 the equation is solved on erfc's small values, not on erf's
// cancellation; erfcinv(c) = -erfcinv(2 - c) for c > 1 (2 - c exact). The root:
//   1. a binary64 start by bisection over the ordered doubles on the C library's erf/erfc
//      (monotonic, so it cannot diverge whatever the target);
//   2. Newton in MPFR, its precision doubling up to the requested + 24 bits, until the step
//      is negligible;
//   3. proof: lo = y - delta, hi = y + delta with MPFR's directed erf/erfc on either side of
//      the target (delta widened 256-fold up to four times if Newton stopped short).
// The last input's bounds are cached per thread: the oracle asks for RNDD then RNDU.
#include "math_oracle_inverse.hpp"
#include "gpuconform/reference/erf_inverse_start.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpuconform::ref::detail {
namespace {

enum class Fn { erf, erfc };

void evaluate(Fn f, mpfr_t out, const mpfr_t y, mpfr_rnd_t d) {
  if (f == Fn::erf)
    mpfr_erf(out, y, d);
  else
    mpfr_erfc(out, y, d);
}

// lo <= root <= hi, proven: F(lo) and F(hi) lie on the two sides of t in directed rounding.
bool encloses(Fn f, const mpfr_t lo, const mpfr_t hi, const mpfr_t t, mpfr_prec_t w) {
  mpfr_t v;
  mpfr_init2(v, w);
  bool ok = false;
  if (f == Fn::erf) {  // increasing: erf(lo) <= t <= erf(hi)
    mpfr_erf(v, lo, MPFR_RNDU);
    ok = mpfr_lessequal_p(v, t);
    mpfr_erf(v, hi, MPFR_RNDD);
    ok = ok && mpfr_greaterequal_p(v, t);
  } else {  // decreasing: erfc(lo) >= t >= erfc(hi)
    mpfr_erfc(v, lo, MPFR_RNDD);
    ok = mpfr_greaterequal_p(v, t);
    mpfr_erfc(v, hi, MPFR_RNDU);
    ok = ok && mpfr_lessequal_p(v, t);
  }
  mpfr_clear(v);
  return ok;
}

// lo, hi (precision w = p + 24) enclosing the positive root of F(y) = t, t in (0, 1).
// Newton doubles its working precision from the binary64 start's 53 bits up to w: erfc of a
// large argument costs a millisecond at 256 bits in MPFR (erfcinvf near 0), so the early,
// inexact steps run at the precision their result can have.
void root(Fn f, const mpfr_t t, mpfr_prec_t p, mpfr_t lo, mpfr_t hi) {
  const mpfr_prec_t w = p + 24;
  mpfr_t y, v, dv, step;
  mpfr_inits2(w, y, v, dv, step, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_d(y, erf_inverse_start(f == Fn::erfc, mpfr_get_d(t, MPFR_RNDN)), MPFR_RNDN);
  if (mpfr_zero_p(y)) mpfr_set_d(y, 1e-300, MPFR_RNDN);  // a start at 0 has no exponent
  mpfr_prec_t q = 53;
  for (int it = 0; it < 64; ++it) {
    q = std::min<mpfr_prec_t>(w, 2 * q);
    mpfr_set_prec(v, q);
    mpfr_set_prec(dv, q);
    mpfr_set_prec(step, q);
    evaluate(f, v, y, MPFR_RNDN);
    mpfr_sub(v, v, t, MPFR_RNDN);  // residual
    mpfr_sqr(dv, y, MPFR_RNDN);    // F'(y) = +-2/sqrt(pi) exp(-y^2)
    mpfr_neg(dv, dv, MPFR_RNDN);
    mpfr_exp(dv, dv, MPFR_RNDN);
    mpfr_const_pi(step, MPFR_RNDN);
    mpfr_sqrt(step, step, MPFR_RNDN);
    mpfr_div(dv, dv, step, MPFR_RNDN);
    mpfr_mul_2ui(dv, dv, 1, MPFR_RNDN);
    if (f == Fn::erfc) mpfr_neg(dv, dv, MPFR_RNDN);
    mpfr_div(step, v, dv, MPFR_RNDN);
    mpfr_sub(y, y, step, MPFR_RNDN);  // y keeps precision w
    if (q == w && (mpfr_zero_p(step) || mpfr_get_exp(step) < mpfr_get_exp(y) - w + 8)) break;
  }
  mpfr_set_prec(step, w);
  // The tiniest delta that the bounds' precision p still resolves, then wider.
  bool ok = false;
  for (int widen = 0; widen < 5 && !ok; ++widen) {
    mpfr_set_ui_2exp(step, 1, mpfr_get_exp(y) - p - 4 + 8 * widen, MPFR_RNDN);
    mpfr_set_prec(lo, w);
    mpfr_set_prec(hi, w);
    mpfr_sub(lo, y, step, MPFR_RNDD);
    mpfr_add(hi, y, step, MPFR_RNDU);
    if (mpfr_sgn(lo) < 0) mpfr_set_zero(lo, 1);  // the root is positive
    ok = encloses(f, lo, hi, t, w);
  }
  mpfr_clears(y, v, dv, step, static_cast<mpfr_ptr>(nullptr));
  if (!ok) throw std::runtime_error("math_oracle: the inverse error function's root could not be enclosed");
}

// The cache: function, target, precision of the last call in this thread and its bounds.
struct Cache {
  Fn f = Fn::erf;
  mpfr_prec_t p = 0;
  mpfr_t t, lo, hi;
  Cache() { mpfr_inits2(64, t, lo, hi, static_cast<mpfr_ptr>(nullptr)); }
  ~Cache() { mpfr_clears(t, lo, hi, static_cast<mpfr_ptr>(nullptr)); }
};

// out = the RNDD (lower) or RNDU (upper) bound of the positive root of F(y) = t; negate:
// the root's sign is flipped afterwards (a lower bound of -Y is minus an upper bound of Y).
void positive_root_bound(Fn f, mpfr_t out, const mpfr_t t, mpfr_rnd_t d, bool negate) {
  thread_local Cache c;
  const mpfr_prec_t p = mpfr_get_prec(out);
  if (!(c.p == p && c.f == f && mpfr_equal_p(c.t, t))) {
    root(f, t, p, c.lo, c.hi);
    mpfr_set_prec(c.t, mpfr_get_prec(t));
    mpfr_set(c.t, t, MPFR_RNDN);  // exact: same precision
    c.p = p;
    c.f = f;
  }
  const bool lower_of_root = (d == MPFR_RNDD) != negate;
  mpfr_set(out, lower_of_root ? c.lo : c.hi, lower_of_root ? MPFR_RNDD : MPFR_RNDU);
  if (negate) mpfr_neg(out, out, MPFR_RNDN);  // exact
}

}  // namespace

void erfinv_bound(mpfr_t y, const mpfr_t a, mpfr_rnd_t d) {
  if (mpfr_nan_p(a) || mpfr_cmpabs_ui(a, 1) > 0) return mpfr_set_nan(y);
  if (mpfr_zero_p(a)) return mpfr_set_zero(y, mpfr_signbit(a) ? -1 : 1);
  if (mpfr_cmpabs_ui(a, 1) == 0) return mpfr_set_inf(y, mpfr_sgn(a));
  const bool negative = mpfr_sgn(a) < 0;
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(a) + 2);
  mpfr_abs(t, a, MPFR_RNDN);  // exact
  Fn f = Fn::erf;
  if (mpfr_cmp_d(t, 0.5) >= 0) {
    mpfr_ui_sub(t, 1, t, MPFR_RNDN);  // exact: |a| in [1/2, 1) (Sterbenz)
    f = Fn::erfc;
  }
  positive_root_bound(f, y, t, d, negative);
  mpfr_clear(t);
}

void erfcinv_bound(mpfr_t y, const mpfr_t a, mpfr_rnd_t d) {
  if (mpfr_nan_p(a) || mpfr_sgn(a) < 0 || mpfr_cmp_ui(a, 2) > 0) return mpfr_set_nan(y);
  if (mpfr_zero_p(a)) return mpfr_set_inf(y, 1);
  if (mpfr_cmp_ui(a, 2) == 0) return mpfr_set_inf(y, -1);
  if (mpfr_cmp_ui(a, 1) == 0) return mpfr_set_zero(y, 1);
  const bool negative = mpfr_cmp_ui(a, 1) > 0;
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(a) + 2);
  if (negative)
    mpfr_ui_sub(t, 2, a, MPFR_RNDN);  // exact: a in (1, 2) (Sterbenz)
  else
    mpfr_set(t, a, MPFR_RNDN);
  positive_root_bound(Fn::erfc, y, t, d, negative);
  mpfr_clear(t);
}

}  // namespace gpuconform::ref::detail
