// SPDX-License-Identifier: Apache-2.0
// Every committed golden vector file (expectations/golden/<arch>/*.txt.xz, hardware MMA
// results) is checked against its architecture's model on the CPU, as `gpuconform vectors
// check` does: this is how CI holds the reference models to real hardware without a GPU.
// One test per file; a file whose variant has no model yet would be read in full and
// skipped with that reason (every committed file has one).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuconform/numerics/vector_check.hpp"

namespace gpuconform::numerics {
namespace {
namespace fs = std::filesystem;

constexpr std::uint64_t kMinInstances = 2000;                  // per variant (the floor)
// ... except where an instance holds much more than an m16n8k16 one, to keep each file near
// 1 MB: the sm_90 DMMA shapes m16n8k{4,8,16} (16 hex digits an element, 2 to 8 times the
// elements of m8n8k4: 2000 instances would take 1.4 to 3.4 MB) and wmma (m16n16: twice the
// outputs of m16n8) and wgmma with N > 8 (N/8 times the outputs of m64n8: the floor shrinks
// as N grows, to 100 at N = 256). Their candidate models have no parameter that fewer
// instances of every class leave open (`vectors infer` reports any that does as ambiguous).
constexpr std::uint64_t kMinInstancesWmma = 1000;
constexpr std::uint64_t kMinInstancesWideF64 = 500;
// Float wgmma with N > 8 walks the wide accumulator layout; the m64n8 files pin the
// arithmetic (the model does not depend on N), so a quarter of the s8 floor keeps each file
// near 0.3 MB: 25 random instances of m64n256 are 410k outputs, besides the probes.
constexpr std::uint64_t kMinInstancesWideFloat = kMinInstances / 4;
// Sub-byte integers (s4, u4, b1), whose random B carries K x N fresh bits an instance: 1100
// instances where a row of A holds 128 bits (m8n8k32 and m16n8k32 s4/u4, m8n8k128 and
// m16n8k128 b1), 650 where it holds 256 (m16n8k64 s4/u4, m16n8k256 b1), each file 0.25 to
// 0.30 MB at those counts (`vectors generate --simulate sm_90 --distinct-rows 2`).
constexpr std::uint64_t kMinInstancesSubByte = 1100;
constexpr std::uint64_t kMinInstancesSubByteLong = 650;
// mma.sp (mmasp_*): A is stored dense, K wide (32 or 64), with its zeros, so an instance is
// 2 to 4 times an m16n8k16 one; this floor keeps each file near 400 KB (--distinct-rows 2,
// sizes of `vectors generate --simulate sm_90`).
constexpr std::uint64_t kMinInstancesSparse = 500;
constexpr std::uint64_t kMinInstancesSparseWide = 100;

std::uint64_t min_instances(const std::string& variant) {
  std::string why;
  const auto v = parse_variant(variant, why);
  if (!v) return kMinInstances;
  if (element_bits(v->ab_type) < 8)
    return v->k * element_bits(v->ab_type) > 128 ? kMinInstancesSubByteLong : kMinInstancesSubByte;
  if (v->ab_type == ElementType::f64 && v->instruction == "mma" && v->a_count() > 32) return kMinInstancesWideF64;
  if (v->instruction == "wmma") return kMinInstancesWmma;
  if (v->instruction == "wgmma" && v->n > 8 && v->ab_type != ElementType::s8)
    return std::max<std::uint64_t>(100, kMinInstancesWideFloat * 8 / v->n);
  if (v->instruction == "mmasp") return kMinInstancesSparse;
  // wgmma.sp (wgmmasp_*): the mma.sp floor at N = 8 (its 64 rows repeat rows 0..1, so an
  // instance adds no more distinct products than an mma.sp one), 100 at N = 64.
  if (v->instruction == "wgmmasp") return v->n > 8 ? kMinInstancesSparseWide : kMinInstancesSparse;
  if (v->instruction == "wgmma" && v->n > 8) return std::max<std::uint64_t>(100, kMinInstances * 8 / v->n);
  return kMinInstances;
}
// All golden files together: the 31 first H100 files took 34 MB; issue 11's new paths (the
// shorter mma.sync shapes, u8, the sm_90 DMMA shapes, wmma, wgmma s8 up to N = 256) add about
// 13 MB at the counts tools/device/numerics_batch.sh uses (sizes of simulated files).
// The wide-N float wgmma files added 2.7 MB (0.20-0.32 MB each), the 17 sub-byte files 4.6 MB
// (0.24-0.30 MB each), the 12 sparse files 4.2 MB (0.32-0.37 MB each): 59.1 MB in all. The 11
// sparse wgmma files (tools/device/wgmma_sp_golden_batch.sh) add about 4.3 MB (0.35-0.39 MB at
// m64n8, 0.52 MB at m64n64, simulated) and the mma.sp files' metadata field a little: 66 MB.
constexpr std::uintmax_t kMaxTotalBytes = 66ull * 1000 * 1000;

std::string golden_dir() { return std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/golden"; }

bool is_vector_file(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.size() > 7 && (name.substr(name.size() - 7) == ".txt.xz" || name.substr(name.size() - 4) == ".txt");
}

std::vector<std::string> golden_files() {
  std::vector<std::string> files;
  if (!fs::is_directory(golden_dir())) return files;
  for (const auto& entry : fs::recursive_directory_iterator(golden_dir()))
    if (entry.is_regular_file() && is_vector_file(entry.path())) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// "sm_90/mma_m16n8k16_f32_bf16.txt.xz" -> "sm_90_mma_m16n8k16_f32_bf16"
std::string test_name(const std::string& path) {
  const fs::path p(path);
  std::string stem = p.filename().string();
  stem = stem.substr(0, stem.find('.'));
  std::string name = p.parent_path().filename().string() + "_" + stem;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

class GoldenFile : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenFile, EveryOutputMatchesTheModel) {
  const std::string& path = GetParam();
  const FileCheck r = check_vector_file(path, CheckOptions{});
  RecordProperty("variant", r.variant);
  RecordProperty("model", r.model);
  ASSERT_NE(r.status, CheckStatus::kUnusable) << r.error;
  EXPECT_GE(r.instances, min_instances(r.variant)) << path;
  if (r.status == CheckStatus::kNoModel) GTEST_SKIP() << r.error << "; " << r.instances << " instances read";
  std::string shown;
  for (const std::string& m : r.mismatches) shown += "\n  " + m;
  EXPECT_EQ(r.matched, r.total) << r.variant << " against " << r.model << "\n  by class: " << r.by_class << shown;
}

TEST_P(GoldenFile, ComesFromHardwareOfItsDirectoryArch) {
  const std::string& path = GetParam();
  VectorReader reader = VectorReader::open(path);
  VectorRecord first;
  ASSERT_TRUE(reader.next(first)) << path << " holds no instance";
  EXPECT_EQ(reader.header_value("source"), "hardware") << path << " was not measured on a GPU";
  EXPECT_EQ(reader.header_value("arch"), fs::path(path).parent_path().filename().string())
      << path << ": the '# arch:' header and the directory disagree";
  EXPECT_EQ(fs::path(path).filename().string().rfind(reader.variant()->name + ".", 0), 0u)
      << path << ": the file is not named after its variant";
}

INSTANTIATE_TEST_SUITE_P(Committed, GoldenFile, ::testing::ValuesIn(golden_files()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return test_name(p.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenFile);

TEST(GoldenVectors, AreCommittedWithinTheSizeBudget) {
  const auto files = golden_files();
  if (files.empty())
    GTEST_SKIP() << "no golden vector files under " << golden_dir()
                 << " yet: run tools/device/golden_batch.sh on a GPU node and commit its output";
  std::uintmax_t total = 0;
  for (const std::string& f : files) total += fs::file_size(f);
  EXPECT_LE(total, kMaxTotalBytes) << files.size() << " files";
}

}  // namespace
}  // namespace gpuconform::numerics
