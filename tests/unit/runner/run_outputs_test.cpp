// SPDX-License-Identifier: Apache-2.0
// The machine-readable outputs of a run (summary.json, the termination message, the
// Prometheus textfile, the record header) from made-up results: no GPU needed.
#include <gtest/gtest.h>

#include <stdexcept>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/prometheus_textfile.hpp"
#include "gpuconform/run_header.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/run_summary.hpp"
#include "json_schema_check.hpp"

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
  EXPECT_EQ(exit_meaning(3), "busy");
  EXPECT_EQ(exit_meaning(4), "exit 4");
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
  EXPECT_NE(t.find("gpuconform_last_run_timestamp_seconds 1795661232\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_run_duration_seconds 12.500\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_tests{verdict=\"fail\"} 1\n"), std::string::npos) << t;
  // dcgm-exporter's labels; fail (3) worst, then warn (2), skip (1), pass (0).
  const std::string gpu1 =
      "UUID=\"GPU-bbbbbbbb-1111\",gpu=\"1\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node17\"";
  const std::string gpu0 =
      "UUID=\"GPU-aaaaaaaa-0000\",gpu=\"0\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"node17\"";
  EXPECT_NE(t.find("gpuconform_probe_verdict{" + gpu1 + ",probe=\"latency.alu.fma.rn.f32\",group=\"latency.alu\"} 3\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("gpuconform_probe_verdict{" + gpu1 + ",probe=\"throughput.hbm.read\",group=\"throughput.hbm\"} 2\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("gpuconform_probe_verdict{" + gpu0 +
                   ",probe=\"numeric.mma_sync.f32.f16\",group=\"numeric.mma_sync\"} 1\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("gpuconform_gpu_tests{" + gpu1 + ",verdict=\"fail\"} 1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_gpu_open_failed{gpu=\"2\",Hostname=\"node17\"} 1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_run_result{result=\"failed\"} 1\n"), std::string::npos) << t;
  EXPECT_NE(t.find("gpuconform_run_result{result=\"ok\"} 0\n"), std::string::npos) << t;
  EXPECT_NE(t.find("# TYPE gpuconform_probe_verdict gauge\n"), std::string::npos) << t;
}

TEST(PrometheusTextfile, RepeatedProbeIsOneSeriesWithItsWorstVerdict) {
  RunOutcome o = sample_outcome();
  o.gpus[0].results.push_back(result(kFma, Outcome::fail, "second run failed"));
  const std::string t = prometheus_textfile(o);
  const std::string series =
      "gpuconform_probe_verdict{UUID=\"GPU-aaaaaaaa-0000\",gpu=\"0\",modelName=\"NVIDIA H100 "
      "80GB HBM3\",Hostname=\"node17\",probe=\"latency.alu.fma.rn.f32\"";
  const std::size_t first = t.find(series);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(t.find(series, first + 1), std::string::npos) << t;
  EXPECT_NE(t.find(series + ",group=\"latency.alu\"} 3\n"), std::string::npos) << t;
}

// Nothing that changes from run to run is a label value (a new series every run is what
// node_exporter's and dcgm-exporter's guides forbid): two runs of one node give the same
// series, only their values differ.
TEST(PrometheusTextfile, NoLabelValueChangesFromRunToRun) {
  RunOutcome a = sample_outcome(), b = sample_outcome();
  b.run.run_id = "20261126T010101Z-node17";
  b.started += std::chrono::hours(25);
  b.finished += std::chrono::hours(25);
  auto series = [](const std::string& text) {
    std::vector<std::string> names;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (!line.empty() && line[0] != '#') names.push_back(line.substr(0, line.rfind(' ')));
    return names;
  };
  EXPECT_EQ(series(prometheus_textfile(a)), series(prometheus_textfile(b)));
  EXPECT_EQ(prometheus_textfile(b).find("run_id"), std::string::npos);
  EXPECT_EQ(prometheus_textfile(b).find("20261126T010101Z"), std::string::npos);
}

// gpuconform_last_success_timestamp_seconds: this run's finish when it exited 0, else the
// value of the textfile it replaces (0 when there was none), read back from that file.
TEST(PrometheusTextfile, LastSuccessIsCarriedOverFromThePreviousFile) {
  RunOutcome ok = sample_outcome();
  ok.exit_code = 0;
  const std::string first = prometheus_textfile(ok);
  EXPECT_NE(first.find("gpuconform_last_success_timestamp_seconds 1795661232\n"), std::string::npos) << first;
  const fs::path file = fs::temp_directory_path() / ("gpuconform_last_success_" + std::to_string(::getpid()) + ".prom");
  write_file_atomically(file.string(), first);
  ASSERT_EQ(read_last_success(file.string()), std::optional<long long>(1795661232));
  RunOutcome failed = sample_outcome();
  failed.finished += std::chrono::hours(1);
  const std::string second = prometheus_textfile(failed, read_last_success(file.string()));
  EXPECT_NE(second.find("gpuconform_last_success_timestamp_seconds 1795661232\n"), std::string::npos) << second;
  EXPECT_NE(second.find("gpuconform_last_run_timestamp_seconds 1795664832\n"), std::string::npos) << second;
  EXPECT_NE(prometheus_textfile(failed).find("gpuconform_last_success_timestamp_seconds 0\n"), std::string::npos);
  fs::remove(file);
  EXPECT_EQ(read_last_success(file.string()), std::nullopt);
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
    const std::string severity = c.severity;
    EXPECT_TRUE(severity == "node" || severity == "invocation" || severity == "busy") << c.code;
    EXPECT_EQ(run_error_exit_code(c.code), severity == "busy" ? 3 : 2) << c.code;
    EXPECT_GT(std::string(c.next_step).size(), 10u) << c.code;
    EXPECT_EQ(&run_error_class(c.code), &c);
  }
  EXPECT_THROW(run_error_class("gpu_on_fire"), std::logic_error);
}

// A busy GPU (gpu_busy.hpp) is exit 3, "busy", with its own severity: a health check
// skips on it, where exit 2 (node severity) may drain.
TEST(RunError, GpuBusyIsExitThreeEverywhere) {
  RunOutcome o = unusable_outcome();
  o.exit_code = run_error_exit_code("gpu_busy");
  o.error = RunError{"gpu_busy", "GPU in use by others: GPU 0 (GPU-fake): 1 other compute process(es): pid 4242"};
  EXPECT_EQ(o.exit_code, 3);
  const nlohmann::json s = run_summary_json(o);
  EXPECT_EQ(s["result"], "busy");
  EXPECT_EQ(s["error"]["code"], "gpu_busy");
  EXPECT_EQ(s["error"]["severity"], "busy");
  const std::string t = termination_message(o);
  EXPECT_EQ(t.rfind("gpuconform busy (exit 3)", 0), 0u) << t;
  EXPECT_NE(t.find("\nerror gpu_busy (busy): GPU in use by others"), std::string::npos) << t;
  const std::string p = prometheus_textfile(o);
  EXPECT_NE(p.find("gpuconform_run_error_info{code=\"gpu_busy\",severity=\"busy\"} 1\n"), std::string::npos) << p;
  EXPECT_EQ(run_error_exit_code("no_gpu"), 2);
}

// run --timeout: the results the deadline left unrun carry the code run_timeout, a probe
// past its own limit probe_timeout, any other failure probe_failed; summary.json's
// "timeout" says whether it expired and how much did not run, as does the first line of
// the termination log.
TEST(RunTimeout, CodesAndTheTimeoutObject) {
  const std::string skipped = std::string(kRunTimeoutPrefix) + "not run: the run's deadline (--timeout) expired";
  RunOutcome o = sample_outcome();
  o.gpus = {
      gpu(0, "GPU-aaaa",
          {result(kFma, Outcome::pass), result(kHbm, Outcome::skip, skipped), result(kMma, Outcome::skip, skipped)}),
      gpu(1, "GPU-bbbb",
          {result(kFma, Outcome::fail, "timed out after 60 s; the worker ..."),
           result(kHbm, Outcome::fail, "measured 0.5, expected >= 0.9"),
           result(kMma, Outcome::skip, "no expectation for this GPU")})};
  o.timeout_s = 25;
  const nlohmann::json s = run_summary_json(o);
  std::map<std::string, std::string> codes;
  for (const auto& n : s["non_pass"])
    codes[std::to_string(n["gpu_index"].get<int>()) + " " + n["probe"].get<std::string>()] = n.value("code", "");
  EXPECT_EQ(codes["0 throughput.hbm.read"], "run_timeout");
  EXPECT_EQ(codes["0 numeric.mma_sync.f32.f16"], "run_timeout");
  EXPECT_EQ(codes["1 latency.alu.fma.rn.f32"], "probe_timeout");
  EXPECT_EQ(codes["1 throughput.hbm.read"], "probe_failed");
  EXPECT_EQ(codes["1 numeric.mma_sync.f32.f16"], "") << "an ordinary skip has no code";
  EXPECT_EQ(s["timeout"], (nlohmann::json{{"seconds", 25.0}, {"expired", true}, {"not_run", 2}}));
  const std::string t = termination_message(o);
  EXPECT_NE(t.substr(0, t.find('\n')).find(", 2 not run (--timeout 25 s expired)"), std::string::npos) << t;
  o.timeout_s.reset();
  EXPECT_FALSE(run_summary_json(o).contains("timeout"));
}

// The new fields (a busy run's error, the timeout object, the result codes) are in the
// summary's schema, and a wrong value is caught.
TEST(RunTimeout, BusyAndTimeoutSummariesFollowTheSchema) {
  const test::SchemaCheck schema =
      test::SchemaCheck::from_file(std::string(GPUCONFORM_TEST_SCHEMA_DIR) + "/summary.schema.json");
  RunOutcome busy = unusable_outcome();
  busy.exit_code = 3;
  busy.error = RunError{"gpu_busy", "GPU in use by others: GPU 0: compute mode EXCLUSIVE_PROCESS"};
  nlohmann::json s = run_summary_json(busy);
  EXPECT_TRUE(schema.errors(s).empty()) << s.dump(2);
  RunOutcome timed = sample_outcome();
  timed.gpus[0].results.push_back(
      result(kMma, Outcome::skip, std::string(kRunTimeoutPrefix) + "not run: the run's deadline expired"));
  timed.timeout_s = 25;
  s = run_summary_json(timed);
  EXPECT_TRUE(schema.errors(s).empty()) << s.dump(2);
  s["non_pass"][0]["code"] = "probe_exploded";
  EXPECT_FALSE(schema.errors(s).empty());
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
