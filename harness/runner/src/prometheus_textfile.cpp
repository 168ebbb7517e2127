// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/prometheus_textfile.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>

#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

// The value gpuconform_probe_verdict takes for each verdict: ordered from best to worst,
// so that fail is the largest (max() over a GPU's probes is its verdict) and a repeated
// probe keeps its worst run's.
int verdict_code(Outcome o) {
  switch (o) {
    case Outcome::pass: return 0;
    case Outcome::skip: return 1;
    case Outcome::warn: return 2;
    case Outcome::fail: return 3;
  }
  return 3;
}

void family(std::string& out, const char* name, const char* type, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

long long unix_seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
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

std::optional<long long> read_last_success(const std::string& path) {
  std::ifstream in(path);
  const std::string name = "gpuconform_last_success_timestamp_seconds ";
  for (std::string line; std::getline(in, line);)
    if (line.rfind(name, 0) == 0) {
      const std::string value = line.substr(name.size());
      char* end = nullptr;
      const long long t = std::strtoll(value.c_str(), &end, 10);
      if (end == value.c_str() || t <= 0) return std::nullopt;
      return t;
    }
  return std::nullopt;
}

std::string prometheus_textfile(const RunOutcome& o, std::optional<long long> previous_success) {
  const auto label = prometheus_label_value;
  const nlohmann::json summary = run_summary_json(o);
  const std::string host = label(o.run.host);
  std::string out;
  family(out, "gpuconform_run_info", "gauge", "Identity of the suite that made the last gpuconform run (value 1).");
  out += fmt::format("gpuconform_run_info{{Hostname=\"{}\",version=\"{}\",suite_commit=\"{}\"}} 1\n", host,
                     label(suite_version()), label(suite_git_commit()));
  family(out, "gpuconform_last_run_timestamp_seconds", "gauge", "Unix time the last gpuconform run finished.");
  out += fmt::format("gpuconform_last_run_timestamp_seconds {}\n", unix_seconds(o.finished));
  family(out, "gpuconform_last_success_timestamp_seconds", "gauge",
         "Unix time a gpuconform run last exited 0 (every judged test passed or warned); 0 if none has.");
  const long long success = o.exit_code == 0 ? unix_seconds(o.finished) : previous_success.value_or(0);
  out += fmt::format("gpuconform_last_success_timestamp_seconds {}\n", success);
  family(out, "gpuconform_run_duration_seconds", "gauge", "Wall time of the last gpuconform run.");
  out += fmt::format("gpuconform_run_duration_seconds {:.3f}\n", summary.at("wall_seconds").get<double>());
  family(out, "gpuconform_run_exit_code", "gauge",
         "Exit code of the last gpuconform run: 0 ok, 1 failed, 2 could not run, 3 a GPU busy, 77 nothing judged.");
  out += fmt::format("gpuconform_run_exit_code {}\n", o.exit_code);
  family(out, "gpuconform_run_result", "gauge", "1 for the result of the last gpuconform run, 0 for the others.");
  const std::string result = exit_meaning(o.exit_code);
  for (const char* r : {"ok", "failed", "unusable", "busy", "nothing_judged"})
    out += fmt::format("gpuconform_run_result{{result=\"{}\"}} {}\n", r, result == r ? 1 : 0);
  if (o.error) {
    family(out, "gpuconform_run_error_info", "gauge",
           "Why the last gpuconform run could not run (exit 2) or stopped on a busy GPU (exit 3): its error code "
           "and severity (value 1).");
    const RunErrorClass& c = run_error_class(o.error->code);
    out += fmt::format("gpuconform_run_error_info{{code=\"{}\",severity=\"{}\"}} 1\n", c.code, c.severity);
  }
  if (summary.contains("timeout")) {
    family(out, "gpuconform_run_timeout_expired", "gauge",
           "1 when the last gpuconform run's --timeout expired and left probes unrun (skipped).");
    out += fmt::format("gpuconform_run_timeout_expired {}\n", summary["timeout"].at("expired").get<bool>() ? 1 : 0);
  }
  family(out, "gpuconform_tests", "gauge", "Tests of the last gpuconform run per verdict, all GPUs.");
  for (const auto& [verdict, n] : summary.at("totals").items())
    out += fmt::format("gpuconform_tests{{verdict=\"{}\"}} {}\n", verdict, n.get<int>());
  // dcgm-exporter's label names and values: UUID, gpu (the index), modelName, Hostname.
  auto gpu_labels = [&](const GpuRun& g) {
    return fmt::format("UUID=\"{}\",gpu=\"{}\",modelName=\"{}\",Hostname=\"{}\"", label(g.device->uuid), g.index,
                       label(g.device->name), host);
  };
  family(out, "gpuconform_gpu_tests", "gauge", "Tests of the last gpuconform run per GPU and verdict.");
  for (const GpuRun& g : o.gpus) {
    if (!g.device) continue;
    const nlohmann::json& gpu = summary.at("gpus").at(&g - o.gpus.data());
    for (const auto& [verdict, n] : gpu.at("counts").items())
      out += fmt::format("gpuconform_gpu_tests{{{},verdict=\"{}\"}} {}\n", gpu_labels(g), verdict, n.get<int>());
  }
  family(out, "gpuconform_gpu_open_failed", "gauge", "1 for a GPU the last gpuconform run could not open.");
  for (const GpuRun& g : o.gpus)
    out += fmt::format("gpuconform_gpu_open_failed{{gpu=\"{}\",Hostname=\"{}\"}} {}\n", g.index, host,
                       g.open_error.empty() ? 0 : 1);
  family(out, "gpuconform_probe_verdict", "gauge",
         "Verdict of each probe on each GPU in the last gpuconform run, worst last: 0 pass, 1 skip, 2 warn, 3 fail.");
  for (const GpuRun& g : o.gpus) {
    if (!g.device) continue;
    // A probe judged twice on one GPU (a repeated run level) is one series: its worst verdict.
    std::map<std::string, int> worst;
    for (const TestResult& r : g.results) {
      const std::string id = r.probe ? r.probe->id : std::string("(unknown probe)");
      auto [it, added] = worst.try_emplace(id, verdict_code(r.verdict.outcome));
      if (!added) it->second = std::max(it->second, verdict_code(r.verdict.outcome));
    }
    for (const auto& [id, code] : worst)
      out += fmt::format("gpuconform_probe_verdict{{{},probe=\"{}\",group=\"{}\"}} {}\n", gpu_labels(g), label(id),
                         label(probe_group(id)), code);
  }
  return out;
}

}  // namespace gpuconform
