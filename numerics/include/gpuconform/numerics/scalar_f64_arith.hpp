// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.scalar.<op>.<rn|rz|rm|rp>.f64: add, sub, mul, fma, div, rcp and sqrt in binary64 at
// every rounding (PTX has no .ftz on f64), on operand tuples that mix uniform bit patterns
// with directed hard cases (kernels/numeric/scalar_f64_arith.cu), every result compared in
// the same GPU thread with an exact reference:
//
// - the operands are scaled by powers of two near 1 (exact), so the error-free
//   transformations below neither underflow nor overflow: TwoSum for add and sub, TwoProd
//   (fma(a, b, -p)) for mul, Boldo and Muller's ErrFma (exact remainder of an fma as two
//   binary64) for fma, r = fma(-q, b, a) for a / b and r = fma(-s, s, a) for sqrt; an
//   operand too far below the other to be scaled exactly is replaced by a stand-in of its sign
//   below every bit that matters (it only decides the direction of a tie or a directed
//   rounding);
// - scalar_f64_round.hpp turns the scaled s, its remainder and the scale into an exact
//   value and rounds it (integer code) to binary64 in the row's direction, subnormal
//   results and overflow included;
// - specials follow IEEE 754-2019: invalid operations give NaN, exact zeros are signed by
//   6.3 (+0, or -0 under .rm, except for two zeros of one sign), x / 0 is an infinity.
//   A NaN result is compared as a class (any NaN matches): PTX states no canonical binary64
//   NaN, so the probe counts which NaN came back (the first NaN operand made quiet, the
//   default 0x7fff..., another) instead of assuming one.
//
// The error-free transformations use the GPU's own RN add and fma, but the rounding is
// decided from the exact value, not taken from them (a wrong tie or a wrong RN result
// changes the reference, or makes the remainder inconsistent: f64::kInconsistent, a
// mismatch either way); tests/unit/numerics/scalar_f64_arith_test.cpp checks the decider
// against MPFR (53 bits, binary64's exponent range, subnormalised) on every operand class.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/scalar_arith.hpp"  // ArithOp, mix64, arith_operand_count
#include "gpuconform/numerics/scalar_f64_round.hpp"
#include "gpuconform/numerics/scalar_rn_ops.hpp"

