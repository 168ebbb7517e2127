// SPDX-License-Identifier: Apache-2.0
// `vectors infer` on every committed golden file: fitted from the hardware records alone
// (the table model only breaks ties), each variant must come back with the parameters of
// the model `vectors check` uses, and that fit must reproduce every recorded output. This
// is the claim that the hand-written sm_90 rows of reference/src/models.cpp follow from the
// data. One test per file, so ctest spreads them over the cores.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuconform/numerics/vector_infer.hpp"

namespace gpuconform::numerics {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> golden_files() {
  std::vector<std::string> files;
  const fs::path dir = fs::path(GPUCONFORM_TEST_EXPECTATIONS_DIR) / "golden";
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 7 && name.substr(name.size() - 7) == ".txt.xz")
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class GoldenInfer : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenInfer, RecoversTheTableModelAndEveryOutput) {
  const InferResult r = infer_vector_file(GetParam());
  ASSERT_TRUE(r.error.empty()) << r.error;
  RecordProperty("fit", infer_line(r));
  ASSERT_FALSE(r.table_model.empty()) << r.variant << ": no table model to compare with";
  std::string differs;
  for (const std::string& d : r.differs) differs += "\n  " + d;
  EXPECT_TRUE(r.differs.empty()) << r.variant << " differs from " << r.table_model << ":" << differs;
  EXPECT_EQ(r.matched, r.outputs) << infer_line(r);
  EXPECT_GT(r.outputs, 0u);
}

INSTANTIATE_TEST_SUITE_P(Committed, GoldenInfer, ::testing::ValuesIn(golden_files()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           const fs::path path(p.param);
                           std::string name = path.parent_path().filename().string() + "_" +
                                              path.filename().string().substr(0, path.filename().string().find('.'));
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GoldenInfer);

}  // namespace
}  // namespace gpuconform::numerics
