// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the MPFR checks of the scalar arithmetic references (scalar_arith_test.cpp for
// binary32, scalar_f64_arith_test.cpp for binary64) share: a row's rounding as MPFR's, and
// a value's bit pattern and back.
#include <mpfr.h>

#include <cstring>

#include "gpuconform/reference/scalar_round.hpp"

namespace gpuconform::numerics::test {

// The MPFR rounding of a row's direction (kRNA: ties away, MPFR_RNDNA).
inline mpfr_rnd_t mpfr_mode(ref::Rounding r) {
  switch (r) {
    case ref::Rounding::kRNE: return MPFR_RNDN;
    case ref::Rounding::kRZ: return MPFR_RNDZ;
    case ref::Rounding::kRD: return MPFR_RNDD;
    case ref::Rounding::kRU: return MPFR_RNDU;
    case ref::Rounding::kRNA: return MPFR_RNDNA;
  }
  return MPFR_RNDN;
}

// The bits of `from` as a To of the same size (a float and its pattern, either way).
template <class To, class From>
To bit_copy(From from) {
  static_assert(sizeof(To) == sizeof(From), "bit_copy needs types of one size");
  To to{};
  std::memcpy(&to, &from, sizeof to);
  return to;
}

}  // namespace gpuconform::numerics::test
