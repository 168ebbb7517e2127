// SPDX-License-Identifier: Apache-2.0
// The machine-readable outputs of a run (summary.json, the termination message, the
// Prometheus textfile, the record header) from made-up results: no GPU needed.
#include <gtest/gtest.h>

#include <stdexcept>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/prometheus_textfile.hpp"
#include "gpuconform/run_header.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/run_summary.hpp"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

const Probe kFma{"latency.alu.fma.rn.f32", Family::latency, "fma", {}, {}, nullptr};
const Probe kHbm{"throughput.hbm.read", Family::throughput, "hbm", {}, {}, nullptr};
const Probe kMma{"numeric.mma_sync.f32.f16", Family::numeric, "mma", {}, {}, nullptr};

TestResult result(const Probe& p, Outcome o, std::string reason = "") {
  TestResult r;
  r.probe = &p;
  r.verdict = {o, std::move(reason)};
  return r;
}

GpuRun gpu(int index, const std::string& uuid, std::vector<TestResult> results) {
  GpuRun g;
  g.index = index;
  DeviceInfo d;
  d.index = index;
  d.name = "NVIDIA H100 80GB HBM3";
  d.cc_major = 9;
  d.uuid = uuid;
  d.pci_device_id = 0x2330;
  g.device = d;
  g.results = std::move(results);
  return g;
}

// Two GPUs opened (one fail and one warn on the second), one that could not be opened.
RunOutcome sample_outcome() {
  RunOutcome o;
  o.run = {"20261125T024700Z-node17", "node17", "2026-11-25T02:47:00Z", {"gpuconform", "run"}};
  o.started = std::chrono::system_clock::from_time_t(1795661220);
  o.finished = o.started + std::chrono::milliseconds(12500);
  o.exit_code = 1;
  o.record_path = "gpuconform-runs/x/run.jsonl";
  o.junit_paths = {"gpuconform-runs/x/junit.xml.gpu0.xml", "gpuconform-runs/x/junit.xml.gpu1.xml"};
  o.summary_path = "gpuconform-runs/x/summary.json";
  o.gpus.push_back(gpu(0, "GPU-aaaaaaaa-0000", {result(kFma, Outcome::pass), result(kHbm, Outcome::pass),
                                                 result(kMma, Outcome::skip, "needs sm_90a")}));
  o.gpus.push_back(gpu(1, "GPU-bbbbbbbb-1111", {result(kFma, Outcome::fail, "measured 6 cycles, \"expected\" 4"),
                                                 result(kHbm, Outcome::warn, "drifted: measured 0.8 ± 0.1"),
                                                 result(kMma, Outcome::pass)}));
  GpuRun broken;
  broken.index = 2;
  broken.open_error = "GPU 2 could not be opened: cudaErrorDevicesUnavailable";
  o.gpus.push_back(broken);
  return o;
}

TEST(RunSummary, CountsPerRunPerGpuAndPerGroup) {
  const nlohmann::json s = run_summary_json(sample_outcome());
  EXPECT_EQ(s["totals"], (nlohmann::json{{"pass", 3}, {"warn", 1}, {"fail", 1}, {"skip", 1}}));
  EXPECT_EQ(s["exit_code"], 1);
  EXPECT_EQ(s["result"], "failed");
  EXPECT_DOUBLE_EQ(s["wall_seconds"].get<double>(), 12.5);
  EXPECT_EQ(s["gpus_tested"], 3);
  EXPECT_EQ(s["gpus_unopened"], 1);
  EXPECT_EQ(s["gpus"][1]["uuid"], "GPU-bbbbbbbb-1111");
  EXPECT_EQ(s["gpus"][1]["sku"], "0x2330");
  EXPECT_EQ(s["gpus"][1]["groups"]["latency.alu"]["fail"], 1);
  EXPECT_EQ(s["gpus"][1]["groups"]["throughput.hbm"]["warn"], 1);
  EXPECT_EQ(s["gpus"][0]["groups"]["numeric.mma_sync"]["skip"], 1);
  EXPECT_EQ(s["gpus"][2]["open_error"], "GPU 2 could not be opened: cudaErrorDevicesUnavailable");
  EXPECT_FALSE(s["gpus"][2].contains("uuid"));
}

