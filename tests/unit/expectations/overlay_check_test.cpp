// SPDX-License-Identifier: Apache-2.0
// A user overlay (`run --overlay`, `list --overlay`) or SKU overlay written for another
// GPU is an error naming both (issue 21): another architecture ([meta] arch; "sm_any"
// applies anywhere) or another SKU ([meta] sku).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "gpuconform/expectation.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;

class OverlayCheck : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuconform-overlay-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "sku");
    write("sm_90.toml", "[meta]\narch = \"sm_90\"\n" + entry(4));
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel) << text; }
  static std::string entry(double value) {
    return "[probe.\"latency.a\"]\nkind = \"band\"\nvalue = " + std::to_string(value) +
           "\ntol = 1\nunit = \"cycles\"\nsource = \"cite:test\"\n";
  }
  // Loads sm_90 (SKU 0x2330) with the user overlay `text`; "" when it loads, else the error.
  std::string load_with(const std::string& text, const std::string& sku = "0x2330") {
    write("user.toml", text);
    ExpectationQuery q;
    q.dir = dir_.string();
    q.arch = "sm_90";
    q.sku = sku;
    q.overlays = {(dir_ / "user.toml").string()};
    try {
      load_expectations(q);
      return "";
    } catch (const ExpectationError& e) {
      return e.what();
    }
  }
  fs::path dir_;
};

TEST_F(OverlayCheck, AnOverlayForAnotherArchitectureIsAnErrorNamingBoth) {
  const std::string err = load_with("[meta]\narch = \"sm_80\"\n" + entry(5));
  EXPECT_NE(err.find("user overlay is for sm_80, but the device is sm_90"), std::string::npos) << err;
  EXPECT_NE(err.find("user.toml"), std::string::npos) << err;
}

TEST_F(OverlayCheck, SmAnyAndTheSameArchitectureApply) {
  EXPECT_EQ(load_with("[meta]\narch = \"sm_any\"\n" + entry(5)), "");
  EXPECT_EQ(load_with("[meta]\narch = \"sm_90\"\n" + entry(5)), "");
}

TEST_F(OverlayCheck, AnOverlayForAnotherSkuIsAnErrorNamingBoth) {
  const std::string err = load_with("[meta]\nsku = \"0x2335\"\n" + entry(5));
  EXPECT_NE(err.find("is for SKU 0x2335, but the device is SKU 0x2330"), std::string::npos) << err;
  EXPECT_EQ(load_with("[meta]\nsku = \"0x2335\"\n" + entry(5), "0x2335"), "");
}

TEST_F(OverlayCheck, ASkuOverlayFileWhoseMetaNamesAnotherSkuIsAnError) {
  write("sku/0x2330.toml", "[meta]\nsku = \"0x2335\"\n" + entry(6));  // misnamed or copied
  const std::string err = load_with("[meta]\narch = \"sm_90\"\n");
  EXPECT_NE(err.find("SKU overlay is for SKU 0x2335, but the device is SKU 0x2330"), std::string::npos) << err;
}

}  // namespace
}  // namespace gpuconform
