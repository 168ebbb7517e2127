// SPDX-License-Identifier: Apache-2.0
// numeric.profile.*'s CPU half with the sm_90 block-FMA model standing in for the GPU: the
// Eigen<mpreal> reference is exact where double is, the element-wise profile shows the
// paper's findings (an exact product, conversion loss only when inputs start in fp32), and
// the chain's error grows and stops at f16's overflow (seed 001 §8.2).
#include <gtest/gtest.h>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/profile_reference.hpp"

namespace gpuconform::numerics {
namespace {

VectorVariant variant(const char* name) {
  std::string why;
  return *parse_variant(name, why);
}

MmaRunner model_runner(const VectorVariant& v) {
  const ref::TensorCoreModel* m = ref::default_model("sm_90", v.name);
  return [v, m](const std::vector<MmaInstance>& in) {
    std::vector<std::uint64_t> d(in.size() * v.c_count());
    for (std::size_t n = 0; n < in.size(); ++n)
      ref::mma(*m, v.m, v.n, v.k, in[n].a.data(), in[n].b.data(), in[n].c.data(), d.data() + n * v.c_count());
    return d;
  };
}

TEST(ProfileReference, ExactMmaEqualsTheSmallIntegerResult) {
  const VectorVariant v = variant("mma_m16n8k8_f32_bf16");
  ref::Rng rng(3);
  for (const MmaInstance& in : layout_instances(v, 4, rng)) {
    const std::vector<double> d = exact_mma_values(v, in);
    for (int i = 0; i < v.m; ++i)
      for (int j = 0; j < v.n; ++j) ASSERT_EQ(d[static_cast<std::size_t>(i) * v.n + j], exact_result(v, in, i, j));
  }
}

TEST(ProfileReference, NormalDrawsHaveMeanZeroAndUnitSpread) {
  ref::Rng rng(11);
  double sum = 0, squares = 0;
  constexpr int kN = 20000;
  for (int i = 0; i < kN; ++i) {
    const double x = normal01(rng);
    sum += x;
    squares += x * x;
  }
  EXPECT_NEAR(sum / kN, 0.0, 0.03);
  EXPECT_NEAR(squares / kN, 1.0, 0.03);
}

TEST(ProfileReference, ProductsAreExactUnlessTheInputsStartInFp32) {
  const VectorVariant v = variant("mma_m16n8k8_f32_bf16");
  const ElementProfile low = profile_elements(v, ProfileStage::kMultiplication, ProfileInit::kLow, 200, 5, model_runner(v));
  const ElementProfile f32 = profile_elements(v, ProfileStage::kMultiplication, ProfileInit::kF32, 200, 5, model_runner(v));
  EXPECT_EQ(low.samples, 200);
  EXPECT_EQ(low.vs_f32, 0.0);  // bf16 x bf16 fits fp32: the paper's Table 12, "init BF16"
  EXPECT_EQ(low.vs_exact, 0.0);
  EXPECT_GT(f32.vs_f32, 0.0);  // the conversion to bf16 loses bits
  EXPECT_GT(f32.vs_exact, 0.0);
  EXPECT_GE(f32.max_vs_exact, f32.vs_exact);
}

TEST(ProfileReference, AnFp16ResultIsJudgedAlsoAgainstTheFp32ResultRounded) {
  const VectorVariant v = variant("mma_m16n8k8_f16_f16");
  const ElementProfile e = profile_elements(v, ProfileStage::kInnerProduct, ProfileInit::kLow, 200, 6, model_runner(v));
  EXPECT_GT(e.vs_f32, 0.0);        // an f16 D cannot hold the fp32 sum
  EXPECT_EQ(e.vs_f32_in_d, 0.0);   // ... but is that sum rounded once (Table 14, "CPU FP32cvtFP16")
}

TEST(ProfileReference, ChainErrorGrowsAndFp16OverflowsWithinSixteenSteps) {
  const VectorVariant bf16 = variant("mma_m16n8k8_f32_bf16");
  const ChainProfile c = profile_chain(bf16, ProfileInit::kLow, 6, 3, 9, model_runner(bf16));
  ASSERT_EQ(c.vs_exact.size(), 6u);
  EXPECT_EQ(c.overflow_step, 0);
  EXPECT_GT(c.vs_exact.back(), c.vs_exact.front());
  EXPECT_GT(c.vs_fp64.front(), 0.0);
  const VectorVariant f16 = variant("mma_m16n8k8_f32_f16");
  const ChainProfile h = profile_chain(f16, ProfileInit::kLow, 16, 2, 9, model_runner(f16));
  EXPECT_GT(h.overflow_step, 1);  // the paper: f16 runs into inf for N >= 10
  EXPECT_EQ(h.vs_exact.size(), static_cast<std::size_t>(h.overflow_step - 1));
}

TEST(ProfileReference, IntegerAndFp64PathsAreRefused) {
  const VectorVariant s8 = variant("mma_m16n8k32_s32_s8");
  EXPECT_THROW(profile_elements(s8, ProfileStage::kMultiplication, ProfileInit::kLow, 1, 1, model_runner(s8)),
               std::invalid_argument);
}

}  // namespace
}  // namespace gpuconform::numerics
