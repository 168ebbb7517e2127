// SPDX-License-Identifier: Apache-2.0
// Overlay resolution, waiver matching and the text helpers behind them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpuconform/expectation.hpp"
#include "test_paths.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;

class ExpectationSetTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuconform-set-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "sku");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& rel, const std::string& text) { std::ofstream(dir_ / rel) << text; }
  static std::string entry(const std::string& id, double value, const std::string& cite) {
    return "[probe.\"" + id + "\"]\nkind = \"band\"\nvalue = " + std::to_string(value) +
           "\ntol = 1\nunit = \"cycles\"\nsource = \"cite:" + cite + "\"\n";
  }
  ExpectationQuery query(const std::string& sku = "0x2330") {
    ExpectationQuery q;
    q.dir = dir_.string();
    q.arch = "sm_90";
    q.sku = sku;
    return q;
  }
  fs::path dir_;
};

TEST_F(ExpectationSetTest, SkuOverlayThenUserOverlayOverrideTheArchitectureFile) {
  write("sm_90.toml", "[meta]\narch = \"sm_90\"\n" + entry("latency.a", 4, "arch") + entry("latency.b", 8, "arch"));
  write("sku/0x2330.toml", "[meta]\nsku = \"0x2330\"\n" + entry("latency.b", 9, "sku"));
  write("user.toml", "[meta]\narch = \"sm_90\"\n" + entry("latency.a", 5, "user"));
  ExpectationQuery q = query();
  q.overlays = {(dir_ / "user.toml").string()};
  const ExpectationSet set = load_expectations(q);
  ASSERT_EQ(set.files().size(), 3u);
  EXPECT_DOUBLE_EQ(*set.find("latency.a")->value, 5);
  EXPECT_EQ(set.find("latency.a")->source, "cite:user");
  EXPECT_DOUBLE_EQ(*set.find("latency.b")->value, 9);
  EXPECT_EQ(set.find("latency.c"), nullptr);
}

TEST_F(ExpectationSetTest, OverlayOfAnotherSkuIsNotApplied) {
  write("sm_90.toml", "[meta]\narch = \"sm_90\"\n" + entry("latency.a", 4, "arch"));
  write("sku/0x2330.toml", "[meta]\nsku = \"0x2330\"\n" + entry("latency.a", 9, "sku"));
  const ExpectationSet set = load_expectations(query("0x2335"));
  EXPECT_DOUBLE_EQ(*set.find("latency.a")->value, 4);
}

// A board-part overlay (sku/<sku>/<part>.toml) applies after the SKU overlay, only for a
// board of that part: a board of another part, or one NVML cannot name, keeps the SKU's.
TEST_F(ExpectationSetTest, BoardPartOverlayAppliesOnlyToBoardsOfItsPart) {
  write("sm_90.toml", "[meta]\narch = \"sm_90\"\n" + entry("latency.a", 4, "arch") + entry("latency.b", 8, "arch"));
  write("sku/0x2335.toml", "[meta]\nsku = \"0x2335\"\n" + entry("latency.a", 6, "sku"));
  fs::create_directories(dir_ / "sku" / "0x2335");
  write("sku/0x2335/692-2G520-0282-000.toml",
        "[meta]\nsku = \"0x2335\"\nboard_part = \"692-2G520-0282-000\"\n" + entry("latency.a", 7, "part"));
  ExpectationQuery q = query("0x2335");
  q.board_part = "692-2G520-0282-000";
  const ExpectationSet part = load_expectations(q);
  ASSERT_EQ(part.files().size(), 3u);
  EXPECT_DOUBLE_EQ(*part.find("latency.a")->value, 7);
  EXPECT_DOUBLE_EQ(*part.find("latency.b")->value, 8);
  for (const std::string other : {"692-2G520-0282-001", "", "../../etc/passwd"}) {
    q.board_part = other;
    const ExpectationSet set = load_expectations(q);
    EXPECT_EQ(set.files().size(), 2u) << other;
    EXPECT_DOUBLE_EQ(*set.find("latency.a")->value, 6) << other;
  }
}