TEST(RunSummary, NonPassListsFailsFirstThenWarnsThenSkips) {
  const nlohmann::json n = run_summary_json(sample_outcome())["non_pass"];
  ASSERT_EQ(n.size(), 3u);
  EXPECT_EQ(n[0]["verdict"], "fail");
  EXPECT_EQ(n[0]["probe"], "latency.alu.fma.rn.f32");
  EXPECT_EQ(n[0]["gpu_uuid"], "GPU-bbbbbbbb-1111");
  EXPECT_EQ(n[1]["verdict"], "warn");
  EXPECT_EQ(n[2]["verdict"], "skip");
  EXPECT_EQ(n[2]["reason"], "needs sm_90a");
}

TEST(RunSummary, ProbeGroupIsTheFirstTwoFields) {
  EXPECT_EQ(probe_group("latency.alu.fma.rn.f32"), "latency.alu");
  EXPECT_EQ(probe_group("latency.alu"), "latency.alu");
  EXPECT_EQ(probe_group("odd"), "odd");
  EXPECT_EQ(exit_meaning(77), "nothing_judged");
  EXPECT_EQ(exit_meaning(3), "exit 3");
}

TEST(TerminationMessage, TotalsFirstThenFailsAndWarns) {
  const std::string m = termination_message(sample_outcome());
  EXPECT_EQ(m.rfind("gpuconform failed (exit 1): 3 pass, 1 warn, 1 fail, 1 skip on 3 GPU(s), 1 not opened; run "
                    "20261125T024700Z-node17\n",
                    0),
            0u)
      << m;
  EXPECT_NE(m.find("fail GPU 2 could not be opened"), std::string::npos) << m;
  EXPECT_NE(m.find("fail latency.alu.fma.rn.f32 (GPU-bbbbbbbb): measured 6 cycles"), std::string::npos) << m;
  EXPECT_NE(m.find("warn throughput.hbm.read"), std::string::npos) << m;
  EXPECT_EQ(m.find("needs sm_90a"), std::string::npos) << "skips are counted, not listed: " << m;
}

TEST(TerminationMessage, StaysWithinTheKubeletLimitAndSaysWhatWasLeftOut) {
  RunOutcome o = sample_outcome();
  // 500 failures with long multi-byte reasons: far beyond 4096 bytes.
  std::string reason;
  for (int i = 0; i < 100; ++i) reason += "±x ";
  for (int i = 0; i < 500; ++i) o.gpus[0].results.push_back(result(kFma, Outcome::fail, reason));
  for (std::size_t limit : {4096u, 300u}) {
    const std::string m = termination_message(o, limit);
    EXPECT_LE(m.size(), limit);
    EXPECT_NE(m.find(" more (summary.json)\n"), std::string::npos) << m;
    // Cut at character boundaries: no lone UTF-8 continuation byte before a cut.
    EXPECT_EQ(m.find("\xC2..."), std::string::npos);
    EXPECT_EQ(m.find("\xC2\n"), std::string::npos);
  }
}

