// SPDX-License-Identifier: Apache-2.0
// NVLink state through NVML, without a GPU: the fake NVML (tests/fake_nvml)
// stages links that are up, down or slow, counters that rise, a driver without
// the per-link counter, and no NVLink at all; NVML absent, failing or too old
// is recorded, never thrown.
#include "gpuconform/nvlink_state.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "gpuconform/gpu_state.hpp"  // reload_nvml

namespace gpuconform {
namespace {

constexpr const char* kUuid = "GPU-fake";             // the fake's GPU
constexpr const char* kBusId = "00000000:01:00.0";
constexpr double kH100LinkRate = 26562e6;             // the fake's default 26562 MB/s, in bytes/s
constexpr const char* kPerLinkSource = "nvmlDeviceGetNvLinkErrorCounter";
constexpr const char* kTotalsSource = "nvmlDeviceGetFieldValues (*_TOTAL)";

// Loads `library` as NVML with a clean fake environment; back to the real
// NVML (absent here) afterwards.
class NvLinkStateNvml : public ::testing::Test {
 protected:
  void use(const std::string& library) {
    setenv("GPUCONFORM_NVML_LIBRARY", library.c_str(), 1);
    reload_nvml();
  }
  void SetUp() override {
    for (const char* v : {"FAKE_NVML_INIT_RESULT", "FAKE_NVML_NVLINK_LINKS", "FAKE_NVML_NVLINK_DOWN",
                          "FAKE_NVML_NVLINK_SPEED_MBPS", "FAKE_NVML_NVLINK_SLOW_LINK", "FAKE_NVML_NVLINK_SLOW_MBPS",
                          "FAKE_NVML_NVLINK_REPLAY_PER_CALL", "FAKE_NVML_NVLINK_NO_ERROR_COUNTER",
                          "FAKE_NVML_NVLINK_NO_LINK_SPEED"})
      unsetenv(v);
  }
  void TearDown() override {
    unsetenv("GPUCONFORM_NVML_LIBRARY");
    reload_nvml();
  }
  static NvLinkState read() { return read_nvlink_state(kUuid, kBusId); }
};

TEST_F(NvLinkStateNvml, NoLinksShownIsAnEmptyReadingNotAnError) {
  use(GPUCONFORM_FAKE_NVML);  // FAKE_NVML_NVLINK_LINKS unset: every link NOT_SUPPORTED
  NvLinkState s;
  ASSERT_NO_THROW(s = read());
  EXPECT_EQ(s.unavailable, "");
  EXPECT_TRUE(s.links.empty());
  EXPECT_FALSE(s.totals.has_value());  // nothing to count on: absent, not zero
  EXPECT_EQ(s.counter_source, "");
  EXPECT_EQ(s.active_links(), 0);
  EXPECT_EQ(s.slowest_active_rate(), 0.0);
  EXPECT_TRUE(nvlink_counter_rises(s, read()).empty());
  const nlohmann::json j = s.to_json();
  EXPECT_EQ(j["links"], nlohmann::json::array());
  EXPECT_TRUE(j["totals"].is_null());
}

TEST_F(NvLinkStateNvml, EighteenLinksUpWithRatesPeersAndCounters) {
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState s = read();
  EXPECT_EQ(s.unavailable, "");
  ASSERT_EQ(s.links.size(), 18u);
  for (unsigned i = 0; i < 18; ++i) {
    const NvLinkLink& l = s.links[i];
    EXPECT_EQ(l.link, i);
    EXPECT_TRUE(l.active) << "link " << i;
    EXPECT_DOUBLE_EQ(l.rate_bytes_per_s, kH100LinkRate) << "link " << i;
    ASSERT_TRUE(l.errors.has_value()) << "link " << i;
    EXPECT_EQ(l.errors->recovery, i % 2) << "link " << i;  // the fake's per-link counts
    EXPECT_EQ(l.errors->crc_flit, i) << "link " << i;
    EXPECT_EQ(l.errors->crc_data, 2u * i) << "link " << i;
  }
  EXPECT_EQ(s.links[0].remote_pci_bus_id, "00000000:80:00.0");
  EXPECT_EQ(s.links[17].remote_pci_bus_id, "00000000:91:00.0");
  EXPECT_EQ(s.active_links(), 18);
  EXPECT_DOUBLE_EQ(s.slowest_active_rate(), kH100LinkRate);
  EXPECT_EQ(s.counter_source, kPerLinkSource);
  ASSERT_TRUE(s.totals.has_value());
  EXPECT_EQ(s.totals->recovery, 9u);   // sum of i % 2
  EXPECT_EQ(s.totals->crc_flit, 153u); // sum of 0..17
  EXPECT_EQ(s.totals->crc_data, 306u);
  EXPECT_EQ(s.totals->replay, s.links[0].errors->replay);  // only link 0 replays
}

TEST_F(NvLinkStateNvml, OneLinkDownIsListedInactiveWithoutRateOrPeer) {
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  setenv("FAKE_NVML_NVLINK_DOWN", "5", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState s = read();
  ASSERT_EQ(s.links.size(), 18u);
  EXPECT_EQ(s.active_links(), 17);
  EXPECT_EQ(s.links[5].link, 5u);
  EXPECT_FALSE(s.links[5].active);
  EXPECT_EQ(s.links[5].rate_bytes_per_s, 0.0);
  EXPECT_EQ(s.links[5].remote_pci_bus_id, "");
  EXPECT_TRUE(s.links[4].active);
  EXPECT_TRUE(s.links[6].active);
  EXPECT_DOUBLE_EQ(s.slowest_active_rate(), kH100LinkRate);  // the down link's 0 is not a rate
  const nlohmann::json j = s.to_json();
  EXPECT_EQ(j["active_links"], 17);
  EXPECT_EQ(j["links"][5]["active"], false);
}

TEST_F(NvLinkStateNvml, OneSlowLinkSetsTheSlowestActiveRate) {
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  setenv("FAKE_NVML_NVLINK_SLOW_LINK", "7", 1);
  setenv("FAKE_NVML_NVLINK_SLOW_MBPS", "13281", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState s = read();
  ASSERT_EQ(s.links.size(), 18u);
  EXPECT_EQ(s.active_links(), 18);
  EXPECT_DOUBLE_EQ(s.links[7].rate_bytes_per_s, 13281e6);
  EXPECT_DOUBLE_EQ(s.links[6].rate_bytes_per_s, kH100LinkRate);
  EXPECT_DOUBLE_EQ(s.slowest_active_rate(), 13281e6);
  EXPECT_DOUBLE_EQ(s.to_json()["slowest_active_rate_bytes_per_s"].get<double>(), 13281e6);
}

TEST_F(NvLinkStateNvml, WithoutThePerLinkRateTheCommonRateIsUsed) {
  setenv("FAKE_NVML_NVLINK_LINKS", "4", 1);
  setenv("FAKE_NVML_NVLINK_SPEED_MBPS", "25000", 1);
  setenv("FAKE_NVML_NVLINK_SLOW_LINK", "2", 1);  // only the per-link field knows it
  setenv("FAKE_NVML_NVLINK_SLOW_MBPS", "1000", 1);
  setenv("FAKE_NVML_NVLINK_NO_LINK_SPEED", "1", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState s = read();
  ASSERT_EQ(s.links.size(), 4u);
  for (const auto& l : s.links) EXPECT_DOUBLE_EQ(l.rate_bytes_per_s, 25000e6) << "link " << l.link;
}

TEST_F(NvLinkStateNvml, RisingReplayCounterIsNamedWithItsLink) {
  setenv("FAKE_NVML_NVLINK_LINKS", "4", 1);
  setenv("FAKE_NVML_NVLINK_REPLAY_PER_CALL", "2", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState before = read();
  const NvLinkState after = read();
  ASSERT_EQ(after.counter_source, kPerLinkSource);
  EXPECT_EQ(after.links[0].errors->replay, before.links[0].errors->replay + 2);
  EXPECT_EQ(nvlink_counter_rises(before, after), std::vector<std::string>{"link 0: replay +2"});
  EXPECT_TRUE(nvlink_counter_rises(after, after).empty());
  EXPECT_TRUE(nvlink_counter_rises(after, before).empty());  // a counter that went down was reset: no rise
}

TEST_F(NvLinkStateNvml, TotalsComeFromFieldValuesWhenThePerLinkCounterIsUnsupported) {
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  setenv("FAKE_NVML_NVLINK_NO_ERROR_COUNTER", "1", 1);
  setenv("FAKE_NVML_NVLINK_REPLAY_PER_CALL", "3", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState before = read();
  EXPECT_EQ(before.unavailable, "");
  ASSERT_EQ(before.links.size(), 18u);
  for (const auto& l : before.links) EXPECT_FALSE(l.errors.has_value()) << "link " << l.link;
  EXPECT_EQ(before.counter_source, kTotalsSource);
  ASSERT_TRUE(before.totals.has_value());
  EXPECT_EQ(before.totals->recovery, 9u);
  EXPECT_EQ(before.totals->crc_flit, 153u);
  EXPECT_EQ(before.totals->crc_data, 306u);
  const NvLinkState after = read();
  EXPECT_EQ(nvlink_counter_rises(before, after), std::vector<std::string>{"totals: replay +3"});
  EXPECT_TRUE(after.to_json()["links"][0]["errors"].is_null());
  EXPECT_EQ(after.to_json()["totals"]["crc_flit"], 153);
}

TEST_F(NvLinkStateNvml, AbsentNvmlSaysWhy) {
  use("/nonexistent/libnvidia-ml.so.1");
  NvLinkState s;
  ASSERT_NO_THROW(s = read());
  EXPECT_NE(s.unavailable.find("NVML not loaded: /nonexistent/libnvidia-ml.so.1"), std::string::npos)
      << s.unavailable;
  EXPECT_TRUE(s.links.empty());
  EXPECT_FALSE(s.totals.has_value());
  EXPECT_EQ(s.to_json()["unavailable"], s.unavailable);
}

TEST_F(NvLinkStateNvml, FailedInitSaysWhy) {
  setenv("FAKE_NVML_INIT_RESULT", "9", 1);  // NVML_ERROR_DRIVER_NOT_LOADED
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState s = read();
  EXPECT_EQ(s.unavailable, "nvmlInit_v2 failed: Driver Not Loaded (NVML error 9)");
  EXPECT_TRUE(s.links.empty());
}

TEST_F(NvLinkStateNvml, UnknownGpuSaysWhichIdsWereTried) {
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  use(GPUCONFORM_FAKE_NVML);
  const NvLinkState s = read_nvlink_state("GPU-elsewhere", "00000000:02:00.0");
  EXPECT_NE(s.unavailable.find("UUID GPU-elsewhere: Not Found"), std::string::npos) << s.unavailable;
  EXPECT_NE(s.unavailable.find("PCI bus id 00000000:02:00.0: Not Found"), std::string::npos) << s.unavailable;
  EXPECT_TRUE(s.links.empty());
  EXPECT_EQ(read_nvlink_state("", kBusId).links.size(), 18u);  // found by PCI bus id alone
}

TEST_F(NvLinkStateNvml, OlderNvmlWithoutTheNvLinkEntryPointsSaysSo) {
  setenv("FAKE_NVML_NVLINK_LINKS", "18", 1);
  use(GPUCONFORM_FAKE_NVML_LEGACY);
  const NvLinkState s = read();
  EXPECT_EQ(s.unavailable, "this NVML lacks nvmlDeviceGetNvLinkState");
  EXPECT_TRUE(s.links.empty());
}

TEST_F(NvLinkStateNvml, JsonHasEveryField) {
  setenv("FAKE_NVML_NVLINK_LINKS", "2", 1);
  use(GPUCONFORM_FAKE_NVML);
  const nlohmann::json j = read().to_json();
  std::set<std::string> keys;
  for (const auto& item : j.items()) keys.insert(item.key());
  EXPECT_EQ(keys, (std::set<std::string>{"unavailable", "links", "active_links", "slowest_active_rate_bytes_per_s",
                                         "totals", "counter_source"}));
  ASSERT_EQ(j["links"].size(), 2u);
  keys.clear();
  for (const auto& item : j["links"][1].items()) keys.insert(item.key());
  EXPECT_EQ(keys, (std::set<std::string>{"link", "active", "rate_bytes_per_s", "remote_pci_bus_id", "errors"}));
  EXPECT_EQ(j["links"][1]["errors"], nlohmann::json::parse(R"({"replay":0,"recovery":1,"crc_flit":1,"crc_data":2})"));
  EXPECT_EQ(j["counter_source"], kPerLinkSource);
}

// --- nvlink_counter_rises on hand-made readings ---

NvLinkState with_link(unsigned link, NvLinkCounters c) {
  NvLinkState s;
  NvLinkLink l;
  l.link = link;
  l.active = true;
  l.errors = c;
  s.links.push_back(l);
  s.totals = c;
  s.counter_source = kPerLinkSource;
  return s;
}

TEST(NvLinkCounterRises, EveryRisenCounterOfALinkInOneLine) {
  const NvLinkState before = with_link(3, {10, 0, 5, 7});
  const NvLinkState after = with_link(3, {12, 0, 6, 7});
  EXPECT_EQ(nvlink_counter_rises(before, after), std::vector<std::string>{"link 3: replay +2, crc_flit +1"});
}

TEST(NvLinkCounterRises, TotalsOnlyWhenNoLinkCanBeCompared) {
  NvLinkState before, after;
  before.totals = NvLinkCounters{0, 4, 0, 0};
  after.totals = NvLinkCounters{0, 5, 0, 0};
  before.counter_source = after.counter_source = kTotalsSource;
  EXPECT_EQ(nvlink_counter_rises(before, after), std::vector<std::string>{"totals: recovery +1"});
  after.counter_source = kPerLinkSource;  // different sources count different things: not compared
  EXPECT_TRUE(nvlink_counter_rises(before, after).empty());
  after.counter_source = kTotalsSource;
  after.totals.reset();
  EXPECT_TRUE(nvlink_counter_rises(before, after).empty());
}

// A link that drops out of a reading must not shift the others onto it.
TEST(NvLinkCounterRises, LinksAreMatchedByNumberNotPosition) {
  NvLinkState before = with_link(0, {0, 0, 0, 0});
  before.links.push_back(with_link(1, {4, 0, 0, 0}).links[0]);
  const NvLinkState after = with_link(1, {4, 0, 0, 0});
  EXPECT_TRUE(nvlink_counter_rises(before, after).empty());
  EXPECT_EQ(nvlink_counter_rises(before, with_link(1, {6, 0, 0, 0})), std::vector<std::string>{"link 1: replay +2"});
}

}  // namespace
}  // namespace gpuconform
