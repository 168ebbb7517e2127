// SPDX-License-Identifier: Apache-2.0
// The fast block-FMA model: numerics.md §2 in 64-bit integers. A product's significand
// P = sa*sb has fa+fb fraction bits below its split exponent ea+eb; aligning it to the
// block's last kept bit 2^(E-F) is P << (F - fa - fb) >> (E - ea - eb), and the right shift
// drops bits: truncation of the magnitude. The block sum is exact in int64 (|S| < (L+1) *
// 2^(F+2), bounded for the table in models.cpp) and encode() rounds it once.
// mma() unpacks A and B once per call; nothing is allocated per element.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <vector>

#include "gpuconform/reference/decoded_dot.hpp"
#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {
namespace {

enum : std::uint8_t { kZero = 1, kInf = 2, kNaN = 4 };

// A zero operand's split exponent: low enough that its (zero) product never sets E and its
// alignment shift is always >= 64.
constexpr std::int32_t kZeroSplit = -(1 << 20);

// An operand as the block sees it (decoded_dot.hpp): flags are kZero, kInf, kNaN.
using Operand = DecodedOperand;

// The fp32 register a padded format (tf32) lives in: same fields, all bits read.
FloatFormat full_register(const FloatFormat& f) {
  FloatFormat r = f;
  r.man_bits += f.pad_bits;
  r.pad_bits = 0;
  return r;
}

Operand load(const FloatFormat& f, std::uint64_t bits) {
  const Unpacked u = decode(f, bits);
  switch (u.cls) {
    case FpClass::kFinite:
      return {u.significand, split_exponent(f, u), 0, u.negative};
    case FpClass::kZero:
      return {0, kZeroSplit, kZero, u.negative};
    case FpClass::kInf:
      return {0, kZeroSplit, kInf, u.negative};
    case FpClass::kNaN:
      return {0, kZeroSplit, kNaN, u.negative};
  }
  return {};
}

// A subnormal read as zero when the model flushes inputs (TensorCoreModel::subnormal_inputs).
Operand flush_input(const TensorCoreModel& m, const FloatFormat& f, Operand o) {
  if (m.subnormal_inputs || o.flags != 0 || o.significand >> f.man_bits != 0) return o;
  return {0, kZeroSplit, kZero, o.negative};
}

Operand load_input(const TensorCoreModel& m, const FloatFormat& f, std::uint64_t bits) {
  if (f.pad_bits > 0 && !m.tf32_truncation)
    bits = encode(f, decode(full_register(f), bits), Rounding::kRNE);  // RNE pre-rounding
  return flush_input(m, f, load(f, bits));  // decode() reads only the top bits: the hardware's truncation
}

// Whether every term of a block is a zero of negative sign: IEEE gives -0 for their sum.
bool all_negative_zeros(int n, const Operand* a, const Operand* b, const Operand& c) {
  if (c.flags != kZero || !c.negative) return false;
  for (int k = 0; k < n; ++k)
    if (((a[k].flags | b[k].flags) & kZero) == 0 || a[k].negative == b[k].negative) return false;
  return true;
}

// A result the rounding left below the normal range, flushed when the model says so.
std::uint64_t flush_output(const TensorCoreModel& m, std::uint64_t d) {
  const FloatFormat& f = m.round_format;
  if (m.subnormal_outputs) return d;
  const std::uint64_t exp_field = (d >> (f.man_bits + f.pad_bits)) & f.exp_field_max();
  const bool negative = (d & f.sign_bit()) != 0;
  return exp_field == 0 ? signed_zero(f, negative && m.ieee_zero_sign) : d;
}

// NaN in, inf*0 or +inf with -inf: the canonical NaN; otherwise the inf present.
std::uint64_t special_result(const TensorCoreModel& m, int n, const Operand* a, const Operand* b,
                             const Operand& c) {
  bool nan = (c.flags & kNaN) != 0;
  bool pos_inf = (c.flags & kInf) != 0 && !c.negative;
  bool neg_inf = (c.flags & kInf) != 0 && c.negative;
  for (int k = 0; k < n; ++k) {
    const std::uint8_t both = a[k].flags | b[k].flags;
    nan |= (both & kNaN) != 0;
    if ((both & kInf) == 0) continue;
    if ((both & kZero) != 0) {
      nan = true;  // inf * 0
    } else {
      (a[k].negative != b[k].negative ? neg_inf : pos_inf) = true;
    }
  }
  if (nan || (pos_inf && neg_inf)) return m.canonical_nan;
  return infinity(m.acc_format, neg_inf);
}

// mag * 2^shift, truncated toward zero.  // RZ
std::uint64_t align(std::uint64_t mag, int shift) {
  if (shift >= 0) return mag << shift;
  if (shift <= -64) return 0;
  return mag >> -shift;
}

// One fused block: n <= L products and the accumulator.
std::uint64_t block(const TensorCoreModel& m, int n, const Operand* a, const Operand* b,
                    std::uint64_t acc_bits) {
  const Operand c = flush_input(m, m.acc_format, load(m.acc_format, acc_bits));

  // 1. The block exponent E: the largest split exponent; zero terms count as e_zero.
  std::uint8_t flags = c.flags;
  int E = c.flags == 0 ? c.split : m.e_zero;
  for (int k = 0; k < n; ++k) {
    const std::uint8_t both = a[k].flags | b[k].flags;
    flags |= both;
    E = std::max(E, both == 0 ? a[k].split + b[k].split : m.e_zero);
  }
  if ((flags & (kInf | kNaN)) != 0) return special_result(m, n, a, b, c);

  // 2. Each term truncated to F fraction bits below E, then summed exactly.  // RZ
  //    Products: when F >= fa + fb (every row of the table), P << (F - fa - fb) is exact
  //    and the right shift by E - e >= 0 truncates; a zero operand has P = 0.
  const int lsb = E - m.fraction_bits;
  const int up = m.fraction_bits - m.a_format.man_bits - m.b_format.man_bits;
  std::int64_t sum = 0;
  for (int k = 0; k < n; ++k) {
    const std::uint64_t p = a[k].significand * b[k].significand;
    const int e = a[k].split + b[k].split;
    const std::uint64_t t = up >= 0 ? (p << up) >> std::min(E - e, 63)  // RZ
                                    : align(p, e - E + up);             // RZ
    // Negate without a branch: random signs would mispredict half the time.
    const std::int64_t flip = -static_cast<std::int64_t>(a[k].negative != b[k].negative);
    sum += (static_cast<std::int64_t>(t) ^ flip) - flip;
  }
  if (c.flags == 0) {
    const int c_lsb = c.split - m.acc_format.man_bits;
    const auto t = static_cast<std::int64_t>(align(c.significand, c_lsb - lsb));  // RZ
    sum += c.negative ? -t : t;
  }

  // 3. One rounding of sum * 2^lsb; an exact zero is +0 and overflow is inf.
  if (sum == 0) return signed_zero(m.acc_format, m.ieee_zero_sign && all_negative_zeros(n, a, b, c));
  const std::uint64_t magnitude =
      sum < 0 ? 0 - static_cast<std::uint64_t>(sum) : static_cast<std::uint64_t>(sum);
  const Unpacked exact{FpClass::kFinite, sum < 0, magnitude, lsb};
  const std::uint64_t d = flush_output(m, encode(m.round_format, exact, m.rounding, m.overflow));  // RZ or RNE per model
  // A nonzero sum that rounds to zero is +0 too: the H100 gives 0x0000 where a
  // negative f16 result underflows (golden vectors, expectations/golden/sm_90).
  if (m.ieee_zero_sign) return d;
  return d == signed_zero(m.round_format, true) ? signed_zero(m.round_format, false) : d;
}

std::uint64_t chain_blocks(const TensorCoreModel& m, int K, const Operand* a, const Operand* b,
                           std::uint64_t c);

// The sm_90 FP8 mma.sync lowering (TensorCoreModel::fp8_via_hmma_pair): reorder k so the
// first block holds k % 4 < 2, chain from +0, then one RNE add of C in the accumulator
// format. The add goes through double: fp32 and fp16 sums rounded once to double and
// again to the format are correctly rounded (53 >= 2p + 2), and IEEE signs of zero hold.
std::uint64_t chain_hmma_pair(const TensorCoreModel& m, int K, const Operand* a, const Operand* b,
                              std::uint64_t c) {
  Operand pa[64], pb[64];
  int n = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 0; k < K && k < 64; ++k)
      if (((k % 4) < 2) == (pass == 0)) {
        pa[n] = a[k];
        pb[n] = b[k];
        ++n;
      }
  const std::uint64_t products = chain_blocks(m, n, pa, pb, 0);
  const double sum = to_double(m.acc_format, products) + to_double(m.acc_format, c);  // the add of C
  if (std::isnan(sum)) return m.canonical_nan;
  return from_double(m.acc_format, sum, Rounding::kRNE);
}

