// SPDX-License-Identifier: Apache-2.0
// The committed JSON Schemas (harness/schema/) hold what the suite writes and what is
// committed: generated record lines of every kind, summary.json, and every line of every
// evidence file. And the validator used for that can fail.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpuconform/conformance.hpp"
#include "gpuconform/run_header.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_summary.hpp"
#include "json_schema_check.hpp"

namespace gpuconform {
namespace {

using nlohmann::json;
using test::SchemaCheck;

const SchemaCheck& record_schema() {
  static const SchemaCheck s =
      SchemaCheck::from_file(std::string(GPUCONFORM_TEST_SCHEMA_DIR) + "/run-record.schema.json");
  return s;
}
const SchemaCheck& summary_schema() {
  static const SchemaCheck s = SchemaCheck::from_file(std::string(GPUCONFORM_TEST_SCHEMA_DIR) + "/summary.schema.json");
  return s;
}

std::string joined(const std::vector<std::string>& errors) {
  std::string out;
  for (const auto& e : errors) out += e + "\n";
  return out;
}

const Probe kProbe{"throughput.mma.f16", Family::throughput, "mma", {}, {}, nullptr};

DeviceInfo device() {
  DeviceInfo d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.uuid = "GPU-aaaaaaaa";
  d.pci_bus_id = "0000:00:06.0";
  d.pci_device_id = 0x2330;
  d.pci_subsystem_id = 0x16c1;
  d.driver_version = "580.159.04";
  return d;
}

// A test line with everything record_json can write: samples, peak, notes, a curve, a
// matrix, a NaN, an expectation with drift fields, a disturbance.
json full_test_line() {
  TestResult r;
  r.probe = &kProbe;
  r.verdict = {Outcome::warn, "measured under disturbance"};
  r.seconds = 1.5;
  Measurement m;
  m.value = 0.9;
  m.unit = "TFLOP/s";
  m.samples = {0.9, 0.91, 0.89};
  Sampling sampling;
  sampling.interval = median_ci95({0.9, 0.91, 0.89, 0.9, 0.9, 0.91, 0.9, 0.89});
  sampling.target_rel_half_width = 0.003;
  sampling.warmup_batches = 2;
  sampling.warmup_settled = true;
  sampling.launch_ms = 5.1;
  sampling.stopped = stop_reason_name(StopReason::kTimeCap);
  m.sampling = sampling;
  m.peak = 1.0;
  m.peak_formula = "x";
  m.compared = 12;
  m.sm_clock_mhz = 1755;
  m.note("method", "sweep");
  m.series.push_back(Series{"curve", "bytes", "B", "rate", "GB/s", {1, 2}, {3, std::nan("")}});
  Matrix mat;
  mat.name = "warps_x_ilp";
  mat.row_name = "warps";
  mat.col_name = "ilp";
  mat.rows = {1, 2};
  mat.cols = {1};
  mat.values = {0.5, 0.7};
  m.matrices.push_back(mat);
  r.measurement = m;
  Expectation e;
  e.kind = ExpectationKind::fraction_of_peak;
  e.min_fraction = 0.7;
  e.drift_min_fraction = 0.76;
  e.unit = "TFLOP/s";
  e.source = "run:evidence/x.jsonl:1";
  e.sass = {"HMMA"};
  r.expectation = e;
  Disturbance d;
  d.reasons = {"clock event: sw_power_cap"};
  r.disturbance = d;
  return record_json(r, device());
}

TEST(RecordSchema, GeneratedLinesOfEveryKindAreValid) {
  EXPECT_EQ(joined(record_schema().errors(full_test_line())), "");
  TestResult skipped;
  skipped.probe = &kProbe;
  skipped.verdict = {Outcome::skip, "needs sm_100a"};
  EXPECT_EQ(joined(record_schema().errors(record_json(skipped, device()))), "");
  const RunIdentity run{"20261125T024700Z-node", "node", "2026-11-25T02:47:00Z", {"gpuconform", "run"}};
  EXPECT_EQ(joined(record_schema().errors(run_header_json(run, local_driver_versions()))), "");
  // The lines the run writes around a GPU's probes (gpu_open, gpu_state, spread) are made by
  // the record listener: tests/unit/runner/output_listeners_test.cpp checks them.
}

TEST(RecordSchema, RejectsWhatIsNotARecordLine) {
  json line = full_test_line();
  line["verdict"] = "maybe";
  EXPECT_NE(joined(record_schema().errors(line)).find("/verdict"), std::string::npos);
  line = full_test_line();
  line["measured"]["value"] = "4";
  EXPECT_NE(joined(record_schema().errors(line)).find("/measured/value"), std::string::npos);
  line = full_test_line();
  line["unexpected"] = 1;
  EXPECT_NE(joined(record_schema().errors(line)).find("/unexpected: property is not allowed"), std::string::npos);
  line = full_test_line();
  line.erase("device");
  EXPECT_NE(joined(record_schema().errors(line)).find("lacks required property \"device\""), std::string::npos);
  line = full_test_line();
  line["record"] = "novel_kind";
  EXPECT_NE(joined(record_schema().errors(line)).find("is not one of"), std::string::npos);
  json header = run_header_json({"id", "h", "2026-11-25T02:47:00Z", {}}, {});
  header["time"] = "yesterday";
  EXPECT_NE(joined(record_schema().errors(header)).find("/time"), std::string::npos);
}

TEST(RecordSchema, EveryCommittedEvidenceLineIsValid) {
  namespace fs = std::filesystem;
  std::size_t lines = 0, files = 0;
  for (const auto& entry : fs::directory_iterator(std::string(GPUCONFORM_TEST_EXPECTATIONS_DIR) + "/evidence")) {
    if (entry.path().extension() != ".jsonl") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
      if (text.empty()) continue;
      ++lines;
      const auto errors = record_schema().errors(json::parse(text));
      EXPECT_TRUE(errors.empty()) << entry.path().filename().string() << ":" << n << ":\n" << joined(errors);
    }
  }
  EXPECT_GT(files, 0u);
  EXPECT_GT(lines, 0u);
}

TEST(SummarySchema, GeneratedSummaryIsValidAndAWrongOneIsNot) {
  RunOutcome o;
  o.run = {"20261125T024700Z-node", "node", "2026-11-25T02:47:00Z", {"gpuconform", "run"}};
  o.started = std::chrono::system_clock::now();
  o.finished = o.started + std::chrono::seconds(3);
  GpuRun g;
  g.device = device();
  TestResult r;
  r.probe = &kProbe;
  r.verdict = {Outcome::fail, "x"};
  g.results = {r};
  o.gpus = {g};
  GpuRun unopened;
  unopened.index = 1;
  unopened.open_error = "GPU 1 could not be opened";
  o.gpus.push_back(unopened);
  o.exit_code = 1;
  json s = run_summary_json(o);
  EXPECT_EQ(joined(summary_schema().errors(s)), "");
  s["totals"]["pass"] = -1;
  EXPECT_NE(joined(summary_schema().errors(s)).find("/totals/pass"), std::string::npos);
}

TEST(SchemaCheck, RefusesAKeywordItDoesNotImplement) {
  EXPECT_THROW(SchemaCheck(json{{"type", "object"}, {"patternProperties", json::object()}}), std::runtime_error);
  EXPECT_THROW(SchemaCheck(json{{"$ref", "#/$defs/none"}}), std::runtime_error);
  const SchemaCheck one_of(json::parse(R"({"oneOf": [{"type": "integer"}, {"minimum": 0}]})"));
  EXPECT_TRUE(one_of.errors(-1).empty());
  EXPECT_FALSE(one_of.errors(2).empty());  // matches both
  const SchemaCheck conditional(
      json::parse(R"({"if": {"required": ["a"]}, "then": {"required": ["b"]}, "else": {"required": ["c"]}})"));
  EXPECT_TRUE(conditional.errors(json{{"a", 1}, {"b", 2}}).empty());
  EXPECT_FALSE(conditional.errors(json{{"a", 1}}).empty());
  EXPECT_FALSE(conditional.errors(json::object()).empty());
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

// The real CLI with no GPU visible: it cannot run (exit 2), and still leaves a run
// directory whose record starts with a valid header and whose summary.json (also printed
// alone on stdout with --json) is valid and says exit 2; the termination log says so too.
TEST(RunCli, RunThatCannotStartStillWritesValidOutputs) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpuconform_cli_outputs_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const fs::path run_dir = dir / "run";
  const std::string cmd = fmt::format(
      "CUDA_VISIBLE_DEVICES= '{}' run --filter 'latency.alu.*' --out-dir '{}' --json --termination-log '{}' "
      "--prom '{}' >'{}' 2>'{}'",
      GPUCONFORM_CLI, run_dir.string(), (dir / "termination.txt").string(), (dir / "gpuconform.prom").string(),
      (dir / "stdout.json").string(), (dir / "stderr.txt").string());
  fs::create_directories(dir);
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << cmd;
  EXPECT_EQ(WEXITSTATUS(status), 2) << std::ifstream(dir / "stderr.txt").rdbuf();

  std::ifstream record(run_dir / "run.jsonl");
  std::string first;
  ASSERT_TRUE(std::getline(record, first)) << "no run.jsonl in " << run_dir;
  const json header = json::parse(first);
  EXPECT_EQ(header["record"], "header");
  EXPECT_EQ(joined(record_schema().errors(header)), "");

  const json printed = json::parse(std::ifstream(dir / "stdout.json"));  // stdout is the JSON alone
  const json written = json::parse(std::ifstream(run_dir / "summary.json"));
  EXPECT_EQ(printed, written);
  EXPECT_EQ(joined(summary_schema().errors(written)), "");
  EXPECT_EQ(written["exit_code"], 2);
  EXPECT_EQ(written["run_id"], header["run_id"]);

  std::stringstream termination;
  termination << std::ifstream(dir / "termination.txt").rdbuf();
  EXPECT_EQ(termination.str().rfind("gpuconform unusable (exit 2)", 0), 0u) << termination.str();
  std::stringstream prom;
  prom << std::ifstream(dir / "gpuconform.prom").rdbuf();
  EXPECT_NE(prom.str().find("gpuconform_run_exit_code 2\n"), std::string::npos) << prom.str();

  // The directory now holds a run: a second run into it is refused before anything runs.
  const std::string again = fmt::format("CUDA_VISIBLE_DEVICES= '{}' run --out-dir '{}' >/dev/null 2>'{}'",
                                        GPUCONFORM_CLI, run_dir.string(), (dir / "again.txt").string());
  const int again_status = std::system(again.c_str());
  EXPECT_EQ(WEXITSTATUS(again_status), 2);
  std::stringstream why;
  why << std::ifstream(dir / "again.txt").rdbuf();
  EXPECT_NE(why.str().find("already holds a run"), std::string::npos) << why.str();
  fs::remove_all(dir);
}

// Without --out-dir each run gets a directory of its own under gpuconform-runs/ (two runs
// in one second too); --append writes the old files in the working directory, a header each.
TEST(RunCli, EachRunGetsItsOwnDirectoryAndAppendKeepsTheOldFiles) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gpuconform_cli_dirs_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string run =
      fmt::format("cd '{}' && CUDA_VISIBLE_DEVICES= '{}' run --filter 'latency.alu.*' >>log.txt 2>&1", dir.string(),
                  GPUCONFORM_CLI);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(WEXITSTATUS(std::system(run.c_str())), 2);
  std::vector<fs::path> runs;
  for (const auto& e : fs::directory_iterator(dir / "gpuconform-runs")) runs.push_back(e.path());
  ASSERT_EQ(runs.size(), 2u) << std::ifstream(dir / "log.txt").rdbuf();
  for (const fs::path& r : runs) {
    EXPECT_TRUE(fs::exists(r / "run.jsonl")) << r;
    EXPECT_TRUE(fs::exists(r / "summary.json")) << r;
  }
  const std::string append = fmt::format(
      "cd '{}' && CUDA_VISIBLE_DEVICES= '{}' run --append >>log.txt 2>&1; CUDA_VISIBLE_DEVICES= '{}' run --append "
      ">>log.txt 2>&1",
      dir.string(), GPUCONFORM_CLI, GPUCONFORM_CLI);
  EXPECT_EQ(WEXITSTATUS(std::system(append.c_str())), 2);
  std::ifstream record(dir / "gpuconform-run.jsonl");
  int headers = 0;
  for (std::string line; std::getline(record, line);) headers += json::parse(line).value("record", "") == "header";
  EXPECT_EQ(headers, 2);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "gpuconform-runs")) ++entries;
  EXPECT_EQ(entries, 2u) << "--append made a run directory";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpuconform
