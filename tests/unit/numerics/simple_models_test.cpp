// SPDX-License-Identifier: Apache-2.0
// The non-block-FMA candidate models (numerics/src/simple_models.cpp): integer MMA and the
// fp64 DFMA chain, including the NaN rules the H100's DMMA showed.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "gpuconform/numerics/simple_models.hpp"

namespace gpuconform::numerics {
namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, 8);
  return b;
}

// D[0][0] of m8n8k4 fp64 with A row 0 = a, B column 0 = b, C[0][0] = c; the rest zero.
std::uint64_t dmma_d00(const char* model, std::vector<std::uint64_t> a, std::vector<std::uint64_t> b,
                       std::uint64_t c) {
  std::string why;
  const auto v = parse_variant("mma_m8n8k4_f64_f64", why);
  EXPECT_TRUE(v.has_value()) << why;
  std::vector<std::uint64_t> A(32, 0), B(32, 0), C(64, 0), D(64, 0);
  for (int k = 0; k < 4; ++k) A[k] = a[k], B[k] = b[k];
  C[0] = c;
  const SimpleModel* m = find_simple_model(model);
  EXPECT_NE(m, nullptr);
  m->mma(*v, A.data(), B.data(), C.data(), D.data());
  return D[0];
}

constexpr std::uint64_t kPosNaN = 0x7FF8000000000000ull, kNegNaN = 0xFFF8000000000000ull;
constexpr std::uint64_t kInf = 0x7FF0000000000000ull;

TEST(Fp64FmaChain, RoundsAfterEveryStepUnlikeTheExactSum) {
  // 1 + 2^-53 (a tie, to even: 1) then + 2^-53 again: the chain stays at 1, one rounding of
  // the exact sum 1 + 2^-52 keeps it.
  const std::uint64_t one = bits(1.0), half_ulp = bits(0x1p-53), zero = bits(0.0);
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {half_ulp, half_ulp, zero, zero}, {one, one, zero, zero}, one),
            bits(1.0));
  EXPECT_EQ(dmma_d00("ieee.f64.exact_sum", {half_ulp, half_ulp, zero, zero}, {one, one, zero, zero}, one),
            bits(1.0 + 0x1p-52));
}

TEST(Fp64FmaChain, NanPrecedenceIsBThenAccumulatorThenA) {
  const std::uint64_t one = bits(1.0), zero = bits(0.0);
  // Same k: b's NaN wins over a's.
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {kNegNaN, zero, zero, zero}, {kPosNaN, zero, zero, zero}, one), kPosNaN);
  // C's NaN wins over a later a's, a later b's wins over C's.
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {kPosNaN, zero, zero, zero}, {one, zero, zero, zero}, kNegNaN), kNegNaN);
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {one, zero, zero, zero}, {kPosNaN, zero, zero, zero}, kNegNaN), kPosNaN);
  // A signalling payload comes out quiet, payload kept.
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {0x7FF0000000000001ull, zero, zero, zero}, {one, zero, zero, zero}, one),
            0x7FF8000000000001ull);
}

TEST(Fp64FmaChain, InvalidOperationGivesTheNegativeDefaultNaN) {
  const std::uint64_t zero = bits(0.0), one = bits(1.0);
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {kInf, zero, zero, zero}, {zero, zero, zero, zero}, one), kNegNaN);
  EXPECT_EQ(dmma_d00("ieee.f64.fma_chain", {kInf, zero, zero, zero}, {one, zero, zero, zero}, kInf | (1ull << 63)),
            kNegNaN);
}

TEST(IntegerMma, WrapsOrSaturatesOnce) {
  std::string why;
  const auto v = parse_variant("mma_m16n8k32_s32_s8", why);
  ASSERT_TRUE(v.has_value()) << why;
  std::vector<std::uint64_t> A(16 * 32, 0x80), B(32 * 8, 0x80), C(16 * 8, 0x7FFFFFFF), D(16 * 8, 0);
  // 32 products of (-128)^2 = 2^14 (2^19 in all) on top of INT32_MAX.
  find_simple_model("exact.s32.wrap")->mma(*v, A.data(), B.data(), C.data(), D.data());
  EXPECT_EQ(D[0], (0x7FFFFFFFull + (32ull << 14)) & 0xFFFFFFFFull);
  find_simple_model("exact.s32.satfinite")->mma(*v, A.data(), B.data(), C.data(), D.data());
  EXPECT_EQ(D[0], 0x7FFFFFFFull);
}

