// SPDX-License-Identifier: Apache-2.0
// Rounding to a small binary format, on the host and on the GPU: the reference of the
// numeric.scalar.* probes (docs/numerics.md, "Scalar numerics"). One generic routine,
// parametrised by the target's exponent and mantissa bits, its specials, the rounding
// direction, the overflow policy (IEEE, .satfinite), the NaN rule and .relu, rounds an
// exact value sig * 2^exp (sig < 2^63) to the target's bit pattern; every target fits in
// 32 bits (fp32, tf32, fp16, bf16, e4m3, e5m2). Integer-only and branch-light, so a GPU
// kernel can compare an instruction with it over all 2^32 binary32 inputs in milliseconds.
//
// It mirrors FloatFormat's encode() (float_format.hpp) and is unit-tested against it
// (tests/unit/reference/scalar_round_test.cpp): every input whose high or low 16 bits vary,
// millions of random binary32 inputs, every special. What it adds to FloatFormat is what an
// instruction does that a format does not say: the NaN a conversion returns (its payload
// truncated, or one canonical code, or the register's bits truncated as the tf32 conversion
// does), .relu (a negative result becomes +0) and .ftz on the result (a tiny result becomes
// a zero of its sign; tininess is detected after rounding, see round_to).
//
// An inexact value travels as a representative: value_with_tail() turns "s plus a nonzero
// remainder of sign t, smaller than half an ulp of s" (s a binary64, the remainder from an
// error-free transformation) into 4s +- 1 at two more bits, which rounds as the exact value
// does to any format at least two bits coarser than binary64.
#pragma once

#include <cstdint>
#include <cstring>

#include "gpuconform/reference/float_format.hpp"  // Rounding, Specials, Overflow

#if defined(__CUDACC__)
#define GC_SCALAR_HD __host__ __device__ __forceinline__
#else
#define GC_SCALAR_HD inline
#endif

namespace gpuconform::ref::scalar {

// The NaN an instruction returns for a NaN input.
enum class NanRule : std::uint8_t {
  kPayload,    // FloatFormat's: the payload truncated to the target, the sign kept; an empty
               // payload (or a format whose only NaN is S.1..1) gives the quiet NaN
  kCanonical,  // always Target::canonical_nan, whatever the input's sign and payload
  kTruncated,  // the input's sign and payload truncated to the target, not made quiet: a
               // payload that lies in the dropped bits only leaves an infinity of that sign.
               // cvt.rna.tf32.f32 as ptxas (CUDA 13.0) lowers it for sm_90: SEL on
               // |x| >= inf, then (x + 0x1000) & 0xffffe000 for finite x and x & 0xffffe000
               // for NaN and inf (scalar-sass.txt of the H100 GPU-791fafea scalar run,
               // 2026-11-26; its record has 0x7f815ca0 -> 0x7f814000)
};

// A format plus what one instruction does when rounding to it.
struct Target {
  int exp_bits;
  int man_bits;
  int bias;
  Specials specials;
  int pad_bits;  // ignored low register bits (tf32 in an fp32 register: 13), written as 0
  Rounding rounding;
  Overflow overflow;
  NanRule nan;
  std::uint32_t canonical_nan;  // NanRule::kCanonical and .relu
  bool relu;                    // .relu: a negative result (and -0) becomes +0, NaN the canonical NaN
  bool ftz;                     // .ftz: a tiny result (after rounding) becomes a zero of its sign

