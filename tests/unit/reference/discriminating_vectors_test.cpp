// SPDX-License-Identifier: Apache-2.0
// The discriminating vectors of numerics.md §3 under every model: both implementations
// give the expected D, also when the vector is packed into an MMA instance the way the
// GPU probe packs it. Spot checks pin the published numbers to the models numerics.md
// names, and pairs of neighbouring models must be told apart by some vector.
#include "gpuconform/reference/discriminating_vectors.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

using testing::hex;
using testing::Mismatches;

class VectorsUnderModel : public ::testing::TestWithParam<const TensorCoreModel*> {};

TEST_P(VectorsUnderModel, EveryVectorGivesItsExpectedValue) {
  const TensorCoreModel& m = *GetParam();
  SCOPED_TRACE(m.id + " (" + describe(m) + ")");
  const std::vector<DiscriminatingVector> vs = discriminating_vectors(m);
  ASSERT_GE(vs.size(), 15u) << "too few vectors apply to " << m.id;
  Mismatches wrong;
  for (const DiscriminatingVector& v : vs) {
    const int K = static_cast<int>(v.a.size());
    const std::uint64_t fast = dot(m, K, v.a.data(), v.b.data(), v.c);
    const std::uint64_t exact = dot_mpfr(m, K, v.a.data(), v.b.data(), v.c);
    if (fast != v.expected || exact != v.expected)
      wrong.add(fmt::format("{}{}: expected {}, dot {}, dot_mpfr {}", v.name,
                            v.computed ? " (computed)" : "", hex(m.acc_format, v.expected),
                            hex(m.acc_format, fast), hex(m.acc_format, exact)));
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

// The probe's packing: row 0 of A = a, column 0 of B = b, C[0][0] = c, all else +0.
// D[1][1] sees only zeros: +0. (D[0][1] and D[1][0] pair a or b with zeros, so an inf
// there is inf*0 = NaN: correct, and not what the probe reads.)
TEST_P(VectorsUnderModel, PackedAsAnMmaInstanceTheFirstElementIsExpected) {
  const TensorCoreModel& m = *GetParam();
  constexpr int kM = 2, kN = 2;
  const int K = m.max_k();
  Mismatches wrong;
  for (const DiscriminatingVector& v : discriminating_vectors(m)) {
    std::vector<std::uint64_t> A(kM * K, 0), B(K * kN, 0), C(kM * kN, 0), D(kM * kN, 1);
    for (std::size_t k = 0; k < v.a.size(); ++k) {
      A[k] = v.a[k];  // row 0
      B[k] = v.b[k];  // column 0
    }
    C[0] = v.c;
    mma(m, kM, kN, K, A.data(), B.data(), C.data(), D.data());
    if (D[0] != v.expected || D[3] != 0)
      wrong.add(fmt::format("{}: D[0][0] = {}, D[1][1] = {}; expected {} and +0", v.name,
                            hex(m.acc_format, D[0]), hex(m.acc_format, D[3]),
                            hex(m.acc_format, v.expected)));
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

std::vector<const TensorCoreModel*> all_models() {
  std::vector<const TensorCoreModel*> out;
  // The sm_90 FP8 lowering takes no §3 vectors (C joins last); its own test is in
  // models_test.cpp and the golden vectors check it output by output.
  for (const TensorCoreModel& m : models())
    if (!m.fp8_via_hmma_pair) out.push_back(&m);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Models, VectorsUnderModel, ::testing::ValuesIn(all_models()),
                         [](const auto& info) { return testing::test_name(info.param->id); });

// The numbers §3 states (published and †), as literals, on the models it names.
TEST(DiscriminatingVectors, CarryTheValuesNumericsMdStates) {
  const struct {
    const char* model;
    const char* vector;
    std::uint64_t expected;
  } cases[] = {
      {"sm_70.mma_sync.f32.f16", "extra_alignment_bits", 0x34000000},
      {"sm_80.mma_sync.f32.f16", "extra_alignment_bits", 0x33800000},
      {"sm_70.mma_sync.f32.f16", "normalization_in_subtraction", 0x34000000},
      {"sm_90.mma_sync.f32.bf16", "normalization_in_subtraction", 0x00000000},
      {"sm_70.mma_sync.f32.f16", "extra_bits.two_terms", 0x3f800000},
      {"sm_80.mma_sync.f32.bf16", "extra_bits.two_terms", 0x3f800001},
      {"sm_90.mma_sync.f32.f16", "extra_bits.three_terms", 0x3f800001},
      {"sm_80.mma_sync.f32.f16", "extra_bits.three_terms", 0x3f800000},
      {"sm_90.mma_sync.f32.bf16", "f_directly.n25", 0x3a000000},  // 2^-11 survives
      {"sm_90.mma_sync.f32.bf16", "f_directly.n26", 0x00000000},  // 2^-12 does not
      {"sm_90.wgmma.f32.e4m3", "f_directly.n13", 0x40000000},     // c = 2 survives
      {"sm_90.wgmma.f32.e4m3", "f_directly.n14", 0x00000000},     // c = 1 does not
      {"sm_90.mma_sync.f32.f16", "alignment_rounding.x-1.5", 0xba000000},
      {"sm_90.mma_sync.f32.f16", "alignment_rounding.x-0.25", 0x00000000},
      {"sm_80.mma_sync.f32.f16", "block_size.k7", 0x40000001},
      {"sm_80.mma_sync.f32.f16", "block_size.k8", 0x40000000},
      {"sm_90.mma_sync.f32.f16", "block_size.k15", 0x40000001},
      {"sm_90.mma_sync.f32.f16", "block_size.k15.negated", 0xc0000001},
      {"sm_90.mma_sync.f32.bf16", "output_rounding", 0x40800000},
      {"sm_90.mma_sync.f32.bf16", "output_rounding.negated", 0xc0800000},
      {"sm_80.mma_sync.f16.f16", "f16_output_rne", 0x0001},
      {"sm_70.mma_sync.f32.f16", "monotonicity.v100.c_below", 0x3f800001},
      {"sm_70.mma_sync.f32.f16", "monotonicity.v100.c_one", 0x3f800000},
      {"sm_80.mma_sync.f32.f16", "monotonicity.a100.c_below", 0x3f800001},
      {"sm_80.mma_sync.f32.f16", "monotonicity.a100.c_one", 0x3f800000},
      {"sm_90.mma_sync.f32.f16", "monotonicity.hopper.c_below", 0x3f800001},
      {"sm_90.mma_sync.f32.f16", "monotonicity.hopper.c_one", 0x3f800000},
      {"sm_80.mma_sync.f32.f16", "carries.slot2", 0x40800001},
      {"sm_80.mma_sync.f32.f16", "carries.sum_to_8", 0x41000000},
      {"sm_80.mma_sync.f32.tf32", "tf32_truncation", 0x3f7fc004},
      {"sm_89.mma_sync.f32.e4m3", "accumulator_width", 0x3ffffc00},
      {"sm_90.wgmma.f32.e5m2", "accumulator_width", 0x3ffffc00},
      {"sm_100.tcgen05.f32.e4m3", "accumulator_width", 0x3fffffff},
      {"sm_90.mma_sync.f32.bf16", "accumulator_width", 0x3fffffff},
      {"sm_90.mma_sync.f32.bf16", "e_zero_f32.j8", 0x00000000},
      {"sm_90.mma_sync.f32.bf16", "e_zero_f32.j9", 0x00000001},
      {"sm_90.mma_sync.f32.f16", "special.inf_times_zero", 0x7fffffff},
      {"sm_90.mma_sync.f16.f16", "special.inf_minus_inf", 0x7fff},
      {"sm_90.mma_sync.f16.f16", "overflow.f16", 0x7c00},
      {"sm_90.mma_sync.f16.f16", "overflow.f16_products_cancel", 0x0000},
      {"sm_90.mma_sync.f32.f16", "subnormal.f16_min_times_4", 0x34800000},
      {"sm_90.mma_sync.f32.f16", "subnormal.c_min_preserved", 0x00000001},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.model) + " " + c.vector);
    const TensorCoreModel* m = find_model(c.model);
    ASSERT_NE(m, nullptr);
    const DiscriminatingVector* found = nullptr;
    const auto vs = discriminating_vectors(*m);
    for (const auto& v : vs)
      if (v.name == c.vector) found = &v;
    ASSERT_NE(found, nullptr) << "vector not generated for this model";
    EXPECT_EQ(found->expected, c.expected);
  }
}

// Some vector must tell each pair apart: model B run on model A's vectors misses one.
TEST(DiscriminatingVectors, SeparateNeighbouringModels) {
  TensorCoreModel rne_tf32 = *find_model("sm_80.mma_sync.f32.tf32");
  rne_tf32.tf32_truncation = false;
  TensorCoreModel no_floor = *find_model("sm_90.mma_sync.f32.bf16");
  no_floor.e_zero = -1000;
  const struct {
    const TensorCoreModel* a;
    const TensorCoreModel* b;
  } pairs[] = {
      {find_model("sm_80.mma_sync.f32.f16"), find_model("sm_90.mma_sync.f32.f16")},  // L, F
      {find_model("sm_70.mma_sync.f32.f16"), find_model("sm_75.mma_sync.f32.f16")},  // F 23/24
      {find_model("sm_90.wgmma.f32.e4m3"), find_model("sm_100.tcgen05.f32.e4m3")},   // F 13/25
      {find_model("sm_89.mma_sync.f32.e4m3"), find_model("sm_90.wgmma.f32.e4m3")},   // L 16/32
      {find_model("sm_90.mma_sync.f32.tf32"), find_model("sm_90.wmma.f32.tf32")},    // L 8/4
      {find_model("sm_80.mma_sync.f32.tf32"), &rne_tf32},                            // truncation
      {find_model("sm_90.mma_sync.f32.bf16"), &no_floor},                            // e_zero
      {find_model("sm_80.mma_sync.f16.f16"), find_model("sm_90.mma_sync.f16.f16")},  // f16 D
  };
  for (const auto& p : pairs) {
    SCOPED_TRACE(p.a->id + " vs " + p.b->id + " " + describe(*p.b));
    int differing = 0;
    for (const auto& v : discriminating_vectors(*p.a))
      differing +=
          dot(*p.b, static_cast<int>(v.a.size()), v.a.data(), v.b.data(), v.c) != v.expected;
    EXPECT_GT(differing, 0);
  }
}

TEST(DiscriminatingVectors, ShapeLimitDropsLongVectors) {
  const TensorCoreModel& m = *find_model("sm_80.mma_sync.f32.tf32");
  for (const auto& v : discriminating_vectors(m, 4)) EXPECT_LE(v.a.size(), 4u) << v.name;
  EXPECT_GT(discriminating_vectors(m, 8).size(), discriminating_vectors(m, 4).size());
}

}  // namespace
}  // namespace gpuconform::ref
