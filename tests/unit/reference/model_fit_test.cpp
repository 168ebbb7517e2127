// SPDX-License-Identifier: Apache-2.0
// The parameter fit (model_fit.hpp) on data a known model produced: random instances of
// every class plus the §3 discriminating vectors, as the golden generator draws them. The
// fit starts from a generic guess and gets no table model, so every parameter it returns
// was read from the data.
#include <gtest/gtest.h>

#include "gpuconform/reference/discriminating_vectors.hpp"
#include "gpuconform/reference/model_fit.hpp"
#include "gpuconform/reference/random_inputs.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

// Records of `truth` on an M x N x K shape: `per_class` random instances of each class and
// one instance per discriminating vector of every table model with these formats.
FitInput records_of(const TensorCoreModel& truth, int M, int N, int K, int per_class) {
  FitInput in;
  in.m = M;
  in.n = N;
  in.k = K;
  in.ab_format = truth.a_format;
  in.acc_format = truth.acc_format;
  Rng rng(testing::seed_from(truth.id));
  auto add = [&](std::string klass, std::vector<std::uint64_t> a, std::vector<std::uint64_t> b,
                 std::vector<std::uint64_t> c) {
    std::vector<std::uint64_t> d(c.size());
    mma(truth, M, N, K, a.data(), b.data(), c.data(), d.data());
    in.records.push_back({std::move(klass), std::move(a), std::move(b), std::move(c), std::move(d)});
  };
  for (InputClass klass : all_input_classes())
    for (int t = 0; t < per_class; ++t) {
      std::vector<std::uint64_t> a, b, c;
      draw_mma(truth, klass, M, N, K, rng, a, b, c);
      add(std::string(to_string(klass)), a, b, c);
    }
  for (const TensorCoreModel& m : models()) {
    if (m.a_format.name != truth.a_format.name || m.acc_format.name != truth.acc_format.name) continue;
    for (const DiscriminatingVector& v : discriminating_vectors(m, K)) {
      std::vector<std::uint64_t> a(static_cast<std::size_t>(M) * K), b(static_cast<std::size_t>(K) * N),
          c(static_cast<std::size_t>(M) * N);
      std::copy(v.a.begin(), v.a.end(), a.begin());
      std::copy(v.b.begin(), v.b.end(), b.begin());
      c[0] = v.c;
      add("probe:" + v.name, a, b, c);
    }
  }
  return in;
}

void expect_recovered(const TensorCoreModel& truth, const FitResult& fit) {
  for (const char* name : {"block_size", "fraction_bits", "final_rounding", "accumulator_format", "subnormal_inputs",
                           "subnormal_outputs", "negative_zero", "overflow", "nan_canonical"}) {
    const FitParameter* p = fit.find(name);
    ASSERT_NE(p, nullptr) << name;
    EXPECT_EQ(p->value, parameter_value(truth, name)) << name;
  }
  EXPECT_EQ(fit.sample_mismatches, 0u);
  if (::testing::Test::HasFailure())
    for (const FitParameter& p : fit.params)
      ADD_FAILURE() << p.name << "=" << p.value << " (" << p.alternatives.size() << " alternatives)";
}

struct Case {
  const char* id;
  int M, N, K;
};

class FitTableModel : public ::testing::TestWithParam<Case> {};

TEST_P(FitTableModel, RecoversItsParameters) {
  const TensorCoreModel& truth = *find_model(GetParam().id);
  const FitInput in = records_of(truth, GetParam().M, GetParam().N, GetParam().K, 40);
  const FitResult fit = fit_block_fma(in);
  expect_recovered(truth, fit);
  if (truth.a_format.pad_bits > 0) EXPECT_EQ(fit.find("input_truncation")->value, "truncate");
  if (truth.a_format.width_bits() == 8) EXPECT_EQ(fit.find("lowering")->value, parameter_value(truth, "lowering"));
  const auto [matched, total] = count_matches(fit.model, in);
  EXPECT_EQ(matched, total);
}

