// SPDX-License-Identifier: Apache-2.0
// Each output of a run as a listener (run_listener.hpp): the run record's lines of every
// kind, valid against the record schema and in the order the events came; the JUnit files
// (one per opened GPU); summary.json, the Prometheus textfile and the termination log as
// their functions make them; and a file that cannot be written names itself.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpuconform/gpu_state.hpp"
#include "gpuconform/junit.hpp"
#include "gpuconform/junit_listener.hpp"
#include "gpuconform/prometheus_listener.hpp"
#include "gpuconform/prometheus_textfile.hpp"
#include "gpuconform/record_listener.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_summary.hpp"
#include "gpuconform/summary_listener.hpp"
#include "gpuconform/termination_log_listener.hpp"
#include "json_schema_check.hpp"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

const Probe kFma{"latency.alu.fma.rn.f32", Family::latency, "fma", {}, {}, nullptr};

DeviceInfo device(int index) {
  DeviceInfo d;
  d.index = index;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.uuid = "GPU-listener-" + std::to_string(index);
  d.pci_bus_id = "0000:1" + std::to_string(index) + ":00.0";
  return d;
}

TestResult fma(Outcome outcome) {
  TestResult r;
  r.probe = &kFma;
  r.verdict = {outcome, "measured 4 cycles"};
  Measurement m;
  m.value = 4;
  m.unit = "cycles";
  r.measurement = m;
  return r;
}

GpuRun opened_run(int index) {
  GpuRun g;
  g.index = index;
  g.device = device(index);
  g.results = {fma(Outcome::pass)};
  return g;
}

GpuRun unopened_run(int index) {
  GpuRun g;
  g.index = index;
  g.open_error = "GPU " + std::to_string(index) + " could not be opened: gone";
  return g;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class OutputListeners : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuconform_listeners_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputListeners, TheRecordHoldsALineOfEveryKindInEventOrderEachValid) {
  const std::string path = (dir_ / "run.jsonl").string();
  RunEvents events;
  events.add(std::make_unique<RecordListener>(path));
  events.run_started(RunIdentity{"20261125T024700Z-node", "node", "2026-11-25T02:47:00Z", {"gpuconform", "run"}});
  std::vector<OpenedGpu> gpus(2);
  gpus[0].index = 0;
  gpus[0].device = device(0);
  gpus[1].index = 1;
  gpus[1].open_error = "GPU 1 could not be opened: gone";
  events.gpus_opened(gpus, RunLevel::long_run, 2);
  GpuState state;
  state.unavailable["ecc"] = "not supported";
  events.gpu_state(0, device(0), "before", state);
  const TestResult r = fma(Outcome::pass);
  nlohmann::json line = record_json(r, device(0));
  line["level"] = "long";
  events.probe_verdict(0, r, line, 0);
  RepeatedResult spread = aggregate_runs({r, r});
  events.probe_spread(0, spread, device(0));
  events.gpu_state(0, device(0), "after", state);

  const test::SchemaCheck schema =
      test::SchemaCheck::from_file(std::string(GPUCONFORM_TEST_SCHEMA_DIR) + "/run-record.schema.json");
  std::vector<std::string> kinds;
  std::ifstream in(path);
  for (std::string text; std::getline(in, text);) {
    const nlohmann::json j = nlohmann::json::parse(text);
    kinds.push_back(j.value("record", "test") + (j.contains("when") ? " " + j["when"].get<std::string>() : ""));
    for (const std::string& e : schema.errors(j)) ADD_FAILURE() << kinds.back() << ": " << e;
  }
  EXPECT_EQ(kinds,
            (std::vector<std::string>{"header", "gpu_open", "gpu_state before", "test", "spread", "gpu_state after"}));
}

TEST_F(OutputListeners, ARecordThatCannotBeOpenedStopsTheRunAtItsStart) {
  RunEvents events;
  events.add(std::make_unique<RecordListener>((dir_ / "missing" / "run.jsonl").string()));
  try {
    events.run_started(RunIdentity{});
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open run record"), std::string::npos) << e.what();
  }
}

TEST_F(OutputListeners, JUnitIsOneFilePerOpenedGpu) {
  const std::string base = (dir_ / "junit.xml").string();
  EXPECT_EQ(junit_file_paths(base, {opened_run(0)}), (std::vector<std::string>{base}));
  EXPECT_EQ(junit_file_paths(base, {opened_run(0), unopened_run(1), opened_run(2)}),
            (std::vector<std::string>{base + ".gpu0.xml", base + ".gpu2.xml"}));

  RunOutcome outcome;
  outcome.gpus = {opened_run(0), unopened_run(1), opened_run(2)};
  JUnitListener(base).on_run_ended(outcome);
  EXPECT_EQ(slurp(base + ".gpu2.xml"), junit_xml(outcome.gpus[2].results, *outcome.gpus[2].device));
  EXPECT_TRUE(fs::exists(base + ".gpu0.xml"));
  EXPECT_FALSE(fs::exists(base + ".gpu1.xml")) << "an unopened GPU has no JUnit file";
  EXPECT_FALSE(fs::exists(base));
}

TEST_F(OutputListeners, AJUnitFileThatCannotBeWrittenFailsTheRunNamingTheFile) {
  RunEvents events("gpuconform run");
  events.add(std::make_unique<JUnitListener>((dir_ / "missing" / "junit.xml").string()));
  RunOutcome outcome;
  outcome.gpus = {opened_run(0)};
  outcome.exit_code = 0;
  testing::internal::CaptureStderr();
  EXPECT_EQ(events.run_ended(outcome), 2);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("gpuconform run: junit: cannot write " + (dir_ / "missing" / "junit.xml").string(), 0), 0u)
      << err;
}

TEST_F(OutputListeners, SummaryTextfileAndTerminationLogAreWhatTheirFunctionsMake) {
  RunOutcome outcome;
  outcome.run = {"20261125T024700Z-node", "node", "2026-11-25T02:47:00Z", {"gpuconform", "run"}};
  outcome.gpus = {opened_run(0), unopened_run(1)};
  outcome.exit_code = 1;
  SummaryListener((dir_ / "summary.json").string()).on_run_ended(outcome);
  PrometheusListener((dir_ / "gpuconform.prom").string()).on_run_ended(outcome);
  TerminationLogListener((dir_ / "termination-log").string()).on_run_ended(outcome);
  EXPECT_EQ(slurp(dir_ / "summary.json"), run_summary_json(outcome).dump(2) + "\n");
  EXPECT_EQ(slurp(dir_ / "gpuconform.prom"), prometheus_textfile(outcome));
  EXPECT_EQ(slurp(dir_ / "termination-log"), termination_message(outcome));
  EXPECT_THROW(TerminationLogListener((dir_ / "missing" / "log").string()).on_run_ended(outcome), std::runtime_error);
}

}  // namespace
}  // namespace gpuconform
