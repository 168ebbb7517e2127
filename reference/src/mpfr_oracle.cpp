// SPDX-License-Identifier: Apache-2.0
// IEEE operations by round-to-odd: MPFR computes the result toward zero at p bits and
// ORs "inexact" into the last bit. With p >= t + 2 (t = the format's precision, less for
// subnormals) one more rounding to the format is then correct in every direction, with no
// need to emulate the format's exponent range inside MPFR (Boldo & Melquiond, "When double
// rounding is odd", 2005).
#include "gpuconform/reference/mpfr_oracle.hpp"

#include <mpfr.h>

#include "gpuconform/reference/mpfr_format.hpp"

namespace gpuconform::ref {
namespace {

constexpr mpfr_prec_t kOddPrecision = 128;  // >= 53 + 2 for fp64

struct Operands {
  mpfr_t a, b, c, r;
  Operands() { mpfr_inits2(kOddPrecision, a, b, c, r, static_cast<mpfr_ptr>(nullptr)); }
  ~Operands() { mpfr_clears(a, b, c, r, static_cast<mpfr_ptr>(nullptr)); }
  Operands(const Operands&) = delete;
  Operands& operator=(const Operands&) = delete;
};

// The sign of an exact zero sum depends on the rounding direction (IEEE 754 §6.3): the
// direction MPFR would use for it. RNA is "to nearest" for this purpose.
mpfr_rnd_t zero_sign_direction(Rounding r) { return r == Rounding::kRD ? MPFR_RNDD : MPFR_RNDN; }

int compute(IeeeOp op, mpfr_t out, mpfr_t a, mpfr_t b, mpfr_t c, mpfr_rnd_t rnd) {
  switch (op) {
    case IeeeOp::kAdd:
      return mpfr_add(out, a, b, rnd);
    case IeeeOp::kSub:
      return mpfr_sub(out, a, b, rnd);
    case IeeeOp::kMul:
      return mpfr_mul(out, a, b, rnd);
    case IeeeOp::kDiv:
      return mpfr_div(out, a, b, rnd);
    case IeeeOp::kSqrt:
      return mpfr_sqrt(out, a, rnd);
    case IeeeOp::kFma:
      return mpfr_fma(out, a, b, c, rnd);
  }
  return 0;
}

}  // namespace

std::string_view to_string(IeeeOp op) {
  switch (op) {
    case IeeeOp::kAdd:
      return "add";
    case IeeeOp::kSub:
      return "sub";
    case IeeeOp::kMul:
      return "mul";
    case IeeeOp::kDiv:
      return "div";
    case IeeeOp::kSqrt:
      return "sqrt";
    case IeeeOp::kFma:
      return "fma";
  }
  return "?";
}

std::string_view to_string(Rounding r) {
  switch (r) {
    case Rounding::kRNE:
      return "rn";
    case Rounding::kRZ:
      return "rz";
    case Rounding::kRNA:
      return "rna";
    case Rounding::kRU:
      return "ru";
    case Rounding::kRD:
      return "rd";
  }
  return "?";
}

std::uint64_t ieee_op(const FloatFormat& f, IeeeOp op, Rounding r, std::uint64_t a, std::uint64_t b,
                      std::uint64_t c) {
  thread_local Operands v;
  mpfr::set_from_bits(v.a, f, a);
  mpfr::set_from_bits(v.b, f, b);
  mpfr::set_from_bits(v.c, f, c);

  // 1. Toward zero at kOddPrecision bits; MPFR's exponent range is wide enough that
  //    nothing overflows or underflows here.
  const int inexact = compute(op, v.r, v.a, v.b, v.c, MPFR_RNDZ);  // RZ
  if (mpfr_nan_p(v.r)) return quiet_nan(f);
  if (mpfr_zero_p(v.r) && inexact == 0) {
    // An exact zero: recompute it only for the IEEE sign rule.
    compute(op, v.r, v.a, v.b, v.c, zero_sign_direction(r));
  }

  // 2. Round to odd: an inexact result gets an odd last bit (away from zero if needed).
  if (inexact != 0 && mpfr_number_p(v.r)) {
    if (mpfr_min_prec(v.r) < kOddPrecision) {  // last bit 0: step to the odd neighbour
      if (mpfr_signbit(v.r)) {
        mpfr_nextbelow(v.r);
      } else {
        mpfr_nextabove(v.r);
      }
    }
  }

  // 3. The one rounding to the format.
  return mpfr::round_to_format(f, v.r, r, Overflow::kIeee);
}

}  // namespace gpuconform::ref
