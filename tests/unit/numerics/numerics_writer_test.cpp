// SPDX-License-Identifier: Apache-2.0
// `gpuconform probe numerics`' writer on fake fits: which parameters become
// numeric.feature.* entries, that the file it renders passes the strict loader (the golden:
// source included), and the model-table rows.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gpuconform/expectation_writer.hpp"
#include "gpuconform/numerics/numerics_writer.hpp"

namespace gpuconform::numerics {
namespace {

namespace fs = std::filesystem;

PathFit fake_fit(const std::string& variant, const std::string& path, std::vector<ref::FitParameter> params) {
  PathFit f;
  f.feature_path = path;
  f.vectors = "survey-vectors/" + variant + ".txt.xz";
  f.fit.variant = variant;
  f.fit.params = std::move(params);
  f.fit.outputs = f.fit.matched = 1000;
  f.fit.table_model = "sm_90.mma_sync.f32.f16";
  return f;
}

PathFit f16_path() {
  return fake_fit("mma_m16n8k16_f32_f16", "mma_sync.f32.f16",
                  {{"block_size", "16", {}},
                   {"fraction_bits", "25", {}},
                   {"final_rounding", "rz", {}},
                   {"accumulator_format", "f32", {}},
                   {"e_zero", "-133", {"-140", "-139"}},
                   {"subnormal_inputs", "kept", {}}});
}

const SurveyFacts kFacts{"sm_90", "NVIDIA H100 (pci 0x2330)", "580.1", "13.0.88", "2026-11-25T03:00:00Z"};

// Every probe id the fake registry knows: the f16 path's properties but subnormal_inputs.
bool known(const std::string& id) { return id.find("subnormal_inputs") == std::string::npos; }

TEST(NumericsWriter, WritesOnlyPinnedParametersOfRegisteredTests) {
  std::vector<std::string> left_out;
  const ExpectationFile file = numerics_expectations({f16_path()}, kFacts, known, &left_out);
  EXPECT_EQ(file.arch, "sm_90");
  ASSERT_EQ(file.entries.size(), 4u);  // e_zero ambiguous, subnormal_inputs not a test
  const Expectation& e = file.entries[1];
  EXPECT_EQ(e.probe_id, "numeric.feature.mma_sync.f32.f16.fraction_bits");
  EXPECT_EQ(e.kind, ExpectationKind::exact);
  EXPECT_EQ(e.model, "param:fraction_bits=25");
  EXPECT_EQ(e.unit, "mismatches");
  EXPECT_EQ(e.source, "golden:survey-vectors/mma_m16n8k16_f32_f16.txt.xz");
  EXPECT_NE(e.note.find("1000 of 1000 outputs (= sm_90.mma_sync.f32.f16)"), std::string::npos) << e.note;
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_NE(left_out[0].find("e_zero"), std::string::npos);
  EXPECT_NE(left_out[0].find("-140,-139"), std::string::npos) << left_out[0];
}

TEST(NumericsWriter, AFitThatMissesAnOutputOrHasNoVectorsPinsNothing) {
  PathFit missed = f16_path();
  missed.fit.matched = 999;
  PathFit no_vectors = f16_path();
  no_vectors.vectors.clear();
  PathFit broken = f16_path();
  broken.fit.error = "layout self-test failed";
  PathFit no_tests = f16_path();
  no_tests.feature_path.clear();  // e.g. wgmma's A-in-registers twin
  std::vector<std::string> left_out;
  EXPECT_TRUE(numerics_expectations({missed, no_vectors, broken, no_tests}, kFacts, known, &left_out).entries.empty());
  ASSERT_EQ(left_out.size(), 3u);
  EXPECT_NE(left_out[0].find("999 of 1000"), std::string::npos) << left_out[0];
  EXPECT_NE(left_out[1].find("not kept"), std::string::npos) << left_out[1];
  EXPECT_NE(left_out[2].find("layout self-test failed"), std::string::npos) << left_out[2];
}

TEST(NumericsWriter, TheRenderedFilePassesTheStrictLoader) {
  const fs::path dir = fs::temp_directory_path() / ("gc_numerics_writer_" + std::to_string(::getpid()));
  fs::create_directories(dir / "survey-vectors");
  std::ofstream(dir / "survey-vectors" / "mma_m16n8k16_f32_f16.txt.xz") << "stand-in\n";
  const fs::path toml = dir / "survey.toml";
  std::ofstream(toml) << render_expectation_file(numerics_expectations({f16_path()}, kFacts, known));
  std::vector<Diagnostic> diags;
  const ExpectationFile back = parse_expectation_file(toml.string(), diags);
  EXPECT_TRUE(diags.empty()) << diags.front().str();
  EXPECT_EQ(back.entries.size(), 4u);
  fs::remove(dir / "survey-vectors" / "mma_m16n8k16_f32_f16.txt.xz");  // the source must exist
  diags.clear();
  parse_expectation_file(toml.string(), diags);
  EXPECT_FALSE(diags.empty());
  fs::remove_all(dir);
}

TEST(NumericsWriter, ModelTableRowInTheSpellingOfModelsCpp) {
  EXPECT_EQ(model_table_row(f16_path(), kFacts),
            "{\"sm_90\", \"mma_sync\", Out::kF32, &kFp16, 16, 25, {16}, \"measured: gpuconform probe numerics, "
            "NVIDIA H100 (pci 0x2330)\"},  // e_zero=-133; not pinned: e_zero");
}

TEST(NumericsWriter, ModelTableRowNamesWhatMakeModelDoesNotSet) {
  PathFit fp8 = fake_fit("mma_m16n8k32_f16_e4m3", "mma_sync.f16.e4m3",
                         {{"lowering", "f16_hmma_pair", {}},
                          {"block_size", "16", {}},
                          {"fraction_bits", "25", {}},
                          {"final_rounding", "rn", {}},
                          {"accumulator_format", "f16", {}},
                          {"e_zero", "-21", {}},
                          {"negative_zero", "ieee", {}}});
  const std::string row = model_table_row(fp8, kFacts);
  EXPECT_NE(row.find("Out::kF16, &kE4M3, 16, 25, {32}"), std::string::npos) << row;
  EXPECT_EQ(row.find("final_rounding"), std::string::npos) << row;  // f16 D is RNE by default
  EXPECT_NE(row.find("lowering=f16_hmma_pair"), std::string::npos) << row;
  EXPECT_NE(row.find("negative_zero=ieee"), std::string::npos) << row;

  PathFit odd = f16_path();
  odd.fit.params[2].value = "rn";  // an f32 D rounded to nearest: not the table's default
  odd.fit.matched = 10;
  const std::string odd_row = model_table_row(odd, kFacts);
  EXPECT_NE(odd_row.find("final_rounding=rn"), std::string::npos) << odd_row;
  EXPECT_NE(odd_row.find("UNMATCHED"), std::string::npos) << odd_row;
}

TEST(NumericsWriter, IntegerAndBrokenPathsHaveNoRow) {
  PathFit s8 = fake_fit("mma_m16n8k32_s32_s8", "", {{"model", "s32_wrap", {}}});
  s8.fit.fitted = "s32_wrap (exact sum, wraps)";
  EXPECT_EQ(model_table_row(s8, kFacts), "// mma_m16n8k32_s32_s8: no block-FMA row: s32_wrap (exact sum, wraps)");
  PathFit broken = f16_path();
  broken.fit.error = "mma_m16n8k16_f32_f16: CUDA error";
  EXPECT_EQ(model_table_row(broken, kFacts), "// mma_m16n8k16_f32_f16: no row: mma_m16n8k16_f32_f16: CUDA error");
}

}  // namespace
}  // namespace gpuconform::numerics
