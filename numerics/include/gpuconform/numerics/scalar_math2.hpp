// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.math.<fn> for the two-argument binary32 functions (powf atan2f hypotf fmodf
// remainderf) and intrinsics (numeric.math.intrinsic.powf/fdividef/fdiv_rn: __powf,
// __fdividef, __fdiv_rn), on kMath2Pairs deterministic operand pairs
// (kernels/numeric/scalar_math2.cu). The measure and the method are the one-argument
// family's (scalar_mathlib.hpp): the integer ulp distance from the correctly rounded result,
// a binary64 reference on the GPU (CUDA's pow, atan2, hypot: 2 binary64 ulps by the
// Programming Guide; fmod, remainder and x / y exact or correctly rounded), inputs within
// the flag width of a binary32 rounding boundary decided on the host by MPFR.
//
// Pairs: 2^24 at the standard level, kMath2Pairs = 2^30 with GPUCONFORM_SCALAR_LONG=1 (the
// probe cannot see the run level, as the family's other sampled probes cannot:
// tools/device/scalar_math_batch.sh sets it for --level long and for recording). The smaller
// sample is the larger one's prefix. The measured maximum and its pair, an exact entry
// (scalar_math_worst.hpp), belong to the full sample: the .worst companion of a two-argument
// row skips on the standard sample. Pair i of a row is a
// pure function of (kMath2Seed, row, i) on host and device (math2_pair): the first
// kMath2Specials^2 pairs are every ordered pair of directed values (signed zeros,
// infinities, NaN, the subnormal and normal extremes, 1 and its neighbours, integers), the
// rest a hash of i picks one of eight classes, some per function:
//   0 any two bit patterns             4 the function's hard case (below)
//   1 exponents within 4 of each other 5 powf: y an integer, |x| in [2^-10, 2^10]
//   2 exponents 100 to 253 apart       6 powf: x in [2^-20, 2^20], y in [-150, 150]
//   3 a subnormal operand (or both)    7 both in [2^-30, 2^30], any signs
// 4: powf x = 1 +- k ulps (k < 2^16), |y| in [2^10, 2^30]; fmodf/remainderf x = y * q for an
// integer q < 2^24 (quotients at and next to integers and half-integers); atan2f x and y
// within 2^-10 of each other; hypotf exponents 120 to 127 (the overflow edge); the intrinsics
// class 1. Classes 5 and 6 for the other functions: operands with 12-bit significands
// (exact results and midpoints: hypot(3, 4), pow(x, 2)) and integers below 2^10.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/scalar_mathlib.hpp"

namespace gpuconform::numerics {

enum class Math2Fn : std::uint8_t { powf, atan2f, hypotf, fmodf, remainderf, i_powf, i_fdividef, i_fdiv_rn };

inline constexpr std::uint64_t kMath2Pairs = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kMath2StandardPairs = std::uint64_t{1} << 24;
// The pairs a probe runs: kMath2StandardPairs, or kMath2Pairs with GPUCONFORM_SCALAR_LONG=1.
std::uint64_t math2_pair_count();
inline constexpr std::uint64_t kMath2Seed = 0x6d617468322d3232ull;  // "math2-22"
inline constexpr int kMath2Specials = 32;

// What a GPU thread needs of a row (by value to the kernel).
struct Math2Spec {
  Math2Fn fn;
  bool ftz = false;  // __powf: flushed operands and results (scalar_mathlib.hpp's MathSpec::ftz)
  // The judged domain: |second operand| in [b_lo, b_hi] (__fdividef: [2^-126, 2^126]: for
  // 2^126 < |y| < 2^128 the Guide has it return 0, and NaN for an infinite x).
  double b_lo = 0, b_hi = kMathNoLimit;
  // __powf: exp2f(y * __log2f(x)) speaks for a finite x > 0 and a finite y only (x <= 0 gives
  // NaN or exp2f(+-inf) whatever pow's sign rules say; 0 * inf and NaN operands give NaN).
  bool a_positive = false;
  double flag_ulps = kMathFlagUlps;
};

GC_SCALAR_HD bool math2_judged(const Math2Spec& s, float a, float b) {
  if (s.a_positive) {
    const bool a_in = a > 0 && a - a == 0;  // finite, > 0 (NaN: no)
    if (!a_in || !(b - b == 0)) return false;
  }
  const double m = b < 0 ? -static_cast<double>(b) : static_cast<double>(b);
  if (b != b) return true;
  return m >= s.b_lo && m <= s.b_hi;
}

// SplitMix64: a counter-based hash, the same on host and device.
GC_SCALAR_HD std::uint64_t math2_hash(std::uint64_t v) {
  v += 0x9e3779b97f4a7c15ull;
  v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ull;
  v = (v ^ (v >> 27)) * 0x94d049bb133111ebull;
  return v ^ (v >> 31);
}

// The directed values (bit patterns) of the first kMath2Specials^2 pairs.
GC_SCALAR_HD std::uint32_t math2_special(int k) {
  switch (k) {
    case 0: return 0x00000000u;  // +0
    case 1: return 0x80000000u;  // -0
    case 2: return 0x7f800000u;  // +inf
    case 3: return 0xff800000u;  // -inf
    case 4: return 0x7fc00000u;  // NaN
    case 5: return 0x00000001u;  // smallest subnormal
    case 6: return 0x80000001u;
    case 7: return 0x007fffffu;  // largest subnormal
    case 8: return 0x00800000u;  // smallest normal
    case 9: return 0x7f7fffffu;  // largest finite
    case 10: return 0xff7fffffu;
    case 11: return 0x3f800000u;  // 1
    case 12: return 0xbf800000u;  // -1
    case 13: return 0x3f7fffffu;  // 1 - 2^-24
    case 14: return 0x3f800001u;  // 1 + 2^-23
    case 15: return 0x3f000000u;  // 0.5
    case 16: return 0xbf000000u;  // -0.5
    case 17: return 0x40000000u;  // 2
    case 18: return 0xc0000000u;  // -2
    case 19: return 0x40400000u;  // 3
    case 20: return 0xc0400000u;  // -3
    case 21: return 0x4b000000u;  // 2^23: integers from here
    case 22: return 0x4b7fffffu;  // 2^24 - 1: odd
    case 23: return 0xcb7fffffu;
    case 24: return 0x4f000000u;  // 2^31
    case 25: return 0x42fe0000u;  // 127
    case 26: return 0xc3160000u;  // -150
    case 27: return 0x40490fdbu;  // pi
    case 28: return 0x3dcccccdu;  // 0.1
    case 29: return 0x3effffffu;  // 0.5 - 2^-25
    case 30: return 0x00400000u;  // 2^-127
    default: return 0x7f400000u;  // 2^127 * 1.5
  }
}

GC_SCALAR_HD float math2_float(std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float f = 0;
  std::memcpy(&f, &b, sizeof f);
  return f;
#endif
}

// A binary32 with sign s, biased exponent field e (clamped to [0, 254]) and mantissa m.
GC_SCALAR_HD std::uint32_t math2_compose(std::uint64_t s, int e, std::uint64_t m) {
  e = e < 0 ? 0 : (e > 254 ? 254 : e);
  return static_cast<std::uint32_t>((s & 1) << 31 | static_cast<std::uint64_t>(e) << 23 | (m & 0x7fffffu));
}

// Pair i of row fn: a (first operand) and b (second), as the header describes.
GC_SCALAR_HD void math2_pair(Math2Fn fn, std::uint64_t i, std::uint32_t& a, std::uint32_t& b) {
  constexpr std::uint64_t kDirected = static_cast<std::uint64_t>(kMath2Specials) * kMath2Specials;
  if (i < kDirected) {
    a = math2_special(static_cast<int>(i / kMath2Specials));
    b = math2_special(static_cast<int>(i % kMath2Specials));
    return;
  }
  const std::uint64_t h1 = math2_hash(kMath2Seed ^ static_cast<std::uint64_t>(fn) << 56 ^ i);
  const std::uint64_t h2 = math2_hash(h1);
  const int ea = static_cast<int>((h1 >> 8) % 255);  // a's exponent field, 0..254
  int cls = static_cast<int>(h1 & 7);
  const bool intrinsic = fn == Math2Fn::i_powf || fn == Math2Fn::i_fdividef || fn == Math2Fn::i_fdiv_rn;
  if (intrinsic && cls == 4) cls = 1;
  switch (cls) {
    case 0:
      a = static_cast<std::uint32_t>(h2);
      b = static_cast<std::uint32_t>(h2 >> 32);
      return;
    case 1:
      a = math2_compose(h1 >> 16, ea, h2);
      b = math2_compose(h1 >> 17, ea + static_cast<int>((h1 >> 18) % 9) - 4, h2 >> 23);
      return;
    case 2: {
      const int d = 100 + static_cast<int>((h1 >> 18) % 154);
      const int e = static_cast<int>((h1 >> 26) % 255);
      a = math2_compose(h1 >> 16, e, h2);
      b = math2_compose(h1 >> 17, (h1 >> 34) & 1 ? e + d : e - d, h2 >> 23);
      return;
    }
    case 3:
      a = math2_compose(h1 >> 16, (h1 >> 18) & 1 ? 0 : ea, h2);
      b = math2_compose(h1 >> 17, (h1 >> 19) & 1 ? ea : 0, h2 >> 23);
      if ((a & 0x7f800000u) != 0 && (b & 0x7f800000u) != 0) b &= 0x807fffffu;  // one at least
      return;
    case 4:
      switch (fn) {
        case Math2Fn::powf: {
          const std::uint32_t k = 1 + static_cast<std::uint32_t>((h2 >> 40) & 0xffff);
          a = (h1 >> 16) & 1 ? 0x3f800000u + k : 0x3f800000u - k;
          b = math2_compose(h1 >> 17, 127 + 10 + static_cast<int>((h1 >> 18) % 21), h2);
          return;
        }
        case Math2Fn::fmodf:
        case Math2Fn::remainderf: {
          b = math2_compose(h1 >> 17, 1 + static_cast<int>((h1 >> 18) % 200), h2);
          const double q = static_cast<double>((h2 >> 32) & 0xffffff) + ((h1 >> 40) & 1 ? 0.5 : 0.0);
          const float bf = math2_float(b);
          a = f32_bits_of(static_cast<float>(static_cast<double>(bf) * q)) +
              static_cast<std::uint32_t>((h1 >> 41) % 3) - 1;
          a = (a & 0x7fffffffu) >= 0x7f800000u ? b : a | static_cast<std::uint32_t>(h1 >> 16 & 1) << 31;
          return;
        }
        case Math2Fn::atan2f:
          a = math2_compose(h1 >> 16, ea, h2);
          b = math2_compose(h1 >> 17, ea, (h2 & 0x7fffffu) ^ ((h2 >> 32) & 0x1fffu));  // same exponent, 10 leading bits
          return;
        default:  // hypotf
          a = math2_compose(h1 >> 16, 247 + static_cast<int>((h1 >> 18) % 8), h2);
          b = math2_compose(h1 >> 17, 247 + static_cast<int>((h1 >> 21) % 8), h2 >> 23);
          return;
      }
    case 5:
      if (fn == Math2Fn::powf || fn == Math2Fn::i_powf) {
        a = math2_compose(h1 >> 16, 117 + static_cast<int>((h1 >> 18) % 21), h2);
        const std::int64_t n = static_cast<std::int64_t>((h2 >> 32) & 0x1fff) - 4096;
        b = f32_bits_of(static_cast<float>(n));
      } else {  // 12-bit significands: exact results and exact midpoints
        a = math2_compose(h1 >> 16, 117 + static_cast<int>((h1 >> 18) % 21), h2 & 0x7ff000u);
        b = math2_compose(h1 >> 17, 117 + static_cast<int>((h1 >> 23) % 21), (h2 >> 23) & 0x7ff000u);
      }
      return;
    case 6:
      if (fn == Math2Fn::powf || fn == Math2Fn::i_powf) {
        a = math2_compose(0, 107 + static_cast<int>((h1 >> 18) % 41), h2);
        b = f32_bits_of(static_cast<float>(static_cast<double>((h2 >> 32) % 300001) / 1000.0 - 150.0));
      } else {
        a = f32_bits_of(static_cast<float>(static_cast<std::int64_t>((h2 >> 8) % 2047) - 1023));
        b = f32_bits_of(static_cast<float>(static_cast<std::int64_t>((h2 >> 40) % 2047) - 1023));
      }
      return;
    default:
      a = math2_compose(h1 >> 16, 97 + static_cast<int>((h1 >> 18) % 61), h2);
      b = math2_compose(h1 >> 17, 97 + static_cast<int>((h1 >> 24) % 61), h2 >> 23);
      return;
  }
}

// One row of the table (numerics/src/scalar_math2.cpp).
struct ScalarMath2 {
  std::string id;     // "numeric.math.powf", "numeric.math.intrinsic.fdividef"
  std::string name;   // the math_oracle name: "powf", "divf"
  std::string label;  // what the GPU calls: "powf", "__fdividef"
  Math2Spec spec;
  bool judged = true;  // false: no number in the Guide (__powf): recorded, not judged
  double bound = 0;    // ulps
  std::string bound_text;
  std::string table;  // "Standard Functions" or "Intrinsic Functions"
};
const std::vector<ScalarMath2>& scalar_math2();
const ScalarMath2* find_scalar_math2(std::string_view id);

// The flagged pairs (MathFlagged.x holds the pair's index) decided by MPFR, on every core.
MathDecision decide_flagged2(const ScalarMath2& row, const std::vector<MathFlagged>& flagged);

// As math_measurement (scalar_mathlib.hpp), keys holding the pair index; notes add
// signed_zero (results that are zeros of the other sign than the correctly rounded one:
// 0 ulps apart, counted, not judged) and the pair count.
Measurement math2_measurement(const ScalarMath2& row, const MathScan& scan, const MathDecision& decided,
                              std::uint64_t signed_zero_differences);

}  // namespace gpuconform::numerics
