// SPDX-License-Identifier: Apache-2.0
// The clocks under load (clock_health.hpp, kernels/health/clock_health.cu) judged without
// a GPU: the SM clock from the launches' in-kernel clocks, the memory clock from the fake
// NVML (tests/fake_nvml, FAKE_NVML_MEM_CLOCK_MHZ). Each failure must name both clocks.
// The bounds below are test bounds, not the suite's: the committed entries come from
// GPU runs.
#include "gpuconform/clock_health.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gpuconform/gpu_state.hpp"  // reload_nvml
#include "gpuconform/probe.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

constexpr const char* kSmClock = "health.under_load.sm_clock";
constexpr const char* kMemoryClock = "health.under_load.memory_clock";

Expectation at_least(const char* id, double min_fraction) {
  Expectation e;
  e.probe_id = id;
  e.kind = ExpectationKind::fraction_of_peak;
  e.min_fraction = min_fraction;
  e.unit = "MHz";
  e.source = "cite:test bound";
  e.where = Location{"test.toml", 1, 1};
  return e;
}

TEST(SmClockUnderLoad, ABoardAtItsMaximumPasses) {
  const Measurement m = sm_clock_measurement({1979.4, 1980.6, 1980.1}, 1980, "FFMA on every SM");
  EXPECT_DOUBLE_EQ(m.value, 1980.1) << "the median launch";
  EXPECT_EQ(m.unit, "MHz");
  ASSERT_TRUE(m.peak);
  EXPECT_DOUBLE_EQ(*m.peak, 1980);
  EXPECT_EQ(m.samples.size(), 3u);
  EXPECT_EQ(judge(m, at_least(kSmClock, 0.97)).outcome, Outcome::pass);
  ASSERT_NE(m.find_note("per_launch_mhz"), nullptr);
  EXPECT_EQ(*m.find_note("per_launch_mhz"), "1979 1981 1980");
}

TEST(SmClockUnderLoad, AStuckClockFailsNamingBothClocks) {
  const Verdict v = judge(sm_clock_measurement({1755, 1755, 1754.6}, 1980, "FFMA"), at_least(kSmClock, 0.97));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("measured 1755 MHz = 0.886 of peak 1980 MHz (the board's maximum SM clock, "
                          "cudaDevAttrClockRate), expected >= 0.970 of peak"),
            std::string::npos)
      << v.reason;
}

TEST(SmClockUnderLoad, NoLaunchOrNoMaximumIsAProbeDefectNotAValue) {
  EXPECT_THROW(sm_clock_measurement({}, 1980, "x"), std::invalid_argument);
  EXPECT_THROW(sm_clock_measurement({1980}, 0, "x"), std::invalid_argument);
}

class MemoryClockUnderLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("FAKE_NVML_MEM_CLOCK_MHZ");
    unsetenv("FAKE_NVML_INIT_RESULT");
    setenv("GPUCONFORM_NVML_LIBRARY", GPUCONFORM_FAKE_NVML, 1);
    reload_nvml();
  }
  void TearDown() override {
    unsetenv("FAKE_NVML_MEM_CLOCK_MHZ");
    unsetenv("GPUCONFORM_NVML_LIBRARY");
    reload_nvml();
  }
  // A load that "runs" for `polls` more readings after the first.
  MemoryClockReading read(int polls = 0) {
    int left = polls;
    return read_memory_clock(
        "GPU-fake", "", [this] { ++starts_; }, [&left] { return left-- > 0; }, 0);
  }
  int starts_ = 0;
};

TEST_F(MemoryClockUnderLoad, TheHealthyH100ReadsItsMaximum) {
  const MemoryClockReading r = read(3);
  ASSERT_TRUE(r.skipped.empty()) << r.skipped;
  EXPECT_EQ(starts_, 1) << "the load starts once, after NVML answered the maximum";
  EXPECT_EQ(r.mhz, (std::vector<double>{2619, 2619, 2619, 2619})) << "one reading, then one per poll";
  EXPECT_DOUBLE_EQ(r.max_mhz, 2619);
  const Measurement m = memory_clock_measurement(r, "HBM reads");
  EXPECT_DOUBLE_EQ(m.value, 2619);
  EXPECT_EQ(judge(m, at_least(kMemoryClock, 0.99)).outcome, Outcome::pass);
}

TEST_F(MemoryClockUnderLoad, ALowerMemoryClockUnderLoadFailsNamingBothClocks) {
  setenv("FAKE_NVML_MEM_CLOCK_MHZ", "1593", 1);
  const MemoryClockReading r = read();
  ASSERT_TRUE(r.skipped.empty()) << r.skipped;
  const Verdict v = judge(memory_clock_measurement(r, "HBM reads"), at_least(kMemoryClock, 0.99));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("measured 1593 MHz = 0.608 of peak 2619 MHz (the memory's maximum clock, "
                          "nvmlDeviceGetMaxClockInfo(NVML_CLOCK_MEM))"),
            std::string::npos)
      << v.reason;
}

TEST_F(MemoryClockUnderLoad, NvmlThatCannotAnswerSkipsWithItsWordsAndStartsNoLoad) {
  setenv("FAKE_NVML_MEM_CLOCK_MHZ", "ns", 1);
  MemoryClockReading r = read();
  EXPECT_NE(r.skipped.find("nvmlDeviceGetClockInfo(NVML_CLOCK_MEM) answers"), std::string::npos) << r.skipped;
  EXPECT_TRUE(r.mhz.empty());
  EXPECT_THROW(memory_clock_measurement(r, "x"), std::invalid_argument);

  setenv("GPUCONFORM_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
  reload_nvml();
  starts_ = 0;
  r = read();
  EXPECT_NE(r.skipped.find("NVML not loaded"), std::string::npos) << r.skipped;
  EXPECT_EQ(starts_, 0) << "no load without a clock to read";
}

TEST(ClockHealthProbes, AreHealthProbesThatRunAfterTheIdleChecks) {
  for (const char* id : {kSmClock, kMemoryClock}) {
    const Probe* p = Registry::instance().find(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_EQ(p->family, Family::health) << id;
    EXPECT_EQ(p->record.kind, ExpectationKind::fraction_of_peak) << id;
    // Probes run in id order (Registry): the idle readings must not follow a load.
    for (const char* idle : {"health.throttle.idle", "health.temperature.idle_margin"}) {
      ASSERT_NE(Registry::instance().find(idle), nullptr) << idle;
      EXPECT_GT(std::string(id), std::string(idle)) << id << " must sort after " << idle;
    }
  }
}

}  // namespace
}  // namespace gpuconform
