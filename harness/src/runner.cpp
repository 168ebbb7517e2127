// One GPU's run: open it in a worker, snapshot its state, run the probes
// through supervised workers, write every verdict as soon as it exists.
#include "gpuconform/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "gpuconform/gpu_state.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

// The parent's view of a worker's record line: enough for the summary table
// and JUnit (the line itself goes to the run record untouched).
TestResult result_from_record(const Probe* probe, const nlohmann::json& record, const ExpectationSet& expectations) {
  TestResult r;
  r.probe = probe;
  const std::string verdict = record.value("verdict", std::string("fail"));
  r.verdict.outcome = verdict == "pass"   ? Outcome::pass
                      : verdict == "warn" ? Outcome::warn
                      : verdict == "skip" ? Outcome::skip
                                          : Outcome::fail;
  r.verdict.reason = record.value("reason", std::string());
  r.seconds = record.value("seconds", 0.0);
  if (const auto m = record.find("measured"); m != record.end() && m->is_object()) {
    Measurement measured;
    measured.value = m->value("value", 0.0);
    measured.unit = m->value("unit", std::string());
    if (m->contains("peak") && (*m)["peak"].is_number()) measured.peak = (*m)["peak"].get<double>();
    measured.compared = m->value("compared", std::uint64_t{0});
    r.measurement = measured;
  }
  if (probe)
    if (const Expectation* e = expectations.find(probe->id)) r.expectation = *e;
  return r;
}

void append(const RunnerConfig& config, const nlohmann::json& line) {
  if (!config.record_path.empty()) append_record_line(config.record_path, line);
}

nlohmann::json gpu_state_line(const DeviceInfo& device, const char* when) {
  return {{"record", "gpu_state"},
          {"when", when},
          {"device", {{"index", device.index}, {"uuid", device.uuid}, {"pci_bus_id", device.pci_bus_id}}},
          {"state", read_gpu_state(device).to_json()},
          {"suite", {{"version", suite_version()}, {"commit", suite_git_commit()}}},
          {"time", utc_timestamp()}};
}

}  // namespace

std::vector<const Probe*> select_probes(const std::vector<std::string>& filters) {
  std::vector<const Probe*> out;
  for (const Probe& p : Registry::instance().all())
    if (is_selectable(p) && glob_match_any(filters, p.id)) out.push_back(&p);
  return out;
}

std::string selectable_probe_groups() {
  std::set<std::string> groups;
  for (const Probe& p : Registry::instance().all()) {
    if (!is_selectable(p)) continue;
    const std::size_t second_dot = p.id.find('.', p.id.find('.') + 1);
    groups.insert(p.id.substr(0, second_dot) + ".*");
  }
  std::string out;
  for (const std::string& g : groups) out += (out.empty() ? "" : ", ") + g;
  return out;
}

double probe_time_limit(const Expectation* expectation, std::optional<double> override_s) {
  if (override_s) return *override_s;
  if (expectation && expectation->seconds && *expectation->seconds > 0)
    return std::max(kTimeLimitFloorS, kTimeLimitFactor * *expectation->seconds);
  return kTimeLimitUnrecordedS;
}

WorkerCommand self_worker_command() {
  // /proc/self/exe, not the path it resolves to: exec of it runs the very binary of
  // this run even when a rebuild has replaced (or deleted) the file meanwhile.
  return WorkerCommand{"/proc/self/exe", {"worker"}};
}

std::vector<std::string> worker_arguments(const WorkerArgs& a) {
  std::vector<std::string> out = {"--report-fd", std::to_string(a.report_fd), "--device", std::to_string(a.device)};
  if (!a.expectations_dir.empty()) {
    out.push_back("--expectations");
    out.push_back(a.expectations_dir);
  }
  for (const std::string& o : a.overlays) {
    out.push_back("--overlay");
    out.push_back(o);
  }
  if (a.quick) out.push_back("--quick");
  if (a.describe) out.push_back("--describe");
  for (const std::string& p : a.probes) {
    out.push_back("--probe");
    out.push_back(p);
  }
  return out;
}

GpuRun run_gpu(int index, const std::vector<const Probe*>& probes, const RunnerConfig& config,
               const GpuRunHooks& hooks) {
  GpuRun run;
  run.index = index;
  WorkerArgs base;
  base.device = index;
  base.expectations_dir = config.expectations_dir;
  base.overlays = config.overlays;
  base.quick = config.quick;
  const std::vector<std::string> args = worker_arguments(base);

  std::string error;
  run.device = describe_device(config.worker, args, error);
  if (!run.device) {
    run.open_error = fmt::format("GPU {} could not be opened: {}", index, error);
    append(config, {{"record", "gpu_open"},
                    {"verdict", "fail"},
                    {"reason", run.open_error},
                    {"device", {{"index", index}}},
                    {"suite", {{"version", suite_version()}, {"commit", suite_git_commit()}}},
                    {"time", utc_timestamp()}});
    return run;
  }
  const DeviceInfo& device = *run.device;
  // The parent loads the same files as the workers: for time limits, the header
  // and the expectation of a probe the runner itself fails. Throws ExpectationError.
  const ExpectationSet expectations = load_device_expectations(device, config.expectations_dir, config.overlays);
  if (hooks.opened) hooks.opened(device, expectations, probes.size());

  // No worker is alive here, so NVML's process list shows only what else uses the GPU.
  append(config, gpu_state_line(device, "before"));
  std::map<std::string, const Probe*> by_id;
  std::vector<std::string> ids;
  for (const Probe* p : probes) {
    by_id[p->id] = p;
    ids.push_back(p->id);
  }
  auto deliver = [&](TestResult r, const nlohmann::json& line) {
    append(config, line);
    run.results.push_back(std::move(r));
    if (hooks.result) hooks.result(run.results.back());
  };
  ProbeSupervision supervision;
  supervision.time_limit = [&](const std::string& id) {
    return probe_time_limit(expectations.find(id), config.probe_timeout_s);
  };
  supervision.finished = [&](const std::string& id, const nlohmann::json& record) {
    deliver(result_from_record(by_id[id], record, expectations), record);
  };
  supervision.failed = [&](const std::string& id, const std::string& reason, double seconds) {
    TestResult r;
    r.probe = by_id[id];
    r.verdict = {Outcome::fail, reason};
    r.seconds = seconds;
    if (const Expectation* e = expectations.find(id)) r.expectation = *e;
    deliver(r, record_json(r, device));
  };
  supervise_probes(config.worker, args, ids, supervision);
  append(config, gpu_state_line(device, "after"));
  return run;
}

}  // namespace gpuconform
