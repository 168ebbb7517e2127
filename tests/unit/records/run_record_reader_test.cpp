// SPDX-License-Identifier: Apache-2.0
// Run records read back: schema versions (absent = 1, known, newer = a clear error), lines
// of other record kinds skipped, hostile numbers rejected rather than converted, and the
// provenance check of expectation sources reading the cited line as JSON.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "gpuconform/conformance.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/run_record_schema.hpp"

namespace gpuconform {
namespace {

const std::string kDevice = R"("device":{"arch":"sm_90","uuid":"GPU-a","cuda_runtime_version":13000})";

std::string test_line(const std::string& extra, const std::string& probe = "latency.alu.fma.rn.f32") {
  return R"({)" + extra + R"("probe":")" + probe + R"(","verdict":"pass",)" + kDevice +
         R"(,"measured":{"value":4.0,"unit":"cycles"}})";
}

std::string error_of(const std::string& text) {
  try {
    parse_run_record_text(text, "r.jsonl");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(RunRecordReader, LinesWithoutAVersionAreVersionOne) {
  const auto runs = parse_run_record_text(test_line("") + "\n", "r.jsonl");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].probe, "latency.alu.fma.rn.f32");
  EXPECT_EQ(runs[0].cuda_runtime, 13000);
  EXPECT_EQ(runs[0].line, 1);
}

TEST(RunRecordReader, ReadsTheCurrentVersionAndSkipsOtherRecordKinds) {
  const std::string text = R"({"schema_version":2,"record":"gpu_state","gpu":"GPU-a","clocks":{}})" "\n" +
                           test_line(R"("schema_version":2,"record":"test",)") + "\n\n" +
                           test_line(R"("schema_version":2,)", "latency.mem.l1_hit") + "\n";
  const auto runs = parse_run_record_text(text, "r.jsonl");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].line, 2);
  EXPECT_EQ(runs[1].line, 4);
  EXPECT_EQ(runs[1].probe, "latency.mem.l1_hit");
}

// The gpu_state snapshot's firmware is carried to the test lines of its board, and only to
// those: another board, and a snapshot without firmware (older records), leave it empty.
TEST(RunRecordReader, TestLinesCarryTheirBoardsFirmwareFromTheStateSnapshot) {
  const std::string state =
      R"({"record":"gpu_state","when":"before","device":{"index":0,"uuid":"GPU-a","pci_bus_id":"0"},)"
      R"("state":{"nvml":true,"vbios_version":"96.00.A5.00.1A","board_part_number":"692-2G520-0282-001",)"
      R"("inforom_image_version":"","unavailable":{}}})";
  const std::string other_board =
      R"({"probe":"latency.mem.l1_hit","verdict":"pass",)"
      R"("device":{"arch":"sm_90","uuid":"GPU-b"},"measured":{"value":4.0,"unit":"cycles"}})";
  const auto runs =
      parse_run_record_text(test_line("") + "\n" + state + "\n" + test_line("") + "\n" + other_board + "\n", "r.jsonl");
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].firmware, "");  // before the snapshot
  EXPECT_EQ(runs[1].firmware, "VBIOS 96.00.A5.00.1A, board 692-2G520-0282-001");
  EXPECT_EQ(runs[2].firmware, "");
}

TEST(RunRecordReader, ANullValueReadsAsNaN) {
  // JSON has no NaN or infinity: a probe whose value is not finite (a numeric probe's NaN where
  // a number was due) is written with "value": null, and must read back, not throw.
  const std::string line = R"({"probe":"numeric.math.intrinsic.fdividef","verdict":"fail",)" + kDevice +
                           R"(,"measured":{"value":null,"unit":"ulp"}})";
  const auto runs = parse_run_record_text(line + "\n", "r.jsonl");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(std::isnan(runs[0].measurement.value));
  EXPECT_EQ(runs[0].measurement.unit, "ulp");
}

TEST(RunRecordReader, RejectsANewerVersionByName) {
  const std::string e = error_of(test_line(R"("schema_version":3,)"));
  EXPECT_NE(e.find("r.jsonl:1:"), std::string::npos) << e;
  EXPECT_NE(e.find("schema_version 3 is newer than this gpuconform reads (up to 2)"), std::string::npos) << e;
  // A newer line of another kind is as unreadable: the file came from a newer suite.
  EXPECT_NE(error_of(R"({"schema_version":9,"record":"gpu_state"})").find("newer"), std::string::npos);
}

TEST(RunRecordReader, RejectsLinesThatAreNotRecords) {
  EXPECT_NE(error_of("5").find("r.jsonl:1: not a run record line: not a JSON object"), std::string::npos);
  EXPECT_NE(error_of("{\"probe\":").find("r.jsonl:1: not a run record line"), std::string::npos);
  EXPECT_NE(error_of(test_line(R"("schema_version":"2",)")).find("'schema_version' must be an integer"),
            std::string::npos);
  EXPECT_NE(error_of(test_line(R"("schema_version":0,)")).find("not a version"), std::string::npos);
  EXPECT_NE(error_of(R"({"record":7})").find("not a run record line"), std::string::npos);
}