  GC_SCALAR_HD constexpr int width_bits() const { return 1 + exp_bits + man_bits + pad_bits; }
  GC_SCALAR_HD constexpr int emin() const { return 1 - bias; }
  GC_SCALAR_HD constexpr int emax() const { return (1 << exp_bits) - (specials == Specials::kIeee ? 2 : 1) - bias; }
  GC_SCALAR_HD constexpr std::uint32_t exp_field_max() const { return (1u << exp_bits) - 1; }
  GC_SCALAR_HD constexpr std::uint32_t man_mask() const { return (1u << man_bits) - 1; }
  GC_SCALAR_HD constexpr std::uint32_t sign_bit() const { return 1u << (width_bits() - 1); }
};

// A format's fields as a Target (rounding and policies from the arguments), for the
// targets below and for tests that compare with FloatFormat.
constexpr Target target_of(const FloatFormat& f, Rounding r, Overflow o = Overflow::kIeee,
                           NanRule nan = NanRule::kPayload, std::uint32_t canonical_nan = 0, bool relu = false,
                           bool ftz = false) {
  return Target{f.exp_bits, f.man_bits, f.bias, f.specials, f.pad_bits, r, o, nan, canonical_nan, relu, ftz};
}

// An exact value: (-1)^negative * sig * 2^exp, or a special.
struct Value {
  FpClass cls;
  bool negative;
  std::uint64_t sig;  // finite: the significand (any width below 2^63); NaN: payload left-aligned in 64 bits
  int exp;
};

namespace detail {

GC_SCALAR_HD int msb_index(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(x);
#endif
}

GC_SCALAR_HD std::uint32_t assemble(const Target& t, bool negative, std::uint32_t exp_field, std::uint32_t mantissa) {
  const std::uint32_t reg = (exp_field << t.man_bits) | mantissa;
  return (negative ? t.sign_bit() : 0u) | (reg << t.pad_bits);
}

GC_SCALAR_HD bool has_inf(const Target& t) { return t.specials == Specials::kIeee; }
GC_SCALAR_HD bool has_nan(const Target& t) { return t.specials != Specials::kFiniteOnly; }

GC_SCALAR_HD std::uint32_t quiet_nan(const Target& t, bool negative) {
  if (t.specials == Specials::kFn) return assemble(t, negative, t.exp_field_max(), t.man_mask());
  return assemble(t, negative, t.exp_field_max(), 1u << (t.man_bits - 1));
}

GC_SCALAR_HD std::uint32_t max_finite(const Target& t, bool negative) {
  const std::uint32_t field = static_cast<std::uint32_t>(t.emax() + t.bias);
  return assemble(t, negative, field, t.specials == Specials::kFn ? t.man_mask() - 1 : t.man_mask());
}

// Beyond max finite: inf where the format and policy allow it; a format without inf gives
// its NaN, with no NaN either its largest finite value (as FloatFormat).
GC_SCALAR_HD std::uint32_t overflow_code(const Target& t, bool negative, bool to_infinity) {
  if (!to_infinity) return max_finite(t, negative);
  if (has_inf(t)) return assemble(t, negative, t.exp_field_max(), 0);
  if (has_nan(t)) return quiet_nan(t, negative);
  return max_finite(t, negative);
}

GC_SCALAR_HD bool rounds_away_on_overflow(Rounding r, bool negative) {
  switch (r) {
    case Rounding::kRNE:
    case Rounding::kRNA: return true;
    case Rounding::kRZ: return false;
    case Rounding::kRU: return !negative;
    case Rounding::kRD: return negative;
  }
  return true;
}

GC_SCALAR_HD std::uint32_t nan_code(const Target& t, const Value& v) {
  if (t.relu || t.nan == NanRule::kCanonical) return t.canonical_nan;
  if (!has_nan(t)) return max_finite(t, false);
  if (t.specials == Specials::kFn) return quiet_nan(t, v.negative);
  const std::uint32_t payload = static_cast<std::uint32_t>(v.sig >> (64 - t.man_bits));
  if (payload == 0 && t.nan != NanRule::kTruncated) return quiet_nan(t, v.negative);
  return assemble(t, v.negative, t.exp_field_max(), payload);
}

// The significand of v rounded at quantum 2^q (v finite, non-zero): kept bits after the
// rounding, which may have carried into one more bit.
GC_SCALAR_HD std::uint64_t round_at(const Value& v, int q, Rounding r) {
  const int shift = q - v.exp;
  std::uint64_t kept = 0;
  bool half = false, sticky = false;
  if (shift <= 0) {
    kept = v.sig << -shift;  // exact: the caller's quantum keeps it below 2^63
  } else if (shift < 64) {
    kept = v.sig >> shift;
    half = ((v.sig >> (shift - 1)) & 1) != 0;
    sticky = (v.sig & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0;
  } else if (shift == 64) {
    half = (v.sig >> 63) != 0;
    sticky = (v.sig << 1) != 0;
  } else {
    sticky = true;
  }
  bool up = false;
  switch (r) {
    case Rounding::kRNE: up = half && (sticky || (kept & 1) != 0); break;
    case Rounding::kRNA: up = half; break;
    case Rounding::kRZ: up = false; break;
    case Rounding::kRU: up = !v.negative && (half || sticky); break;
    case Rounding::kRD: up = v.negative && (half || sticky); break;
  }
  return kept + (up ? 1 : 0);
}

}  // namespace detail

// Rounds v to t: the instruction's result bits, right-aligned.
GC_SCALAR_HD std::uint32_t round_to(const Target& t, const Value& v) {
  using namespace detail;
  const bool clamp_negative = t.relu && v.negative;  // .relu: every negative result is +0
  if (v.cls == FpClass::kNaN) return nan_code(t, v);
  if (v.cls == FpClass::kInf)
    return clamp_negative ? 0u : overflow_code(t, v.negative, t.overflow != Overflow::kSaturate);
  if (v.cls == FpClass::kZero || v.sig == 0) return (v.negative && !t.relu) ? t.sign_bit() : 0u;

  const int e = msb_index(v.sig) + v.exp;  // floor(log2 |v|)
  const std::uint32_t zero = (v.negative && !t.relu) ? t.sign_bit() : 0u;
  const std::uint64_t hidden = std::uint64_t{1} << t.man_bits;

  // .ftz: a tiny result becomes a zero of its sign, tininess detected after rounding (IEEE
  // 754-2019 7.5: v rounded to the target's precision with an unbounded exponent is below
  // 2^emin). Below 2^emin only a value that rounds up to 2^emin itself escapes the flush.
  // Before-rounding tininess, or rounding on the subnormal grid and then flushing, differ
  // for |v| just below 2^emin. The H100 GPU-791fafea scalar run (2026-11-26) decides by its
  // counts: in every .ftz row that failed against the subnormal-grid rule, the mismatches
  // are exactly as many as the tuples where that rule and this one differ (mul.rn.ftz.f16 over
  // all pairs: 19376; before-rounding tininess would give 40936); docs/numerics.md lists them,
  // tests/unit/reference/scalar_round_test.cpp pins the record's inputs.
  if (t.ftz && e < t.emin()) {
    const bool reaches_min_normal =
        e + 1 == t.emin() && (round_at(v, e - t.man_bits, t.rounding) >> (t.man_bits + 1)) != 0;
    return clamp_negative || !reaches_min_normal ? zero : assemble(t, v.negative, 1, 0);
  }

  // The quantum of the result: 2^(e - man_bits), or the subnormal grid below emin.
  int q = (e > t.emin() ? e : t.emin()) - t.man_bits;
  std::uint64_t kept = round_at(v, q, t.rounding);
  if ((kept >> (t.man_bits + 1)) != 0) {  // carried into the next binade
    kept >>= 1;
    ++q;
  }
  if (clamp_negative || kept == 0) return zero;
  if (kept < hidden) return assemble(t, v.negative, 0, static_cast<std::uint32_t>(kept));
  const int e_out = q + t.man_bits;
  const std::uint32_t mantissa = static_cast<std::uint32_t>(kept - hidden);
  const bool beyond =
      e_out > t.emax() || (t.specials == Specials::kFn && e_out == t.emax() && mantissa == t.man_mask());
  if (beyond) {
    const bool to_inf = t.overflow == Overflow::kInfinity ||
                        (t.overflow == Overflow::kIeee && rounds_away_on_overflow(t.rounding, v.negative));
    return overflow_code(t, v.negative, to_inf);
  }
  return assemble(t, v.negative, static_cast<std::uint32_t>(e_out + t.bias), mantissa);
}

// Decodes bits of the format t describes (only its fields are read): NaN payloads
// left-aligned, subnormals on the format's own grid, as FloatFormat's decode().
GC_SCALAR_HD Value decode(const Target& t, std::uint32_t bits) {
  const bool negative = (bits & t.sign_bit()) != 0;
  const std::uint32_t reg = bits >> t.pad_bits;
  const std::uint32_t field = (reg >> t.man_bits) & t.exp_field_max();
  const std::uint32_t mantissa = reg & t.man_mask();
  if (field == t.exp_field_max()) {
    if (t.specials == Specials::kIeee) {
      if (mantissa == 0) return {FpClass::kInf, negative, 0, 0};
      return {FpClass::kNaN, negative, std::uint64_t{mantissa} << (64 - t.man_bits), 0};
    }
    if (t.specials == Specials::kFn && mantissa == t.man_mask()) return {FpClass::kNaN, negative, 0, 0};
  }
  if (field == 0) {
    if (mantissa == 0) return {FpClass::kZero, negative, 0, 0};
    return {FpClass::kFinite, negative, mantissa, t.emin() - t.man_bits};
  }
  return {FpClass::kFinite, negative, mantissa | (std::uint64_t{1} << t.man_bits),
          static_cast<int>(field) - t.bias - t.man_bits};
}

// Binary64 bits as a Value.
GC_SCALAR_HD Value decode_f64(std::uint64_t bits) {
  const bool negative = (bits >> 63) != 0;
  const std::uint32_t field = static_cast<std::uint32_t>(bits >> 52) & 0x7ffu;
  const std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  if (field == 0x7ffu) {
    if (mantissa == 0) return {FpClass::kInf, negative, 0, 0};
    return {FpClass::kNaN, negative, mantissa << 12, 0};
  }
  if (field == 0) {
    if (mantissa == 0) return {FpClass::kZero, negative, 0, 0};
    return {FpClass::kFinite, negative, mantissa, -1074};
  }
  return {FpClass::kFinite, negative, mantissa | (std::uint64_t{1} << 52), static_cast<int>(field) - 1075};
}

GC_SCALAR_HD std::uint64_t f64_bits(double x) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(x));
#else
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
#endif
}

