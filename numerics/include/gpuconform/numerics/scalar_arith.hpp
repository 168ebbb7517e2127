// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.scalar.<op>.<rnd>[.ftz].f32: the IEEE binary32 arithmetic instructions (add, sub,
// mul, fma, div, sqrt, rcp at .rn/.rz/.rm/.rp, with and without .ftz) on 2^28 operand
// tuples each (kernels/numeric/scalar_arith.cu), every result compared in the same GPU
// thread with a reference that is exact:
//
// - the operands are binary32, so binary64 holds them exactly and their product exactly
//   (48 bits); a sum, a quotient or a square root rounded to binary64 differs from the exact
//   value by a remainder that an error-free transformation gives exactly (TwoSum for add,
//   sub and fma, whose product is exact; r = fma(-q, y, x) for x / y and fma(-s, s, x) for
//   sqrt, exact as no binary32 operand brings binary64 near its underflow or overflow);
// - the binary64 result plus the remainder's sign (ref::scalar::value_with_tail) rounds to
//   binary32 in every direction as the exact value does (scalar_round.hpp), subnormal
//   results and overflow included;
// - the sign of an exact zero follows IEEE 754-2019 6.3 (+0, or -0 under .rm, except for
//   the sum of two zeros of one sign), a NaN result is the canonical 0x7fffffff, and .ftz
//   flushes subnormal operands, and results tiny after rounding (scalar_round.hpp: rounded at an
//   unbounded exponent, below the smallest normal), to zeros of their sign.
//
// The operand tuples (arith_operands) mix uniform bit patterns with directed classes:
// operands whose exponents make the result land near the subnormal and overflow boundaries,
// short significands whose exact results are midpoints (ties) or exact, cancellation, every
// pair of a table of specials (signed zeros, infinities, NaN payloads, the smallest and
// largest subnormals and normals), and subnormal operands. tests/unit/numerics checks that
// every class occurs and that the reference equals an MPFR evaluation of the same tuples.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/scalar_rn_ops.hpp"
#include "gpuconform/reference/scalar_round.hpp"

