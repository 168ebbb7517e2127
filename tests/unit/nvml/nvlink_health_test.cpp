// SPDX-License-Identifier: Apache-2.0
// The NVLink health probes (kernels/health/nvlink_health.cu) judged without a GPU: the
// fake NVML (tests/fake_nvml) stages a healthy H100/H200 SXM (18 links at 26.562 GB/s),
// a link down, a link trained slower, and a GPU that shows no link (a pass-through VM),
// and each reading is judged against the entries the H200 overlay holds (min 18 links,
// min 26.562 GB/s per link).
#include <gtest/gtest.h>

#include <cstdlib>

#include "gpuconform/gpu_state.hpp"  // reload_nvml
#include "gpuconform/probe.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

class NvLinkHealth : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"FAKE_NVML_INIT_RESULT", "FAKE_NVML_NVLINK_DOWN", "FAKE_NVML_NVLINK_SPEED_MBPS",
                          "FAKE_NVML_NVLINK_SLOW_LINK", "FAKE_NVML_NVLINK_SLOW_MBPS", "FAKE_NVML_NVLINK_NO_LINK_SPEED"})
      unsetenv(v);
    setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
    setenv("GPUCONFORM_NVML_LIBRARY", GPUCONFORM_FAKE_NVML, 1);
    reload_nvml();
    device_.uuid = "GPU-fake";
    device_.pci_bus_id = "00000000:01:00.0";
    device_.cc_major = 9;
  }
  void TearDown() override {
    unsetenv("FAKE_NVML_NVLINK_LINKS");
    unsetenv("GPUCONFORM_NVML_LIBRARY");
    reload_nvml();
  }
  Measurement measure(const std::string& id) const {
    const Probe* probe = Registry::instance().find(id);
    EXPECT_NE(probe, nullptr) << id;
    const ProbeContext ctx{device_, nullptr, false};
    return probe->run(ctx);
  }
  static Expectation at_least(double min, const char* unit) {
    Expectation e;
    e.kind = ExpectationKind::min;
    e.min = min;
    e.unit = unit;
    return e;
  }
  DeviceInfo device_;
};

TEST_F(NvLinkHealth, AHealthyNodePasses) {
  EXPECT_EQ(judge(measure("health.nvlink.links_up"), at_least(18, "links")).outcome, Outcome::pass);
  EXPECT_EQ(judge(measure("health.nvlink.link_rate"), at_least(26562e6, "B/s")).outcome, Outcome::pass);
}

TEST_F(NvLinkHealth, ALinkDownFailsAndIsNamed) {
  setenv("FAKE_NVML_NVLINK_DOWN", "7", 1);
  const Measurement m = measure("health.nvlink.links_up");
  unsetenv("FAKE_NVML_NVLINK_DOWN");
  EXPECT_EQ(m.value, 17);
  const Verdict v = judge(m, at_least(18, "links"));
  EXPECT_EQ(v.outcome, Outcome::fail) << v.reason;
  ASSERT_NE(m.find_note("links_down"), nullptr);
  EXPECT_EQ(*m.find_note("links_down"), "7");
}

TEST_F(NvLinkHealth, ALinkTrainedSlowerFailsTheRate) {
  setenv("FAKE_NVML_NVLINK_SLOW_LINK", "3", 1);
  setenv("FAKE_NVML_NVLINK_SLOW_MBPS", "20000", 1);
  const Measurement m = measure("health.nvlink.link_rate");
  unsetenv("FAKE_NVML_NVLINK_SLOW_LINK");
  unsetenv("FAKE_NVML_NVLINK_SLOW_MBPS");
  EXPECT_EQ(m.value, 20000e6);
  EXPECT_EQ(judge(m, at_least(26562e6, "B/s")).outcome, Outcome::fail);
  ASSERT_NE(m.find_note("slowest_link"), nullptr);
  EXPECT_EQ(*m.find_note("slowest_link"), "3");
}

TEST_F(NvLinkHealth, AGpuThatShowsNoLinkSkipsWithTheReason) {
  setenv("FAKE_NVML_NVLINK_LINKS", "0", 1);
  try {
    measure("health.nvlink.links_up");
    FAIL() << "a GPU without NVLink must skip";
  } catch (const ProbeSkipped& skipped) {
    EXPECT_NE(std::string(skipped.what()).find("shows no NVLink link"), std::string::npos) << skipped.what();
  }
}

TEST_F(NvLinkHealth, NoNvmlSkipsSayingWhy) {
  setenv("GPUCONFORM_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  reload_nvml();
  try {
    measure("health.nvlink.link_rate");
    FAIL() << "without NVML the probe must skip";
  } catch (const ProbeSkipped& skipped) {
    EXPECT_NE(std::string(skipped.what()).find("cannot be read"), std::string::npos) << skipped.what();
  }
}

// A pair probe on a run of one GPU meets no peer: it skips, saying how to give it one.
TEST_F(NvLinkHealth, APairProbeWithoutAPeerSkips) {
  try {
    measure("health.nvlink.errors");
    FAIL() << "a pair probe without a peer must skip";
  } catch (const ProbeSkipped& skipped) {
    EXPECT_NE(std::string(skipped.what()).find("needs a second GPU"), std::string::npos) << skipped.what();
  }
}

}  // namespace
}  // namespace gpuconform
