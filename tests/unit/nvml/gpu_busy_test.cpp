// SPDX-License-Identifier: Apache-2.0
// The busy guard (gpu_busy.hpp) against the fake NVML: which GPUs a run uses
// (CUDA_VISIBLE_DEVICES, --device), and which of them are busy (another process's
// compute context, an exclusive or prohibited compute mode). The CLI's exit code 3 and
// the recipes' skip: ctest outputs.gpu_busy.
#include "gpuconform/gpu_busy.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gpuconform/gpu_state.hpp"  // reload_nvml

namespace gpuconform {
namespace {

constexpr const char* kVars[] = {"FAKE_NVML_DEVICE_COUNT", "FAKE_NVML_PIDS",         "FAKE_NVML_PIDS_GPU1",
                                 "FAKE_NVML_PIDS_GPU2",    "FAKE_NVML_COMPUTE_MODE", "FAKE_NVML_COMPUTE_MODE_GPU1",
                                 "FAKE_NVML_INIT_RESULT",  "CUDA_VISIBLE_DEVICES"};

class GpuBusy : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kVars) unsetenv(v);
    setenv("GPUCONFORM_NVML_LIBRARY", GPUCONFORM_FAKE_NVML, 1);
    reload_nvml();
  }
  void TearDown() override {
    for (const char* v : kVars) unsetenv(v);
    unsetenv("GPUCONFORM_NVML_LIBRARY");
    reload_nvml();
  }
};

TEST(GpuBusyVisible, CudaVisibleDevicesPicksAndOrdersTheGpus) {
  const std::vector<std::string> uuids = {"GPU-aaaa-0", "GPU-bbbb-1", "GPU-cccc-2", "GPU-cccd-3"};
  EXPECT_EQ(visible_nvml_indices(std::nullopt, uuids), (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_EQ(visible_nvml_indices("2,0", uuids), (std::vector<unsigned>{2, 0}));
  EXPECT_EQ(visible_nvml_indices(" 3 , GPU-bbbb", uuids), (std::vector<unsigned>{3, 1}));
  // An entry that is invalid, out of range or an ambiguous UUID prefix ends the list (CUDA's rule).
  EXPECT_EQ(visible_nvml_indices("1,7,0", uuids), (std::vector<unsigned>{1}));
  EXPECT_EQ(visible_nvml_indices("GPU-ccc,0", uuids), (std::vector<unsigned>{}));
  EXPECT_EQ(visible_nvml_indices("MIG-xyz", uuids), (std::vector<unsigned>{}));
  EXPECT_EQ(visible_nvml_indices("", uuids), (std::vector<unsigned>{}));
}

TEST_F(GpuBusy, AnIdleGpuInDefaultModeIsNotBusy) {
  const BusyCheck c = check_gpus_busy({});
  EXPECT_TRUE(c.checked) << c.not_checked;
  EXPECT_EQ(c.gpus, (std::vector<unsigned>{0}));
  EXPECT_TRUE(c.busy.empty()) << c.describe();
}

TEST_F(GpuBusy, ThisProcessIsNotAnotherUser) {
  setenv("FAKE_NVML_PIDS", "self", 1);
  const BusyCheck c = check_gpus_busy({});
  EXPECT_TRUE(c.checked);
  EXPECT_TRUE(c.busy.empty()) << c.describe();
}

TEST_F(GpuBusy, AnotherProcessMakesTheGpuBusyEvenWhenInvisibleHere) {
  // 999999999 is no pid of this machine: a job in another pid namespace. The per-probe
  // watch would take a lone invisible pid for this process seen from outside; the guard
  // runs before this process holds any GPU, so it must not.
  setenv("FAKE_NVML_PIDS", "999999999", 1);
  const BusyCheck c = check_gpus_busy({});
  ASSERT_EQ(c.busy.size(), 1u);
  EXPECT_EQ(c.busy[0].nvml_index, 0u);
  EXPECT_EQ(c.busy[0].uuid, "GPU-fake");
  EXPECT_NE(c.describe().find("GPU 0 (GPU-fake): 1 other compute process(es): pid 999999999"), std::string::npos)
      << c.describe();
}

TEST_F(GpuBusy, ExclusiveAndProhibitedComputeModesAreBusy) {
  for (const char* mode : {"1", "2", "3"}) {
    setenv("FAKE_NVML_COMPUTE_MODE", mode, 1);
    const BusyCheck c = check_gpus_busy({});
    ASSERT_EQ(c.busy.size(), 1u) << mode;
    EXPECT_NE(c.busy[0].reason.find("compute mode"), std::string::npos);
  }
  setenv("FAKE_NVML_COMPUTE_MODE", "3", 1);
  EXPECT_NE(check_gpus_busy({}).describe().find("EXCLUSIVE_PROCESS"), std::string::npos);
  setenv("FAKE_NVML_COMPUTE_MODE", "2", 1);
  EXPECT_NE(check_gpus_busy({}).describe().find("PROHIBITED"), std::string::npos);
}

TEST_F(GpuBusy, OnlyTheRunsGpusCount) {
  setenv("FAKE_NVML_DEVICE_COUNT", "3", 1);
  setenv("FAKE_NVML_PIDS_GPU1", "4242", 1);  // another job on GPU 1 only
  EXPECT_EQ(check_gpus_busy({}).busy.size(), 1u);
  EXPECT_TRUE(check_gpus_busy({0, 2}).busy.empty());
  const BusyCheck one = check_gpus_busy({1});
  ASSERT_EQ(one.busy.size(), 1u);
  EXPECT_EQ(one.busy[0].uuid, "GPU-other-1");
  // CUDA_VISIBLE_DEVICES=2,1: CUDA's device 1 is NVML's GPU 1, device 0 is GPU 2.
  setenv("CUDA_VISIBLE_DEVICES", "2,1", 1);
  EXPECT_TRUE(check_gpus_busy({0}).busy.empty());
  EXPECT_EQ(check_gpus_busy({1}).busy.size(), 1u);
  setenv("CUDA_VISIBLE_DEVICES", "0,2", 1);  // a Slurm job whose GPUs are 0 and 2
  EXPECT_TRUE(check_gpus_busy({}).busy.empty());
  setenv("FAKE_NVML_COMPUTE_MODE_GPU1", "3", 1);  // GPU 1 exclusive: still not this run's
  EXPECT_TRUE(check_gpus_busy({}).busy.empty());
}

TEST_F(GpuBusy, WithoutNvmlTheRunIsNotStoppedAndSaysWhy) {
  setenv("GPUCONFORM_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  reload_nvml();
  const BusyCheck c = check_gpus_busy({});
  EXPECT_FALSE(c.checked);
  EXPECT_TRUE(c.busy.empty());
  EXPECT_NE(c.not_checked.find("NVML not loaded"), std::string::npos) << c.not_checked;
}

}  // namespace
}  // namespace gpuconform
