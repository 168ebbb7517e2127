// SPDX-License-Identifier: Apache-2.0
// Decode and round-to-format, written once for every FloatFormat. Integer-only, so the
// block-FMA model can call it per output element. Checked code-by-code and on random
// values against the MPFR path in mpfr_format.cpp (tests/unit/reference/).
#include "gpuconform/reference/float_format.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace gpuconform::ref {
namespace {

constexpr std::array<const FloatFormat*, 11> kAllFormats = {
    &kFp64, &kFp32, &kTf32, &kFp16, &kBf16, &kE4M3, &kE5M2, &kE2M1, &kE3M2, &kE2M3, &kE8M13};

int msb_index(std::uint64_t x) { return 63 - __builtin_clzll(x); }

std::uint64_t assemble(const FloatFormat& f, bool negative, std::uint64_t exp_field,
                       std::uint64_t mantissa) {
  const std::uint64_t reg = (exp_field << f.man_bits) | mantissa;
  return (negative ? f.sign_bit() : 0) | (reg << f.pad_bits);
}

// Whether rounding in direction r moves a value of this sign away from zero when the
// discarded part is nonzero; IEEE overflow goes to inf exactly in those cases.
bool rounds_away_on_overflow(Rounding r, bool negative) {
  switch (r) {
    case Rounding::kRNE:
    case Rounding::kRNA:
      return true;
    case Rounding::kRZ:
      return false;
    case Rounding::kRU:
      return !negative;
    case Rounding::kRD:
      return negative;
  }
  return true;
}

// The code for a value beyond max finite: inf where the format and policy allow it; a
// format without inf gives its NaN (e4m3, as ml_dtypes does) or, with no NaN either,
// its largest finite value.
std::uint64_t overflow_code(const FloatFormat& f, bool negative, bool to_infinity) {
  if (!to_infinity) return max_finite(f, negative);
  if (f.has_inf()) return infinity(f, negative);
  if (f.has_nan()) return quiet_nan(f, negative);
  return max_finite(f, negative);
}

}  // namespace

const FloatFormat* find_format(std::string_view name) {
  for (const FloatFormat* f : kAllFormats)
    if (f->name == name) return f;
  return nullptr;
}

std::uint64_t quiet_nan(const FloatFormat& f, bool negative) {
  if (f.specials == Specials::kFn) return assemble(f, negative, f.exp_field_max(), f.man_mask());
  return assemble(f, negative, f.exp_field_max(), std::uint64_t{1} << (f.man_bits - 1));
}

std::uint64_t infinity(const FloatFormat& f, bool negative) {
  return assemble(f, negative, f.exp_field_max(), 0);
}

std::uint64_t max_finite(const FloatFormat& f, bool negative) {
  const std::uint64_t field = static_cast<std::uint64_t>(f.emax() + f.bias);
  const std::uint64_t mantissa = f.specials == Specials::kFn ? f.man_mask() - 1 : f.man_mask();
  return assemble(f, negative, field, mantissa);
}

std::uint64_t signed_zero(const FloatFormat& f, bool negative) {
  return negative ? f.sign_bit() : 0;
}

Unpacked decode(const FloatFormat& f, std::uint64_t bits) {
  const bool negative = (bits & f.sign_bit()) != 0;
  const std::uint64_t reg = bits >> f.pad_bits;  // tf32: the low 13 bits are not read
  const std::uint64_t field = (reg >> f.man_bits) & f.exp_field_max();
  const std::uint64_t mantissa = reg & f.man_mask();
  if (field == f.exp_field_max()) {
    if (f.specials == Specials::kIeee) {
      if (mantissa == 0) return {FpClass::kInf, negative, 0, 0};
      return {FpClass::kNaN, negative, mantissa << (64 - f.man_bits), 0};
    }
    if (f.specials == Specials::kFn && mantissa == f.man_mask())
      return {FpClass::kNaN, negative, 0, 0};
  }
  if (field == 0) {
    if (mantissa == 0 || !f.subnormals) return {FpClass::kZero, negative, 0, 0};
    return {FpClass::kFinite, negative, mantissa, f.emin() - f.man_bits};
  }
  const std::uint64_t significand = mantissa | (std::uint64_t{1} << f.man_bits);
  return {FpClass::kFinite, negative, significand, static_cast<int>(field) - f.bias - f.man_bits};
}