// Split blocks (Ampere), one fused block (Hopper), the FP8 e8m13 grid, the sm_90 FP8
// mma.sync lowering, RNE f16 output and tf32.
INSTANTIATE_TEST_SUITE_P(Models, FitTableModel,
                         ::testing::Values(Case{"sm_80.mma_sync.f32.f16", 16, 8, 16},
                                           Case{"sm_90.mma_sync.f32.bf16", 16, 8, 16},
                                           Case{"sm_90.wgmma.f32.e4m3", 16, 8, 32},
                                           Case{"sm_90.mma_sync.f32.e5m2", 16, 8, 32},
                                           Case{"sm_90.mma_sync.f16.f16", 16, 8, 16},
                                           Case{"sm_80.mma_sync.f32.tf32", 16, 8, 8}),
                         [](const auto& info) { return testing::test_name(info.param.id); });

// Parameters no table row has: the fit reads them from the data, not from a default.
// bf16 inputs, whose products reach both ends of the fp32 range (f16 products cannot:
// their overflow and subnormal-output rules stay ambiguous, as in the H100 files).
TEST(Fit, RecoversEdgeRulesNoTableModelHas) {
  TensorCoreModel truth = *find_model("sm_90.mma_sync.f32.bf16");
  truth.fraction_bits = 22;
  truth.rounding = Rounding::kRNE;
  truth.subnormal_inputs = false;
  truth.overflow = Overflow::kSaturate;
  expect_recovered(truth, fit_block_fma(records_of(truth, 16, 8, 16, 40)));
}

// Flushed outputs alone. (With inputs flushed too, e_zero = -126 and kept outputs fit the
// same data as e_zero = -133 and flushed ones: a joint ambiguity that the per-parameter
// tie report does not show; the fit still reproduces every output.)
TEST(Fit, RecoversFlushedOutputs) {
  TensorCoreModel truth = *find_model("sm_90.mma_sync.f32.bf16");
  truth.subnormal_outputs = false;
  expect_recovered(truth, fit_block_fma(records_of(truth, 16, 8, 16, 40)));
}

TEST(Fit, Tf32RoundedInputsAreTold) {
  TensorCoreModel truth = *find_model("sm_90.mma_sync.f32.tf32");
  truth.tf32_truncation = false;
  const FitResult fit = fit_block_fma(records_of(truth, 16, 8, 8, 40));
  EXPECT_EQ(fit.find("input_truncation")->value, "rne");
}

// One flipped output bit must show as one unmatched output, not be fitted away.
TEST(Fit, ACorruptedOutputIsReportedUnmatched) {
  const TensorCoreModel& truth = *find_model("sm_90.mma_sync.f32.f16");
  FitInput in = records_of(truth, 16, 8, 16, 40);
  in.records[3].d[5] ^= 1;  // a normal-class instance: record 3 * 128 + 5
  in.canonical = &truth;
  const FitResult fit = fit_block_fma(in);
  std::uint64_t first = 0;
  const auto [matched, total] = count_matches(fit.model, in, &first);
  EXPECT_EQ(matched, total - 1);
  EXPECT_EQ(first, 3u * 128 + 5);
  EXPECT_EQ(fit.find("fraction_bits")->value, "25");
}

// Ties go to the canonical model: with no subnormal data, F and L still come from the
// data, and e_zero (which only tiny results show) is the table's, reported as ambiguous.
TEST(Fit, TiesKeepTheCanonicalValueAndSaySo) {
  const TensorCoreModel& truth = *find_model("sm_90.mma_sync.f32.f16");
  FitInput in = records_of(truth, 16, 8, 16, 40);
  in.records.erase(std::remove_if(in.records.begin(), in.records.end(),
                                  [](const MmaRecord& r) { return r.klass != "normal"; }),
                   in.records.end());
  in.canonical = &truth;
  const FitResult fit = fit_block_fma(in);
  EXPECT_EQ(fit.find("e_zero")->value, "-133");
  EXPECT_FALSE(fit.find("e_zero")->alternatives.empty());
  EXPECT_TRUE(fit.ambiguous());
}

TEST(Fit, RejectsFormatsWithoutABlockModel) {
  FitInput in;
  in.m = in.n = 8;
  in.k = 4;
  in.ab_format = kFp64;
  in.acc_format = kFp64;
  EXPECT_THROW(fit_block_fma(in), std::invalid_argument);
}

}  // namespace
}  // namespace gpuconform::ref
