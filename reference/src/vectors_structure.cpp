// SPDX-License-Identifier: Apache-2.0
// §3 vectors about the block structure: how many products fuse (L), in which order the
// blocks chain, and the exponent zero terms bring (e_zero).
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "vector_sink.hpp"

namespace gpuconform::ref::vectors {
namespace {

// Block size ([H] feature 2): c = 1 + u, a0*b0 = 1, ak*bk = u (u = ulp of 1 on the result
// grid). If k shares block 0 the sum 2 + 2u is exact; otherwise block 0 gives 2 + u, cut to
// 2 by RZ (by RNE's tie-to-even for fp16), and block k/L adds u to 2 again: D = 2.
// Published for Ampere m16n8k16 (k <= 7 together); Hopper's k = 1..15 is †.
void block_size(VectorSink& s) {
  const double u = pow2(-s.model().round_format.man_bits);
  const auto f = s.factor(u, u);
  if (!f) return;
  const bool computed = !(s.L() == 8 && s.model().round_format.man_bits == 23);
  for (int k = 1; k < s.k(); ++k) {
    std::vector<double> a(static_cast<std::size_t>(k) + 1, 0.0), b = a;
    a[0] = b[0] = 1;
    a[static_cast<std::size_t>(k)] = f->first;
    b[static_cast<std::size_t>(k)] = f->second;
    const double d = k < s.L() ? 2 + 2 * u : 2.0;
    const std::string name = "block_size.k" + std::to_string(k);
    s.add(name, "§3 block size [H] feature 2", {d, computed}, a, b, 1 + u);
    for (double& x : a) x = -x;
    s.add(name + ".negated", "§3 block size [H] feature 2", {-d, computed}, a, b, -(1 + u));
  }
}

// Order and grouping ([FP]; [M] summation_order.py): products +2^14 at i and -2^14 at j,
// every other product 2^-18, c = 2^-18. The pair's block aligns on 2^14 and cuts the small
// terms (F < 32), and the C it receives; blocks after it add their small terms exactly.
// D / 2^-18 = the small terms in blocks after the later of the pair's blocks.
void order_and_grouping(VectorSink& s) {
  const int K = s.k();
  if (K < 4) return;
  std::set<std::pair<int, int>> pairs = {{0, 1}, {0, K - 1}, {K - 2, K - 1}};
  for (int boundary : {4, 8, 16}) {
    if (boundary + 1 < K) {
      pairs.insert({boundary - 1, boundary});
      pairs.insert({boundary, boundary + 1});
    }
  }
  const double big = pow2(7), small = pow2(-9);
  for (const auto& [i, j] : pairs) {
    std::vector<double> a(static_cast<std::size_t>(K), small), b = a;
    a[static_cast<std::size_t>(i)] = b[static_cast<std::size_t>(i)] = big;
    a[static_cast<std::size_t>(j)] = big;
    b[static_cast<std::size_t>(j)] = -big;
    const int after = std::max(0, K - (std::max(i, j) / s.L() + 1) * s.L());
    s.add("order.pair" + std::to_string(i) + "_" + std::to_string(j),
          "§3 order and grouping ([FP]; [M] summation_order.py)", {after * pow2(-18), true}, a, b,
          pow2(-18));
  }
}

// e_zero, fp32 D ([M] fdpa_exponent_for_zero.py): a = [2^-23, -2^-(24+j)], b = [2^-126]x2,
// c = 0. Products 2^-149 and -2^-(150+j); the zero C sets E = max(e_zero, -149). The small
// product survives iff j <= F - E - 150, and then RZ of 2^-149 - 2^-(150+j) is +0; once it
// is cut, D = 2^-149. Hopper (F 25, e_zero -133): first nonzero at j = 9. All †.
void e_zero_f32(VectorSink& s) {
  if (s.model().round_format.man_bits != 23) return;
  const int E = std::max(s.model().e_zero, -149);
  for (int j = 0; j <= 12; ++j) {
    const double d = j <= s.F() - E - 150 ? 0.0 : pow2(-149);
    s.add("e_zero_f32.j" + std::to_string(j), "§3 e_zero ([M] fdpa_exponent_for_zero.py) (†)",
          {d, true}, {pow2(-23), -pow2(-24 - j)}, {pow2(-126), pow2(-126)}, 0);
  }
}

// e_zero, fp16 D (computed analogue): products 2^-25 (exactly half the subnormal ulp) and
// 2^-m, c = 0, so E = max(e_zero, -25). If 2^-m survives (m <= F - E) the sum is above
// the tie and RNE gives 2^-24; if it is cut, the tie goes to even: +0. Thresholds: Volta
// m <= 42, Ampere 44, Hopper 46.
void e_zero_f16(VectorSink& s) {
  if (!s.f16_out()) return;
  const int E = std::max(s.model().e_zero, -25);
  for (int m = 41; m <= 47; ++m) {
    const double d = m <= s.F() - E ? pow2(-24) : 0.0;
    s.add("e_zero_f16.m" + std::to_string(m), "§3 e_zero, fp16 analogue (computed)", {d, true},
          {pow2(-13), pow2(-24)}, {pow2(-12), pow2(24 - m)}, 0);
  }
}

}  // namespace

void add_structure_vectors(VectorSink& s) {
  block_size(s);
  order_and_grouping(s);
  e_zero_f32(s);
  e_zero_f16(s);
}

}  // namespace gpuconform::ref::vectors