// D[0][0] of `variant` (an s32 D) with every A and B element `a`, `b` and every C `c`.
std::uint64_t int_d00(const char* model, const char* variant, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::string why;
  const auto v = parse_variant(variant, why);
  EXPECT_TRUE(v.has_value()) << why;
  std::vector<std::uint64_t> A(v->a_count(), a), B(v->b_count(), b), C(v->c_count(), c), D(v->c_count(), 0);
  const SimpleModel* m = find_simple_model(model);
  EXPECT_NE(m, nullptr) << model;
  EXPECT_TRUE(m->fits(*v)) << model << " " << variant;
  m->mma(*v, A.data(), B.data(), C.data(), D.data());
  return D[0];
}

TEST(IntegerMma, SubByteOperandsAreSignExtendedFromFourBits) {
  // s4 0x8 = -8, 0x7 = 7: 32 products of -56 on top of 1000; u4 0x8 = 8: 32 x 56.
  EXPECT_EQ(int_d00("exact.s32.wrap", "mma_m8n8k32_s32_s4", 0x8, 0x7, 1000), (1000 - 32 * 56) & 0xFFFFFFFFull);
  EXPECT_EQ(int_d00("exact.s32.wrap", "mma_m8n8k32_s32_u4", 0x8, 0x7, 1000), 1000u + 32 * 56);
  // 64 products of (-8)^2 = 64 (2^12 in all) past INT32_MAX: wrapped, or clamped once.
  EXPECT_EQ(int_d00("exact.s32.wrap", "mma_m16n8k64_s32_s4_satfinite", 0x8, 0x8, 0x7FFFFFFF),
            (0x7FFFFFFFull + 4096) & 0xFFFFFFFFull);
  EXPECT_EQ(int_d00("exact.s32.satfinite", "mma_m16n8k64_s32_s4_satfinite", 0x8, 0x8, 0x7FFFFFFF), 0x7FFFFFFFull);
}

TEST(B1Mma, PopcOfXorOrAndPlusCWrapping) {
  // a = b = 1 everywhere: XOR contributes nothing, AND one per k.
  EXPECT_EQ(int_d00("popc.xor.s32.wrap", "mma_m16n8k256_s32_b1_xor", 1, 1, 5), 5u);
  EXPECT_EQ(int_d00("popc.and.s32.wrap", "mma_m16n8k256_s32_b1_xor", 1, 1, 5), 5u + 256);
  // a = 1, b = 0: the other way round.
  EXPECT_EQ(int_d00("popc.xor.s32.wrap", "mma_m8n8k128_s32_b1_and", 1, 0, 0xFFFFFFFF), 127u);
  EXPECT_EQ(int_d00("popc.and.s32.wrap", "mma_m8n8k128_s32_b1_and", 1, 0, 0xFFFFFFFF), 0xFFFFFFFFu);
  // 128 ones past INT32_MAX - 10.
  EXPECT_EQ(int_d00("popc.xor.s32.wrap", "mma_m8n8k128_s32_b1_xor", 1, 0, 0x7FFFFFF5), 0x80000075u);
  EXPECT_EQ(int_d00("popc.xor.s32.satfinite", "mma_m8n8k128_s32_b1_xor", 1, 0, 0x7FFFFFF5), 0x7FFFFFFFu);
}

TEST(SimpleModels, DefaultFollowsTheVariantName) {
  std::string why;
  auto id = [&](const char* name) {
    const SimpleModel* m = default_simple_model(*parse_variant(name, why));
    return m ? m->id : std::string("none");
  };
  EXPECT_EQ(id("mma_m16n8k64_s32_u4"), "exact.s32.wrap");
  EXPECT_EQ(id("mma_m16n8k64_s32_s4_satfinite"), "exact.s32.satfinite");
  EXPECT_EQ(id("mma_m16n8k128_s32_b1_xor"), "popc.xor.s32.wrap");
  EXPECT_EQ(id("wmma_m8n8k128_s32_b1_and"), "popc.and.s32.wrap");
  // The integer models do not fit b1 and the b1 models no other type.
  EXPECT_FALSE(find_simple_model("exact.s32.wrap")->fits(*parse_variant("mma_m8n8k128_s32_b1_xor", why)));
  EXPECT_FALSE(find_simple_model("popc.xor.s32.wrap")->fits(*parse_variant("mma_m8n8k32_s32_u4", why)));
}

}  // namespace
}  // namespace gpuconform::numerics
