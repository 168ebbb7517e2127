// SPDX-License-Identifier: Apache-2.0
// Binary floating-point formats as values: one decoder and one rounding encoder
// serve fp64 down to e2m1. A format is its field widths, bias, what its top
// exponent field means and whether it has subnormals (the design of ml_dtypes'
// float8.h Traits and of CPFloat). Bit patterns travel as std::uint64_t,
// right-aligned: the format's register occupies the low width_bits() bits.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpuconform::ref {

// What the all-ones exponent field encodes.
enum class Specials : std::uint8_t {
  kIeee,        // mantissa 0: ±inf, otherwise NaN (fp64, fp32, tf32, fp16, bf16, e5m2)
  kFn,          // no inf; only S.1..1.1..1 is NaN, the rest of that binade is finite (e4m3)
  kFiniteOnly,  // every code is a number (OCP MX e2m1, e3m2, e2m3)
};

enum class Rounding : std::uint8_t {
  kRNE,  // to nearest, ties to even
  kRZ,   // toward zero
  kRNA,  // to nearest, ties away from zero (cvt.rna)
  kRU,   // toward +inf
  kRD,   // toward -inf
};

// What a finite result too large for the format becomes.
enum class Overflow : std::uint8_t {
  kIeee,      // IEEE 754 per direction: RNE/RNA -> inf, RZ -> max finite, RU/RD by sign
  kSaturate,  // PTX .satfinite: ±max finite, inf inputs included; NaN stays NaN
  kInfinity,  // tensor-core outputs: ±inf whatever the rounding (numerics.md §2)
};

struct FloatFormat {
  std::string_view name;
  int exp_bits;
  int man_bits;  // stored fraction bits
  int bias;
  Specials specials;
  bool subnormals;  // false: a zero exponent field reads as 0 and tiny results flush to ±0
  int pad_bits;     // ignored low register bits below the mantissa (tf32 in an fp32 register: 13)

  constexpr int width_bits() const { return 1 + exp_bits + man_bits + pad_bits; }
  constexpr int emin() const { return 1 - bias; }
  // The largest binade holding a finite value.
  constexpr int emax() const {
    return (1 << exp_bits) - (specials == Specials::kIeee ? 2 : 1) - bias;
  }
  constexpr bool has_inf() const { return specials == Specials::kIeee; }
  constexpr bool has_nan() const { return specials != Specials::kFiniteOnly; }
  constexpr std::uint64_t exp_field_max() const { return (std::uint64_t{1} << exp_bits) - 1; }
  constexpr std::uint64_t man_mask() const { return (std::uint64_t{1} << man_bits) - 1; }
  constexpr std::uint64_t sign_bit() const { return std::uint64_t{1} << (width_bits() - 1); }
};

// Exponent 11, mantissa 52, bias 1023. IEEE binary64.
inline constexpr FloatFormat kFp64{"f64", 11, 52, 1023, Specials::kIeee, true, 0};
// Exponent 8, mantissa 23, bias 127. IEEE binary32.
inline constexpr FloatFormat kFp32{"f32", 8, 23, 127, Specials::kIeee, true, 0};
// Exponent 8, mantissa 10, bias 127, in the top 19 bits of an fp32 register.
inline constexpr FloatFormat kTf32{"tf32", 8, 10, 127, Specials::kIeee, true, 13};
// Exponent 5, mantissa 10, bias 15. IEEE binary16.
inline constexpr FloatFormat kFp16{"f16", 5, 10, 15, Specials::kIeee, true, 0};
// Exponent 8, mantissa 7, bias 127. The top half of an fp32.
inline constexpr FloatFormat kBf16{"bf16", 8, 7, 127, Specials::kIeee, true, 0};
// Exponent 4, mantissa 3, bias 7. No inf, NaN = S.1111.111, max 448 (OCP FP8).
inline constexpr FloatFormat kE4M3{"e4m3", 4, 3, 7, Specials::kFn, true, 0};
// Exponent 5, mantissa 2, bias 15. IEEE-like, max 57344 (OCP FP8).
inline constexpr FloatFormat kE5M2{"e5m2", 5, 2, 15, Specials::kIeee, true, 0};
// Exponent 2, mantissa 1, bias 1. Finite only, max 6 (OCP MX FP4).
inline constexpr FloatFormat kE2M1{"e2m1", 2, 1, 1, Specials::kFiniteOnly, true, 0};
// Exponent 3, mantissa 2, bias 3. Finite only, max 28 (OCP MX FP6).
inline constexpr FloatFormat kE3M2{"e3m2", 3, 2, 3, Specials::kFiniteOnly, true, 0};
// Exponent 2, mantissa 3, bias 1. Finite only, max 7.5 (OCP MX FP6).
inline constexpr FloatFormat kE2M3{"e2m3", 2, 3, 1, Specials::kFiniteOnly, true, 0};
// Exponent 8, mantissa 13, bias 127, in the top 22 bits of an fp32 register: the grid of
// the FP8 accumulator on Ada mma and Hopper wgmma ("RZ-E8M13", numerics.md §1, §2).
inline constexpr FloatFormat kE8M13{"e8m13", 8, 13, 127, Specials::kIeee, true, 10};

// The formats above, for tests and command-line lookups.
const FloatFormat* find_format(std::string_view name);

enum class FpClass : std::uint8_t { kZero, kFinite, kInf, kNaN };

// A decoded value. Finite: value = (-1)^negative * significand * 2^exponent.
// decode() returns the format's own grid: significand < 2^(man_bits+1) with the hidden bit
// set for normals, exponent = max(e, emin) - man_bits. encode() accepts any significand.
// NaN: significand holds the payload left-aligned in 64 bits (carried across formats by
// truncation, as IEEE 754 recommends).
struct Unpacked {
  FpClass cls;
  bool negative;
  std::uint64_t significand;
  int exponent;
};

Unpacked decode(const FloatFormat& f, std::uint64_t bits);

// Rounds an exact value to the format. Zero, inf and NaN inputs keep their sign.
std::uint64_t encode(const FloatFormat& f, const Unpacked& v, Rounding r,
                     Overflow o = Overflow::kIeee);

// Exact: every format above fits in binary64.
double to_double(const FloatFormat& f, std::uint64_t bits);
std::uint64_t from_double(const FloatFormat& f, double x, Rounding r, Overflow o = Overflow::kIeee);
Unpacked unpack_double(double x);

std::uint64_t quiet_nan(const FloatFormat& f, bool negative = false);  // IEEE: quiet bit only
std::uint64_t infinity(const FloatFormat& f, bool negative);           // needs has_inf()
std::uint64_t max_finite(const FloatFormat& f, bool negative);
std::uint64_t signed_zero(const FloatFormat& f, bool negative);

// The exponent e of |x| = s * 2^e with s in [1,2), or emin for subnormals: the exponent a
// tensor core aligns on (numerics.md §2 split()). Only for finite nonzero values.
inline int split_exponent(const FloatFormat& f, const Unpacked& u) {
  return u.exponent + f.man_bits;
}

}  // namespace gpuconform::ref
