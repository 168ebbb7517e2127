// SPDX-License-Identifier: Apache-2.0
// numeric.feature.* judging on the CPU: records the sm_90 model computes stand in for the
// GPU's, through the same instance recipe (random classes + §3 probes) and the same fit.
#include <gtest/gtest.h>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/feature_paths.hpp"
#include "gpuconform/numerics/mma_instances.hpp"

namespace gpuconform::numerics {
namespace {

const InferResult& simulated_fit() {
  static const InferResult fit = [] {
    std::string why;
    const VectorVariant v = *parse_variant("mma_m16n8k32_f32_e4m3", why);
    const ref::TensorCoreModel& model = *ref::default_model("sm_90", v.name);
    ref::Rng rng(7);
    std::vector<MmaInstance> instances;
    for (const std::string& klass : random_classes(v))
      for (MmaInstance& in : draw_instances(v, klass, 30, rng)) instances.push_back(std::move(in));
    for (MmaInstance& in : probe_instances(v)) instances.push_back(std::move(in));
    std::vector<ref::MmaRecord> records;
    for (MmaInstance& in : instances) {
      std::vector<std::uint64_t> d(v.c_count());
      ref::mma(model, v.m, v.n, v.k, in.a.data(), in.b.data(), in.c.data(), d.data());
      records.push_back({in.klass, in.a, in.b, in.c, d});
    }
    return infer_records(v, std::move(records), "sm_90");
  }();
  return fit;
}

// A shape shorter than the table's block (m16n8k8 under sm_90's L=16 row) is one block of K:
// the fit finds L = K, and that is no difference from the table.
TEST(VectorInfer, ABlockLongerThanKIsNoDifference) {
  std::string why;
  const VectorVariant v = *parse_variant("mma_m16n8k8_f32_f16", why);
  const ref::TensorCoreModel& model = *ref::default_model("sm_90", v.name);
  ASSERT_GT(model.block_size, v.k);
  ref::Rng rng(5);
  std::vector<ref::MmaRecord> records;
  for (const std::string& klass : random_classes(v))
    for (MmaInstance& in : draw_instances(v, klass, 20, rng)) {
      std::vector<std::uint64_t> d(v.c_count());
      ref::mma(model, v.m, v.n, v.k, in.a.data(), in.b.data(), in.c.data(), d.data());
      records.push_back({in.klass, in.a, in.b, in.c, d});
    }
  const InferResult r = infer_records(v, std::move(records), "sm_90");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.matched, r.outputs);
  EXPECT_TRUE(r.differs.empty()) << infer_line(r);
}

Expectation expect(const std::string& model) {
  Expectation e;
  e.probe_id = "numeric.feature.mma_sync.f32.e4m3.lowering";
  e.kind = ExpectationKind::exact;
  e.model = model;
  e.unit = "mismatches";
  return e;
}

TEST(FeatureProbe, PassesOnTheFittedValueAndFailsOnAnother) {
  ASSERT_TRUE(simulated_fit().error.empty()) << simulated_fit().error;
  const Expectation right = expect("param:lowering=f16_hmma_pair"), wrong = expect("param:lowering=native");
  EXPECT_EQ(feature_measurement(simulated_fit(), "lowering", &right).value, 0);
  const Measurement m = feature_measurement(simulated_fit(), "lowering", &wrong);
  EXPECT_EQ(m.value, 1);
  EXPECT_EQ(*m.find_note("inferred"), "lowering = f16_hmma_pair");
  EXPECT_GT(m.compared, 0u);
}

TEST(FeatureProbe, AnAmbiguousParameterAcceptsEveryValueTheDataAllow) {
  const Expectation e = expect("param:e_zero=-140");  // tiny results: none in 30 instances a class
  const Measurement m = feature_measurement(simulated_fit(), "e_zero", &e);
  EXPECT_EQ(m.value, 0) << *m.find_note("inferred");
  EXPECT_NE(m.find_note("inferred")->find("cannot tell"), std::string::npos);
}

TEST(FeatureProbe, RecordingWritesTheParameter) {
  const Measurement m = feature_measurement(simulated_fit(), "fraction_bits", nullptr);
  EXPECT_EQ(*m.find_note("model"), "param:fraction_bits=25");
  EXPECT_EQ(m.value, 0) << "a complete fit records cleanly";
}

TEST(FeatureProbe, AFitThatLeavesOutputsUnmatchedFailsWhateverTheParameter) {
  InferResult partial = simulated_fit();
  ASSERT_EQ(partial.matched, partial.outputs) << "the model's own records fit completely";
  partial.matched = partial.outputs - 3;
  partial.first_mismatch = "instance 7 (line 9) D[0][1]: file 0x3f800000, fit 0x3f800001";
  const Expectation right = expect("param:lowering=f16_hmma_pair");
  const Measurement m = feature_measurement(partial, "lowering", &right);
  EXPECT_EQ(m.value, 3);
  ASSERT_NE(m.find_note("unmatched"), nullptr);
  EXPECT_NE(m.find_note("unmatched")->find("first: instance 7"), std::string::npos);
  EXPECT_EQ(feature_measurement(partial, "lowering", nullptr).value, 3) << "recording sees them too";
  InferResult empty = simulated_fit();
  empty.outputs = empty.matched = 0;
  EXPECT_EQ(feature_measurement(empty, "lowering", &right).value, 1) << "a fit of nothing proves nothing";
}

TEST(FeatureProbe, AnExpectationForAnotherParameterIsAnError) {
  const Expectation e = expect("param:block_size=16");
  EXPECT_THROW(feature_measurement(simulated_fit(), "fraction_bits", &e), std::runtime_error);
}

}  // namespace
}  // namespace gpuconform::numerics
