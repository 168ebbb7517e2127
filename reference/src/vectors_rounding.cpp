// SPDX-License-Identifier: Apache-2.0
// §3 vectors about the one rounding per block: its direction (RZ for fp32, RNE for fp16),
// the carry bits of the sum, and the non-monotonicity that alignment causes.
#include <optional>
#include <string>
#include <utility>

#include "vector_sink.hpp"

namespace gpuconform::ref::vectors {
namespace {

// Output rounding [H]: 1+1+1 + (1 + 3u), u = 2^-m the ulp of 1 in the accumulator format.
// The exact 4 + 3u is 3/4 of an ulp of 4 above 4: RZ gives 4 (published for fp32), RNE
// 4 + 4u (fp16: 4 + 2^-8, computed). On e8m13 paths (F = 13) c keeps only 1: D = 4.
void output_rounding(VectorSink& s) {
  const int m = s.model().acc_format.man_bits;
  const double u = pow2(-m);
  const double d = s.rz() ? 4.0 : 4.0 + 4 * u;
  const bool computed = s.f16_out() || s.F() < 23;
  const char* src = "§3 output rounding [H]";
  s.add("output_rounding", src, {d, computed}, {1, 1, 1}, {1, 1, 1}, 1 + 3 * u);
  s.add("output_rounding.negated", src, {-d, computed}, {-1, -1, -1}, {1, 1, 1}, -(1 + 3 * u));
}

// Carries [F]: 1+1+1+2^-23 + (1 + 2^-22 + 2^-23) = 4 + 2^-21 exactly, whichever slot holds
// 2^-23 (F >= 23 keeps it). And 1 + 1.5 + 1.75 + 1.875 + 1.875 = 8 exactly, for any F >= 3.
void carries(VectorSink& s) {
  for (int slot = 0; slot < 4; ++slot) {
    std::vector<double> b = {1, 1, 1, 1};
    b[static_cast<std::size_t>(slot)] = pow2(-23);
    s.add("carries.slot" + std::to_string(slot), "§3 carries [F]", {4 + pow2(-21), false},
          {1, 1, 1, 1}, b, 1 + pow2(-22) + pow2(-23));
  }
  s.add("carries.sum_to_8", "§3 carries [F]", {8.0, s.F() < 23}, {1, 1, 1, 1},
        {1, 1.5, 1.75, 1.875}, 1.875);
}

// Monotonicity [F]: D(c = 1 - 2^-24) against D(c = 1). The smaller c has exponent -1, so
// the block aligns one binade lower and keeps one more bit of the small products.
// Expected pairs (c below, c = 1), from §2 for each F (published entries marked):
//   v100  a=[1]x4,    b=[2^-24]x4:  F23 (1+2^-23, 1) published; F24, F25 (1+2^-23, 1+2^-22).
//   a100  a=[1/2]x4,  b=[2^-24 x3, 3*2^-24]: F24 (1+2^-23, 1) published;
//                                    F25 (1+2^-23, 1+2^-23); F23 (1, 1).
//   hopper a=b=[2^-13]x12 (needs L >= 12 for one block): F25 (1+2^-23, 1) †;
//         F24 (c keeps 2^25-2, products 1/2 each are cut: 1-2^-24, 1) whatever L;
//         F13 e8m13: c keeps 2^14-1 (1-2^-14, 1).
struct MonotonicPair {
  double below;
  double one;
  bool computed;
};

std::optional<MonotonicPair> expect_v100(int F) {
  if (F == 23) return MonotonicPair{1 + pow2(-23), 1, false};
  if (F == 24 || F == 25) return MonotonicPair{1 + pow2(-23), 1 + pow2(-22), true};
  return std::nullopt;
}

std::optional<MonotonicPair> expect_a100(int F) {
  if (F == 24) return MonotonicPair{1 + pow2(-23), 1, false};
  if (F == 25) return MonotonicPair{1 + pow2(-23), 1 + pow2(-23), true};
  if (F == 23) return MonotonicPair{1, 1, true};
  return std::nullopt;
}

std::optional<MonotonicPair> expect_hopper(int F, int L) {
  if (F == 25 && L >= 12) return MonotonicPair{1 + pow2(-23), 1, true};
  if (F == 24) return MonotonicPair{1 - pow2(-24), 1, true};
  if (F == 13 && L >= 12) return MonotonicPair{1 - pow2(-14), 1, true};
  return std::nullopt;
}

void add_pair(VectorSink& s, const std::string& name, const std::optional<MonotonicPair>& e,
              const std::vector<double>& a, const std::vector<double>& b) {
  if (!e) return;
  const char* src = "§3 monotonicity [F]";
  s.add("monotonicity." + name + ".c_below", src, {e->below, e->computed}, a, b, 1 - pow2(-24));
  s.add("monotonicity." + name + ".c_one", src, {e->one, e->computed}, a, b, 1.0);
}

void monotonicity(VectorSink& s) {
  if (s.f16_out()) return;  // c = 1 - 2^-24 is not an fp16 value
  const double t = pow2(-24);
  add_pair(s, "v100", expect_v100(s.F()), {1, 1, 1, 1}, {t, t, t, t});
  add_pair(s, "a100", expect_a100(s.F()), {0.5, 0.5, 0.5, 0.5}, {t, t, t, 3 * t});
  const std::vector<double> small(12, pow2(-13));
  add_pair(s, "hopper", expect_hopper(s.F(), s.L()), small, small);
}

// f16 output is RNE [F]: 2^-25 + 2^-26 = 0.75 * 2^-24 rounds to 2^-24 (RZ would give 0).
// Published with fp16 inputs 2^-24 * (1/2, 1/4); FP8 inputs realise the same products
// where they can (computed: E = e_zero there, and both products still align exactly).
void f16_output_rne(VectorSink& s) {
  if (!s.f16_out()) return;
  const auto p1 = s.factor(pow2(-25), pow2(-24));
  const auto p2 = s.factor(pow2(-26), pow2(-24));
  if (!p1 || !p2) return;
  const bool published = p1->first == pow2(-24) && p2->first == pow2(-24);
  s.add("f16_output_rne", "§3 f16 output is RNE [F]", {pow2(-24), !published},
        {p1->first, p2->first}, {p1->second, p2->second}, 0);
}

}  // namespace

void add_rounding_vectors(VectorSink& s) {
  output_rounding(s);
  carries(s);
  monotonicity(s);
  f16_output_rne(s);
}

}  // namespace gpuconform::ref::vectors
