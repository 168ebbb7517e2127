// SPDX-License-Identifier: Apache-2.0
// The real worker (`gpuconform worker`) with every GPU hidden: it must accept
// every argument the runner passes (worker_arguments) and report, over the
// protocol, why it cannot open the GPU. Runs the same on a GPU machine.
#include <gtest/gtest.h>

#include <cstdlib>

#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

class RealWorkerWithoutGpu : public testing::Test {
 protected:
  void SetUp() override {
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) saved_ = v;
    ::setenv("CUDA_VISIBLE_DEVICES", "", 1);  // inherited by the worker: no GPU visible
  }
  void TearDown() override {
    if (saved_) ::setenv("CUDA_VISIBLE_DEVICES", saved_->c_str(), 1);
    else ::unsetenv("CUDA_VISIBLE_DEVICES");
  }
  static WorkerArgs every_argument() {
    WorkerArgs a;
    a.device = 0;
    a.expectations_dir = GPUCONFORM_TEST_EXPECTATIONS_DIR;
    a.overlays = {std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/sm_90.toml"};
    a.quick = true;
    return a;
  }
  static bool names_no_gpu(const std::string& text) {
    return text.find("no usable CUDA device") != std::string::npos ||
           text.find("no CUDA device found") != std::string::npos;
  }
  const WorkerCommand worker{GPUCONFORM_CLI, {"worker"}};
  std::optional<std::string> saved_;
};

TEST_F(RealWorkerWithoutGpu, DescribeReportsWhyTheGpuCannotBeOpened) {
  std::string error;
  EXPECT_FALSE(describe_device(worker, worker_arguments(every_argument()), error));
  EXPECT_TRUE(names_no_gpu(error)) << error;
}

TEST_F(RealWorkerWithoutGpu, EveryProbeFailsWithThatReason) {
  std::vector<std::string> reasons;
  ProbeSupervision hooks;
  hooks.time_limit = [](const std::string&) { return 30.0; };
  hooks.finished = [&](const std::string& id, const nlohmann::json&) { reasons.push_back(id + " finished?"); };
  hooks.failed = [&](const std::string&, const std::string& reason, double) { reasons.push_back(reason); };
  supervise_probes(worker, worker_arguments(every_argument()), {"latency.alu.fma.rn.f32", "throughput.hbm.read"},
                   hooks);
  ASSERT_EQ(reasons.size(), 2u);
  for (const std::string& r : reasons) EXPECT_TRUE(names_no_gpu(r)) << r;
}

}  // namespace
}  // namespace gpuconform
