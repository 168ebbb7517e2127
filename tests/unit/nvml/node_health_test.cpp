// SPDX-License-Identifier: Apache-2.0
// The node health probes (kernels/health/node_health.cu, node_health.hpp) judged
// without a GPU: the fake NVML (tests/fake_nvml) stages the healthy H100 baseline
// (ECC on, zero counters, no remap, PCIe Gen 5 x16 current and max, no throttle,
// a valid inforom, 46 C below the slowdown threshold), every failure on its own,
// and the boards and drivers that cannot answer (a skip with the reason). Each
// reading is judged against the committed expectations/sm_90.toml entry.
#include "gpuconform/node_health.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "gpuconform/expectation.hpp"  // parse_expectation_file
#include "gpuconform/gpu_state.hpp"    // reload_nvml
#include "gpuconform/probe.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

constexpr const char* kFakeVars[] = {
    "FAKE_NVML_INIT_RESULT",         "FAKE_NVML_CLOCK_EVENTS",   "FAKE_NVML_ECC_MODE",
    "FAKE_NVML_ECC_NOT_SUPPORTED",   "FAKE_NVML_ECC_VOLATILE_UNCORRECTED", "FAKE_NVML_REMAP_PENDING",
    "FAKE_NVML_REMAP_FAILED",        "FAKE_NVML_RETIRED_PAGES_PENDING",    "FAKE_NVML_PCIE_GEN",
    "FAKE_NVML_PCIE_WIDTH",          "FAKE_NVML_PCIE_MAX_GEN",   "FAKE_NVML_PCIE_MAX_WIDTH",
    "FAKE_NVML_INFOROM_RESULT",      "FAKE_NVML_TEMPERATURE_C",  "FAKE_NVML_SLOWDOWN_C",
    "FAKE_NVML_NO_MARGIN"};

// The committed sm_90 entries of the node health probes, by id.
const std::map<std::string, Expectation>& sm90_entries() {
  static const std::map<std::string, Expectation> entries = [] {
    std::vector<Diagnostic> diags;
    const ExpectationFile f =
        parse_expectation_file(std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/sm_90.toml", diags);
    std::map<std::string, Expectation> out;
    for (const Expectation& e : f.entries)
      if (find_node_health_check(e.probe_id)) out[e.probe_id] = e;
    return out;
  }();
  return entries;
}

class NodeHealth : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : kFakeVars) unsetenv(v);
    setenv("FAKE_NVML_REMAP_PENDING", "0", 1);  // the fake's default 1 is gpu_state_test's
    use(GPUCONFORM_FAKE_NVML);
    device_.uuid = "GPU-fake";
    device_.pci_bus_id = "00000000:01:00.0";
    device_.cc_major = 9;
  }
  void TearDown() override {
    for (const char* v : kFakeVars) unsetenv(v);
    unsetenv("GPUCONFORM_NVML_LIBRARY");
    reload_nvml();
  }
  static void use(const char* library) {
    setenv("GPUCONFORM_NVML_LIBRARY", library, 1);
    reload_nvml();
  }
  Measurement measure(const std::string& id) const {
    const Probe* probe = Registry::instance().find(id);
    EXPECT_NE(probe, nullptr) << id;
    if (!probe) return {};
    const ProbeContext ctx{device_, nullptr, false};
    return probe->run(ctx);
  }
  // The probe's verdict against its committed sm_90 entry.
  Verdict verdict(const std::string& id) const {
    const auto it = sm90_entries().find(id);
    EXPECT_NE(it, sm90_entries().end()) << id << " has no sm_90 entry";
    if (it == sm90_entries().end()) return {Outcome::fail, "no entry"};
    return judge(measure(id), it->second);
  }
  // Sets `var` to `value`, judges `id`: it must fail, its reason naming `why`.
  void expect_failure(const char* var, const char* value, const std::string& id, const std::string& why) {
    setenv(var, value, 1);
    const Verdict v = verdict(id);
    EXPECT_EQ(v.outcome, Outcome::fail) << id << ": " << v.reason;
    EXPECT_NE(v.reason.find(why), std::string::npos) << id << ": " << v.reason;
    unsetenv(var);
  }
  // `id` must skip, its reason holding `why`.
  void expect_skip(const std::string& id, const std::string& why) const {
    try {
      measure(id);
      ADD_FAILURE() << id << " must skip";
    } catch (const ProbeSkipped& skipped) {
      EXPECT_NE(std::string(skipped.what()).find(why), std::string::npos) << id << ": " << skipped.what();
    }
  }
  DeviceInfo device_;
};

TEST_F(NodeHealth, EveryCheckIsARegisteredHealthProbeWithAnInvariantSm90Entry) {
  for (const NodeHealthCheck& c : node_health_checks()) {
    const Probe* p = Registry::instance().find(c.id);
    ASSERT_NE(p, nullptr) << c.id;
    EXPECT_EQ(p->family, Family::health) << c.id;
    EXPECT_EQ(p->scope, Scope::gpu) << c.id;
    EXPECT_EQ(p->record.kind, c.kind) << c.id;
    const auto it = sm90_entries().find(c.id);
    ASSERT_NE(it, sm90_entries().end()) << c.id;
    const Expectation& e = it->second;
    EXPECT_EQ(e.kind, c.kind) << c.id;
    EXPECT_EQ(e.unit, c.unit) << c.id;
    EXPECT_EQ(c.kind == ExpectationKind::min ? e.min.value_or(-1) : e.max.value_or(-1), c.bound) << c.id;
    EXPECT_EQ(e.source.rfind("cite:", 0), 0u) << c.id << ": an invariant cites its source";
  }
}

TEST_F(NodeHealth, TheHealthyH100BaselinePassesEveryCheck) {
  for (const NodeHealthCheck& c : node_health_checks()) {
    const Verdict v = verdict(c.id);
    EXPECT_EQ(v.outcome, Outcome::pass) << c.id << ": " << v.reason;
  }
  EXPECT_EQ(measure("health.temperature.idle_margin").value, 46);  // 87 C slowdown, 41 C
  const Measurement pcie = measure("health.pcie.link_gen");
  ASSERT_NE(pcie.find_note("link"), nullptr);
  EXPECT_EQ(*pcie.find_note("link"), "Gen 5 x16");
  EXPECT_EQ(pcie.find_note("idle_reading"), nullptr);  // at its maximum: not read again under traffic
}

TEST_F(NodeHealth, EccOffFails) {
  expect_failure("FAKE_NVML_ECC_MODE", "0", "health.ecc.enabled", "ECC is disabled");
}

TEST_F(NodeHealth, UncorrectedEccErrorsFail) {
  setenv("FAKE_NVML_ECC_VOLATILE_UNCORRECTED", "3", 1);
  EXPECT_EQ(measure("health.ecc.volatile_uncorrected").value, 3);
  expect_failure("FAKE_NVML_ECC_VOLATILE_UNCORRECTED", "3", "health.ecc.volatile_uncorrected",
                 "3 uncorrected ECC errors since the driver loaded");
}

TEST_F(NodeHealth, APendingRowRemapFails) {
  expect_failure("FAKE_NVML_REMAP_PENDING", "1", "health.row_remap.pending", "a row remap is pending");
  setenv("FAKE_NVML_REMAP_PENDING", "1", 1);
  EXPECT_EQ(verdict("health.row_remap.failed").outcome, Outcome::pass);  // each check judges its own flag
}

TEST_F(NodeHealth, AFailedRowRemapFails) {
  expect_failure("FAKE_NVML_REMAP_FAILED", "1", "health.row_remap.failed", "a row remap failed");
}

TEST_F(NodeHealth, APendingPageRetirementFails) {
  expect_failure("FAKE_NVML_RETIRED_PAGES_PENDING", "1", "health.retired_pages.pending",
                 "a page retirement is pending");
}

TEST_F(NodeHealth, ALinkTrainedAtGen4Fails) {
  expect_failure("FAKE_NVML_PCIE_GEN", "4", "health.pcie.link_gen",
                 "PCIe link trained at Gen 4 x16, the link supports Gen 5 x16");
  setenv("FAKE_NVML_PCIE_GEN", "4", 1);
  const Measurement m = measure("health.pcie.link_gen");
  EXPECT_EQ(m.value, 1);
  EXPECT_EQ(m.unit, "generations");
  ASSERT_NE(m.find_note("idle_reading"), nullptr);  // read again under traffic (none here: no GPU)
  EXPECT_EQ(verdict("health.pcie.link_width").outcome, Outcome::pass);
}

TEST_F(NodeHealth, ALinkTrainedAtX8Fails) {
  expect_failure("FAKE_NVML_PCIE_WIDTH", "8", "health.pcie.link_width",
                 "PCIe link trained at Gen 5 x8, the link supports Gen 5 x16");
  setenv("FAKE_NVML_PCIE_WIDTH", "8", 1);
  EXPECT_EQ(measure("health.pcie.link_width").value, 8);
  EXPECT_EQ(verdict("health.pcie.link_gen").outcome, Outcome::pass);
}

