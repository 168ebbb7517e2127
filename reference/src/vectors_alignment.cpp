// SPDX-License-Identifier: Apache-2.0
// §3 vectors about alignment: how many bits below the block exponent survive (F) and
// that they are cut by truncation. Each expected value is the published one where
// numerics.md gives it, otherwise worked out from §2 in the comment above it.
#include <string>

#include "vector_sink.hpp"

namespace gpuconform::ref::vectors {
namespace {

// Extra alignment bits [F]: 1*1 + c with c = -(1 - 2^-24), E = 0. c keeps
// trunc((1 - 2^-24) * 2^F): 2^F - 2^(F-24) for F >= 24, 2^F - 1 below. So D = 2^-24 for
// F >= 24 and 2^-F otherwise (F=23: 2^-23 published; F=13: 2^-13).
void extra_alignment_bits(VectorSink& s) {
  const int F = s.F();
  s.add("extra_alignment_bits", "§3 extra alignment bits [F]", {pow2(-(F >= 24 ? 24 : F)), F < 23},
        {1}, {1}, -(1 - pow2(-24)));
}

// Normalization in subtraction [F]: 1 - 2^-24 - (1 - 2^-24). For F >= 24 every term is
// exact: D = +0. For F = 23 the -2^-24 product is lost and c keeps 2^23 - 1: D = 2^-23.
void normalization_in_subtraction(VectorSink& s) {
  const int F = s.F();
  s.add("normalization_in_subtraction", "§3 normalization in subtraction [F]",
        {F >= 24 ? 0.0 : pow2(-F), F < 23}, {1, 1}, {1, -pow2(-24)}, -1 + pow2(-24));
}

// One or two extra bits [H], c = 1. Two products of 2^-24 survive iff F >= 24: 1 + 2^-23,
// exact in fp32. Three products 2^-24, 2^-25, 2^-25 reach 1 + 2^-23 only if F >= 25
// (F = 24 keeps 1 + 2^-24, cut by RZ: the † value). An fp16 D rounds both to 1.0 (RNE).
void extra_bits(VectorSink& s) {
  const int F = s.F();
  const double two = s.f16_out() ? 1.0 : (F >= 24 ? 1 + pow2(-23) : 1.0);
  s.add("extra_bits.two_terms", "§3 1 or 2 extra bits [H]", {two, s.f16_out()},
        {pow2(-24), pow2(-24)}, {1, 1}, 1);
  const double three = s.f16_out() ? 1.0 : (F >= 25 ? 1 + pow2(-23) : 1.0);
  s.add("extra_bits.three_terms", "§3 1 or 2 extra bits [H] (†)", {three, true},
        {pow2(-24), pow2(-24), pow2(-24)}, {1, 0.5, 0.5}, 1);
}

// The largest power of two up to 2^7 in the input format: the cancelling pair of the
// F-direct and alignment-rounding probes is (p*p) - (p*p) = 2^(2t) - 2^(2t).
int pair_exponent(const TensorCoreModel& m) {
  int t = 7;
  if (m.a_format.emax() < t) t = m.a_format.emax();
  if (m.b_format.emax() < t) t = m.b_format.emax();
  return t;
}

// F directly ([M] fdpa_precision.py): E = 2t, and c = 2^(2t-n) keeps trunc(2^(F-n)),
// nonzero iff n <= F. Published: Hopper (F=25) keeps n=25, loses n=26. FP8 wgmma (F=13)
// keeping c=2 and losing c=1 is a †.
void f_directly(VectorSink& s) {
  const int t = pair_exponent(s.model());
  const double p = pow2(t);
  for (int n : {13, 14, 23, 24, 25, 26}) {
    const double c = pow2(2 * t - n);
    const bool published = s.F() == 25 && t == 7 && (n == 25 || n == 26);
    s.add("f_directly.n" + std::to_string(n), "§3 F directly ([M] fdpa_precision.py)",
          {n <= s.F() ? c : 0.0, !published}, {p, p}, {p, -p}, c);
  }
}

// Alignment rounding ([M] fdpa_alignment_rounding.py): with the same pair, c = x * ulp,
// ulp = 2^(2t-F), keeps trunc(x) ulps (truncation of the magnitude; RN would give 0,1,0,2
// and floor -1 for x = -1/4). All †.
void alignment_rounding(VectorSink& s) {
  const int t = pair_exponent(s.model());
  const double p = pow2(t);
  const double ulp = pow2(2 * t - s.F());
  const struct {
    const char* name;
    double x;
    double kept;
  } cases[] = {{"+0.25", 0.25, 0}, {"-0.25", -0.25, 0}, {"+0.5", 0.5, 0}, {"-0.5", -0.5, 0},
               {"+0.75", 0.75, 0}, {"-0.75", -0.75, 0}, {"+1.5", 1.5, 1}, {"-1.5", -1.5, -1}};
  for (const auto& k : cases)
    s.add(std::string("alignment_rounding.x") + k.name,
          "§3 alignment rounding ([M] fdpa_alignment_rounding.py) (†)", {k.kept * ulp, true},
          {p, p}, {p, -p}, k.x * ulp);
}

// FP8 accumulator width ([SA][D]): A = B = 0, C = 0x3fffffff. The e8m13 paths keep 13
// fraction bits of C (0x3ffffc00); every F >= 23 fp32 path returns C unchanged. The fp16
// analogue 0x3fff is unchanged for any F >= 10 (computed).
void accumulator_width(VectorSink& s) {
  const TensorCoreModel& m = s.model();
  if (s.f16_out()) {
    s.add_bits("accumulator_width.f16", "§3 FP8 accumulator width [SA][D], fp16 analogue", true,
               {0}, {0}, 0x3fff, 0x3fff);
    return;
  }
  const std::uint64_t d = m.round_format.man_bits == 13 ? 0x3ffffc00 : 0x3fffffff;
  s.add_bits("accumulator_width", "§3 FP8 accumulator width [SA][D]", false, {0}, {0}, 0x3fffffff,
             d);
}

// TF32 truncation ([F] A100-tf32 suite; [M]): the register 0x3F7FFFFF is read as
// 1 - 2^-11, squared exactly: 0x3f7fc004. Rounding it to tf32 first would give 1.0.
void tf32_truncation(VectorSink& s) {
  const TensorCoreModel& m = s.model();
  if (m.a_format.pad_bits != 13 || m.b_format.pad_bits != 13 || s.f16_out()) return;
  if (m.tf32_truncation) {
    s.add_bits("tf32_truncation", "§3 TF32 truncation ([F] A100-tf32; [M])", false, {0x3F7FFFFF},
               {0x3F7FFFFF}, 0, 0x3f7fc004);
  } else {
    s.add_bits("tf32_truncation", "§3 TF32 truncation, RNE hypothesis (computed)", true,
               {0x3F7FFFFF}, {0x3F7FFFFF}, 0, 0x3f800000);
  }
}

}  // namespace

void add_alignment_vectors(VectorSink& s) {
  extra_alignment_bits(s);
  normalization_in_subtraction(s);
  extra_bits(s);
  f_directly(s);
  alignment_rounding(s);
  accumulator_width(s);
  tf32_truncation(s);
}

}  // namespace gpuconform::ref::vectors