// Regression (found by reading for the fuzzer): nlohmann's get<int>() of 1e300 or of a
// negative count is undefined behaviour or a silent wrap; both must be errors.
TEST(RunRecordReader, ACutLastLineIsDroppedWithAWarningAndTheRestRead) {
  const std::string whole = test_line("") + "\n" + test_line("", "latency.alu.add.rn.f32") + "\n";
  const std::string cut = test_line("", "latency.alu.mul.rn.f32").substr(0, 40);
  std::string warning;
  const auto runs = parse_run_record_text(whole + cut, "r.jsonl", &warning);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1].probe, "latency.alu.add.rn.f32");
  EXPECT_EQ(warning, "r.jsonl:3: the last line is cut (40 bytes, no newline): dropped, the 2 line(s) before it are read");
  // Ended by a newline it was written whole and is malformed; cut in the middle of the file
  // it is damage, not a crash: both stay errors.
  EXPECT_NE(error_of(whole + cut + "\n").find("r.jsonl:3: not a run record line"), std::string::npos);
  EXPECT_NE(error_of(cut + "\n" + whole).find("r.jsonl:1: not a run record line"), std::string::npos);
  // A last line that is JSON but not a record is no cut: an error.
  EXPECT_NE(error_of(whole + "[1, 2]").find("r.jsonl:3"), std::string::npos);
}

TEST(RunRecordReader, RejectsNumbersOutOfTheirFieldsRange) {
  std::string line = test_line("");
  line.replace(line.find("13000"), 5, "1e300");
  EXPECT_NE(error_of(line).find("'cuda_runtime_version' must be an integer in range, not 1e+300"), std::string::npos);
  line = test_line("");
  line.replace(line.find(R"("unit")"), 0, R"("compared":-1,)");
  EXPECT_NE(error_of(line).find("'compared' must be an integer in range"), std::string::npos);
  line = test_line("");
  line.replace(line.find(R"("unit")"), 0, R"("compared":[[[[1]]]],)");
  EXPECT_NE(error_of(line).find("'compared' must be an integer in range, not array"), std::string::npos);
}

// A pair probe's line (device A, peers [B]) is filed under "A>B", so that every reader
// pools and compares the pair of boards as one unit; a per-GPU line keeps the bare UUID.
TEST(RunRecordReader, APairLineIsFiledUnderItsPairOfBoards) {
  const std::string peers =
      R"("peers":[{"index":1,"uuid":"GPU-b","pci_bus_id":"0000:02:00.0","name":"NVIDIA H100"},)"
      R"({"index":3,"uuid":"","pci_bus_id":"0000:04:00.0"}],)";
  const auto runs =
      parse_run_record_text(test_line("") + "\n" + test_line(peers, "p2p.bandwidth.read") + "\n", "r.jsonl");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].gpu, "GPU-a");
  EXPECT_TRUE(runs[0].peers.empty());
  EXPECT_EQ(runs[1].board, "GPU-a");
  // A peer without a UUID is its PCI bus id, as a device without one is.
  EXPECT_EQ(runs[1].peers, (std::vector<std::string>{"GPU-b", "0000:04:00.0"}));
  EXPECT_EQ(runs[1].peer_indices, (std::vector<int>{1, 3}));
  EXPECT_EQ(runs[1].gpu, "GPU-a>GPU-b,0000:04:00.0");
}

TEST(RunRecordReader, RejectsMalformedPeersWithFileAndLine) {
  const auto error_on_line_2 = [](const std::string& peers) {
    return error_of(test_line("") + "\n" + test_line(R"("peers":)" + peers + ",") + "\n");
  };
  const std::string not_array = error_on_line_2(R"("GPU-b")");
  EXPECT_NE(not_array.find("r.jsonl:2: not a run record line: 'peers' must be an array of objects, not string"),
            std::string::npos)
      << not_array;
  for (const std::string bad : {R"(["GPU-b"])", R"([{"index":1}])", R"([{"uuid":7}])", R"([{"uuid":"GPU-b"},null])"})
    EXPECT_NE(error_on_line_2(bad).find("r.jsonl:2: not a run record line: each of 'peers' must be an object with a "
                                        "string 'uuid'"),
              std::string::npos)
        << bad << ": " << error_on_line_2(bad);
  EXPECT_NE(error_on_line_2(R"([{"uuid":"GPU-b","index":-1.5}])").find("r.jsonl:2:"), std::string::npos);
}

TEST(RunRecordReader, EveryCommittedEvidenceFileReads) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/evidence"))
    if (entry.path().extension() == ".jsonl") {
      ++files;
      EXPECT_FALSE(read_run_record(entry.path().string()).empty()) << entry.path();
    }
  EXPECT_GT(files, 0);
}