// Named as a user overlay, a board-part overlay still judges only boards of its part.
TEST_F(ExpectationSetTest, BoardPartOverlayOfAnotherPartIsRejected) {
  write("sm_90.toml", "[meta]\narch = \"sm_90\"\n" + entry("latency.a", 4, "arch"));
  write("part.toml", "[meta]\nsku = \"0x2335\"\nboard_part = \"692-2G520-0282-000\"\n" + entry("latency.a", 7, "p"));
  ExpectationQuery q = query("0x2335");
  q.board_part = "692-2G520-0282-001";
  q.overlays = {(dir_ / "part.toml").string()};
  try {
    load_expectations(q);
    FAIL() << "expected ExpectationError";
  } catch (const ExpectationError& err) {
    const std::string text = err.what();
    EXPECT_NE(text.find("is for board part 692-2G520-0282-000, but the device is board part 692-2G520-0282-001"),
              std::string::npos)
        << text;
  }
}

TEST(BoardPartNumber, OnlyFileNameSafeTextNamesAnOverlay) {
  EXPECT_TRUE(is_board_part_number("692-2G520-0282-001"));
  EXPECT_TRUE(is_board_part_number("900-2G520_0000.000"));
  EXPECT_FALSE(is_board_part_number(""));
  EXPECT_FALSE(is_board_part_number("../x"));
  EXPECT_FALSE(is_board_part_number("a/b"));
  EXPECT_FALSE(is_board_part_number("692 2G520"));
}

TEST_F(ExpectationSetTest, MissingArchitectureFileGivesAnEmptySet) {
  const ExpectationSet set = load_expectations(query());
  EXPECT_TRUE(set.entries().empty());
  EXPECT_TRUE(set.files().empty());
}

TEST_F(ExpectationSetTest, InvalidFileOrMissingOverlayThrowsWithEveryDiagnostic) {
  write("sm_90.toml", "[meta]\narch = \"sm_90\"\n[probe.\"latency.a\"]\nkind = \"band\"\n");
  ExpectationQuery q = query();
  q.overlays = {(dir_ / "absent.toml").string()};
  try {
    load_expectations(q);
    FAIL() << "expected ExpectationError";
  } catch (const ExpectationError& err) {
    const std::string text = err.what();
    EXPECT_NE(text.find("sm_90.toml:3:"), std::string::npos) << text;
    EXPECT_NE(text.find("overlay file not found"), std::string::npos) << text;
  }
}

TEST_F(ExpectationSetTest, ArchitectureFileForAnotherArchIsRejected) {
  write("sm_90.toml", "[meta]\narch = \"sm_80\"\n" + entry("latency.a", 4, "x"));
  EXPECT_THROW(load_expectations(query()), ExpectationError);
}

TEST(Waivers, MatchByGlobAndDevice) {
  ExpectationFile f;
  Waiver w;
  w.tests = "throughput.hbm.*";
  w.devices = {"0x2330"};
  w.reason = "r";
  w.link = "l";
  f.waivers.push_back(w);
  ExpectationSet set;
  set.apply(f);
  EXPECT_NE(set.waiver_for("throughput.hbm.read", "0x2330"), nullptr);
  EXPECT_EQ(set.waiver_for("throughput.hbm.read", "0x2335"), nullptr);
  EXPECT_EQ(set.waiver_for("throughput.l2.read", "0x2330"), nullptr);
  EXPECT_EQ(set.waiver_for("throughput.hbm.read", ""), nullptr);
}

TEST(Glob, MatchesStarsAndQuestionMarks) {
  EXPECT_TRUE(glob_match("*", "anything"));
  EXPECT_TRUE(glob_match("latency.*", "latency.alu.fma"));
  EXPECT_TRUE(glob_match("*.f32", "latency.alu.fma.rn.f32"));
  EXPECT_TRUE(glob_match("l?tency.*.f32", "latency.alu.f32"));
  EXPECT_FALSE(glob_match("latency.*", "throughput.hbm"));
  EXPECT_FALSE(glob_match("*.f64", "latency.alu.fma.rn.f32"));
  EXPECT_FALSE(glob_match("latency", "latency.alu"));
}

TEST(ClosestMatch, SuggestsOnlyNearNames) {
  const std::vector<std::string> ids{"latency.mem.l2_near", "latency.mem.l2_far"};
  EXPECT_EQ(closest_match("latency.mem.l2_nera", ids), "latency.mem.l2_near");
  EXPECT_EQ(closest_match("throughput.something.else", ids), "");
}

}  // namespace
}  // namespace gpuconform