namespace gpuconform::numerics {

struct F64ArithSpec {
  ArithOp op;
  ref::Rounding rounding;
};

namespace f64_detail {

using namespace f64;

// The RN binary64 steps (scalar_rn_ops.hpp).
using rn_ops::add;
using rn_ops::div;
using rn_ops::fma;
using rn_ops::mul;
using rn_ops::sqrt;

GC_SCALAR_HD bool is_nan(std::uint64_t b) { return is_nan_bits(b); }
GC_SCALAR_HD bool is_inf(std::uint64_t b) { return (b & ~kSign) == kInf; }
GC_SCALAR_HD bool is_zero(std::uint64_t b) { return (b & ~kSign) == 0; }
GC_SCALAR_HD bool neg(std::uint64_t b) { return (b & kSign) != 0; }
GC_SCALAR_HD int exponent_of(std::uint64_t b) {  // floor(log2 |b|) of a finite nonzero b
  const Normal n = normalise(b);
  return n.exp + 52;
}

// (s, e): s = RN(x + y), e = x + y - s exactly (Knuth's TwoSum; x, y near 1).
struct Pair {
  double s, e;
};
GC_SCALAR_HD Pair two_sum(double x, double y) {
  const double s = add(x, y);
  const double bb = add(s, -x);
  const double e = add(add(x, -add(s, -bb)), add(y, -bb));
  return {s, e};
}

// The zero an exact zero sum gets (IEEE 754-2019 6.3).
GC_SCALAR_HD std::uint64_t zero_sum(bool x_zero_neg, bool y_zero_neg, bool both_zero, ref::Rounding r) {
  if (both_zero && x_zero_neg == y_zero_neg) return x_zero_neg ? kSign : 0;
  return r == ref::Rounding::kRD ? kSign : 0;
}

// A finite nonzero x as sign * m * 2^k with m in [1, 2): m, k.
struct Scaled {
  double m;
  int k;
};
GC_SCALAR_HD Scaled scale_near_one(std::uint64_t b) {
  const Normal n = normalise(b);
  return {compose(n.negative, n.sig, -52), n.exp + 52};
}
// x * 2^-k for a finite nonzero x when the result stays within [2^-1000, 2^1000]; else a
// stand-in of x's sign: 2^-1000 below (for an x far below the rest), or the caller decides.
GC_SCALAR_HD double scale_by(std::uint64_t b, int k) {
  const Normal n = normalise(b);
  const int e = n.exp + 52 - k;
  if (e < -1000) return neg(b) ? -pow2(-1000) : pow2(-1000);
  return compose(n.negative, n.sig, n.exp - k);
}

// Round s + (remainder classified by m) at scale, or kInconsistent.
GC_SCALAR_HD std::uint64_t finish(double s, int m, int scale, ref::Rounding r) {
  if (m == 99) return kInconsistent;
  return round_to_f64(f64_with_tail(s, m, scale), r);
}
// The same for a magnitude s whose result carries the sign `negative` (div, rcp).
GC_SCALAR_HD std::uint64_t finish_signed(double s, int m, int scale, bool negative, ref::Rounding r) {
  if (m == 99) return kInconsistent;
  Value v = f64_with_tail(s, m, scale);
  v.negative = negative;
  return round_to_f64(v, r);
}

// The exact sum x + y (scaled near 1 by the caller) rounded at 2^scale. x + y != 0 in
// value unless both exact zero cancel; the caller handles zero operands.
GC_SCALAR_HD std::uint64_t sum_scaled(double x, double y, int scale, ref::Rounding r) {
  const Pair p = two_sum(x, y);
  if (p.s == 0) return r == ref::Rounding::kRD ? kSign : 0;  // exact cancellation (TwoSum: e = 0)
  const double quarter = ulp_of(p.s) / 4;
  const int m = eighths(
      quarter, [&](double t) { return p.e < t; }, [&](double t) { return p.e == t; });
  return finish(p.s, m, scale, r);
}

}  // namespace f64_detail

// The correctly rounded binary64 result of s.op on a, b, c (bit patterns); NaN results are
// 0x7ff8000000000000 (compared as a class by f64_results_match).
GC_SCALAR_HD std::uint64_t f64_arith_reference(const F64ArithSpec& spec, std::uint64_t a, std::uint64_t b,
                                               std::uint64_t c) {
  using namespace f64_detail;
  const ref::Rounding r = spec.rounding;
  constexpr std::uint64_t kNan = 0x7ff8000000000000ull;
  switch (spec.op) {
    case ArithOp::add:
    case ArithOp::sub: {
      if (spec.op == ArithOp::sub) b ^= kSign;
      if (is_nan(a) || is_nan(b)) return kNan;
      if (is_inf(a) || is_inf(b)) {
        if (is_inf(a) && is_inf(b) && neg(a) != neg(b)) return kNan;
        return is_inf(a) ? a : b;
      }
      if (is_zero(a) || is_zero(b)) {
        if (is_zero(a) && is_zero(b)) return zero_sum(neg(a), neg(b), true, r);
        return is_zero(a) ? b : a;  // x + 0 = x exactly
      }
      const int ea = exponent_of(a), eb = exponent_of(b);
      const int top = ea > eb ? ea : eb;
      // Both scaled so the larger is in [1, 2); one more than 60 binades below the other only
      // breaks ties and directs roundings: its stand-in (2^-1000, sign kept) does the same.
      const std::uint64_t lo = ea > eb ? b : a, hi = ea > eb ? a : b;
      const double x = scale_by(hi, top);
      const double y = (ea > eb ? eb : ea) < top - 60 ? (neg(lo) ? -pow2(-200) : pow2(-200)) : scale_by(lo, top);
      return sum_scaled(x, y, top, r);
    }
    case ArithOp::mul: {
      if (is_nan(a) || is_nan(b)) return kNan;
      const bool sign = neg(a) != neg(b);
      if (is_inf(a) || is_inf(b)) return (is_zero(a) || is_zero(b)) ? kNan : (sign ? kSign : 0) | kInf;
      if (is_zero(a) || is_zero(b)) return sign ? kSign : 0;
      const Scaled x = scale_near_one(a), y = scale_near_one(b);
      const double p = mul(x.m, y.m);
      const double e = fma(x.m, y.m, -p);  // exact: |p| in [1, 4)
      const int m = eighths(
          ulp_of(p) / 4, [&](double t) { return e < t; }, [&](double t) { return e == t; });
      return finish(p, m, x.k + y.k, r);
    }
    case ArithOp::fma: {
      if (is_nan(a) || is_nan(b) || is_nan(c)) return kNan;
      const bool psign = neg(a) != neg(b);
      if (is_inf(a) || is_inf(b)) {
        if (is_zero(a) || is_zero(b)) return kNan;
        if (is_inf(c) && neg(c) != psign) return kNan;
        return (psign ? kSign : 0) | kInf;
      }
      if (is_inf(c)) return c;
      if (is_zero(a) || is_zero(b)) {  // an exact zero product: 0 + c
        if (is_zero(c)) return zero_sum(psign, neg(c), true, r);
        return c;
      }
      const Scaled x = scale_near_one(a), y = scale_near_one(b);
      if (is_zero(c)) {  // a * b rounded alone
        const double p = mul(x.m, y.m), e = fma(x.m, y.m, -p);
        const int m = eighths(
            ulp_of(p) / 4, [&](double t) { return e < t; }, [&](double t) { return e == t; });
        return finish(p, m, x.k + y.k, r);
      }
      const int kp = x.k + y.k;  // |a*b| in [2^kp, 2^(kp+2))
      const int ec = exponent_of(c);
      if (ec > kp + 110) {
        // a * b lies below every bit of c's result that matters: c plus a stand-in.
        const double cs = scale_by(c, ec);
        return sum_scaled(cs, psign ? -pow2(-200) : pow2(-200), ec, r);
      }
      // Everything at the product's scale; c more than 160 binades below becomes a stand-in.
      const double z = ec < kp - 160 ? (neg(c) ? -pow2(-400) : pow2(-400)) : scale_by(c, kp);
      // ErrFma (Boldo and Muller 2011): x*y + z = r1 + r2 + r3 exactly, r2 = RN(r2 + r3).
      const double r1 = fma(x.m, y.m, z);
      if (r1 == 0) return r == ref::Rounding::kRD ? kSign : 0;  // exact cancellation
      const double u1 = mul(x.m, y.m), u2 = fma(x.m, y.m, -u1);
      const Pair alpha = two_sum(z, u2);
      const Pair beta = two_sum(u1, alpha.s);
      const double gamma = add(add(beta.s, -r1), beta.e);
      const double r2 = add(gamma, alpha.e);
      const double r3 = add(add(gamma, -r2), alpha.e);  // Fast2Sum(gamma, alpha.e)
      const int m = eighths(
          ulp_of(r1) / 4, [&](double t) { return r2 < t || (r2 == t && r3 < 0); },
          [&](double t) { return r2 == t && r3 == 0; });
      return finish(r1, m, kp, r);
    }
    case ArithOp::div:
    case ArithOp::rcp: {
      if (spec.op == ArithOp::rcp) {
        b = a;
        a = 0x3ff0000000000000ull;
      }
      if (is_nan(a) || is_nan(b)) return kNan;
      const std::uint64_t sign = neg(a) != neg(b) ? kSign : 0;
      if ((is_inf(a) && is_inf(b)) || (is_zero(a) && is_zero(b))) return kNan;
      if (is_inf(a) || is_zero(b)) return sign | kInf;
      if (is_zero(a) || is_inf(b)) return sign;
      const Scaled x = scale_near_one(a & ~kSign), y = scale_near_one(b & ~kSign);
      const double q = div(x.m, y.m);        // in (1/2, 2)
      const double rem = fma(-q, y.m, x.m);  // exact: x - q*y
      // e = rem / y, compared with t through rem with t*y (exact: t is a power of 2 times j).
      const int m = eighths(
          ulp_of(q) / 4, [&](double t) { return rem < t * y.m; }, [&](double t) { return rem == t * y.m; });
      return finish_signed(q, m, x.k - y.k, sign != 0, r);
    }
    case ArithOp::sqrt: {
      if (is_nan(a)) return kNan;
      if (is_zero(a)) return a;
      if (neg(a)) return kNan;
      if (is_inf(a)) return a;
      const Scaled x0 = scale_near_one(a);
      // An even exponent: x in [1, 4).
      const int k = x0.k % 2 == 0 ? x0.k : x0.k - 1;
      const double x = k == x0.k ? x0.m : x0.m * 2;
      const double s = sqrt(x);          // in [1, 2]
      const double rem = fma(-s, s, x);  // exact: x - s^2
      // sqrt(x) = s + e never lies on a multiple of ulp(s)/4 (s^2 would have more than 53
      // bits), and is within ulp(s)/2 (or ulp(s)/4 below a power of 2) of s exactly when
      // -s*ulp (-s*ulp/2) < rem <= s*ulp (rem is a multiple of ulp^2: docs/numerics.md).
      const double u = ulp_of(s);
      const bool pow2_s = (bits(s) & 0xfffffffffffffull) == 0;
      if (rem > s * u || rem <= -(pow2_s ? s * u / 2 : s * u)) return kInconsistent;
      const int m = rem > 0 ? 1 : rem < 0 ? -1 : 0;
      return finish(s, m, k / 2, r);
    }
  }
  return kNan;
}

// The GPU's result matches the reference: equal bits, or both NaN (no canonical f64 NaN).
GC_SCALAR_HD bool f64_results_match(std::uint64_t got, std::uint64_t want) {
  if (want == f64::kInconsistent) return false;
  return got == want || (f64::is_nan_bits(got) && f64::is_nan_bits(want));
}

// --- Operand tuples: deterministic, the same on the host and the GPU (class i % 5, as the
// binary32 rows: uniform, boundary, ties, specials, subnormal).

inline constexpr int kF64SpecialCount = 24;
GC_SCALAR_HD std::uint64_t f64_special(int k) {
  const std::uint64_t table[kF64SpecialCount] = {
      0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
      0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000001ull, 0x7ff7ffffffffffffull,  // sNaNs
      0x0000000000000001ull, 0x8000000000000001ull, 0x000fffffffffffffull, 0x800fffffffffffffull,
      0x0010000000000000ull, 0x8010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
      0x3ff0000000000000ull, 0xbff0000000000000ull, 0x3ff0000000000001ull, 0x3fffffffffffffffull,
      0x3ca0000000000000ull, 0x4340000000000000ull, 0x3fefffffffffffffull, 0x0010000000000001ull};
  return table[k];
}

struct F64Operands {
  std::uint64_t a, b, c;
};

GC_SCALAR_HD F64Operands f64_operands(ArithOp op, std::uint64_t i) {
  const std::uint64_t h1 = mix64(i ^ 0x6a09e667f3bcc909ull), h2 = mix64(h1), h3 = mix64(h2);
  const int klass = static_cast<int>(i % kArithClasses);
  F64Operands o{h1, h2, h3};
  const auto sign = [](std::uint64_t h) { return h & f64::kSign; };
  // A binary64 with fraction bits `frac` and unbiased exponent e (clamped to normals).
  const auto make = [](std::uint64_t sgn, int e, std::uint64_t frac) {
    e = e < -1022 ? -1022 : e > 1023 ? 1023 : e;
    return sgn | static_cast<std::uint64_t>(e + 1023) << 52 | (frac & 0xfffffffffffffull);
  };
  switch (klass) {
    case kArithUniform: break;
    case kArithBoundary: {
      // A result exponent near -1075..-1015 (underflow), 1015..1024 (overflow) or -2..2.
      const int pick = static_cast<int>(h3 % 3);
      const int target = pick == 0   ? -1076 + static_cast<int>((h3 >> 8) % 61)
                         : pick == 1 ? 1015 + static_cast<int>((h3 >> 8) % 10)
                                     : -2 + static_cast<int>((h3 >> 8) % 5);
      const int ea = -500 + static_cast<int>((h1 >> 40) % 1001);
      int eb = 0;
      switch (op) {
        case ArithOp::mul:
        case ArithOp::fma: eb = target - ea; break;
        case ArithOp::div: eb = ea - target; break;
        case ArithOp::rcp: o.a = make(sign(h1), -target, h1); return o;
        case ArithOp::sqrt: o.a = make(0, 2 * target, h1); return o;
        default:
          o.a = make(sign(h1), target, h1);
          o.b = make(sign(h2), target - static_cast<int>((h2 >> 40) % 60), h2);
          return o;
      }
      o.a = make(sign(h1), ea, h1);
      o.b = make(sign(h2), eb, h2);
      o.c = make(sign(h3), target - static_cast<int>((h3 >> 20) % 4), h3 >> 5);
      break;
    }
    case kArithTies: {
      // 26-bit significands: products of 52 bits (exact) to 54 (ties, near-ties); sums of
      // operands 51 to 55 binades apart; cancellation.
      const std::uint64_t ma = (h1 & 0x3ffffffull) << 26, mb = (h2 & 0x7ffffffull) << 25;
      const int ea = -20 + static_cast<int>((h1 >> 32) % 41);
      const int gap = 51 + static_cast<int>((h2 >> 32) % 5);
      switch (op) {
        case ArithOp::add:
        case ArithOp::sub:
          o.a = make(sign(h1), ea, ma);
          o.b = make(sign(h2), ea - gap, mb);
          if ((h3 & 3) == 0) o.b = o.a ^ f64::kSign;
          if ((h3 & 3) == 1) o.b = (o.a ^ f64::kSign) + (h3 >> 60);
          break;
        case ArithOp::mul:
        case ArithOp::div:
          o.a = make(sign(h1), ea, ma);
          o.b = make(sign(h2), -static_cast<int>((h2 >> 32) % 20), mb);
          if (op == ArithOp::div && (h3 & 1)) o.a = make(sign(h1), ea, h1);
          break;
        case ArithOp::fma:
          o.a = make(sign(h1), ea, ma);
          o.b = make(sign(h2), 0, mb);
          o.c = make(sign(h3), ea - gap + 53, h3);
          if ((h3 >> 8 & 3) == 0) o.c = make(sign(h3), ea, ma ^ (h3 >> 40 & 0xff));
          if ((h3 >> 8 & 3) == 1) o.c = make(sign(h3) ^ f64::kSign, ea + 1, ma);  // near-cancellation of a*b
          break;
        case ArithOp::sqrt: {
          const std::uint64_t m = (h1 & 0x3ffffffull) | 0x2000000ull;  // 26 bits
          const std::uint64_t sq = m * m;                              // 51 or 52 bits
          const int shift = 52 - ref::scalar::detail::msb_index(sq);
          o.a = make(0, 2 * (ea / 2) + 1 - shift % 2, sq << shift) + (h3 % 3) - 1;
          break;
        }
        case ArithOp::rcp: o.a = make(sign(h1), ea, ma); break;
      }
      break;
    }
    case kArithSpecials:
      o.a = f64_special(static_cast<int>(h1 % kF64SpecialCount));
      o.b = f64_special(static_cast<int>(h2 % kF64SpecialCount));
      o.c = f64_special(static_cast<int>(h3 % kF64SpecialCount));
      break;
    case kArithSubnormal:
      o.a = sign(h1) | (h1 >> 9 & 0xfffffffffffffull);
      if (h3 & 1) o.b = sign(h2) | (h2 >> 9 & 0xfffffffffffffull);
      if (h3 & 2) o.c = sign(h3) | (h3 >> 9 & 0xfffffffffffffull);
      if ((h3 & 12) == 0) o.b = 0x3ff0000000000000ull;
      break;
  }
  return o;
}

// One row of the table (numerics/src/scalar_f64_arith.cpp).
struct ScalarF64Arith {
  std::string id;   // "numeric.scalar.div.rn.f64"
  std::string ptx;  // "div.rn.f64"
  F64ArithSpec spec;
};
const std::vector<ScalarF64Arith>& scalar_f64_arith();
const ScalarF64Arith* find_scalar_f64_arith(std::string_view id);

// Tuples per probe: 2^24 at the standard level; GPUCONFORM_SCALAR_LONG=1 (what
// tools/device/scalar_f64_batch.sh sets for its --level long run: the probe cannot see the
// run level) takes 2^28.
std::uint64_t f64_arith_tuple_count();

struct F64Mismatch {
  std::uint64_t index, a, b, c, got, want;
};
struct F64ArithScan {
  std::uint64_t compared = 0;
  std::uint64_t mismatches_by_class[kArithClasses] = {};
  std::uint64_t nan_results = 0, nan_quieted_operand = 0, nan_default = 0;  // which NaN came back
  std::uint64_t first_nan_result = 0;
  std::vector<F64Mismatch> first;
  double gpu_ms = 0;
  std::uint64_t mismatches() const;
};

// The NaN a binary64 operation returns, classified: 1 the first NaN operand made quiet, 2 the
// default NaN 0x7fffffffffffffff, 0 another.
GC_SCALAR_HD int f64_nan_kind(std::uint64_t got, std::uint64_t a, std::uint64_t b, std::uint64_t c, int operands) {
  const std::uint64_t ops[3] = {a, b, c};
  for (int k = 0; k < operands; ++k)
    if (f64::is_nan_bits(ops[k]))
      return got == (ops[k] | 0x0008000000000000ull) ? 1 : (got == 0x7fffffffffffffffull ? 2 : 0);
  return got == 0x7fffffffffffffffull ? 2 : 0;
}

Measurement f64_arith_measurement(const ScalarF64Arith& row, const F64ArithScan& scan);

extern const char* const kF64ArithCitation;

}  // namespace gpuconform::numerics
