// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.scalar.cvt.<rnd>.<dst>.<src> between the integer types s32 u32 s64 u64 and f32 f64
// (kernels/numeric/scalar_int_convert.cu), bit-exact against an integer-only reference, host
// and device:
// - integer to float (cvt.rn/rz/rm/rp.f32.s32 ...): |x| as an exact value rounded by
//   reference/scalar_round.hpp (binary32) or scalar_f64_round.hpp (binary64); zero is +0;
// - float to integer (cvt.rni/rzi/rmi/rpi.s32.f32 ...): the value rounded to an integer in
//   the instruction's direction, then clamped to the destination's range (the PTX ISA: "for
//   float-to-integer conversions, the result is clamped to the destination range by
//   default"). A NaN, which the PTX ISA leaves unspecified, gives what the hardware gives
//   (the first H100 run, GPU-3d582d4a 2026-11-26: every NaN of every class): 0 from a
//   binary32 source into a 32-bit integer, the bit pattern 1 << (n - 1) otherwise (a binary64
//   source, or a 64-bit destination), for signed and unsigned destinations alike: 0x80000000
//   from cvt.rzi.u32.f64, 0x8000000000000000 from cvt.rni.u64.f32.
// A 32-bit source is taken exhaustively (all 2^32 patterns); a 64-bit one is sampled
// (int_conversion_input: uniform patterns plus directed classes: ties and near-ties at the
// target's precision, the range boundaries, specials).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/scalar_arith.hpp"  // mix64
#include "gpuconform/numerics/scalar_f64_round.hpp"