// A Gen 5 board in a Gen 4 slot: NVML's maximum is the link's, Gen 4, so nothing is wrong.
TEST_F(NodeHealth, ALinkAtTheSlotsMaximumPasses) {
  setenv("FAKE_NVML_PCIE_GEN", "4", 1);
  setenv("FAKE_NVML_PCIE_MAX_GEN", "4", 1);
  EXPECT_EQ(verdict("health.pcie.link_gen").outcome, Outcome::pass);
}

TEST_F(NodeHealth, AThrottleAtIdleFailsNamingIt) {
  expect_failure("FAKE_NVML_CLOCK_EVENTS", "0x49", "health.throttle.idle",
                 "the GPU is throttled while idle: hw_slowdown, hw_thermal_slowdown");
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x49", 1);  // gpu_idle | hw_slowdown | hw_thermal_slowdown
  EXPECT_EQ(measure("health.throttle.idle").value, 2);
}

TEST_F(NodeHealth, IdleAndClockSettingsAreNoThrottle) {
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x103", 1);  // gpu_idle | applications / display clock settings
  EXPECT_EQ(verdict("health.throttle.idle").outcome, Outcome::pass);
}

TEST_F(NodeHealth, ACorruptedInforomFails) {
  expect_failure("FAKE_NVML_INFOROM_RESULT", "14", "health.inforom.valid", "the inforom is corrupted");
}

TEST_F(NodeHealth, AnInforomCheckTheBoardDoesNotOfferSkips) {
  setenv("FAKE_NVML_INFOROM_RESULT", "3", 1);
  expect_skip("health.inforom.valid", "nvmlDeviceValidateInforom answers Not Supported");
}

TEST_F(NodeHealth, AHotIdleGpuFailsOnNvmlsMargin) {
  setenv("FAKE_NVML_SLOWDOWN_C", "87", 1);
  expect_failure("FAKE_NVML_TEMPERATURE_C", "90", "health.temperature.idle_margin",
                 "the idle GPU is 3 C past its nearest slowdown threshold");
}

TEST_F(NodeHealth, WithoutNvmlsMarginTheThresholdLessTheTemperatureIsJudged) {
  setenv("FAKE_NVML_NO_MARGIN", "1", 1);
  const Measurement m = measure("health.temperature.idle_margin");
  EXPECT_EQ(m.value, 46);
  ASSERT_NE(m.find_note("source"), nullptr);
  EXPECT_NE(m.find_note("source")->find("nvmlDeviceGetTemperatureThreshold"), std::string::npos);
  expect_failure("FAKE_NVML_TEMPERATURE_C", "87", "health.temperature.idle_margin",
                 "the idle GPU is at 87 C, at or above its slowdown threshold 87 C");
}

// A consumer board without ECC memory: both ECC checks skip, naming NVML's answer.
TEST_F(NodeHealth, EccNotSupportedSkipsNeverFails) {
  setenv("FAKE_NVML_ECC_NOT_SUPPORTED", "1", 1);
  expect_skip("health.ecc.enabled", "nvmlDeviceGetEccMode answers Not Supported");
  expect_skip("health.ecc.volatile_uncorrected", "nvmlDeviceGetTotalEccErrors answers Not Supported");
}

// Ampere and later remap rows instead of retiring pages and may refuse the query.
TEST_F(NodeHealth, PageRetirementNotSupportedSkips) {
  setenv("FAKE_NVML_RETIRED_PAGES_PENDING", "ns", 1);
  expect_skip("health.retired_pages.pending", "does not offer it");
}

// An older driver lacks nvmlDeviceGetRemappedRows and nvmlDeviceGetMarginTemperature:
// the remap checks skip naming the entry point; the temperature uses the threshold.
TEST_F(NodeHealth, AMissingEntryPointSkipsNamingIt) {
  use(GPUCONFORM_FAKE_NVML_LEGACY);
  expect_skip("health.row_remap.pending", "this NVML lacks nvmlDeviceGetRemappedRows");
  expect_skip("health.row_remap.failed", "this NVML lacks nvmlDeviceGetRemappedRows");
  const Measurement m = measure("health.temperature.idle_margin");
  EXPECT_EQ(m.value, 46);
  EXPECT_EQ(verdict("health.throttle.idle").outcome, Outcome::pass);  // ...ClocksThrottleReasons
}

TEST_F(NodeHealth, NoNvmlSkipsEveryCheckSayingWhy) {
  use("/nonexistent/libnvidia-ml.so.1");
  for (const NodeHealthCheck& c : node_health_checks()) expect_skip(c.id, "NVML not loaded");
}

TEST_F(NodeHealth, AnUnknownGpuSkips) {
  device_.uuid = "GPU-other";
  device_.pci_bus_id = "00000000:02:00.0";
  expect_skip("health.ecc.enabled", "NVML does not know this GPU");
}

}  // namespace
}  // namespace gpuconform
