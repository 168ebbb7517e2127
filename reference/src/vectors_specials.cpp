// SPDX-License-Identifier: Apache-2.0
// §3 "specials and subnormals": the NaN and inf rules ([M] special_values.py, [K]
// ExceptionalCasesTest.m, [F]), overflow, subnormal inputs and C, and the sign of zero.
// The overflow-to-inf and +0 rules are what both published models do; numerics.md §7 asks
// to measure them, so those vectors are marked computed.
#include <cmath>
#include <limits>

#include "vector_sink.hpp"

namespace gpuconform::ref::vectors {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

void nan_rules(VectorSink& s) {
  const char* src = "§3 specials ([M] special_values.py; [K] ExceptionalCasesTest; [F])";
  s.add("special.nan_in_a", src, {kNaN, false}, {kNaN}, {1}, 1);
  s.add("special.nan_in_c", src, {kNaN, false}, {1}, {1}, kNaN);
  s.add("special.inf_times_zero", src, {kNaN, false}, {kInf}, {0}, 1);
  s.add("special.inf_minus_inf", src, {kNaN, false}, {kInf, kInf}, {1, -1}, 0);
  s.add("special.inf_product_minus_inf_c", src, {kNaN, false}, {kInf}, {-1}, kInf);
}

void inf_rules(VectorSink& s) {
  const char* src = "§3 specials ([M] special_values.py; [K] ExceptionalCasesTest)";
  s.add("special.inf_product", src, {kInf, false}, {kInf}, {1}, 1);
  s.add("special.negative_inf_product", src, {-kInf, false}, {kInf}, {-1}, 1);
  s.add("special.inf_c", src, {-kInf, false}, {1}, {1}, -kInf);
}

// Overflow: fp32 D becomes inf even under RZ (no clamp to FLT_MAX, §2 notes; measure);
// fp16 D overflows to inf ([M]); products beyond fp16 range that cancel in the block
// give +0 (†, [K] prd_limit = 0).
void overflow(VectorSink& s) {
  if (s.f16_out()) {
    s.add("overflow.f16", "§3 f16 output overflow -> inf", {kInf, false}, {256}, {256}, 0);
    s.add("overflow.f16_products_cancel", "§3 f16 products beyond range cancel (†)", {0.0, true},
          {256, 256}, {256, -256}, 0);
    return;
  }
  const char* src = "§2 notes: inf on fp32 overflow, no clamp (model rule; measure)";
  s.add("overflow.f32", src, {kInf, true}, {pow2(127)}, {2}, 0);
  s.add("overflow.f32_negative", src, {-kInf, true}, {pow2(127)}, {-2}, 0);
}

// Subnormals are kept on input and output: the fp16 minimum subnormal times 4 is 2^-22
// ([M][K]); the smallest subnormal C passes a zero block unchanged (2^-149 published for
// fp32; the fp16 2^-24 is computed). e8m13 keeps only 13 bits below C's exponent -126,
// which loses 2^-149: +0 (computed).
void subnormals(VectorSink& s) {
  const TensorCoreModel& m = s.model();
  if (m.a_format.name == "f16")
    s.add("subnormal.f16_min_times_4", "§3 subnormals: f16 min subnormal x 4 [M][K]",
          {pow2(-22), false}, {pow2(-24)}, {4}, 0);
  const int lsb = m.acc_format.emin() - m.acc_format.man_bits;
  const bool e8m13 = m.round_format.man_bits == 13;
  s.add("subnormal.c_min_preserved", "§3 subnormals: C = min subnormal is preserved",
        {e8m13 ? 0.0 : pow2(lsb), s.f16_out() || e8m13}, {0}, {0}, pow2(lsb));
}

// An exact zero is +0 ([M], [K]; to be measured, §7): 1*1 + 1*(-1) + (-0), and a sum of
// negative zeros only, (-0)*1 + (-0), where IEEE arithmetic would give -0.
void signed_zero_rules(VectorSink& s) {
  const char* src = "§2: exact 0 -> +0 (model rule; measure, §7)";
  s.add("zero.exact_cancellation", src, {0.0, true}, {1, 1}, {1, -1}, -0.0);
  s.add("zero.all_negative_zeros", src, {0.0, true}, {-0.0}, {1}, -0.0);
}

}  // namespace

void add_special_vectors(VectorSink& s) {
  nan_rules(s);
  inf_rules(s);
  overflow(s);
  subnormals(s);
  signed_zero_rules(s);
}

}  // namespace gpuconform::ref::vectors