TEST(PrometheusTextfile, HasTheRunAndProbeSeries) {
  const std::string t = prometheus_textfile(sample_outcome());
  EXPECT_NE(t.find("gpuconform_run_exit_code 1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_run_timestamp_seconds 1795661232\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_run_duration_seconds 12.500\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_tests{verdict=\"fail\"} 1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_probe_verdict{gpu_uuid=\"GPU-bbbbbbbb-1111\",probe=\"latency.alu.fma.rn.f32\","
                   "group=\"latency.alu\"} 2\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("gpuconform_probe_verdict{gpu_uuid=\"GPU-aaaaaaaa-0000\",probe=\"numeric.mma_sync.f32.f16\","
                   "group=\"numeric.mma_sync\"} 3\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("gpuconform_gpu_open_failed{gpu_index=\"2\"} 1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("# TYPE gpuconform_probe_verdict gauge\n"), std::string::npos) << t;
}

TEST(PrometheusTextfile, RepeatedProbeIsOneSeriesWithItsWorstVerdict) {
  RunOutcome o = sample_outcome();
  o.gpus[0].results.push_back(result(kFma, Outcome::fail, "second run failed"));
  const std::string t = prometheus_textfile(o);
  const std::string series = "gpuconform_probe_verdict{gpu_uuid=\"GPU-aaaaaaaa-0000\",probe=\"latency.alu.fma.rn.f32\"";
  const std::size_t first = t.find(series);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(t.find(series, first + 1), std::string::npos) << t;
  EXPECT_NE(t.find(series + ",group=\"latency.alu\"} 2\n"), std::string::npos) << t;
}

TEST(PrometheusTextfile, EscapesLabelValues) {
  EXPECT_EQ(prometheus_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

// Every line is a comment or `name{labels} value` of the text format; the file also goes
// to promtool (tests/prom_check.sh sets GPUCONFORM_PROM_SAMPLE to where it reads it).
TEST(PrometheusTextfile, WritesTheSampleForPromtool) {
  const char* env = std::getenv("GPUCONFORM_PROM_SAMPLE");
  const std::string out = env ? env : (fs::temp_directory_path() / ("gpuconform_sample_" + std::to_string(::getpid()) + ".prom")).string();
  write_file_atomically(out, prometheus_textfile(sample_outcome()));
  std::ifstream in(out);
  const std::regex sample(R"re(^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? -?[0-9.e+]+$)re");
  const std::regex comment(R"(^# (HELP|TYPE) gpuconform_[a-z_]+ .+$)");
  int samples = 0;
  for (std::string line; std::getline(in, line);) {
    const bool ok = std::regex_match(line, comment) || std::regex_match(line, sample);
    EXPECT_TRUE(ok) << line;
    samples += line[0] != '#';
  }
  EXPECT_GT(samples, 20);
  if (!env) fs::remove(out);
}

// A run that could not start (exit 2) says why everywhere a verdict goes: summary.json's
// "error" (code, severity, message, next step), line 2 of the termination log and the
// Prometheus info metric, so a health framework does not drain a node on "0 pass, 0 fail".
RunOutcome unusable_outcome() {
  RunOutcome o;
  o.run = {"20261126T140000Z-node17", "node17", "2026-11-26T14:00:00Z", {"gpuconform", "run"}};
  o.started = std::chrono::system_clock::from_time_t(1795701600);
  o.finished = o.started + std::chrono::milliseconds(300);
  o.exit_code = 2;
  o.error = RunError{"driver_too_old", "no usable CUDA device (the driver supports CUDA 12.4, this build's runtime needs 13.0)"};
  return o;
}

TEST(RunError, SummaryCarriesTheCodeSeverityAndNextStep) {
  const nlohmann::json s = run_summary_json(unusable_outcome());
  EXPECT_EQ(s["result"], "unusable");
  ASSERT_TRUE(s.contains("error"));
  EXPECT_EQ(s["error"]["code"], "driver_too_old");
  EXPECT_EQ(s["error"]["severity"], "node");
  EXPECT_NE(s["error"]["message"].get<std::string>().find("needs 13.0"), std::string::npos);
  EXPECT_NE(s["error"]["next_step"].get<std::string>().find("R580"), std::string::npos);
  EXPECT_FALSE(run_summary_json(sample_outcome()).contains("error")) << "a run that ran has no error";
}

TEST(RunError, TerminationLogSaysItOnLineTwo) {
  const std::string t = termination_message(unusable_outcome());
  const std::size_t eol = t.find('\n');
  ASSERT_NE(eol, std::string::npos);
  EXPECT_EQ(t.substr(0, 21), "gpuconform unusable (");
  EXPECT_EQ(t.substr(eol + 1, 29), "error driver_too_old (node): ") << t;
}

TEST(RunError, PrometheusHasTheErrorInfoSeries) {
  const std::string t = prometheus_textfile(unusable_outcome());
  EXPECT_NE(t.find("gpuconform_run_error_info{code=\"driver_too_old\",severity=\"node\"} 1\n"), std::string::npos) << t;
  EXPECT_EQ(prometheus_textfile(sample_outcome()).find("gpuconform_run_error_info"), std::string::npos);
}

TEST(RunError, EveryCodeHasASeverityAndANextStepAndAnUnknownOneIsABug) {
  ASSERT_GE(run_error_codes().size(), 6u);
  for (const RunErrorClass& c : run_error_codes()) {
    EXPECT_TRUE(std::string(c.severity) == "node" || std::string(c.severity) == "invocation") << c.code;
    EXPECT_GT(std::string(c.next_step).size(), 10u) << c.code;
    EXPECT_EQ(&run_error_class(c.code), &c);
  }
  EXPECT_THROW(run_error_class("gpu_on_fire"), std::logic_error);
}

TEST(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path dir = fs::temp_directory_path() / ("gpuconform_atomic_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "gpuconform.prom").string();
  write_file_atomically(path, "old\n");
  write_file_atomically(path, "new\n");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "new\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  EXPECT_THROW(write_file_atomically((dir / "missing" / "x.prom").string(), "x"), std::runtime_error);
  fs::remove_all(dir);
}

TEST(RunHeader, IdIsASafeFileNameAndTheLineCarriesTheRun) {
  EXPECT_EQ(make_run_id("20261125T024700Z", "node17.cluster"), "20261125T024700Z-node17.cluster");
  EXPECT_EQ(make_run_id("20261125T024700Z", "a/b c"), "20261125T024700Z-a_b_c");
  EXPECT_EQ(make_run_id("20261125T024700Z", ""), "20261125T024700Z-host");
  EXPECT_EQ(make_run_id("20261125T024700Z", ".."), "20261125T024700Z-host..");
  const nlohmann::json h = run_header_json(sample_outcome().run, {"580.159.04", 13000, 13000});
  EXPECT_EQ(h["record"], "header");
  EXPECT_EQ(h["run_id"], "20261125T024700Z-node17");
  EXPECT_EQ(h["driver"], "580.159.04");
  EXPECT_EQ(h["command_line"], (nlohmann::json{"gpuconform", "run"}));
  EXPECT_FALSE(own_command_line().empty());
  EXPECT_EQ(compact_utc_timestamp().size(), 16u);
}

// Readers skip the header: a record with one still gives its test lines, at their line numbers.
TEST(RunHeader, ReadersSkipItAndKeepLineNumbers) {
  const std::string header = run_header_json(sample_outcome().run, {}).dump();
  const std::string test_line =
      R"({"schema_version":2,"record":"test","probe":"latency.alu.fma.rn.f32","verdict":"pass","reason":"",)"
      R"("measured":{"value":4.0,"unit":"cycles"},"device":{"arch":"sm_90","uuid":"GPU-a"}})";
  const auto runs = parse_run_record_text(header + "\n" + test_line + "\n", "mem.jsonl");
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].line, 2);
  const fs::path file = fs::temp_directory_path() / ("gpuconform_header_" + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(file) << header << "\n" << test_line << "\n";
  EXPECT_EQ(run_record_line_problem(file.string(), 2, "latency.alu.fma.rn.f32"), "");
  EXPECT_EQ(run_record_line_problem(file.string(), 1, "latency.alu.fma.rn.f32"), "line 1 is a 'header' record, not a test");
  fs::remove(file);
}

}  // namespace
}  // namespace gpuconform
