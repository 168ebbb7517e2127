// SPDX-License-Identifier: Apache-2.0
// The operand generator delivers the classes it names: the agreement tests and the GPU
// probes rely on "wide" having no inf/NaN, "subnormal" reaching subnormals, "special"
// carrying specials, and "cancel" producing cancelling pairs.
#include "gpuconform/reference/random_inputs.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

struct Census {
  int finite = 0, zero = 0, subnormal = 0, special = 0;
};

Census count(const FloatFormat& f, InputClass c, int n) {
  Rng rng(42);
  Census census;
  for (int i = 0; i < n; ++i) {
    const std::uint64_t bits = draw_value(f, c, rng);
    const Unpacked u = decode(f, bits);
    census.finite += u.cls == FpClass::kFinite;
    census.zero += u.cls == FpClass::kZero;
    census.special += u.cls == FpClass::kInf || u.cls == FpClass::kNaN;
    census.subnormal +=
        u.cls == FpClass::kFinite && u.significand < (std::uint64_t{1} << f.man_bits);
  }
  return census;
}

TEST(RandomInputs, ClassesContainWhatTheyName) {
  for (const FloatFormat* f : {&kFp16, &kBf16, &kTf32, &kE4M3, &kE5M2, &kE2M1}) {
    SCOPED_TRACE(std::string(f->name));
    const Census normal = count(*f, InputClass::kNormal, 4000);
    EXPECT_EQ(normal.finite, 4000);
    EXPECT_EQ(normal.special, 0);
    const Census wide = count(*f, InputClass::kWide, 4000);
    EXPECT_EQ(wide.special, 0);
    const Census sub = count(*f, InputClass::kSubnormal, 4000);
    EXPECT_GT(sub.subnormal, 1000);
    // 1 in 8 codes is special, a fifth each of ±0, ±inf, NaN, ±max, min subnormal (inf and
    // NaN fall back to max where the format lacks them): about 600, 400 or 200 of 8000.
    const Census special = count(*f, InputClass::kSpecial, 8000);
    EXPECT_GT(special.special + special.zero, f->has_inf() ? 450 : f->has_nan() ? 300 : 150);
  }
}

TEST(RandomInputs, Tf32RegistersCarryRandomLowBits) {
  Rng rng(1);
  std::uint64_t low_bits_seen = 0;
  for (int i = 0; i < 200; ++i)
    low_bits_seen |= draw_value(kTf32, InputClass::kNormal, rng) & 0x1fff;
  EXPECT_EQ(low_bits_seen, 0x1fffu) << "the truncation of the low 13 bits would go untested";
}

TEST(RandomInputs, CancelClassPairsEqualAAndOppositeB) {
  const TensorCoreModel& m = *find_model("sm_90.mma_sync.f32.bf16");
  Rng rng(3);
  std::vector<std::uint64_t> A, B, C;
  draw_mma(m, InputClass::kCancel, 2, 3, 16, rng, A, B, C);
  for (int k = 1; k < 16; k += 2) {
    EXPECT_EQ(A[k], A[k - 1]);
    EXPECT_EQ(B[2 * 16 + k] & 0x8000, (B[2 * 16 + k - 1] & 0x8000) ^ 0x8000);
  }
}

TEST(RandomInputs, SameSeedSameStream) {
  Rng a(7), b(7), c(8);
  EXPECT_EQ(a(), b());
  EXPECT_NE(a(), c());
}

}  // namespace
}  // namespace gpuconform::ref
