// SPDX-License-Identifier: Apache-2.0
// The MPFR side of FloatFormat: a bit pattern's value built by MPFR from the format's
// fields, and rounding of an MPFR value to a format by MPFR's own integer rounding.
// Written apart from float_format.cpp so that each checks the other; dot_mpfr() and the
// IEEE oracle (mpfr_oracle.hpp) round through here.
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "gpuconform/reference/float_format.hpp"

namespace gpuconform::ref::mpfr {

// Sets x to the value of `bits` in f: ±0, ±inf, NaN or (-1)^s * M * 2^(exponent of the
// last mantissa bit). Exact when x has at least man_bits + 1 bits of precision.
void set_from_bits(mpfr_t x, const FloatFormat& f, std::uint64_t bits);

// The field exponent of a finite nonzero code: unbiased exponent, emin for subnormals.
// This is the exponent a tensor core aligns on (numerics.md §2 split()).
int field_exponent(const FloatFormat& f, std::uint64_t bits);

// Rounds the exact value x to f with mode r and overflow policy o (the semantics of
// encode() in float_format.hpp). NaN gives the format's quiet NaN with x's sign.
std::uint64_t round_to_format(const FloatFormat& f, const mpfr_t x, Rounding r,
                              Overflow o = Overflow::kIeee);

// The largest finite value of f, as an MPFR number (precision man_bits + 1 or more).
void set_max_finite(mpfr_t x, const FloatFormat& f);

}  // namespace gpuconform::ref::mpfr
