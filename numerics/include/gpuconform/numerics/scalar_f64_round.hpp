// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exact-rounding decider of the binary64 arithmetic probes (numeric.scalar.<op>.<rnd>.f64,
// kernels/numeric/scalar_f64_arith.cu), host and device. No wider float exists on the GPU, so
// an exact result travels as a binary64 s plus its remainder e (exact, |e| <= ulp(s)/2, from
// an error-free transformation computed on operands scaled near 1, so nothing underflows or
// overflows), and an integer exponent offset. f64_with_tail() turns that into a Value whose
// significand carries three bits below s: e's position among the multiples of ulp(s)/4
// (exactly on one, or strictly between two). That is exact for rounding to any grid of
// quantum >= ulp(s)/2 (binary64 itself, the finer binade below a power of two, the
// subnormal grid), so round_to_f64() gives the correctly rounded binary64 in every
// direction, subnormal results and overflow included. The decision does not take the
// hardware's rounded s on trust: a tie is rounded by round_to_f64, not by the RN add.
#include <cstdint>

#include "gpuconform/reference/scalar_round.hpp"

namespace gpuconform::numerics::f64 {

using ref::scalar::Value;

GC_SCALAR_HD double from_bits(std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(b));
#else
  double d = 0;
  std::memcpy(&d, &b, sizeof d);
  return d;
#endif
}
GC_SCALAR_HD std::uint64_t bits(double x) { return ref::scalar::f64_bits(x); }

inline constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
inline constexpr std::uint64_t kInf = 0x7ff0000000000000ull;
inline constexpr std::uint64_t kMaxFinite = 0x7fefffffffffffffull;
// What the decider returns when an error-free transformation came out inconsistent (|e| >
// ulp(s)/2: only a wrong hardware RN operation does that): a NaN no operation produces here
// is compared as a number, so it always counts as a mismatch and is named in the notes.
inline constexpr std::uint64_t kInconsistent = 0x7ff4deadbeef0001ull;

GC_SCALAR_HD bool is_nan_bits(std::uint64_t b) { return (b & ~kSign) > kInf; }

// An exact value rounded to binary64 in direction r (integer only): subnormals on their
// grid, overflow to inf or the largest finite as IEEE 754 7.4 says. v.sig < 2^62.
GC_SCALAR_HD std::uint64_t round_to_f64(const Value& v, ref::Rounding r) {
  using namespace ref::scalar::detail;
  const std::uint64_t sign = v.negative ? kSign : 0;
  if (v.cls == ref::FpClass::kNaN) return 0x7ff8000000000000ull;
  if (v.cls == ref::FpClass::kInf) return sign | kInf;
  if (v.cls == ref::FpClass::kZero || v.sig == 0) return sign;
  const int e = msb_index(v.sig) + v.exp;
  int q = (e > -1022 ? e : -1022) - 52;
  std::uint64_t kept = round_at(v, q, r);
  if ((kept >> 53) != 0) {
    kept >>= 1;
    ++q;
  }
  if (kept == 0) return sign;
  const std::uint64_t hidden = std::uint64_t{1} << 52;
  if (kept < hidden) return sign | kept;
  const int e_out = q + 52;
  if (e_out > 1023) return sign | (rounds_away_on_overflow(r, v.negative) ? kInf : kMaxFinite);
  return sign | static_cast<std::uint64_t>(e_out + 1023) << 52 | (kept - hidden);
}

// A finite nonzero binary64 as sig * 2^exp with sig in [2^52, 2^53) (subnormals normalised).
struct Normal {
  bool negative;
  std::uint64_t sig;
  int exp;
};
GC_SCALAR_HD Normal normalise(std::uint64_t b) {
  const Value v = ref::scalar::decode_f64(b);
  const int shift = 52 - ref::scalar::detail::msb_index(v.sig);
  return {v.negative, v.sig << shift, v.exp - shift};
}
// sig * 2^exp (sig in [2^52, 2^53)) as a binary64; the caller keeps exp + 52 in [-1022, 1023].
GC_SCALAR_HD double compose(bool negative, std::uint64_t sig, int exp) {
  return from_bits((negative ? kSign : 0) | static_cast<std::uint64_t>(exp + 52 + 1023) << 52 |
                   (sig - (std::uint64_t{1} << 52)));
}
// 2^k for k in [-1022, 1023].
GC_SCALAR_HD double pow2(int k) { return from_bits(static_cast<std::uint64_t>(k + 1023) << 52); }

// e's position among the multiples of quarter = ulp(s)/4, in eighths of ulp(s): 2j when e =
// j*quarter, 2j+1 when strictly between j and j+1 quarters. `below(t)` says whether the exact
// remainder lies below t, `equal(t)` whether on it, for t = j*quarter, j = -2..2. Returns
// 99 when |e| > ulp(s)/2 (inconsistent).
template <class Below, class Equal>
GC_SCALAR_HD int eighths(double quarter, Below below, Equal equal) {
  for (int j = -2; j <= 2; ++j) {
    const double t = j * quarter;
    if (equal(t)) return 2 * j;
    if (below(t)) return j == -2 ? 99 : 2 * j - 1;
  }
  return 99;
}

// s (finite, nonzero, normal) plus a remainder classified by eighths(), times 2^scale, as
// an exact Value (three bits below s). The representative 8|s| + m lies strictly between
// the same multiples of ulp(s)/4 as |s + e|, or on the same one.
GC_SCALAR_HD Value f64_with_tail(double s, int m, int scale) {
  Value v = ref::scalar::decode_f64(bits(s));
  const bool negative = v.negative;
  const std::int64_t mag = static_cast<std::int64_t>(v.sig << 3) + (negative ? -m : m);
  v.sig = static_cast<std::uint64_t>(mag);
  v.exp = v.exp - 3 + scale;
  return v;
}

// ulp(s) for a normal s (the spacing above |s| in its binade).
GC_SCALAR_HD double ulp_of(double s) {
  const std::uint64_t field = (bits(s) >> 52) & 0x7ff;
  return pow2(static_cast<int>(field) - 1023 - 52);
}

}  // namespace gpuconform::numerics::f64
