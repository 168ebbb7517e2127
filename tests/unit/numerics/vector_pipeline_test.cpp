// SPDX-License-Identifier: Apache-2.0
// The vector pipeline without a GPU: generate -> check (-> infer) round-trips through the
// reference or simple model (--simulate), on variants registered here with no launcher
// (test_variants.hpp: the numerics library alone, no kernels).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

#include "gpuconform/numerics/golden_generator.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/path_survey.hpp"
#include "gpuconform/numerics/vector_check.hpp"
#include "gpuconform/numerics/vector_infer.hpp"
#include "simulated_vectors.hpp"
#include "test_variants.hpp"

namespace gpuconform::numerics {
namespace {
namespace fs = std::filesystem;

// generate --simulate -> check -> infer on the sub-byte paths: the file replays on its default
// model, not on the other bit operation's, and infer names the model of the variant.
TEST(SubBytePipeline, SimulatedFilesReplayAndInferNamesTheirModel) {
  const fs::path dir = fs::temp_directory_path() / ("gpuconform_subbyte_" + std::to_string(::getpid()));
  GenerateOptions o;
  o.out_dir = dir.string();
  o.count = 30;
  o.simulate_arch = "sm_90";
  const std::pair<const char*, const char*> cases[] = {
      {"mma_m16n8k64_s32_s4_satfinite", "exact.s32.satfinite"}, {"mma_m8n8k32_s32_u4", "exact.s32.wrap"},
      {"mma_m16n8k256_s32_b1_and", "popc.and.s32.wrap"},        {"wmma_m8n8k128_s32_b1_xor", "popc.xor.s32.wrap"}};
  for (const auto& [name, model] : cases) {
    SCOPED_TRACE(name);
    host_variant(name);
    o.variant_glob = name;
    const auto results = generate_golden(DeviceInfo{}, o, nullptr);
    ASSERT_EQ(results.size(), 1u);
    ASSERT_EQ(results[0].status, GenerateStatus::kWritten) << results[0].reason;
    const FileCheck r = check_vector_file(results[0].path, CheckOptions{});
    EXPECT_EQ(r.status, CheckStatus::kMatched) << r.error;
    EXPECT_NE(r.model.find(model), std::string::npos) << r.model;
    const InferResult fit = infer_vector_file(results[0].path, "");
    EXPECT_EQ(fit.error, "");
    EXPECT_EQ(fit.matched, fit.outputs);
    ASSERT_FALSE(fit.params.empty());
    EXPECT_EQ(fit.params[0].value, model);
    EXPECT_TRUE(fit.params[0].alternatives.empty()) << "the probes leave the model open";
    EXPECT_TRUE(fit.differs.empty());
  }
  CheckOptions other;
  other.model = "popc.xor.s32.wrap";  // the and file against the other bit operation
  const FileCheck r = check_vector_file((dir / "mma_m16n8k256_s32_b1_and.txt.xz").string(), other);
  EXPECT_EQ(r.status, CheckStatus::kMismatched) << r.error;
  fs::remove_all(dir);
}

class SimulatedPipeline : public SimulatedVectors {
 protected:
  void SetUp() override { simulate("pipeline", "mma_m16n8k16_f32_bf16", 10); }
};

TEST_F(SimulatedPipeline, FileMatchesTheModelThatMadeIt) {
  const FileCheck r = check_vector_file(path_, CheckOptions{});
  EXPECT_EQ(r.status, CheckStatus::kMatched) << r.error;
  EXPECT_EQ(r.matched, r.total);
  EXPECT_EQ(r.total, r.instances * 128);
  EXPECT_TRUE(fs::exists(dir_ / "README.md"));
}

TEST_F(SimulatedPipeline, ReadmeRewriteKeepsTheNotesSection) {
  const fs::path readme = dir_ / "README.md";
  { std::ofstream(readme, std::ios::app) << "\n## Notes\n\nA finding written by hand.\n"; }
  write_golden_readme(dir_.string());
  std::ifstream in(readme);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("| mma_m16n8k16_f32_bf16.txt.xz |"), std::string::npos) << text;
  EXPECT_NE(text.find("\n## Notes\n\nA finding written by hand.\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("## Notes"), text.rfind("## Notes")) << "notes duplicated:\n" << text;
}

TEST_F(SimulatedPipeline, AnotherArchitecturesModelShowsTheFirstMismatchesInHex) {
  CheckOptions o;
  o.model = "sm_80.mma_sync.f32.bf16";  // L=8, F=24: differs from sm_90's L=16, F=25
  const FileCheck r = check_vector_file(path_, o);
  ASSERT_EQ(r.status, CheckStatus::kMismatched) << r.error;
  ASSERT_EQ(r.mismatches.size(), 5u);
  EXPECT_NE(r.mismatches[0].find("D["), std::string::npos);
  EXPECT_NE(r.mismatches[0].find(": file "), std::string::npos);
  EXPECT_NE(r.mismatches[0].find(" model "), std::string::npos);
  EXPECT_NE(r.mismatches[0].find(" a(row "), std::string::npos);
}

// The in-memory check the GPU's numeric probes use agrees with the file check.
TEST(CheckRecords, SurveyRecordsMatchTheirModelAndNotAnotherArchitectures) {
  const MmaVariant* v = &host_variant("mma_m16n8k16_f32_bf16");
  const std::vector<ref::MmaRecord> records = simulate_survey_instances(*v, 10, 1, "sm_90");
  CheckOptions o;
  o.arch = "sm_90";
  const FileCheck same = check_records(v->layout, records, o);
  ASSERT_EQ(same.status, CheckStatus::kMatched) << same.error;
  EXPECT_EQ(same.total, records.size() * 128);
  EXPECT_EQ(same.model.rfind("sm_90.mma_sync.f32.bf16 ", 0), 0u) << same.model;
  o.model = "sm_80.mma_sync.f32.bf16";
  const FileCheck other = check_records(v->layout, records, o);
  EXPECT_EQ(other.status, CheckStatus::kMismatched) << other.error;
  EXPECT_NE(other.mismatches.at(0).find(": gpu "), std::string::npos) << other.mismatches.at(0);
  EXPECT_EQ(check_records(v->layout, records, CheckOptions{}).status, CheckStatus::kUnusable);  // no architecture
}

TEST_F(SimulatedPipeline, AModelOfOtherFormatsIsUnusable) {
  CheckOptions o;
  o.model = "sm_90.mma_sync.f32.f16";
  const FileCheck r = check_vector_file(path_, o);
  EXPECT_EQ(r.status, CheckStatus::kUnusable);
  EXPECT_NE(r.error.find("does not fit variant mma_m16n8k16_f32_bf16: its A/B format is "), std::string::npos)
      << r.error;
  o.model = "sm_99.nothing";
  EXPECT_NE(check_vector_file(path_, o).error.find("unknown model 'sm_99.nothing' (known: "), std::string::npos);
}

TEST(VectorCheck, VariantWithoutAModelIsReadButNotChecked) {
  const auto path = fs::temp_directory_path() / "gpuconform_no_model.txt";
  std::string line = "mma_m16n8k32_f16_e4m3 normal " + std::string(1024, '1') + " " + std::string(512, '2') + " " +
                     std::string(512, '3') + " " + std::string(512, '4') + "\n";
  std::ofstream(path) << "# arch: sm_80\n" << line << line;  // Ampere has no FP8
  const FileCheck r = check_vector_file(path.string(), CheckOptions{});
  EXPECT_EQ(r.status, CheckStatus::kNoModel);
  EXPECT_EQ(r.instances, 2u);
  EXPECT_NE(r.error.find("no model for mma_m16n8k32_f16_e4m3 on sm_80"), std::string::npos) << r.error;
  fs::remove(path);
}

}  // namespace
}  // namespace gpuconform::numerics