std::uint64_t chain(const TensorCoreModel& m, int K, const Operand* a, const Operand* b,
                    std::uint64_t c) {
  if (m.fp8_via_hmma_pair) return chain_hmma_pair(m, K, a, b, c);
  return chain_blocks(m, K, a, b, c);
}

std::uint64_t chain_blocks(const TensorCoreModel& m, int K, const Operand* a, const Operand* b,
                           std::uint64_t c) {
  std::uint64_t acc = c;
  for (int k0 = 0; k0 < K; k0 += m.block_size)  // ascending k; each block's D is the next C
    acc = block(m, std::min(m.block_size, K - k0), a + k0, b + k0, acc);
  return acc;
}

void load_all(const TensorCoreModel& m, const FloatFormat& f, int n, const std::uint64_t* bits,
              std::vector<Operand>& out) {
  out.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = load_input(m, f, bits[i]);
}

}  // namespace

std::uint64_t dot(const TensorCoreModel& m, int K, const std::uint64_t* a, const std::uint64_t* b,
                  std::uint64_t c) {
  thread_local std::vector<Operand> av, bv;
  load_all(m, m.a_format, K, a, av);
  load_all(m, m.b_format, K, b, bv);
  return chain(m, K, av.data(), bv.data(), c);
}

void decode_operands(const TensorCoreModel& m, const FloatFormat& f, int n, const std::uint64_t* bits,
                     DecodedOperand* out) {
  for (int i = 0; i < n; ++i) out[i] = load_input(m, f, bits[i]);
}

std::uint64_t dot_decoded(const TensorCoreModel& m, int K, const DecodedOperand* a, const DecodedOperand* b,
                          std::uint64_t c) {
  return chain(m, K, a, b, c);
}

void mma(const TensorCoreModel& m, int M, int N, int K, const std::uint64_t* A,
         const std::uint64_t* B, const std::uint64_t* C, std::uint64_t* D) {
  thread_local std::vector<Operand> av, bv;
  load_all(m, m.a_format, M * K, A, av);  // row i at i*K: contiguous in k
  load_all(m, m.b_format, K * N, B, bv);  // column j at j*K: contiguous in k
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      D[i * N + j] = chain(m, K, av.data() + i * K, bv.data() + j * K, C[i * N + j]);
}

}  // namespace gpuconform::ref
