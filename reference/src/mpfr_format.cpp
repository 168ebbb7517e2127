// SPDX-License-Identifier: Apache-2.0
// Format values and rounding by MPFR. The rounding works on values, not bits: scale x to
// the format's quantum, let MPFR round to an integer in the requested direction, then
// compare against max finite. float_format.cpp does the same job with shifts and a sticky
// bit; the unit tests hold the two against each other.
#include "gpuconform/reference/mpfr_format.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpuconform::ref::mpfr {
namespace {

static_assert(sizeof(unsigned long) == 8, "the MPFR helpers pass 64-bit fields as unsigned long");

// Scratch values with enough precision for any integer significand up to 64 bits.
struct Scratch {
  mpfr_t scaled, limit;
  Scratch() {
    mpfr_init2(scaled, 256);
    mpfr_init2(limit, 128);
  }
  ~Scratch() {
    mpfr_clear(scaled);
    mpfr_clear(limit);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

std::uint64_t pack(const FloatFormat& f, bool negative, std::uint64_t field,
                   std::uint64_t mantissa) {
  const std::uint64_t sign = negative ? std::uint64_t{1} << (f.width_bits() - 1) : 0;
  return sign | (((field << f.man_bits) | mantissa) << f.pad_bits);
}

std::uint64_t all_ones(int n) { return (std::uint64_t{1} << n) - 1; }

std::uint64_t nan_bits(const FloatFormat& f, bool negative) {
  const std::uint64_t top = all_ones(f.exp_bits);
  if (f.specials == Specials::kFn) return pack(f, negative, top, all_ones(f.man_bits));
  return pack(f, negative, top, std::uint64_t{1} << (f.man_bits - 1));
}

std::uint64_t max_bits(const FloatFormat& f, bool negative) {
  // IEEE: the binade below the all-ones field; fn: all ones but the NaN code; finite-only:
  // the all-ones code itself.
  const std::uint64_t top = all_ones(f.exp_bits);
  switch (f.specials) {
    case Specials::kIeee:
      return pack(f, negative, top - 1, all_ones(f.man_bits));
    case Specials::kFn:
      return pack(f, negative, top, all_ones(f.man_bits) - 1);
    case Specials::kFiniteOnly:
      return pack(f, negative, top, all_ones(f.man_bits));
  }
  return 0;
}

std::uint64_t beyond_range(const FloatFormat& f, bool negative, bool to_infinity) {
  if (to_infinity && f.specials == Specials::kIeee)
    return pack(f, negative, all_ones(f.exp_bits), 0);
  if (to_infinity && f.specials == Specials::kFn) return nan_bits(f, negative);
  return max_bits(f, negative);
}

bool overflow_goes_to_infinity(Rounding r, Overflow o, bool negative) {
  if (o == Overflow::kInfinity) return true;
  if (o == Overflow::kSaturate) return false;
  return r == Rounding::kRNE || r == Rounding::kRNA || (r == Rounding::kRU && !negative) ||
         (r == Rounding::kRD && negative);
}

}  // namespace

void set_from_bits(mpfr_t x, const FloatFormat& f, std::uint64_t bits) {
  const bool negative = (bits >> (f.width_bits() - 1)) & 1;
  const std::uint64_t reg = bits >> f.pad_bits;
  const std::uint64_t field = (reg >> f.man_bits) & all_ones(f.exp_bits);
  const std::uint64_t mantissa = reg & all_ones(f.man_bits);
  const bool top = field == all_ones(f.exp_bits);
  if (top && f.specials == Specials::kIeee) {
    if (mantissa != 0) {
      mpfr_set_nan(x);
    } else {
      mpfr_set_inf(x, negative ? -1 : 1);
    }
    return;
  }
  if (top && f.specials == Specials::kFn && mantissa == all_ones(f.man_bits)) {
    mpfr_set_nan(x);
    return;
  }
  if (field == 0 && (mantissa == 0 || !f.subnormals)) {
    mpfr_set_zero(x, negative ? -1 : 1);
    return;
  }
  // Normal: (2^m + M) * 2^(field - bias - m); subnormal: M * 2^(1 - bias - m).
  const long last_bit = (field == 0 ? 1 : static_cast<long>(field)) - f.bias - f.man_bits;
  const std::uint64_t significand =
      field == 0 ? mantissa : mantissa + (std::uint64_t{1} << f.man_bits);
  mpfr_set_ui_2exp(x, significand, last_bit, MPFR_RNDN);  // exact
  if (negative) mpfr_neg(x, x, MPFR_RNDN);
}

int field_exponent(const FloatFormat& f, std::uint64_t bits) {
  const std::uint64_t field = (bits >> (f.pad_bits + f.man_bits)) & all_ones(f.exp_bits);
  return (field == 0 ? 1 : static_cast<int>(field)) - f.bias;
}

void set_max_finite(mpfr_t x, const FloatFormat& f) {
  const std::uint64_t top_significand =
      all_ones(f.man_bits + 1) - (f.specials == Specials::kFn ? 1 : 0);
  mpfr_set_ui_2exp(x, top_significand, f.emax() - f.man_bits, MPFR_RNDN);
}

std::uint64_t round_to_format(const FloatFormat& f, const mpfr_t x, Rounding r, Overflow o) {
  const bool negative = mpfr_signbit(x) != 0;
  if (mpfr_nan_p(x)) {
    if (f.specials == Specials::kFiniteOnly) return max_bits(f, false);  // PTX: +MAX_NORM
    return nan_bits(f, negative);
  }
  if (mpfr_inf_p(x)) return beyond_range(f, negative, o != Overflow::kSaturate);
  if (mpfr_zero_p(x)) return negative ? std::uint64_t{1} << (f.width_bits() - 1) : 0;
  if (mpfr_get_prec(x) > 200)
    throw std::invalid_argument("round_to_format: precision over 200 bits");

  // 1. The quantum 2^q of the result's grid at |x| (MPFR exponents put x in [2^(E-1), 2^E)).
  const long e = mpfr_get_exp(x) - 1;
  long q = (f.subnormals ? std::max<long>(e, f.emin()) : e) - f.man_bits;

  // 2. Round |x| / 2^q to an integer in direction r.
  Scratch& s = scratch();
  mpfr_mul_2si(s.scaled, x, -q, MPFR_RNDN);  // exact: scaled has more precision than x
  switch (r) {
    case Rounding::kRNE:
      mpfr_rint(s.scaled, s.scaled, MPFR_RNDN);
      break;  // RNE
    case Rounding::kRZ:
      mpfr_rint(s.scaled, s.scaled, MPFR_RNDZ);
      break;  // RZ
    case Rounding::kRU:
      mpfr_rint(s.scaled, s.scaled, MPFR_RNDU);
      break;  // RU
    case Rounding::kRD:
      mpfr_rint(s.scaled, s.scaled, MPFR_RNDD);
      break;  // RD
    case Rounding::kRNA:
      mpfr_round(s.scaled, s.scaled);
      break;  // RNA
  }
  if (mpfr_zero_p(s.scaled)) return negative ? std::uint64_t{1} << (f.width_bits() - 1) : 0;

  // 3. Beyond the largest finite value? Only the top binade can get there.
  if (e >= f.emax()) {
    set_max_finite(s.limit, f);
    mpfr_mul_2si(s.limit, s.limit, -q, MPFR_RNDN);
    if (mpfr_cmpabs(s.scaled, s.limit) > 0)
      return beyond_range(f, negative, overflow_goes_to_infinity(r, o, negative));
  }

  // 4. Fields of N * 2^q.
  mpfr_abs(s.scaled, s.scaled, MPFR_RNDN);
  std::uint64_t n = mpfr_get_ui(s.scaled, MPFR_RNDN);  // exact: n <= 2^(man_bits + 1)
  if (n == (std::uint64_t{1} << (f.man_bits + 1))) {   // rounded up into the next binade
    n >>= 1;
    ++q;
  }
  const std::uint64_t hidden = std::uint64_t{1} << f.man_bits;
  if (n < hidden) return pack(f, negative, 0, n);  // subnormal
  const long e_out = q + f.man_bits;
  if (e_out < f.emin()) return negative ? std::uint64_t{1} << (f.width_bits() - 1) : 0;  // flush
  return pack(f, negative, static_cast<std::uint64_t>(e_out + f.bias), n - hidden);
}

}  // namespace gpuconform::ref::mpfr