TEST(RunRecordReader, ReadsBackWhatTheWriterWrites) {
  const Probe probe{"latency.alu.fma.rn.f32", Family::latency, "fma", {}, {}, nullptr};
  TestResult r;
  r.probe = &probe;
  r.verdict = {Outcome::pass, "ok"};
  Measurement m;
  m.value = 4.016;
  m.unit = "cycles";
  m.compared = 12;
  r.measurement = m;
  DeviceInfo d;
  d.cc_major = 9;
  d.uuid = "GPU-written";
  d.cuda_runtime_version = 12080;
  const nlohmann::json j = record_json(r, d);
  EXPECT_EQ(j.at("schema_version"), kRunRecordSchemaVersion);
  EXPECT_EQ(j.at("record"), "test");
  const auto runs = parse_run_record_text(j.dump() + "\n", "w.jsonl");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].gpu, "GPU-written");
  EXPECT_EQ(runs[0].cuda_runtime, 12080);
  EXPECT_EQ(runs[0].measurement.compared, 12u);
  EXPECT_DOUBLE_EQ(runs[0].measurement.value, 4.016);
  EXPECT_EQ(runs[0].reason, "ok");
  // What a judgement of the recorded value needs (recorded_judgement.hpp): the sampling
  // interval and the peak at the maximum clock read back as written.
  Sampling s;
  s.interval = {4.016, 4.0, 4.03, true};
  s.target_rel_half_width = 0.003;
  m.sampling = s;
  m.peak = 5.0;
  m.peak_at_max_clock = 6.0;
  r.measurement = m;
  const auto sampled = parse_run_record_text(record_json(r, d).dump() + "\n", "w.jsonl");
  ASSERT_EQ(sampled.size(), 1u);
  ASSERT_TRUE(sampled[0].measurement.sampling);
  // The half-width (the larger side, 0.016 of 4.016) laid around the value on both sides.
  EXPECT_DOUBLE_EQ(sampled[0].measurement.sampling->interval.low, 4.0);
  EXPECT_DOUBLE_EQ(sampled[0].measurement.sampling->interval.high, 4.032);
  EXPECT_TRUE(sampled[0].measurement.sampling->interval.valid);
  ASSERT_TRUE(sampled[0].measurement.peak_at_max_clock);
  EXPECT_DOUBLE_EQ(*sampled[0].measurement.peak_at_max_clock, 6.0);
  // A pair result as the runner writes it reads back under the writer's own board_key.
  DeviceInfo peer;
  peer.index = 1;
  peer.uuid = "GPU-peer";
  r.peers = {peer};
  const auto pair = parse_run_record_text(record_json(r, d).dump() + "\n", "w.jsonl");
  ASSERT_EQ(pair.size(), 1u);
  EXPECT_EQ(pair[0].gpu, board_key("GPU-written", {"GPU-peer"}));
  EXPECT_EQ(pair[0].gpu, "GPU-written>GPU-peer");
  EXPECT_EQ(pair[0].peer_indices, std::vector<int>{1});
}

class RunRecordLineProblem : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::path(::testing::TempDir()) / "provenance.jsonl").string();
    std::ofstream(path_) << R"({"schema_version":2,"record":"gpu_state","gpu":"GPU-a"})" "\n"
                         << test_line("") << "\n"
                         // The id appears as text, but as a note: the old substring match
                         // took this line for a record of latency.alu.fma.rn.f32.
                         << R"({"probe":"latency.mem.l1_hit",)" << kDevice
                         << R"(,"measured":{"value":1,"unit":"cycles","notes":{"probe":"latency.alu.fma.rn.f32"}}})"
                         << "\n"
                         << R"({"probe":"latency.alu.fma.rn.f32","verdict":"skip"})" "\n"
                         << "not json\n";
  }
  std::string problem(long line) { return run_record_line_problem(path_, line, "latency.alu.fma.rn.f32"); }
  std::string path_;
};

TEST_F(RunRecordLineProblem, ATestRecordOfTheProbeIsGood) { EXPECT_EQ(problem(2), ""); }

TEST_F(RunRecordLineProblem, EachWayALineCanBeWrong) {
  EXPECT_EQ(problem(1), "line 1 is a 'gpu_state' record, not a test");
  EXPECT_EQ(problem(3), "line 3 is not a record of probe 'latency.alu.fma.rn.f32' (it records 'latency.mem.l1_hit')");
  EXPECT_EQ(problem(4), "line 4 has no measurement");
  EXPECT_NE(problem(5).find("line 5 is not a run record line"), std::string::npos);
  EXPECT_EQ(problem(6), "has fewer than 6 lines");
  EXPECT_EQ(run_record_line_problem(path_ + ".missing", 1, "x"), "not found or not a regular file");
}

// A source may name any path; a device or a pipe must not hang or exhaust the linter.
TEST_F(RunRecordLineProblem, OnlyRegularFilesAreRead) {
  EXPECT_EQ(run_record_line_problem("/dev/zero", 1, "x"), "not found or not a regular file");
}

}  // namespace
}  // namespace gpuconform
