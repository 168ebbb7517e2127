// SPDX-License-Identifier: Apache-2.0
// CTest resource allocation: the spec JSON `gpuconform resources` writes and the device
// a GPU test process takes from ctest's environment (ctest_resources.hpp).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gpuconform/ctest_resources.hpp"

namespace gpuconform {
namespace {

nlohmann::json spec(int gpus) { return nlohmann::json::parse(ctest_resource_spec_json(gpus)); }

TEST(CtestResourceSpec, OneGpuIsExactlyCtestsFormat) {
  EXPECT_EQ(nlohmann::json::parse(ctest_resource_spec_json(1)),
            nlohmann::json::parse(R"({"version": {"major": 1, "minor": 0},
                                      "local": [{"gpus": [{"id": "0", "slots": 1}]}]})"));
}

TEST(CtestResourceSpec, EightGpusHaveOrdinalIdsAsStringsAndOneSlotEach) {
  const nlohmann::json s = spec(8);
  ASSERT_EQ(s["local"].size(), 1u);
  const nlohmann::json& gpus = s["local"][0]["gpus"];
  ASSERT_EQ(gpus.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(gpus[i]["id"], std::to_string(i));  // ctest requires string ids
    EXPECT_EQ(gpus[i]["slots"], 1);
  }
}

TEST(CtestResourceSpec, NoGpuIsAnEmptyList) {
  const nlohmann::json s = spec(0);
  EXPECT_EQ(s["version"]["major"], 1);
  ASSERT_TRUE(s["local"][0]["gpus"].is_array());
  EXPECT_TRUE(s["local"][0]["gpus"].empty());
}

using Env = std::map<std::string, std::string>;
DeviceChoice choose(const Env& vars) {
  return choose_device([&](const char* name) -> const char* {
    const auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}
Env ctest(const std::string& gpus) {
  return {{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "gpus"},
          {"CTEST_RESOURCE_GROUP_0_GPUS", gpus}};
}

TEST(ChooseDevice, NothingSetIsDeviceZero) {
  const DeviceChoice c = choose({});
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.index, 0);
  EXPECT_EQ(c.source, "default");
}

TEST(ChooseDevice, GpuconformDevice) {
  const DeviceChoice c = choose({{"GPUCONFORM_DEVICE", "3"}});
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.index, 3);
  EXPECT_EQ(c.source, "GPUCONFORM_DEVICE");
  EXPECT_FALSE(c.from_ctest);
}

TEST(ChooseDevice, GpuconformDeviceMustBeAnOrdinal) {
  for (const char* bad : {"-1", "1x", "gpu0", " 2"})
    EXPECT_NE(choose({{"GPUCONFORM_DEVICE", bad}}).error.find("is not a GPU ordinal"), std::string::npos) << bad;
}

TEST(ChooseDevice, CtestAllocationWinsOverGpuconformDevice) {
  Env env = ctest("id:5,slots:1");
  env["GPUCONFORM_DEVICE"] = "2";
  const DeviceChoice c = choose(env);
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.index, 5);
  EXPECT_EQ(c.source, "CTEST_RESOURCE_GROUP_0_GPUS");
  EXPECT_TRUE(c.from_ctest);
}

TEST(ChooseDevice, CtestAllocationFieldsInEitherOrderAndOtherResourceTypes) {
  Env env = ctest("slots:1,id:12");
  env["CTEST_RESOURCE_GROUP_0"] = "cpus,gpus";
  EXPECT_EQ(choose(env).index, 12);
}

TEST(ChooseDevice, MalformedCtestAllocationIsAnError) {
  for (const char* bad : {"", "id:", "id:a,slots:1", "id:1", "slots:1", "id:1,slots:0", "id:-1,slots:1",
                          "id:0,slots:1;id:1,slots:1", "id:1,slots:1,extra:2", "id:1,id:2,slots:1"}) {
    const DeviceChoice c = choose(ctest(bad));
    EXPECT_NE(c.error.find("is not one GPU allocation"), std::string::npos) << bad << ": " << c.error;
  }
}

TEST(ChooseDevice, CtestGroupWithoutGpusIsAnError) {
  Env env = ctest("id:0,slots:1");
  env["CTEST_RESOURCE_GROUP_0"] = "cpus";
  EXPECT_NE(choose(env).error.find("names no \"gpus\" resource"), std::string::npos);
  env["CTEST_RESOURCE_GROUP_0"] = "gpusx";
  EXPECT_NE(choose(env).error, "");
}

TEST(ChooseDevice, CtestGroupCountMustBePositive) {
  Env env = ctest("id:0,slots:1");
  env["CTEST_RESOURCE_GROUP_COUNT"] = "0";
  EXPECT_NE(choose(env).error.find("CTEST_RESOURCE_GROUP_COUNT=0"), std::string::npos);
}

TEST(ChooseDevice, EmptyCtestGroupCountFallsBackLikeUnset) {
  Env env = ctest("id:4,slots:1");
  env["CTEST_RESOURCE_GROUP_COUNT"] = "";
  EXPECT_EQ(choose(env).source, "default");
}

// End to end with the real ctest: it accepts the spec and gives two groups that each need
// gpus:1 distinct GPUs, in the format choose_device reads.
TEST(CtestResourceSpec, CtestAcceptsItAndAllotsOneGpuPerGroup) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(::testing::TempDir()) / ("gpuconform_ctest_spec_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "spec.json") << ctest_resource_spec_json(2);
  std::ofstream testfile(dir / "CTestTestfile.cmake");
  for (int i = 0; i < 2; ++i) {
    testfile << "add_test(g" << i << " sh -c \"echo $CTEST_RESOURCE_GROUP_0 $CTEST_RESOURCE_GROUP_0_GPUS > "
             << (dir / ("g" + std::to_string(i))).string() << "\")\n"
             << "set_tests_properties(g" << i << " PROPERTIES RESOURCE_GROUPS gpus:1)\n";
  }
  testfile.close();
  const std::string cmd = std::string(GPUCONFORM_CTEST) + " --test-dir " + dir.string() +
                          " --resource-spec-file " + (dir / "spec.json").string() + " -j 2 > " +
                          (dir / "ctest.log").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << std::ifstream(dir / "ctest.log").rdbuf();
  std::set<int> devices;
  for (int i = 0; i < 2; ++i) {
    std::string group, gpus;
    std::ifstream(dir / ("g" + std::to_string(i))) >> group >> gpus;
    const DeviceChoice c = choose({{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", group},
                                   {"CTEST_RESOURCE_GROUP_0_GPUS", gpus}});
    EXPECT_EQ(c.error, "") << group << " " << gpus;
    devices.insert(c.index);
  }
  EXPECT_EQ(devices, (std::set<int>{0, 1}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpuconform
