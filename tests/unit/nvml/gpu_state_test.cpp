// SPDX-License-Identifier: Apache-2.0
// GPU state through NVML, without a GPU: NVML absent, a fake NVML that
// reports processes and throttles (tests/fake_nvml), and the rules that turn a
// disturbed failure into a warning.
#include "gpuconform/gpu_state.hpp"
#include "gpuconform/throttle_policy.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <set>
#include <thread>

namespace gpuconform {
namespace {

// Above pid_max (at most 2^22 on Linux): NVML may report it, /proc cannot name it.
constexpr unsigned kUnnamedPid = 4194305;

DeviceInfo fake_gpu() {
  DeviceInfo d;
  d.uuid = "GPU-fake";
  d.pci_bus_id = "00000000:01:00.0";
  return d;
}

std::string comm_of(unsigned pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  std::getline(in, name);
  return name;
}

// Loads `library` as NVML with a clean fake environment; back to the real
// NVML (absent here) afterwards.
class GpuStateNvml : public ::testing::Test {
 protected:
  void use(const std::string& library) {
    setenv("GPUCONFORM_NVML_LIBRARY", library.c_str(), 1);
    reload_nvml();
  }
  void SetUp() override {
    for (const char* v :
         {"FAKE_NVML_INIT_RESULT", "FAKE_NVML_PIDS", "FAKE_NVML_CLOCK_EVENTS", "FAKE_NVML_POWER_VIOLATION_NS_PER_CALL",
          "FAKE_NVML_VBIOS", "FAKE_NVML_BOARD_PART", "FAKE_NVML_INFOROM_IMAGE"})
      unsetenv(v);
  }
  void TearDown() override {
    unsetenv("GPUCONFORM_NVML_LIBRARY");
    reload_nvml();
  }
};

TEST_F(GpuStateNvml, AbsentNvmlIsRecordedNotThrown) {
  use("/nonexistent/libnvidia-ml.so.1");
  GpuState s;
  ASSERT_NO_THROW(s = read_gpu_state(fake_gpu()));
  EXPECT_FALSE(s.nvml);
  EXPECT_NE(s.nvml_error.find("NVML not loaded: /nonexistent/libnvidia-ml.so.1"), std::string::npos) << s.nvml_error;
  EXPECT_FALSE(s.time.empty());
  EXPECT_EQ(s.sm_clock_mhz, 0u);
  EXPECT_EQ(s.temperature_c, -1);

  StateWatch watch(fake_gpu());
  watch.start();
  const Disturbance d = watch.stop();
  EXPECT_FALSE(d.any());
  EXPECT_FALSE(d.shared_gpu);
}

TEST_F(GpuStateNvml, FailedInitNamesNvmlError) {
  setenv("FAKE_NVML_INIT_RESULT", "9", 1);  // NVML_ERROR_DRIVER_NOT_LOADED
  use(GPUCONFORM_FAKE_NVML);
  const GpuState s = read_gpu_state(fake_gpu());
  EXPECT_FALSE(s.nvml);
  EXPECT_EQ(s.nvml_error, "nvmlInit_v2 failed: Driver Not Loaded (NVML error 9)");
}

TEST_F(GpuStateNvml, UnknownGpuSaysWhichIdsWereTried) {
  use(GPUCONFORM_FAKE_NVML);
  DeviceInfo other;
  other.uuid = "GPU-elsewhere";
  other.pci_bus_id = "00000000:02:00.0";
  const GpuState s = read_gpu_state(other);
  EXPECT_FALSE(s.nvml);
  EXPECT_NE(s.nvml_error.find("UUID GPU-elsewhere: Not Found"), std::string::npos) << s.nvml_error;
  EXPECT_NE(s.nvml_error.find("PCI bus id 00000000:02:00.0: Not Found"), std::string::npos) << s.nvml_error;
}

TEST_F(GpuStateNvml, FindsGpuByPciBusIdWithoutUuid) {
  use(GPUCONFORM_FAKE_NVML);
  DeviceInfo d = fake_gpu();
  d.uuid.clear();
  EXPECT_TRUE(read_gpu_state(d).nvml);
}

TEST_F(GpuStateNvml, SnapshotReadsEveryFieldAndExcludesThisProcess) {
  const unsigned parent = static_cast<unsigned>(getppid());
  setenv("FAKE_NVML_PIDS", ("self," + std::to_string(parent) + "," + std::to_string(kUnnamedPid)).c_str(), 1);
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x5", 1);  // gpu_idle | sw_power_cap
  use(GPUCONFORM_FAKE_NVML);
  const GpuState s = read_gpu_state(fake_gpu());
  ASSERT_TRUE(s.nvml) << s.nvml_error;
  EXPECT_EQ(s.sm_clock_mhz, 1755u);
  EXPECT_EQ(s.sm_clock_max_mhz, 1980u);
  EXPECT_EQ(s.mem_clock_mhz, 2619u);
  EXPECT_EQ(s.mem_clock_max_mhz, 2619u);
  EXPECT_EQ(s.clock_event_reasons, 0x5u);
  EXPECT_EQ(s.clock_event_names, std::vector<std::string>{"sw_power_cap"});
  ASSERT_EQ(s.other_processes.size(), 2u);
  EXPECT_EQ(s.other_processes[0].pid, parent);
  EXPECT_EQ(s.other_processes[0].name, comm_of(parent));
  EXPECT_FALSE(s.other_processes[0].name.empty());
  EXPECT_EQ(s.other_processes[0].used_memory_bytes, 2u << 20);  // the fake's second record
  EXPECT_EQ(s.other_processes[1].pid, kUnnamedPid);
  EXPECT_EQ(s.other_processes[1].name, "");
  EXPECT_EQ(s.ecc_current, 1);
  EXPECT_EQ(s.ecc_pending, 1);
  EXPECT_EQ(s.remapped_rows_pending, 1);
  EXPECT_EQ(s.remapped_rows_failed, 0);
  EXPECT_EQ(s.mig_current, -1);
  EXPECT_EQ(s.unavailable.value("mig_current", ""), "Not Supported (NVML error 3)");
  EXPECT_EQ(s.temperature_c, 41);
  EXPECT_DOUBLE_EQ(s.power_w, 123.456);
  EXPECT_DOUBLE_EQ(s.power_limit_w, 700.0);
  EXPECT_EQ(s.unavailable.size(), 1u) << s.unavailable.dump();
}

TEST_F(GpuStateNvml, OlderDriverEntryPointsAreUsedAndMissingOnesRecorded) {
  setenv("FAKE_NVML_PIDS", ("self," + std::to_string(kUnnamedPid)).c_str(), 1);
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x40", 1);
  use(GPUCONFORM_FAKE_NVML_LEGACY);
  const GpuState s = read_gpu_state(fake_gpu());
  ASSERT_TRUE(s.nvml) << s.nvml_error;
  EXPECT_EQ(s.clock_event_names, std::vector<std::string>{"hw_thermal_slowdown"});  // ...ThrottleReasons
  ASSERT_EQ(s.other_processes.size(), 1u);                                          // ..._v2
  EXPECT_EQ(s.other_processes[0].pid, kUnnamedPid);
  EXPECT_EQ(s.remapped_rows_pending, -1);
  EXPECT_EQ(s.unavailable.value("remapped_rows", ""), "this NVML lacks the entry point");

  StateWatch watch(fake_gpu());  // no violation counters: the polled reasons still count
  watch.start();
  const Disturbance d = watch.stop();
  EXPECT_EQ(d.reasons, (std::vector<std::string>{"another process used the GPU: pid 4194305",
                                                 "clock event: hw_thermal_slowdown"}));
}

TEST_F(GpuStateNvml, ProcessRecordsOfTheR530EraLayoutAreReadAtTheirStride) {
  setenv("FAKE_NVML_PIDS", "4194305,4194306,self", 1);
  use(GPUCONFORM_FAKE_NVML_CC_RECORD);
  const GpuState s = read_gpu_state(fake_gpu());
  ASSERT_EQ(s.other_processes.size(), 2u) << s.to_json().dump();
  EXPECT_EQ(s.other_processes[0].pid, 4194305u);
  EXPECT_EQ(s.other_processes[1].pid, 4194306u);
  EXPECT_EQ(s.other_processes[1].used_memory_bytes, 2u << 20);
}

// In a container with its own pid namespace NVML lists host pids: this
// process is then an invisible pid other than getpid().
TEST_F(GpuStateNvml, ThisProcessSeenFromAnotherPidNamespaceIsNotAnotherProcess) {
  setenv("FAKE_NVML_PIDS", "4194305", 1);
  use(GPUCONFORM_FAKE_NVML);
  EXPECT_TRUE(read_gpu_state(fake_gpu()).other_processes.empty());

  setenv("FAKE_NVML_PIDS", "4194305,4194306", 1);  // us and one more: which is which is unknown, both named
  StateWatch watch(fake_gpu());
  watch.start();
  EXPECT_EQ(watch.stop().text(), "another process used the GPU: pid 4194305, pid 4194306");

  const unsigned parent = static_cast<unsigned>(getppid());  // visible here: never taken for us
  setenv("FAKE_NVML_PIDS", std::to_string(parent).c_str(), 1);
  ASSERT_EQ(read_gpu_state(fake_gpu()).other_processes.size(), 1u);
}

TEST_F(GpuStateNvml, SnapshotJsonHasEveryField) {
  setenv("FAKE_NVML_PIDS", ("self," + std::to_string(kUnnamedPid)).c_str(), 1);
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x4", 1);
  use(GPUCONFORM_FAKE_NVML);
  const nlohmann::json j = read_gpu_state(fake_gpu()).to_json();
  std::set<std::string> keys;
  for (const auto& item : j.items()) keys.insert(item.key());
  EXPECT_EQ(keys, (std::set<std::string>{"nvml",
                                         "nvml_error",
                                         "time",
                                         "sm_clock_mhz",
                                         "sm_clock_max_mhz",
                                         "mem_clock_mhz",
                                         "mem_clock_max_mhz",
                                         "clock_event_reasons",
                                         "clock_event_names",
                                         "other_processes",
                                         "ecc_current",
                                         "ecc_pending",
                                         "remapped_rows_pending",
                                         "remapped_rows_failed",
                                         "mig_current",
                                         "temperature_c",
                                         "power_w",
                                         "power_limit_w",
                                         "vbios_version",
                                         "board_part_number",
                                         "inforom_image_version",
                                         "unavailable"}));
  EXPECT_EQ(j["nvml"], true);
  EXPECT_EQ(j["clock_event_names"], nlohmann::json::array({"sw_power_cap"}));
  EXPECT_EQ(j["other_processes"],
            nlohmann::json::parse(R"([{"pid":4194305,"name":"","used_memory_bytes":2097152}])"));
  EXPECT_TRUE(j["unavailable"].is_object());
  EXPECT_EQ(j["power_limit_w"], 700.0);
}

// The firmware texts go into the snapshot as NVML gives them; one NVML cannot read is
// left empty with its reason, and the other readings are unaffected.
TEST_F(GpuStateNvml, FirmwareIsRecordedAndAnUnreadableOneSaysWhy) {
  setenv("FAKE_NVML_VBIOS", "96.00.A5.00.1A", 1);
  setenv("FAKE_NVML_BOARD_PART", "ns", 1);
  use(GPUCONFORM_FAKE_NVML);
  const GpuState s = read_gpu_state(fake_gpu());
  ASSERT_TRUE(s.nvml) << s.nvml_error;
  EXPECT_EQ(s.vbios_version, "96.00.A5.00.1A");
  EXPECT_EQ(s.inforom_image_version, "fake-inforom-1");
  EXPECT_EQ(s.board_part_number, "");
  EXPECT_EQ(s.unavailable.value("board_part_number", ""), "Not Supported (NVML error 3)");
  EXPECT_EQ(s.to_json()["vbios_version"], "96.00.A5.00.1A");
  EXPECT_EQ(s.sm_clock_max_mhz, 1980u);
}

TEST(GpuStateClockEvents, DecodedWithNvmlNamesIdleExcluded) {
  EXPECT_EQ(clock_event_names(0x1FF),
            (std::vector<std::string>{"applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
                                      "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown",
                                      "display_clock_setting"}));
  EXPECT_EQ(clock_event_names(0x1), std::vector<std::string>{});
  EXPECT_EQ(clock_event_names(0x200), std::vector<std::string>{"bit_0x200"});
}

TEST(GpuStateClockEvents, OnlyThrottlesDisturb) {
  EXPECT_EQ(disturbing_clock_events(0x1FF), 0xFCu);  // power cap, slowdowns, sync boost, power brake
  EXPECT_EQ(disturbing_clock_events(0x1 | 0x2 | 0x100 | 0x200), 0u);  // idle, clock settings, unknown
}

TEST_F(GpuStateNvml, WatchNamesOtherProcessAndThrottleNotItself) {
  setenv("FAKE_NVML_PIDS", ("self," + std::to_string(kUnnamedPid)).c_str(), 1);
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x5", 1);
  use(GPUCONFORM_FAKE_NVML);
  StateWatch watch(fake_gpu());
  watch.start();
  const Disturbance d = watch.stop();
  EXPECT_EQ(d.reasons, (std::vector<std::string>{"another process used the GPU: pid 4194305",
                                                 "clock event: sw_power_cap"}));
  EXPECT_EQ(d.text(), "another process used the GPU: pid 4194305; clock event: sw_power_cap");
  EXPECT_TRUE(d.shared_gpu);
  EXPECT_EQ(d.to_json(), nlohmann::json(d.reasons));
  EXPECT_EQ(watch.stop().reasons, d.reasons);  // idempotent
}

TEST_F(GpuStateNvml, WatchSeesNothingOnAQuietGpu) {
  setenv("FAKE_NVML_PIDS", "self", 1);
  setenv("FAKE_NVML_CLOCK_EVENTS", "0x1", 1);  // idle only
  use(GPUCONFORM_FAKE_NVML);
  StateWatch watch(fake_gpu());
  watch.start();
  EXPECT_FALSE(watch.stop().any());
}

TEST_F(GpuStateNvml, OwnProcessesRegisteredByTheRunnerAreNotDisturbance) {
  // Registration lasts for the process: a pid no other test (or repetition) uses.
  static unsigned runs = 0;
  const unsigned worker = kUnnamedPid + 1000 + runs++;
  setenv("FAKE_NVML_PIDS", ("self," + std::to_string(worker)).c_str(), 1);
  use(GPUCONFORM_FAKE_NVML);
  StateWatch before(fake_gpu());
  before.start();
  EXPECT_EQ(before.stop().text(), "another process used the GPU: pid " + std::to_string(worker));
  add_own_process(worker);
  StateWatch after(fake_gpu());
  after.start();
  EXPECT_FALSE(after.stop().any());
}

TEST_F(GpuStateNvml, WatchKeepsPollingDuringAProbe) {
  use(GPUCONFORM_FAKE_NVML);
  StateWatch watch(fake_gpu());  // loads the fake
  void* fake = dlopen(GPUCONFORM_FAKE_NVML, RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(fake, nullptr);
  auto set_pids = reinterpret_cast<void (*)(const char*)>(dlsym(fake, "fake_nvml_set_pids"));
  ASSERT_NE(set_pids, nullptr);
  set_pids("self");
  watch.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(10));  // past the first poll
  set_pids("self,4194305");  // a process arrives mid-probe ...
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  set_pids("self");  // ... and leaves before the end: still reported
  const Disturbance d = watch.stop();
  set_pids(nullptr);
  dlclose(fake);
  EXPECT_EQ(d.text(), "another process used the GPU: pid 4194305");
}

TEST_F(GpuStateNvml, ViolationCounterCatchesThrottleBetweenPolls) {
  setenv("FAKE_NVML_POWER_VIOLATION_NS_PER_CALL", "2500000", 1);  // 2.5 ms between the two readings
  use(GPUCONFORM_FAKE_NVML);
  StateWatch watch(fake_gpu());
  watch.start();
  EXPECT_EQ(watch.stop().text(), "power capping held the clocks down for 2.5 ms (NVML violation counter)");

  setenv("FAKE_NVML_CLOCK_EVENTS", "0x4", 1);  // the polled bit already names it: said once
  StateWatch polled(fake_gpu());
  polled.start();
  EXPECT_EQ(polled.stop().text(), "clock event: sw_power_cap");
}

// The runner wraps ~300 probes, many of a few milliseconds: a watch on a quiet
// GPU must cost far less than a probe.
double mean_start_stop_us(const DeviceInfo& device, int rounds) {
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) {
    StateWatch watch(device);
    watch.start();
    watch.stop();
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / rounds;
}

// Not a benchmark (the figure is printed, never asserted tightly): the bounds catch a
// watch whose stop() waits out a whole 25 ms poll interval, with room for a loaded CI
// machine: a 1 ms bound timed the machine, not the watch.
TEST_F(GpuStateNvml, WatchOverheadOnAQuietGpu) {
  setenv("FAKE_NVML_PIDS", "self", 1);
  use(GPUCONFORM_FAKE_NVML);
  const double with_fake = mean_start_stop_us(fake_gpu(), 200);
  use("/nonexistent/libnvidia-ml.so.1");
  const double without_nvml = mean_start_stop_us(fake_gpu(), 200);
  std::printf("StateWatch construct+start+stop: %.1f us with the fake NVML, %.2f us without NVML\n", with_fake,
              without_nvml);
  EXPECT_LT(with_fake, 10000.0);
  EXPECT_LT(without_nvml, 1000.0);
}

// --- downgrade_for_disturbance ---

Disturbance spinner() { return Disturbance{{"another process used the GPU: pid 4242 (gpu_spinner)"}, true, {}}; }
Disturbance power_cap() { return Disturbance{{"clock event: sw_power_cap"}, false, {"sw_power_cap"}}; }
Disturbance thermal() { return Disturbance{{"clock event: hw_thermal_slowdown"}, false, {"hw_thermal_slowdown"}}; }
ThrottlePolicy committed_like() {
  ThrottlePolicy p;
  p.faults = {"hw_slowdown", "hw_thermal_slowdown", "sw_thermal_slowdown", "hw_power_brake_slowdown"};
  p.source = "throttle_policy.toml";
  return p;
}
const ThrottlePolicy kNoFaults{};
const Verdict kFail{Outcome::fail, "measured 0.51 of peak, expected >= 0.81 of peak"};

TEST(GpuStateDowngrade, TimedFailureUnderDisturbanceBecomesWarningWithReasonFirst) {
  for (Family f : {Family::latency, Family::throughput, Family::topology}) {
    const Verdict v = downgrade_for_disturbance(kFail, f, spinner(), kNoFaults);
    EXPECT_EQ(v.outcome, Outcome::warn) << family_name(f);
    EXPECT_EQ(v.reason,
              "measured under disturbance (another process used the GPU: pid 4242 (gpu_spinner)); "
              "the measurement would fail: measured 0.51 of peak, expected >= 0.81 of peak");
  }
}

TEST(GpuStateDowngrade, NumericFailureStaysFailure) {
  const Verdict v = downgrade_for_disturbance(kFail, Family::numeric, spinner(), kNoFaults);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_EQ(v.reason, kFail.reason);
}

TEST(GpuStateDowngrade, PassOnASharedGpuBecomesWarning) {
  const Verdict v = downgrade_for_disturbance({Outcome::pass, "measured 0.90 of peak"}, Family::throughput, spinner(), kNoFaults);
  EXPECT_EQ(v.outcome, Outcome::warn);
  EXPECT_EQ(v.reason,
            "measured under disturbance (another process used the GPU: pid 4242 (gpu_spinner)); "
            "the measurement would pass: measured 0.90 of peak");
}

TEST(GpuStateDowngrade, PassUnderAThrottleAloneStaysPass) {
  const Verdict v = downgrade_for_disturbance({Outcome::pass, "why"}, Family::throughput, power_cap(), kNoFaults);
  EXPECT_EQ(v.outcome, Outcome::pass);
  EXPECT_EQ(downgrade_for_disturbance(kFail, Family::throughput, power_cap(), kNoFaults).outcome, Outcome::warn);
}

TEST(GpuStateDowngrade, UndisturbedOrOtherVerdictsUnchanged) {
  EXPECT_EQ(downgrade_for_disturbance(kFail, Family::throughput, {}, kNoFaults).outcome, Outcome::fail);
  for (Outcome o : {Outcome::warn, Outcome::skip}) {
    const Verdict v = downgrade_for_disturbance({o, "why"}, Family::latency, spinner(), kNoFaults);
    EXPECT_EQ(v.outcome, o);
    EXPECT_EQ(v.reason, "why");
  }
}

TEST(GpuStateDowngrade, AFaultThrottleFailsPassOrFailNamingTheEventAndThePolicy) {
  const Verdict failed = downgrade_for_disturbance(kFail, Family::throughput, thermal(), committed_like());
  EXPECT_EQ(failed.outcome, Outcome::fail);
  EXPECT_EQ(failed.reason,
            "clock event hw_thermal_slowdown while the probe ran: a fault of the part by the throttle policy "
            "(throttle_policy.toml), not how it works; the measurement would fail: " + kFail.reason);
  const Verdict passed = downgrade_for_disturbance({Outcome::pass, "why"}, Family::latency, thermal(), committed_like());
  EXPECT_EQ(passed.outcome, Outcome::fail);
  EXPECT_NE(passed.reason.find("the measurement would pass: why"), std::string::npos);
  EXPECT_EQ(downgrade_for_disturbance(kFail, Family::throughput, power_cap(), committed_like()).outcome, Outcome::warn)
      << "the power cap is how a 700 W part works";
  EXPECT_EQ(downgrade_for_disturbance(kFail, Family::numeric, thermal(), committed_like()).reason, kFail.reason)
      << "bits do not depend on clocks";
  EXPECT_EQ(downgrade_for_disturbance(kFail, Family::throughput, thermal(), kNoFaults).outcome, Outcome::warn)
      << "without a policy file nothing is a fault";
}

TEST(ThrottlePolicy, ParsesTheNamesAndRejectsUnknownOnesWithTheirLine) {
  std::vector<Diagnostic> diags;
  const ThrottlePolicy p = parse_throttle_policy_text("fault = [\"hw_slowdown\", \"sw_thermal_slowdown\"]\n", "t.toml", diags);
  EXPECT_TRUE(diags.empty());
  EXPECT_TRUE(p.is_fault("hw_slowdown"));
  EXPECT_FALSE(p.is_fault("sw_power_cap"));
  parse_throttle_policy_text("fault = [\"hw_slowdown\",\n  \"too_hot\"]\nfaults = []\n", "t.toml", diags);
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].where.line, 2);
  EXPECT_NE(diags[0].message.find("unknown clock event 'too_hot'"), std::string::npos);
  EXPECT_NE(diags[1].message.find("unknown key 'faults'"), std::string::npos);
  diags.clear();
  parse_throttle_policy_text("fault = \"hw_slowdown\"\n", "t.toml", diags);
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_NE(diags[0].message.find("array"), std::string::npos);
}

TEST(ThrottlePolicy, TheCommittedFileParsesCleanAndNamesTheSlowdowns) {
  std::ifstream in(std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/evidence/throttle_policy.toml");
  ASSERT_TRUE(in);
  std::ostringstream os;
  os << in.rdbuf();
  std::vector<Diagnostic> diags;
  const ThrottlePolicy p = parse_throttle_policy_text(os.str(), "throttle_policy.toml", diags);
  for (const auto& d : diags) ADD_FAILURE() << d.str();
  EXPECT_TRUE(p.is_fault("hw_slowdown"));
  EXPECT_TRUE(p.is_fault("hw_thermal_slowdown"));
  EXPECT_FALSE(p.is_fault("sw_power_cap"));
}

}  // namespace
}  // namespace gpuconform
