// The MMA fragment layouts and the vector pipeline, without a GPU: every operand element is
// held by exactly one (thread, register slot) and sits where the PTX ISA's figures put it,
// the layout instances would expose a wrong sub-byte layout, and generate -> check (->
// infer) round-trips through the reference or simple model (--simulate).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include <unistd.h>

#include "numeric/golden_generator.hpp"
#include "simulated_vectors.hpp"
#include "numeric/mma_instances.hpp"
#include "numeric/mma_variant.hpp"
#include "numeric/path_survey.hpp"
#include "numeric/vector_check.hpp"
#include "numeric/vector_infer.hpp"

namespace gpuconform::kernels {
namespace {
namespace fs = std::filesystem;

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
    if (f.a > 0) {  // mma.sp: the compressed M x K/2 operand
      EXPECT_EQ(coverage_problem(v, 'a', f.a, s.m, s.instruction == "mmasp" ? s.k / 2 : s.k), "");
    }
    if (f.b > 0) {
      EXPECT_EQ(coverage_problem(v, 'b', f.b, s.k, s.n), "");
    }
    EXPECT_EQ(f.a == 0, s.instruction == "wgmma" && !s.has("areg"));  // wgmma A: shared unless areg
    EXPECT_EQ(f.b == 0, s.instruction == "wgmma");                      // wgmma B: always shared
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
  const MmaVariant* v = find_mma_variant("mma_m16n8k16_f32_bf16");
  ASSERT_NE(v, nullptr);
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
}  // namespace gpuconform::kernels
