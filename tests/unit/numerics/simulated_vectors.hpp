// SPDX-License-Identifier: Apache-2.0
#pragma once
// A fixture holding one vector file of a variant simulated by an architecture's models
// (`vectors generate --simulate`), in a temporary directory removed after each test: the
// pipeline tests (generate, check, infer, readme) start from it. The variant is registered
// for the test (test_variants.hpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gpuconform/device_info.hpp"
#include "gpuconform/numerics/golden_generator.hpp"
#include "test_variants.hpp"

namespace gpuconform::numerics {

class SimulatedVectors : public ::testing::Test {
 protected:
  // Call from SetUp (gtest assertions end SetUp on failure).
  void simulate(const std::string& tag, const std::string& variant, int count, const std::string& arch = "sm_90") {
    dir_ = std::filesystem::temp_directory_path() / ("gpuconform_" + tag + "_" + std::to_string(::getpid()));
    GenerateOptions o;
    o.out_dir = dir_.string();
    o.variant_glob = host_variant(variant).name();
    o.count = count;
    o.simulate_arch = arch;
    const auto results = generate_golden(DeviceInfo{}, o, nullptr);
    ASSERT_EQ(results.size(), 1u);
    ASSERT_EQ(results[0].status, GenerateStatus::kWritten) << results[0].reason;
    path_ = results[0].path;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace gpuconform::numerics
