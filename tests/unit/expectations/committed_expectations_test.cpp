// SPDX-License-Identifier: Apache-2.0
// Every expectation file in the repository must lint clean against the probe
// registry: a broken file is caught here, on a machine without a GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "gpuconform/expectation.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;

// Expectation files: every .toml except evidence/ (the band policy lives there)
// and peaks/ (per-SM peak tables, checked below).
std::vector<std::string> committed_files() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(GPUCONFORM_TEST_EXPECTATIONS_DIR))
    if (entry.path().extension() == ".toml" && entry.path().parent_path().filename() != "evidence" &&
        !is_peak_table_path(entry.path().string()))
      files.push_back(entry.path().string());
  return files;
}

// expectations/peaks/sm_XX.toml: the per-SM peak tables (peaks.hpp) parse clean,
// are named for the architecture they declare, and every entry cites a source.
TEST(CommittedExpectations, EveryPeakTableParsesClean) {
  const fs::path dir = fs::path(GPUCONFORM_TEST_EXPECTATIONS_DIR) / "peaks";
  ASSERT_TRUE(fs::is_directory(dir));
  int tables = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    ++tables;
    std::vector<Diagnostic> diags;
    const PeakTable t = parse_peak_file(entry.path().string(), diags);
    for (const auto& d : diags) ADD_FAILURE() << d.str();
    EXPECT_EQ(t.arch + ".toml", entry.path().filename().string());
    EXPECT_FALSE(t.entries.empty()) << entry.path() << " holds no peak";
  }
  EXPECT_GE(tables, 1);
}

TEST(CommittedExpectations, EveryFileLintsClean) {
  const Registry& reg = Registry::instance();
  const auto files = committed_files();
  for (const std::string& path : files) {
    std::vector<Diagnostic> diags;
    const ExpectationFile f = parse_expectation_file(
        path, diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
    for (const auto& d : diags) ADD_FAILURE() << d.str();
    EXPECT_FALSE(f.entries.empty() && f.waivers.empty()) << path << " holds nothing";
  }
}

TEST(CommittedExpectations, Sm90CoversTheFoundationProbes) {
  const std::string path = std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/sm_90.toml";
  if (!fs::exists(path)) GTEST_SKIP() << "expectations/sm_90.toml not recorded yet";
  std::vector<Diagnostic> diags;
  const ExpectationFile f = parse_expectation_file(path, diags);
  std::set<std::string> ids;
  for (const auto& e : f.entries) ids.insert(e.probe_id);
  for (const char* id : {"latency.alu.fma.rn.f32", "throughput.hbm.read", "numeric.mma_sync.m16n8k16.f32.f16"})
    EXPECT_TRUE(ids.count(id)) << id;
}

}  // namespace
}  // namespace gpuconform
