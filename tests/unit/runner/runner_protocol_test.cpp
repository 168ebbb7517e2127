// SPDX-License-Identifier: Apache-2.0
// The runner's pipe protocol and time-limit rule (runner_protocol.hpp, runner.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "gpuconform/runner.hpp"
#include "gpuconform/runner_protocol.hpp"

namespace gpuconform {
namespace {

WorkerEvent round_trip(const WorkerEvent& e) {
  std::string line = encode_worker_event(e);
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one event, one line";
  line.pop_back();
  return decode_worker_event(line);
}

TEST(RunnerProtocol, EveryEventRoundTrips) {
  DeviceInfo d;
  d.index = 3;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.cc_minor = 0;
  d.sm_count = 132;
  d.l2_bytes = 52428800;
  d.shared_per_block_optin_bytes = 232448;
  d.global_mem_bytes = 85031714816;
  d.max_sm_clock_khz = 1980000;
  d.pci_bus_id = "0000:c1:00.0";
  d.pci_device_id = 0x2330;
  d.pci_subsystem_id = 0x16c1;
  d.uuid = "GPU-4250cf40";
  d.driver_version = "580.159.04";
  d.cuda_runtime_version = 12080;
  const WorkerEvent device = round_trip({WorkerEventKind::device, {}, {}, d, {}});
  ASSERT_EQ(device.kind, WorkerEventKind::device);
  ASSERT_TRUE(device.device);
  EXPECT_EQ(device_to_wire(*device.device), device_to_wire(d)) << "every field survives";
  EXPECT_EQ(device.device->sku(), "0x2330");
  EXPECT_EQ(device.device->global_mem_bytes, 85031714816);

  EXPECT_EQ(round_trip({WorkerEventKind::starting, "latency.alu.fma.rn.f32", {}, {}, {}}).probe,
            "latency.alu.fma.rn.f32");
  const WorkerEvent finished =
      round_trip({WorkerEventKind::finished, "p.x", {{"verdict", "fail"}, {"reason", "line\nbreak"}}, {}, {}});
  EXPECT_EQ(finished.kind, WorkerEventKind::finished);
  EXPECT_EQ(finished.record["reason"], "line\nbreak");
  EXPECT_EQ(round_trip({WorkerEventKind::device_error, {}, {}, {}, "no GPU"}).error, "no GPU");
  EXPECT_EQ(round_trip({WorkerEventKind::fatal, {}, {}, {}, "bad"}).kind, WorkerEventKind::fatal);
  EXPECT_EQ(round_trip({WorkerEventKind::done, {}, {}, {}, {}}).kind, WorkerEventKind::done);
}

TEST(RunnerProtocol, MalformedLinesAreRejectedWithTheReason) {
  auto message = [](const char* line) {
    try {
      decode_worker_event(line);
    } catch (const std::runtime_error& err) {
      return std::string(err.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("not json").find("not a JSON object"), std::string::npos);
  EXPECT_NE(message("[1,2]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(message(R"({"probe":"x"})").find("\"event\""), std::string::npos);
  EXPECT_NE(message(R"({"event":"explode"})").find("unknown event \"explode\""), std::string::npos);
  EXPECT_NE(message(R"({"event":"starting"})").find("\"probe\""), std::string::npos);
  EXPECT_NE(message(R"({"event":"finished","probe":"x"})").find("without a record"), std::string::npos);
  EXPECT_NE(message(R"({"event":"device","device":{"index":0}})").find("unreadable device"), std::string::npos);
  EXPECT_NE(message(R"({"event":"fatal"})").find("\"error\""), std::string::npos);
}

TEST(RunnerProtocol, LineSplitterReassemblesPiecesAndKeepsPartialLines) {
  LineSplitter s;
  s.feed("{\"a\":");
  EXPECT_FALSE(s.next_line());
  s.feed("1}\n{\"b\":2}\n{\"c\"");
  EXPECT_EQ(s.next_line().value(), "{\"a\":1}");
  EXPECT_EQ(s.next_line().value(), "{\"b\":2}");
  EXPECT_FALSE(s.next_line());
  EXPECT_EQ(s.remainder(), "{\"c\"");
}

TEST(RunnerProtocol, WorkerArgumentsNameEverythingTheWorkerNeeds) {
  WorkerArgs a;
  a.device = 2;
  a.expectations_dir = "/e";
  a.overlays = {"o1.toml", "o2.toml"};
  a.quick = true;
  a.probes = {"p.a", "p.b"};
  const std::vector<std::string> expected = {"--report-fd", "3",       "--device",  "2",   "--expectations", "/e",
                                             "--overlay",   "o1.toml", "--overlay", "o2.toml", "--quick",    "--probe",
                                             "p.a",         "--probe", "p.b"};
  EXPECT_EQ(worker_arguments(a), expected);
}

TEST(ProbeTimeLimit, DerivedFromTheRecordedSecondsWithAFloor) {
  Expectation e;
  EXPECT_EQ(probe_time_limit(&e, std::nullopt), kTimeLimitUnrecordedS) << "no recorded seconds";
  EXPECT_EQ(probe_time_limit(nullptr, std::nullopt), kTimeLimitUnrecordedS) << "no expectation";
  e.seconds = 0.5;
  EXPECT_EQ(probe_time_limit(&e, std::nullopt), kTimeLimitFloorS) << "fast probes get the floor";
  e.seconds = 30;
  EXPECT_EQ(probe_time_limit(&e, std::nullopt), 300) << "10 x the recorded time";
  e.seconds = 0;
  EXPECT_EQ(probe_time_limit(&e, std::nullopt), kTimeLimitUnrecordedS) << "a zero record is no record";
}

TEST(ProbeTimeLimit, TheOverrideWins) {
  Expectation e;
  e.seconds = 30;
  EXPECT_EQ(probe_time_limit(&e, 5.0), 5.0);
  EXPECT_EQ(probe_time_limit(nullptr, 5.0), 5.0);
}

TEST(ProbeSelection, SelfTestsOnlyInSelfTestMode) {
  const char* saved = std::getenv("GPUCONFORM_SELFTEST");
  const std::string restore = saved ? saved : "";
  ::unsetenv("GPUCONFORM_SELFTEST");
  EXPECT_TRUE(select_probes({"selftest.*"}).empty());
  EXPECT_EQ(selectable_probe_groups().find("selftest"), std::string::npos);
  const auto all = select_probes({"*"});
  EXPECT_TRUE(std::none_of(all.begin(), all.end(), [](const Probe* p) { return p->family == Family::selftest; }));
  ::setenv("GPUCONFORM_SELFTEST", "1", 1);
  const auto selftests = select_probes({"selftest.*"});
  ASSERT_EQ(selftests.size(), 3u);
  EXPECT_EQ(selftests[0]->id, "selftest.hang");
  EXPECT_NE(selectable_probe_groups().find("selftest.hang.*"), std::string::npos);
  if (saved) ::setenv("GPUCONFORM_SELFTEST", restore.c_str(), 1);
  else ::unsetenv("GPUCONFORM_SELFTEST");
}

TEST(ProbeSelection, FiltersAreGlobsInIdOrder) {
  const auto picked = select_probes({"throughput.hbm.read", "latency.alu.fma.rn.f32"});
  ASSERT_EQ(picked.size(), 2u);
  EXPECT_EQ(picked[0]->id, "latency.alu.fma.rn.f32");
  EXPECT_EQ(picked[1]->id, "throughput.hbm.read");
  EXPECT_TRUE(select_probes({"nothing.*"}).empty());
}

}  // namespace
}  // namespace gpuconform