// s plus a remainder r with |r| < ulp(s) / 2 and sign(r) = tail (-1, 0, +1: relative to
// the real line, not to |s|), as a value that rounds as s + r does to any format at least
// two bits coarser than binary64: 4|s| +- 1 at exponent - 2 lies strictly between the same
// two neighbours of the coarser grid as |s + r|. s must be finite and nonzero when tail is
// not 0 (an error-free transformation's remainder of a zero sum is zero).
GC_SCALAR_HD Value value_with_tail(double s, int tail) {
  Value v = decode_f64(f64_bits(s));
  if (tail == 0 || v.cls != FpClass::kFinite) return v;
  const bool larger = (tail > 0) != v.negative;  // the remainder adds to the magnitude
  v.sig = (v.sig << 2) + (larger ? 1 : 0) - (larger ? 0 : 1);
  v.exp -= 2;
  return v;
}

// The class of an input code of format t (numeric.scalar.* count mismatches per class).
enum InputClass : int { kClassZero, kClassSubnormal, kClassNormal, kClassInf, kClassNan, kInputClasses };

GC_SCALAR_HD int input_class(const Target& t, std::uint32_t bits) {
  const Value v = decode(t, bits);
  switch (v.cls) {
    case FpClass::kZero: return kClassZero;
    case FpClass::kInf: return kClassInf;
    case FpClass::kNaN: return kClassNan;
    case FpClass::kFinite: break;
  }
  return ((bits >> t.pad_bits) >> t.man_bits & t.exp_field_max()) == 0 ? kClassSubnormal : kClassNormal;
}

// --- The targets of the conversions (kernels/numeric/scalar_convert.cu), with the NaN
// each returns. The canonical NaNs are those of NVIDIA's own host emulation of these
// conversions in the CUDA 13.0 headers, written to give the device's results:
// __internal_float2half (cuda_fp16.hpp: any NaN -> 0x7fff), __internal_float2bfloat16
// (cuda_bf16.hpp: 0x7fff), __nv_cvt_float_to_fp8 (cuda_fp8.hpp: the NaN is made canonical
// 0x7fffffff first, so e4m3 and e5m2 both give 0x7f), __internal_half2float (cuda_fp16.hpp:
// any f16 NaN -> 0x7fffffff), which is also the binary32 arithmetic's canonical NaN (PTX
// ISA, floating-point section). tf32 has no host emulation and no canonical NaN: its
// conversion truncates the NaN (NanRule::kTruncated).
inline constexpr std::uint32_t kF16CanonicalNan = 0x7fffu;
inline constexpr std::uint32_t kBf16CanonicalNan = 0x7fffu;
inline constexpr std::uint32_t kF8CanonicalNan = 0x7fu;
inline constexpr std::uint32_t kF32CanonicalNan = 0x7fffffffu;

}  // namespace gpuconform::ref::scalar
