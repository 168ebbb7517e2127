// SPDX-License-Identifier: Apache-2.0
// The host half of the sparse wgmma path (wgmmasp_*, kernels/numeric/wgmma_sp.cu) without a
// GPU: its names, probe ids and feature paths, the dense problems of the two hypotheses (the
// dense wgmma rows), and the whole pipeline on --simulate files: generate (with metadata),
// check (compressed:sm_90.wgmma.* matches, dense:sm_90.wgmma.* does not where blocks split
// differently), infer (sparse_products = compressed), as the H100 golden files will be judged.
#include <gtest/gtest.h>

#include <string>

#include "gpuconform/numerics/feature_paths.hpp"
#include "gpuconform/numerics/mma_check.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"
#include "gpuconform/numerics/vector_check.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/vector_infer.hpp"
#include "simulated_vectors.hpp"

namespace gpuconform::numerics {
namespace {

VectorVariant parsed(const std::string& name) {
  std::string why;
  const auto v = parse_variant(name, why);
  if (!v) throw std::logic_error(why);
  return *v;
}

TEST(WgmmaSparseNames, ParseToTheDenseWgmmaProblems) {
  const VectorVariant v = parsed("wgmmasp_m64n8k32_f32_f16_areg_sel1");
  EXPECT_TRUE(v.sparse());
  EXPECT_EQ(v.metadata_count(), 64u * 8);
  EXPECT_EQ(v.arithmetic_name(), "wgmmasp_m64n8k32_f32_f16");
  EXPECT_EQ(compressed_variant(v).name, "wgmma_m64n8k16_f32_f16");
  EXPECT_EQ(dense_variant(v).name, "wgmma_m64n8k32_f32_f16");
  EXPECT_EQ(compressed_variant(parsed("wgmmasp_m64n8k16_f32_tf32_sel0")).name, "wgmma_m64n8k8_f32_tf32");
  EXPECT_EQ(compressed_variant(parsed("wgmmasp_m64n8k64_f32_e4m3_sel0")).name, "wgmma_m64n8k32_f32_e4m3");
  EXPECT_EQ(compressed_variant(parsed("mmasp_m16n8k32_f32_f16_sel0")).name, "mma_m16n8k16_f32_f16");  // unchanged
  std::string why;
  EXPECT_FALSE(parse_variant("wgmma_m64n8k32_f32_f16_sel0", why));  // a selector is for sparse instructions
  EXPECT_NE(why.find("sparse instruction"), std::string::npos) << why;
  EXPECT_FALSE(parse_variant("wgmmasp_m64n8k30_f32_f16_sel0", why));  // K not whole chunks
  EXPECT_EQ(numeric_probe_id("wgmmasp_m64n8k32_f32_f16_sel0"), "numeric.wgmma_sp.m64n8k32.f32.f16.sel0");
  EXPECT_EQ(numeric_probe_id("wgmmasp_m64n8k32_f32_f16_areg_sel0"), "numeric.wgmma_sp.m64n8k32.f32.f16.areg.sel0");
  EXPECT_EQ(numeric_probe_id("mmasp_m16n8k32_f32_f16_sel0"), "numeric.mmasp.m16n8k32.f32.f16.sel0");
}

TEST(WgmmaSparseNames, DefaultModelsAreTheDenseWgmmaRows) {
  EXPECT_EQ(sparse_default_model("sm_90", parsed("wgmmasp_m64n8k32_f32_f16_sel0"))->id, "sm_90.wgmma.f32.f16");
  EXPECT_EQ(sparse_default_model("sm_90", parsed("wgmmasp_m64n8k32_f16_f16_sel0"))->id, "sm_90.wgmma.f16.f16");
  EXPECT_EQ(sparse_default_model("sm_90", parsed("wgmmasp_m64n8k32_f32_bf16_sel0"))->id, "sm_90.wgmma.f32.bf16");
  EXPECT_EQ(sparse_default_model("sm_90", parsed("wgmmasp_m64n8k16_f32_tf32_sel0"))->id, "sm_90.wgmma.f32.tf32");
  EXPECT_EQ(sparse_default_model("sm_90", parsed("wgmmasp_m64n8k64_f32_e5m2_sel0"))->id, "sm_90.wgmma.f32.e5m2");
  EXPECT_EQ(sparse_default_model("sm_90", parsed("wgmmasp_m64n8k64_s32_s8_sel0")), nullptr);  // integer: exact
}

TEST(WgmmaSparseNames, FeaturePathsReportSparseProducts) {
  EXPECT_EQ(feature_path_of("wgmmasp_m64n8k32_f32_f16_sel0"), "wgmma_sp.f32.f16");
  EXPECT_EQ(feature_path_of("wgmmasp_m64n8k64_s32_s8_sel0"), "wgmma_sp.s32.s8");
  const VectorVariant f16 = parsed("wgmmasp_m64n8k32_f32_f16_sel0");
  EXPECT_TRUE(feature_applies(f16, "sparse_products"));
  EXPECT_TRUE(feature_applies(f16, "fraction_bits"));
  EXPECT_FALSE(feature_applies(f16, "model"));
  EXPECT_TRUE(feature_applies(parsed("wgmmasp_m64n8k64_s32_s8_sel0"), "model"));
  EXPECT_TRUE(feature_applies(parsed("wgmmasp_m64n8k64_f32_e4m3_sel0"), "block_order"));
}

// Sparse instances of a warpgroup shape: every class is 2:4 over 64 rows, the probes scatter
// the dense m64n8k16 probes, and the metadata of each is the launcher's.
TEST(WgmmaSparseInstances, EveryClassIsSparse) {
  const VectorVariant v = parsed("wgmmasp_m64n8k32_f32_f16_sel0");
  ref::Rng rng(5);
  for (const std::string& klass : random_classes(v))
    for (const MmaInstance& in : draw_instances(v, klass, 2, rng)) {
      EXPECT_NO_THROW(sparse_metadata(v, in.a.data())) << klass;
    }
  EXPECT_EQ(probe_instances(v).size(), probe_instances(compressed_variant(v)).size());
}

// f16 into f32: the kept 16 products are one block of L = 16 (compressed), the row's 32 two
// blocks (dense): the hypotheses differ, so the H100 files can tell them apart.
class WgmmaSparseSimulated : public SimulatedVectors {
 protected:
  void SetUp() override { simulate("wgmmasp", "wgmmasp_m64n8k32_f32_f16_sel0", 25); }
};

TEST_F(WgmmaSparseSimulated, FileCarriesMetadataAndCheckTellsTheHypothesesApart) {
  VectorReader r = VectorReader::open(path_);
  VectorRecord rec;
  ASSERT_TRUE(r.next(rec));
  EXPECT_EQ(r.version(), 2);
  EXPECT_EQ(rec.e, sparse_metadata(*r.variant(), rec.a.data()));
  EXPECT_NE(r.header_value("format").find("A B C D E"), std::string::npos);

  const FileCheck def = check_vector_file(path_, CheckOptions{});
  ASSERT_EQ(def.status, CheckStatus::kMatched) << def.error;
  EXPECT_NE(def.model.find("compressed:sm_90.wgmma.f32.f16"), std::string::npos) << def.model;
  CheckOptions o;
  o.model = "dense:sm_90.wgmma.f32.f16";
  EXPECT_EQ(check_vector_file(path_, o).status, CheckStatus::kMismatched);
  const std::vector<std::string> ids = candidate_models(parsed("wgmmasp_m64n8k32_f32_f16_sel0"));
  EXPECT_NE(std::find(ids.begin(), ids.end(), "compressed:sm_90.wgmma.f32.f16"), ids.end());
}

TEST_F(WgmmaSparseSimulated, InferNamesTheCompressedHypothesisOnTheWgmmaRow) {
  const InferResult r = infer_vector_file(path_);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.matched, r.outputs);
  ASSERT_FALSE(r.params.empty());
  EXPECT_EQ(r.params.front().name, "sparse_products");
  EXPECT_EQ(r.params.front().value, "compressed");
  EXPECT_EQ(r.table_model, "sm_90.wgmma.f32.f16");
  EXPECT_TRUE(r.differs.empty()) << infer_line(r);
}

// FP8: the kept 32 products are one block of L = 32 with the 13-bit accumulator; the dense
// hypothesis chains two blocks (C loses its low bits twice).
class WgmmaSparseFp8Simulated : public SimulatedVectors {
 protected:
  void SetUp() override { simulate("wgmmasp_fp8", "wgmmasp_m64n8k64_f32_e4m3_sel0", 15); }
};

TEST_F(WgmmaSparseFp8Simulated, CompressedMatchesDenseDoesNot) {
  const FileCheck def = check_vector_file(path_, CheckOptions{});
  ASSERT_EQ(def.status, CheckStatus::kMatched) << def.error;
  EXPECT_NE(def.model.find("compressed:sm_90.wgmma.f32.e4m3"), std::string::npos) << def.model;
  CheckOptions o;
  o.model = "dense:sm_90.wgmma.f32.e4m3";
  EXPECT_EQ(check_vector_file(path_, o).status, CheckStatus::kMismatched);
}

}  // namespace
}  // namespace gpuconform::numerics