namespace gpuconform::numerics {

enum class ArithOp : std::uint8_t { add, sub, mul, fma, div, sqrt, rcp };

// The ops and roundings of the binary32 and binary64 tables, in registration order; the op's
// PTX mnemonic ("add") and the rounding's modifier ("rn") name a row.
inline constexpr ArithOp kArithOps[] = {ArithOp::add, ArithOp::sub,  ArithOp::mul, ArithOp::fma,
                                        ArithOp::div, ArithOp::sqrt, ArithOp::rcp};
struct ArithRounding {
  const char* name;
  ref::Rounding r;
};
inline constexpr ArithRounding kArithRoundings[] = {
    {"rn", ref::Rounding::kRNE}, {"rz", ref::Rounding::kRZ}, {"rm", ref::Rounding::kRD}, {"rp", ref::Rounding::kRU}};
const char* arith_op_name(ArithOp op);

// What a GPU thread needs (passed by value to the kernel).
struct ArithSpec {
  ArithOp op;
  ref::scalar::Target target;  // the result: its format, the instruction's rounding, canonical NaN, .ftz
  ref::scalar::Target source;  // the operands' format (binary32, or f16 / bf16 for the 16-bit forms)
  int lanes = 1;               // 2 for the f16x2 / bf16x2 forms
  bool all_pairs = false;      // a binary op of 16-bit operands: every one of the 2^32 operand pairs
  bool sat = false;            // .sat (f16 and f32 forms): the rounded result clamped to [+0, 1], NaN to +0
};

GC_SCALAR_HD int arith_operand_count(ArithOp op) {
  return op == ArithOp::fma ? 3 : (op == ArithOp::sqrt || op == ArithOp::rcp) ? 1 : 2;
}

namespace arith_detail {

GC_SCALAR_HD double f32_to_f64(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<double>(__uint_as_float(x));
#else
  float f = 0;
  std::memcpy(&f, &x, sizeof f);
  return static_cast<double>(f);
#endif
}
// The RN binary64 steps (scalar_rn_ops.hpp).
using rn_ops::add;
using rn_ops::div;
using rn_ops::fma;
using rn_ops::mul;
using rn_ops::sqrt;

GC_SCALAR_HD int sign_of(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
GC_SCALAR_HD bool is_nan(double x) { return x != x; }
GC_SCALAR_HD bool is_zero(double x) { return x == 0; }
GC_SCALAR_HD bool negative(double x) { return (ref::scalar::f64_bits(x) >> 63) != 0; }

// A subnormal operand of format f becomes a zero of its sign (.ftz on an operand).
GC_SCALAR_HD std::uint32_t flush(const ref::scalar::Target& f, std::uint32_t x) {
  return ((x >> f.pad_bits >> f.man_bits) & f.exp_field_max()) == 0 ? (x & f.sign_bit()) : x;
}

// An operand of format f as the binary64 of the same value (every format here fits).
GC_SCALAR_HD double to_f64(const ref::scalar::Target& f, std::uint32_t x) {
  if (f.exp_bits == 8 && f.man_bits == 23) return f32_to_f64(x);
  const ref::scalar::Value v = ref::scalar::decode(f, x);
  double r = 0;
  switch (v.cls) {
    case ref::FpClass::kZero: r = 0.0; break;
#if defined(__CUDA_ARCH__)
    case ref::FpClass::kInf: r = __longlong_as_double(0x7ff0000000000000ll); break;
    case ref::FpClass::kNaN: r = __longlong_as_double(0x7ff8000000000000ll); break;
    case ref::FpClass::kFinite: r = scalbn(static_cast<double>(v.sig), v.exp); break;
#else
    case ref::FpClass::kInf: r = __builtin_inf(); break;
    case ref::FpClass::kNaN: r = __builtin_nan(""); break;
    case ref::FpClass::kFinite: r = __builtin_scalbn(static_cast<double>(v.sig), v.exp); break;
#endif
  }
  return v.negative ? -r : r;
}

// s = x + y rounded to nearest, and the sign of the exact remainder (TwoSum, Knuth).
GC_SCALAR_HD int two_sum_tail(double x, double y, double s) {
  const double bb = add(s, -x);
  const double err = add(add(x, -add(s, -bb)), add(y, -bb));
  return sign_of(err);
}

// PTX's .sat on an encoded result: "clamps the result to [0.0, 1.0]. NaN results are flushed to
// +0.0f". A negative result, -0 among them, becomes +0 (the clamp's lower end is +0.0); a
// result above 1 becomes 1. Positive codes order as their values, so the upper clamp compares
// codes.
GC_SCALAR_HD std::uint32_t saturated(const ArithSpec& s, std::uint32_t code) {
  if (!s.sat) return code;
  const ref::scalar::Target& t = s.target;
  const std::uint32_t one = static_cast<std::uint32_t>(t.bias) << t.man_bits;
  const bool nan = (code >> t.man_bits & t.exp_field_max()) == t.exp_field_max() && (code & t.man_mask()) != 0;
  if (nan || (code & t.sign_bit()) != 0) return 0u;
  return code > one ? one : code;
}

}  // namespace arith_detail

// The exact result of op on binary32 operands a, b, c, rounded as s.target says.
GC_SCALAR_HD std::uint32_t arith_reference(const ArithSpec& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  namespace d = arith_detail;
  using ref::scalar::round_to;
  using ref::scalar::value_with_tail;
  const ref::scalar::Target& t = s.target;
  if (t.ftz) {
    a = d::flush(s.source, a);
    b = d::flush(s.source, b);
    c = d::flush(s.source, c);
  }
  const double x = d::to_f64(s.source, a), y = d::to_f64(s.source, b), z = d::to_f64(s.source, c);
  double r = 0;
  int tail = 0;
  bool sum_of_zeros = false;  // an exact zero whose sign IEEE 754 6.3 sets by the rounding
  double addend_x = x, addend_y = y;
  switch (s.op) {
    case ArithOp::add:
    case ArithOp::sub:
      addend_y = s.op == ArithOp::sub ? -y : y;
      r = d::add(addend_x, addend_y);
      if (!d::is_nan(r) && r - r == 0) tail = d::two_sum_tail(addend_x, addend_y, r);
      sum_of_zeros = true;
      break;
    case ArithOp::mul: r = d::mul(x, y); break;  // exact: 24 x 24 bits
    case ArithOp::fma:
      addend_x = d::mul(x, y);  // exact
      addend_y = z;
      r = d::add(addend_x, addend_y);
      if (!d::is_nan(r) && r - r == 0) tail = d::two_sum_tail(addend_x, addend_y, r);
      sum_of_zeros = true;
      break;
    case ArithOp::div:
    case ArithOp::rcp: {
      const double num = s.op == ArithOp::rcp ? 1.0 : x, den = s.op == ArithOp::rcp ? x : y;
      r = d::div(num, den);
      if (!d::is_nan(r) && r - r == 0 && r != 0) tail = d::sign_of(d::fma(-r, den, num)) * d::sign_of(den);
      break;
    }
    case ArithOp::sqrt:
      r = d::sqrt(x);
      if (!d::is_nan(r) && r - r == 0 && r != 0) tail = d::sign_of(d::fma(-r, r, x));
      break;
  }
  if (d::is_nan(r)) return d::saturated(s, t.canonical_nan);
  if (sum_of_zeros && d::is_zero(r) && tail == 0) {
    // x + y = 0 exactly: -0 only for two -0 addends, or for opposite addends under .rm.
    const bool both_negative_zeros =
        d::is_zero(addend_x) && d::is_zero(addend_y) && d::negative(addend_x) && d::negative(addend_y);
    const bool both_zero_same_sign =
        d::is_zero(addend_x) && d::is_zero(addend_y) && d::negative(addend_x) == d::negative(addend_y);
    r = both_negative_zeros || (!both_zero_same_sign && t.rounding == ref::Rounding::kRD) ? -0.0 : 0.0;
  }
  return d::saturated(s, round_to(t, value_with_tail(r, tail)));
}

// The packed result of a two-lane form (f16x2, bf16x2): lane hi = op(a.hi, b.hi, c.hi).
GC_SCALAR_HD std::uint32_t arith_reference_packed(const ArithSpec& s, std::uint32_t a, std::uint32_t b,
                                                  std::uint32_t c) {
  if (s.lanes == 1) return arith_reference(s, a, b, c);
  return arith_reference(s, a >> 16, b >> 16, c >> 16) << 16 |
         arith_reference(s, a & 0xffffu, b & 0xffffu, c & 0xffffu);
}

// --- Operand tuples: deterministic, the same on the host and the GPU.

GC_SCALAR_HD std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finaliser
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The operand classes, one per tuple index (i % kArithClasses).
enum ArithClass : int {
  kArithUniform,    // every bit pattern: NaN payloads, infinities, far exponents
  kArithBoundary,   // exponents that put the result near the subnormal or overflow boundary, or near 1
  kArithTies,       // short significands: exact results, midpoints, cancellation
  kArithSpecials,   // every combination of the specials table
  kArithSubnormal,  // subnormal operands (what .ftz flushes)
  kArithClasses
};
// Their names in the mismatches_by_class notes.
extern const char* const kArithClassNames[kArithClasses];

inline constexpr int kArithSpecialCount = 24;
GC_SCALAR_HD std::uint32_t arith_special(int k) {
  const std::uint32_t table[kArithSpecialCount] = {
      0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7fbfffffu,
      0x00000001u, 0x80000001u, 0x007fffffu, 0x807fffffu, 0x00800000u, 0x80800000u, 0x7f7fffffu, 0xff7fffffu,
      0x3f800000u, 0xbf800000u, 0x3f800001u, 0x3fffffffu, 0x33800000u, 0x4b800000u, 0x3f7fffffu, 0x00800001u};
  return table[k];
}

struct ArithOperands {
  std::uint32_t a, b, c;
};

GC_SCALAR_HD ArithOperands arith_operands(ArithOp op, std::uint64_t i);

// The operands of tuple i of a row: binary32 rows draw arith_operands(); 16-bit rows with
// all_pairs take p = i >> 16 and q = i & 0xffff (a two-lane form gets a = {p, q} and
// b = {q, p}, so each lane sees every pair); the 16-bit fma draws uniform codes (every class
// of a 16-bit format is common among them).
GC_SCALAR_HD ArithOperands arith_operands(const ArithSpec& s, std::uint64_t i) {
  if (s.source.width_bits() == 32) return arith_operands(s.op, i);
  if (s.all_pairs) {
    const std::uint32_t p = static_cast<std::uint32_t>(i >> 16) & 0xffffu, q = static_cast<std::uint32_t>(i) & 0xffffu;
    if (s.lanes == 2) return {p << 16 | q, q << 16 | p, 0};
    return {p, q, 0};
  }
  const std::uint64_t h1 = mix64(i), h2 = mix64(h1);
  const std::uint32_t mask = s.lanes == 2 ? 0xffffffffu : 0xffffu;
  return {static_cast<std::uint32_t>(h1) & mask, static_cast<std::uint32_t>(h1 >> 32) & mask,
          static_cast<std::uint32_t>(h2) & mask};
}

// The class a mismatch of tuple i counts in: i % kArithClasses for binary32 rows, the input
// class (ref::scalar::InputClass) of operand a's upper lane for 16-bit rows.
GC_SCALAR_HD int arith_class(const ArithSpec& s, std::uint64_t i, const ArithOperands& o) {
  if (s.source.width_bits() == 32) return static_cast<int>(i % 5);
  return ref::scalar::input_class(s.source, s.lanes == 2 ? o.a >> 16 : o.a);
}

GC_SCALAR_HD ArithOperands arith_operands(ArithOp op, std::uint64_t i) {
  const std::uint64_t h1 = mix64(i), h2 = mix64(h1), h3 = mix64(h2);
  const int klass = static_cast<int>(i % kArithClasses);
  ArithOperands o{static_cast<std::uint32_t>(h1), static_cast<std::uint32_t>(h2), static_cast<std::uint32_t>(h3)};
  const auto sign = [](std::uint64_t h) { return static_cast<std::uint32_t>(h >> 63) << 31; };
  // A binary32 with significand bits `sig` (below 2^23) and unbiased exponent e (clamped to normals).
  const auto make = [](std::uint32_t sgn, int e, std::uint32_t sig) {
    e = e < -126 ? -126 : e > 127 ? 127 : e;
    return sgn | static_cast<std::uint32_t>(e + 127) << 23 | (sig & 0x7fffffu);
  };
  switch (klass) {
    case kArithUniform: break;
    case kArithBoundary: {
      // A target result exponent near -149..-120 (underflow), 120..128 (overflow) or -2..2.
      const int pick = static_cast<int>(h3 % 3);
      const int target = pick == 0   ? -150 + static_cast<int>(h3 >> 8) % 31
                         : pick == 1 ? 120 + static_cast<int>(h3 >> 8) % 9
                                     : -2 + static_cast<int>(h3 >> 8) % 5;
      const int ea = -100 + static_cast<int>((h1 >> 40) % 201);
      int eb = 0;
      switch (op) {
        case ArithOp::mul:
        case ArithOp::fma: eb = target - ea; break;
        case ArithOp::div: eb = ea - target; break;
        case ArithOp::rcp: o.a = make(sign(h1), -target, static_cast<std::uint32_t>(h1)); return o;
        case ArithOp::sqrt: o.a = make(0, 2 * target, static_cast<std::uint32_t>(h1)); return o;
        default:  // add, sub: both operands near the target exponent (sums near 2^-126 or 2^128)
          o.a = make(sign(h1), target, static_cast<std::uint32_t>(h1));
          o.b = make(sign(h2), target - static_cast<int>((h2 >> 40) % 30), static_cast<std::uint32_t>(h2));
          return o;
      }
      o.a = make(sign(h1), ea, static_cast<std::uint32_t>(h1));
      o.b = make(sign(h2), eb, static_cast<std::uint32_t>(h2));
      // fma: c cancels part of a*b, at the product's exponent give or take a few.
      o.c = make(sign(h3), target - static_cast<int>((h3 >> 20) % 4), static_cast<std::uint32_t>(h3 >> 5));
      break;
    }
    case kArithTies: {
      // 12-bit significands: products of 24 bits (exact) to 26 (ties and near-ties); sums
      // of operands 23 to 26 binades apart (the second's bits straddle the rounding point).
      const std::uint32_t ma = static_cast<std::uint32_t>(h1 & 0xfff) << 11,
                          mb = static_cast<std::uint32_t>(h2 & 0x1fff) << 10;
      const int ea = -20 + static_cast<int>((h1 >> 32) % 41);
      const int gap = 22 + static_cast<int>((h2 >> 32) % 5);
      switch (op) {
        case ArithOp::add:
        case ArithOp::sub:
          o.a = make(sign(h1), ea, ma);
          o.b = make(sign(h2), ea - gap, mb);
          if ((h3 & 3) == 0) o.b = o.a ^ 0x80000000u;                                           // exact cancellation
          if ((h3 & 3) == 1) o.b = (o.a ^ 0x80000000u) + static_cast<std::uint32_t>(h3 >> 60);  // near-cancellation
          break;
        case ArithOp::mul:
        case ArithOp::div:
          o.a = make(sign(h1), ea, ma);
          o.b = make(sign(h2), -static_cast<int>((h2 >> 32) % 20), mb);
          if (op == ArithOp::div && (h3 & 1))
            o.a = make(sign(h1), ea, static_cast<std::uint32_t>(h1));  // quotients of full significands
          break;
        case ArithOp::fma:
          o.a = make(sign(h1), ea, ma);
          o.b = make(sign(h2), 0, mb);
          o.c = make(sign(h3), ea - gap + 24, static_cast<std::uint32_t>(h3));
          if ((h3 >> 8 & 3) == 0)
            o.c = make(sign(h3), ea, ma ^ static_cast<std::uint32_t>(h3 >> 40 & 0xff));  // cancellation
          break;
        case ArithOp::sqrt: {
          // Squares of 12-bit numbers (exact roots) and their neighbours.
          const std::uint64_t m = (h1 & 0xfff) | 0x800;
          const std::uint64_t sq = m * m;  // 23 or 24 bits
          const int lz = sq >> 23 ? 0 : 1;
          o.a = make(0, 2 * (ea / 2) + 23 - lz, static_cast<std::uint32_t>(sq << lz)) +
                static_cast<std::uint32_t>(h3 % 3) - 1;
          break;
        }
        case ArithOp::rcp: o.a = make(sign(h1), ea, ma); break;  // short significands
      }
      break;
    }
    case kArithSpecials:
      o.a = arith_special(static_cast<int>(h1 % kArithSpecialCount));
      o.b = arith_special(static_cast<int>(h2 % kArithSpecialCount));
      o.c = arith_special(static_cast<int>(h3 % kArithSpecialCount));
      break;
    case kArithSubnormal:
      o.a = sign(h1) | static_cast<std::uint32_t>(h1 >> 8 & 0x7fffff);
      if (h3 & 1) o.b = sign(h2) | static_cast<std::uint32_t>(h2 >> 8 & 0x7fffff);
      if (h3 & 2) o.c = sign(h3) | static_cast<std::uint32_t>(h3 >> 8 & 0x7fffff);
      if ((h3 & 12) == 0) o.b = 0x3f800000u;  // x * 1, x / 1: the subnormal itself
      break;
  }
  return o;
}

// One row of the table (numerics/src/scalar_arith.cpp).
struct ScalarArith {
  std::string id;   // "numeric.scalar.div.rn.ftz.f32"
  std::string ptx;  // "div.rn.ftz.f32"
  ArithSpec spec;
  int min_cc = 75;  // bf16 fma: 80, bf16 add, sub and mul: 90
};

// Every binary32 op x {rn, rz, rm, rp} x {-, ftz}, then the f16, f16x2, bf16 and bf16x2
// add, sub, mul and fma at .rn (f16 with and without .ftz and .sat), then the binary32 add,
// sub, mul and fma with .sat at every rounding, with and without .ftz; in registration order.
const std::vector<ScalarArith>& scalar_arith();
const ScalarArith* find_scalar_arith(std::string_view id);

// Operand tuples per binary32 probe and per 16-bit fma (the run level does not reach a
// probe); a 16-bit binary op takes all 2^32 pairs.
inline constexpr std::uint64_t kArithTuples = std::uint64_t{1} << 28;
GC_SCALAR_HD std::uint64_t arith_tuple_count(const ArithSpec& s) {
  return s.all_pairs ? std::uint64_t{1} << 32 : kArithTuples;
}

struct ArithMismatch {
  std::uint64_t index;
  std::uint32_t a, b, c, got, want;
};
struct ArithScan {
  std::uint64_t compared = 0;
  std::array<std::uint64_t, kArithClasses> mismatches_by_class{};
  std::vector<ArithMismatch> first;
  double gpu_ms = 0;
  std::uint64_t mismatches() const;
};

// value = mismatches, compared = tuples; notes as scalar_measurement's (scalar_conversions.hpp).
Measurement arith_measurement(const ScalarArith& row, const ArithScan& scan);

// The PTX ISA sections the arithmetic entries cite (binary32; the 16-bit forms).
extern const char* const kArithCitation;
extern const char* const kHalfArithCitation;

}  // namespace gpuconform::numerics
