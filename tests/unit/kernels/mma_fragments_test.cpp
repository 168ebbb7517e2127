// SPDX-License-Identifier: Apache-2.0
// The MMA fragment layouts of the kernels' variant tables, without a GPU: every operand
// element is held by exactly one (thread, register slot) and sits where the PTX ISA's
// figures put it, and the layout instances would expose a wrong sub-byte layout.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {
namespace {

const MmaVariant& variant(const char* name) {
  const MmaVariant* v = find_mma_variant(name);
  if (!v) throw std::logic_error(std::string("no variant ") + name);
  return *v;
}

// (row, col) of every slot, which must cover the rows x cols matrix exactly once.
std::string coverage_problem(const MmaVariant& v, char operand, int per_thread, int rows, int cols) {
  std::set<std::pair<int, int>> seen;
  for (int t = 0; t < v.fragments.threads; ++t)
    for (int i = 0; i < per_thread; ++i) {
      const RowCol rc = v.position(operand, t, i);
      if (rc.row < 0 || rc.row >= rows || rc.col < 0 || rc.col >= cols || !seen.insert({rc.row, rc.col}).second)
        return std::string(1, operand) + ": thread " + std::to_string(t) + " slot " + std::to_string(i) + " -> (" +
               std::to_string(rc.row) + ", " + std::to_string(rc.col) + ") is outside or taken twice";
    }
  if (static_cast<int>(seen.size()) != rows * cols) return std::string(1, operand) + ": not every element is held";
  return {};
}

TEST(MmaFragments, EveryRegisterOperandCoversItsMatrixOnce) {
  for (const MmaVariant& v : mma_variants()) {
    SCOPED_TRACE(v.name());
    const VectorVariant& s = v.layout;
    const FragmentCounts& f = v.fragments;
    if (s.instruction == "wmma") {  // opaque fragments: wmma.load/store place the operands
      EXPECT_EQ(f.threads, 32);
      EXPECT_EQ(f.a + f.b + f.d, 0);
      continue;
    }
    EXPECT_EQ(f.d * f.threads, s.m * s.n);
    EXPECT_EQ(coverage_problem(v, 'd', f.d, s.m, s.n), "");
    if (f.a > 0) {  // mma.sp, wgmma.sp: the compressed M x K/2 operand
      EXPECT_EQ(coverage_problem(v, 'a', f.a, s.m, s.sparse() ? s.k / 2 : s.k), "");
    }
    if (f.b > 0) {
      EXPECT_EQ(coverage_problem(v, 'b', f.b, s.k, s.n), "");
    }
    const bool warpgroup = s.instruction == "wgmma" || s.instruction == "wgmmasp";
    EXPECT_EQ(f.a == 0, warpgroup && !s.has("areg"));  // wgmma A: shared unless areg
    EXPECT_EQ(f.b == 0, warpgroup);                    // wgmma B: always shared
  }
}

struct Spot {
  const char* variant;
  char operand;
  int thread, index, row, col;
};

// Read off the PTX ISA figures ("Matrix fragments for mma.m16n8k16 / k8 / k32",
// "mma.m8n8k4 with .f64", wgmma "Register fragments"); lane 6: groupID 1, threadID_in_group 2.
TEST(MmaFragments, MatchThePtxIsaFigures) {
  const Spot spots[] = {
      {"mma_m16n8k16_f32_f16", 'a', 6, 0, 1, 4},   {"mma_m16n8k16_f32_f16", 'a', 6, 3, 9, 5},
      {"mma_m16n8k16_f32_f16", 'a', 6, 4, 1, 12},  {"mma_m16n8k16_f32_f16", 'a', 6, 7, 9, 13},
      {"mma_m16n8k16_f32_f16", 'b', 6, 1, 5, 1},   {"mma_m16n8k16_f32_f16", 'b', 6, 2, 12, 1},
      {"mma_m16n8k16_f32_f16", 'd', 6, 3, 9, 5},   {"mma_m16n8k16_f16_f16", 'd', 6, 2, 9, 4},
      {"mma_m16n8k8_f32_tf32", 'a', 6, 1, 9, 2},   {"mma_m16n8k8_f32_tf32", 'a', 6, 2, 1, 6},
      {"mma_m16n8k8_f32_tf32", 'b', 6, 1, 6, 1},   {"mma_m16n8k32_f32_e4m3", 'a', 6, 5, 9, 9},
      {"mma_m16n8k32_f32_e4m3", 'a', 6, 8, 1, 24}, {"mma_m16n8k32_s32_s8", 'b', 6, 4, 24, 1},
      {"mma_m8n8k4_f64_f64", 'a', 6, 0, 1, 2},     {"mma_m8n8k4_f64_f64", 'b', 6, 0, 2, 1},
      {"mma_m8n8k4_f64_f64", 'd', 6, 1, 1, 5},     {"wgmma_m64n8k16_f32_f16", 'd', 38, 3, 25, 5},
      {"wgmma_m64n8k16_f32_f16_areg", 'a', 70, 7, 41, 13},
      // The shorter shapes ("Matrix fragments for mma.m16n8k8" f16, "mma.m16n8k4" tf32,
      // "mma.m16n8k16" 8-bit integer) and the sm_90 f64 m16n8k{4,8,16} (PTX ISA "mma.m16n8k*
      // with .f64"; CuTe's SM90_16x8x*_F64 A layout ((4,8),(2,K/8)):((16,1),(8,64)) read as
      // row = group + 8 (i % 2), col = tig + 4 (i / 2); B ((4,8),K/4):((8,1),32): row = tig + 4 i).
      {"mma_m16n8k8_f32_f16", 'a', 6, 3, 9, 5},    {"mma_m16n8k8_f32_f16", 'b', 6, 1, 5, 1},
      {"mma_m16n8k8_f16_f16", 'd', 6, 2, 9, 4},    {"mma_m16n8k4_f32_tf32", 'a', 6, 1, 9, 2},
      {"mma_m16n8k4_f32_tf32", 'b', 6, 0, 2, 1},   {"mma_m16n8k16_s32_s8", 'a', 6, 5, 9, 9},
      {"mma_m16n8k16_s32_s8", 'b', 6, 3, 11, 1},   {"mma_m16n8k32_s32_u8", 'a', 6, 13, 9, 25},
      {"mma_m16n8k4_f64_f64", 'a', 6, 1, 9, 2},    {"mma_m16n8k4_f64_f64", 'b', 6, 0, 2, 1},
      {"mma_m16n8k8_f64_f64", 'a', 6, 2, 1, 6},    {"mma_m16n8k8_f64_f64", 'b', 6, 1, 6, 1},
      {"mma_m16n8k16_f64_f64", 'a', 6, 5, 9, 10},  {"mma_m16n8k16_f64_f64", 'a', 6, 6, 1, 14},
      {"mma_m16n8k16_f64_f64", 'b', 6, 3, 14, 1},  {"mma_m16n8k16_f64_f64", 'd', 6, 3, 9, 5},
      // Sub-byte integers ("Matrix Fragments for mma.m8n8k32", "mma.m8n8k128", "mma.m16n8k64"
      // and "mma.m16n8k128"): m8n8 A row = groupID, col = tig * per + i (per 8 for s4/u4, 32
      // for b1), B transposed, C col = 2 tig + i; m16n8k64 A row = groupID + 8 for
      // 8 <= i < 16 and 24 <= i, col = tig * 8 + (i & 7) (+ 32 for i >= 16); m16n8k128 b1
      // A row = groupID + 8 for i >= 32, col = tig * 32 + (i & 31), B row = tig * 32 + i.
      {"mma_m8n8k32_s32_s4", 'a', 6, 5, 1, 21},    {"mma_m8n8k32_s32_u4", 'b', 6, 3, 19, 1},
      {"mma_m8n8k32_s32_s4", 'd', 6, 1, 1, 5},     {"mma_m8n8k128_s32_b1_xor", 'a', 6, 31, 1, 95},
      {"mma_m8n8k128_s32_b1_and", 'b', 6, 31, 95, 1}, {"mma_m8n8k128_s32_b1_and", 'd', 31, 0, 7, 6},
      {"mma_m16n8k64_s32_s4", 'a', 6, 21, 1, 53},  {"mma_m16n8k64_s32_u4", 'a', 6, 13, 9, 21},
      {"mma_m16n8k64_s32_s4", 'a', 6, 29, 9, 53},  {"mma_m16n8k128_s32_b1_xor", 'a', 6, 40, 9, 72},
      {"mma_m16n8k128_s32_b1_xor", 'b', 6, 31, 95, 1},
      // mma.sp A (PTX ISA "Matrix fragments for sparse mma.m16n8k32 / k16 tf32 / k32 u8s8 /
      // k64"): the compressed column of a kept element, rows as the figures give them.
      {"mmasp_m16n8k32_f32_f16_sel0", 'a', 6, 4, 1, 12}, {"mmasp_m16n8k32_f32_f16_sel1", 'a', 6, 2, 9, 4},
      {"mmasp_m16n8k16_f32_tf32_sel0", 'a', 6, 1, 9, 2}, {"mmasp_m16n8k16_f32_tf32_sel0", 'a', 6, 2, 1, 6},
      {"mmasp_m16n8k32_s32_s8_sel0", 'a', 6, 5, 9, 9},   {"mmasp_m16n8k64_s32_s8_sel0", 'a', 6, 9, 1, 25},
      {"mmasp_m16n8k64_f32_e4m3_sel0", 'a', 6, 13, 9, 25}, {"mmasp_m16n8k64_f32_e4m3_sel0", 'b', 6, 5, 25, 1},
      // wgmma m64nNk*'s D: d[4j .. 4j+3] is the m16n8 C tile of columns 8j .. 8j+7 of the warp's rows.
      {"wgmma_m64n256k32_s32_s8", 'd', 38, 13, 17, 29}, {"wgmma_m64n256k32_s32_s8", 'd', 127, 127, 63, 255},
  };
  for (const Spot& s : spots) {
    const RowCol rc = variant(s.variant).position(s.operand, s.thread, s.index);
    EXPECT_EQ(rc.row, s.row) << s.variant << " " << s.operand << " thread " << s.thread << " slot " << s.index;
    EXPECT_EQ(rc.col, s.col) << s.variant << " " << s.operand << " thread " << s.thread << " slot " << s.index;
  }
}

// The layout self-test (check_layout: exact small-integer instances) must fail on a wrong
// layout: with the smallest error the kernel could make, two neighbouring elements of one
// register swapped in A, some exact output of the 64 layout instances changes. (A k
// permutation applied to A and B alike leaves every dot product unchanged, so it is
// invisible to any test, and harmless.)
TEST(MmaFragments, SubByteLayoutInstancesExposeASwappedPairInARegister) {
  int checked = 0;
  for (const MmaVariant& mv : mma_variants()) {
    const VectorVariant& v = mv.layout;
    if (element_bits(v.ab_type) >= 8 || mv.fragments.a == 0) continue;
    SCOPED_TRACE(v.name);
    ref::Rng rng(7);
    const std::vector<MmaInstance> instances = layout_instances(v, 64, rng);
    bool exposed = false;
    for (const MmaInstance& in : instances) {
      MmaInstance wrong = in;
      for (int t = 0; t < mv.fragments.threads; ++t)
        for (int i = 0; i + 1 < mv.fragments.a; i += 2) {
          const RowCol p = mv.position('a', t, i), q = mv.position('a', t, i + 1);
          std::swap(wrong.a[p.row * v.k + p.col], wrong.a[q.row * v.k + q.col]);
        }
      for (int i = 0; i < v.m && !exposed; ++i)
        for (int j = 0; j < v.n && !exposed; ++j) exposed = exact_result(v, wrong, i, j) != exact_result(v, in, i, j);
      if (exposed) break;
    }
    EXPECT_TRUE(exposed);
    ++checked;
  }
  EXPECT_EQ(checked, 13);  // the mma.sync s4/u4/b1 variants (wmma's fragments are opaque)
}

}  // namespace
}  // namespace gpuconform::numerics