std::uint64_t encode(const FloatFormat& f, const Unpacked& v, Rounding r, Overflow o) {
  // 1. Non-finite and zero inputs.
  if (v.cls == FpClass::kNaN) {
    // Finite-only formats have no NaN: PTX cvt gives +MAX_NORM for a NaN input.
    if (!f.has_nan()) return max_finite(f, false);
    if (f.specials == Specials::kFn) return quiet_nan(f, v.negative);
    const std::uint64_t payload = v.significand >> (64 - f.man_bits);
    if (payload == 0) return quiet_nan(f, v.negative);
    return assemble(f, v.negative, f.exp_field_max(), payload);
  }
  if (v.cls == FpClass::kInf) return overflow_code(f, v.negative, o != Overflow::kSaturate);
  if (v.cls == FpClass::kZero || v.significand == 0) return signed_zero(f, v.negative);

  // 2. The quantum q of the result: 2^(e - man_bits), or the subnormal grid below emin.
  const int e = msb_index(v.significand) + v.exponent;  // floor(log2 |v|)
  int q = (f.subnormals ? std::max(e, f.emin()) : e) - f.man_bits;

  // 3. Split the significand at q into kept bits, the half bit and a sticky bit.
  const int shift = q - v.exponent;
  std::uint64_t kept = 0;
  bool half = false;
  bool sticky = false;
  if (shift <= 0) {
    kept = v.significand << -shift;  // exact: kept < 2^(man_bits + 1)
  } else if (shift < 64) {
    kept = v.significand >> shift;
    half = ((v.significand >> (shift - 1)) & 1) != 0;
    sticky = (v.significand & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0;
  } else if (shift == 64) {
    half = (v.significand >> 63) != 0;
    sticky = (v.significand << 1) != 0;
  } else {
    sticky = true;
  }

  // 4. Round the kept bits.
  bool up = false;
  switch (r) {
    case Rounding::kRNE:
      up = half && (sticky || (kept & 1) != 0);
      break;  // RNE
    case Rounding::kRNA:
      up = half;
      break;  // RNA
    case Rounding::kRZ:
      up = false;
      break;  // RZ
    case Rounding::kRU:
      up = !v.negative && (half || sticky);
      break;  // RU
    case Rounding::kRD:
      up = v.negative && (half || sticky);
      break;  // RD
  }
  kept += up ? 1 : 0;
  if ((kept >> (f.man_bits + 1)) != 0) {  // carried into the next binade
    kept >>= 1;
    ++q;
  }
  if (kept == 0) return signed_zero(f, v.negative);

  // 5. Pack, or apply the overflow policy.
  const std::uint64_t hidden = std::uint64_t{1} << f.man_bits;
  const int e_out = q + f.man_bits;
  if (kept < hidden) return assemble(f, v.negative, 0, kept);  // subnormal
  if (!f.subnormals && e_out < f.emin()) return signed_zero(f, v.negative);
  const std::uint64_t mantissa = kept - hidden;
  const bool beyond = e_out > f.emax() || (f.specials == Specials::kFn && e_out == f.emax() &&
                                           mantissa == f.man_mask());
  if (beyond) {
    const bool to_inf = o == Overflow::kInfinity ||
                        (o == Overflow::kIeee && rounds_away_on_overflow(r, v.negative));
    return overflow_code(f, v.negative, to_inf);
  }
  return assemble(f, v.negative, static_cast<std::uint64_t>(e_out + f.bias), mantissa);
}

Unpacked unpack_double(double x) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  return decode(kFp64, bits);
}

double to_double(const FloatFormat& f, std::uint64_t bits) {
  const std::uint64_t d = encode(kFp64, decode(f, bits), Rounding::kRNE);
  double x = 0;
  std::memcpy(&x, &d, sizeof x);
  return x;
}

std::uint64_t from_double(const FloatFormat& f, double x, Rounding r, Overflow o) {
  return encode(f, unpack_double(x), r, o);
}

}  // namespace gpuconform::ref