namespace gpuconform::numerics {

enum class IntType : std::uint8_t { s32, u32, s64, u64 };
enum class FloatType : std::uint8_t { f32, f64 };

struct IntConversionSpec {
  bool to_float;  // integer -> float, else float -> integer
  IntType itype;
  FloatType ftype;
  ref::Rounding rounding;
};

GC_SCALAR_HD int int_bits(IntType t) { return t == IntType::s32 || t == IntType::u32 ? 32 : 64; }
GC_SCALAR_HD bool int_signed(IntType t) { return t == IntType::s32 || t == IntType::s64; }
GC_SCALAR_HD int source_bits(const IntConversionSpec& s) {
  return s.to_float ? int_bits(s.itype) : (s.ftype == FloatType::f32 ? 32 : 64);
}

namespace int_cvt_detail {
// The binary32 target of a conversion in direction r (IEEE overflow: none occurs from an integer).
GC_SCALAR_HD ref::scalar::Target f32_target(ref::Rounding r) {
  return ref::scalar::Target{
      8,           23,    127,  ref::Specials::kIeee, 0, r, ref::Overflow::kIeee, ref::scalar::NanRule::kCanonical,
      0x7fffffffu, false, false};
}
}  // namespace int_cvt_detail

// The expected result bits (right-aligned) of converting the source pattern x.
GC_SCALAR_HD std::uint64_t int_conversion_reference(const IntConversionSpec& s, std::uint64_t x) {
  using ref::scalar::Value;
  if (s.to_float) {
    const int n = int_bits(s.itype);
    if (n == 32) x &= 0xffffffffull;
    bool negative = false;
    std::uint64_t mag = x;
    if (int_signed(s.itype)) {
      const std::int64_t v =
          n == 32 ? static_cast<std::int64_t>(static_cast<std::int32_t>(x)) : static_cast<std::int64_t>(x);
      negative = v < 0;
      mag = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    }
    if (mag == 0) return 0;  // +0
    const Value v{ref::FpClass::kFinite, negative, mag, 0};
    if (s.ftype == FloatType::f32) return ref::scalar::round_to(int_cvt_detail::f32_target(s.rounding), v);
    return f64::round_to_f64(v, s.rounding);
  }
  // float -> integer
  const Value v = s.ftype == FloatType::f32
                      ? ref::scalar::decode(int_cvt_detail::f32_target(s.rounding), static_cast<std::uint32_t>(x))
                      : ref::scalar::decode_f64(x);
  const int n = int_bits(s.itype);
  const bool sgn = int_signed(s.itype);
  const std::uint64_t mask = n == 32 ? 0xffffffffull : ~0ull;
  const std::uint64_t max_mag_pos = sgn ? (std::uint64_t{1} << (n - 1)) - 1 : mask;  // largest positive result
  const std::uint64_t max_mag_neg = sgn ? std::uint64_t{1} << (n - 1) : 0;           // largest |negative| result
  if (v.cls == ref::FpClass::kNaN) return s.ftype == FloatType::f32 && n == 32 ? 0 : std::uint64_t{1} << (n - 1);
  std::uint64_t mag = 0;
  bool saturate = false;
  if (v.cls == ref::FpClass::kInf) {
    saturate = true;
  } else if (v.cls == ref::FpClass::kFinite) {
    const int e = ref::scalar::detail::msb_index(v.sig) + v.exp;
    if (e >= 64)
      saturate = true;
    else
      mag = ref::scalar::detail::round_at(v, 0, s.rounding);  // at quantum 1; carries stay < 2^64
  }
  if (v.negative) {
    if (saturate || mag > max_mag_neg) mag = max_mag_neg;
    return (0 - mag) & mask;
  }
  if (saturate || mag > max_mag_pos) mag = max_mag_pos;
  return mag & mask;
}

// The class a mismatch of input x counts in: float sources by ref::scalar::InputClass;
// integer sources 0 zero, 1 exact in the target, 2 rounded, 3 negative and rounded, 4 unused.
GC_SCALAR_HD int int_conversion_class(const IntConversionSpec& s, std::uint64_t x) {
  if (!s.to_float) {
    if (s.ftype == FloatType::f32)
      return ref::scalar::input_class(int_cvt_detail::f32_target(s.rounding), static_cast<std::uint32_t>(x));
    const ref::scalar::Value v = ref::scalar::decode_f64(x);
    if (v.cls == ref::FpClass::kZero) return ref::scalar::kClassZero;
    if (v.cls == ref::FpClass::kInf) return ref::scalar::kClassInf;
    if (v.cls == ref::FpClass::kNaN) return ref::scalar::kClassNan;
    return ((x >> 52) & 0x7ff) == 0 ? ref::scalar::kClassSubnormal : ref::scalar::kClassNormal;
  }
  const int n = int_bits(s.itype);
  if (n == 32) x &= 0xffffffffull;
  if (x == 0) return 0;
  bool negative = false;
  std::uint64_t mag = x;
  if (int_signed(s.itype)) {
    const std::int64_t v =
        n == 32 ? static_cast<std::int64_t>(static_cast<std::int32_t>(x)) : static_cast<std::int64_t>(x);
    negative = v < 0;
    mag = negative ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  }
  const int precision = s.ftype == FloatType::f32 ? 24 : 53;
  const int width = ref::scalar::detail::msb_index(mag) + 1;
  const bool exact = width <= precision || (mag & ((std::uint64_t{1} << (width - precision)) - 1)) == 0;
  return exact ? 1 : negative ? 3 : 2;
}

// Input i of a sampled (64-bit source) row; a 32-bit source takes x = i.
GC_SCALAR_HD std::uint64_t int_conversion_input(const IntConversionSpec& s, std::uint64_t i) {
  if (source_bits(s) == 32) return i & 0xffffffffull;
  const std::uint64_t h1 = mix64(i ^ 0x13198a2e03707344ull), h2 = mix64(h1);
  switch (i % 4) {
    case 0: return h1;  // any pattern
    case 1:
      if (s.to_float) {
        // Significands one to three bits longer than the target's, at every shift: ties,
        // near-ties and carries into the next binade.
        const int precision = s.ftype == FloatType::f32 ? 24 : 53;
        const int width = precision + 1 + static_cast<int>(h2 % 3);
        const std::uint64_t m = (h1 >> (64 - width)) | (std::uint64_t{1} << (width - 1));
        const int room = 64 - width;
        const std::uint64_t v = m << (room > 0 ? (h2 >> 8) % static_cast<std::uint64_t>(room + 1) : 0);
        return (h2 >> 63) && int_signed(s.itype) ? 0 - (v >> 1) : v;
      } else {
        // Values k + j/4 (ties at .5) for k over the whole integer range and past it.
        const int e = static_cast<int>((h2 >> 8) % 68);  // |value| up to 2^67
        const double k = static_cast<double>(h1 >> (64 - (e < 52 ? e + 1 : 53)));
        double v = f64::from_bits(f64::bits(k));
        if (e >= 53) v = v * static_cast<double>(std::uint64_t{1} << (e - 52 > 14 ? 14 : e - 52));
        v += static_cast<double>(h2 & 3) * 0.25;
        return f64::bits((h2 >> 63) ? -v : v);
      }
    case 2: {
      // The range boundaries: 2^31, 2^32, 2^63, 2^64 and their negatives, give or take a few ulps.
      const int edges[4] = {31, 32, 63, 64};
      const int e = edges[h1 % 4];
      const std::int64_t d = static_cast<std::int64_t>(h1 >> 8 & 7) - 3;
      if (s.to_float) {
        const std::uint64_t base = e == 64 ? 0 : std::uint64_t{1} << e;
        return base + static_cast<std::uint64_t>(d);  // wraps around 0 and 2^64
      }
      const std::uint64_t b =
          f64::bits(static_cast<double>(e == 64 ? 18446744073709551616.0 : static_cast<double>(std::uint64_t{1} << e)));
      return (b + static_cast<std::uint64_t>(d)) | ((h1 >> 63) << 63);
    }
    default: {
      const std::uint64_t specials[8] = {0,
                                         0x8000000000000000ull,
                                         0x7ff0000000000000ull,
                                         0xfff0000000000000ull,
                                         0x7ff8000000000000ull,
                                         0xfff4000000000001ull,
                                         1,
                                         0x7fffffffffffffffull};
      if (s.to_float) return h1 >> (h2 % 64);  // small and large magnitudes
      return (h1 & 7) < 4 ? specials[h1 % 8]
                          : (h1 & 0x800fffffffffffffull) | ((0x3fe + (h2 % 3)) << 52);  // near 0.5..2
    }
  }
}

// One row of the table (numerics/src/scalar_int_conversions.cpp).
struct ScalarIntConversion {
  std::string id;   // "numeric.scalar.cvt.rni.s32.f32"
  std::string ptx;  // "cvt.rni.s32.f32"
  IntConversionSpec spec;
};
const std::vector<ScalarIntConversion>& scalar_int_conversions();
const ScalarIntConversion* find_scalar_int_conversion(std::string_view id);

// Inputs of a row: 2^32 for a 32-bit source; for a 64-bit one 2^24, 2^28 with
// GPUCONFORM_SCALAR_LONG=1 (the probe cannot see the run level).
std::uint64_t int_conversion_count(const IntConversionSpec& s);

struct IntConversionMismatch {
  std::uint64_t input, got, want;
};
struct IntConversionScan {
  std::uint64_t compared = 0;
  std::uint64_t mismatches_by_class[5] = {};
  std::vector<IntConversionMismatch> first;
  double gpu_ms = 0;
  std::uint64_t mismatches() const;
};
Measurement int_conversion_measurement(const ScalarIntConversion& row, const IntConversionScan& scan);

extern const char* const kIntCvtCitation;

}  // namespace gpuconform::numerics
