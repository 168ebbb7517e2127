// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/prometheus_textfile.hpp"

#include <fmt/format.h>

#include <chrono>
#include <map>

#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

// The value gpuconform_probe_verdict takes for each verdict.
int verdict_code(Outcome o) {
  switch (o) {
    case Outcome::pass: return 0;
    case Outcome::warn: return 1;
    case Outcome::fail: return 2;
    case Outcome::skip: return 3;
  }
  return 2;
}

// Which of two verdicts of one probe the textfile keeps: the worse one.
int severity(Outcome o) { return o == Outcome::fail ? 3 : o == Outcome::warn ? 2 : o == Outcome::pass ? 1 : 0; }

void family(std::string& out, const char* name, const char* type, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

}  // namespace

std::string prometheus_label_value(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string prometheus_textfile(const RunOutcome& o) {
  const auto label = prometheus_label_value;
  const nlohmann::json summary = run_summary_json(o);
  std::string out;
  family(out, "gpuconform_run_info", "gauge", "Identity of the last gpuconform run (value 1).");
  out += fmt::format("gpuconform_run_info{{run_id=\"{}\",host=\"{}\",version=\"{}\",suite_commit=\"{}\"}} 1\n",
                     label(o.run.run_id), label(o.run.host), label(suite_version()), label(suite_git_commit()));
  family(out, "gpuconform_run_timestamp_seconds", "gauge", "Unix time the last gpuconform run finished.");
  out += fmt::format("gpuconform_run_timestamp_seconds {}\n",
                     std::chrono::duration_cast<std::chrono::seconds>(o.finished.time_since_epoch()).count());
  family(out, "gpuconform_run_duration_seconds", "gauge", "Wall time of the last gpuconform run.");
  out += fmt::format("gpuconform_run_duration_seconds {:.3f}\n", summary.at("wall_seconds").get<double>());
  family(out, "gpuconform_run_exit_code", "gauge",
         "Exit code of the last gpuconform run: 0 ok, 1 failed, 2 could not run, 77 nothing judged.");
  out += fmt::format("gpuconform_run_exit_code {}\n", o.exit_code);
  if (o.error) {
    family(out, "gpuconform_run_error_info", "gauge",
           "Why the last gpuconform run could not run (exit 2): its error code and severity (value 1).");
    const RunErrorClass& c = run_error_class(o.error->code);
    out += fmt::format("gpuconform_run_error_info{{code=\"{}\",severity=\"{}\"}} 1\n", c.code, c.severity);
  }
  family(out, "gpuconform_tests", "gauge", "Tests of the last gpuconform run per verdict, all GPUs.");
  for (const auto& [verdict, n] : summary.at("totals").items())
    out += fmt::format("gpuconform_tests{{verdict=\"{}\"}} {}\n", verdict, n.get<int>());
  family(out, "gpuconform_gpu_tests", "gauge", "Tests of the last gpuconform run per GPU and verdict.");
  for (const GpuRun& g : o.gpus) {
    if (!g.device) continue;
    const nlohmann::json& gpu = summary.at("gpus").at(&g - o.gpus.data());
    for (const auto& [verdict, n] : gpu.at("counts").items())
      out += fmt::format("gpuconform_gpu_tests{{gpu_uuid=\"{}\",gpu_index=\"{}\",verdict=\"{}\"}} {}\n",
                         label(g.device->uuid), g.index, verdict, n.get<int>());
  }
  family(out, "gpuconform_gpu_open_failed", "gauge", "1 for a GPU the last gpuconform run could not open.");
  for (const GpuRun& g : o.gpus)
    out += fmt::format("gpuconform_gpu_open_failed{{gpu_index=\"{}\"}} {}\n", g.index, g.open_error.empty() ? 0 : 1);
  family(out, "gpuconform_probe_verdict", "gauge",
         "Verdict of each probe on each GPU in the last gpuconform run: 0 pass, 1 warn, 2 fail, 3 skip.");
  for (const GpuRun& g : o.gpus) {
    if (!g.device) continue;
    // A probe judged twice on one GPU (a repeated run level) is one series: its worst verdict.
    std::map<std::string, Outcome> worst;
    for (const TestResult& r : g.results) {
      const std::string id = r.probe ? r.probe->id : std::string("(unknown probe)");
      auto [it, added] = worst.try_emplace(id, r.verdict.outcome);
      if (!added && severity(r.verdict.outcome) > severity(it->second)) it->second = r.verdict.outcome;
    }
    for (const auto& [id, verdict] : worst)
      out += fmt::format("gpuconform_probe_verdict{{gpu_uuid=\"{}\",probe=\"{}\",group=\"{}\"}} {}\n",
                         label(g.device->uuid), label(id), label(probe_group(id)), verdict_code(verdict));
  }
  return out;
}

}  // namespace gpuconform
