// SPDX-License-Identifier: Apache-2.0
// One GPU's run: open it in a worker, snapshot its state, run the probes
// through supervised workers, write every verdict as soon as it exists.
#include "gpuconform/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "gpuconform/gpu_state.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_schema.hpp"

namespace gpuconform {
namespace {

// The parent's view of a worker's record line: enough for the summary table
// and JUnit (the line goes to the run record as the worker wrote it, plus the
// run's level and, at --level long, which run it was).
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
    // JSON has no NaN or infinity: a record writes a non-finite value (a numeric probe's
    // "NaN where a number was due", infinity) as null; read it back as NaN, never throw.
    const auto v = m->find("value");
    measured.value = v != m->end() && v->is_number() ? v->get<double>() : std::numeric_limits<double>::quiet_NaN();
    measured.unit = m->value("unit", std::string());
    if (m->contains("peak") && (*m)["peak"].is_number()) measured.peak = (*m)["peak"].get<double>();
    measured.compared = m->value("compared", std::uint64_t{0});
    r.measurement = measured;
  }
  if (probe)
    if (const Expectation* e = expectations.find(probe->id)) r.expectation = *e;
  return r;
}

// Every GPU's thread appends here. append_record_line writes a line with one write(2)
// on O_APPEND already; the lock makes "never two half lines" independent of the file
// system's append semantics.
std::mutex record_mutex;

void append(const RunnerConfig& config, const nlohmann::json& line) {
  if (config.record_path.empty()) return;
  std::lock_guard<std::mutex> lock(record_mutex);
  append_record_line(config.record_path, line);
}

WorkerArgs base_worker_args(int index, const RunnerConfig& config) {
  WorkerArgs base;
  base.device = index;
  base.expectations_dir = config.expectations_dir;
  base.overlays = config.overlays;
  base.quick = config.level == RunLevel::quick;
  return base;
}

// The spread of a probe's runs at --level long, for readers of the record (compare
// reads the runs themselves: one test line each).
nlohmann::json spread_line(const std::string& probe, const RepeatedResult& r, const DeviceInfo& device) {
  nlohmann::json j = {{"schema_version", kRunRecordSchemaVersion},
                      {"record", "spread"},
                      {"probe", probe},
                      {"runs", r.runs},
                      {"verdict", outcome_name(r.result.verdict.outcome)},
                      {"values", r.values},
                      {"device", {{"index", device.index}, {"uuid", device.uuid}, {"pci_bus_id", device.pci_bus_id}}},
                      {"suite", {{"version", suite_version()}, {"commit", suite_git_commit()}}},
                      {"time", utc_timestamp()}};
  if (r.result.measurement) j["unit"] = r.result.measurement->unit;
  if (r.spread)
    j["stats"] = {{"n", r.spread->n},     {"median", r.spread->median}, {"mad", r.spread->mad},
                  {"min", r.spread->min}, {"max", r.spread->max}};
  return j;
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
  for (int peer : a.peers) {
    out.push_back("--peer");
    out.push_back(std::to_string(peer));
  }
  return out;
}

OpenedGpu open_gpu(int index, const std::vector<const Probe*>& probes, const RunnerConfig& config) {
  OpenedGpu gpu;
  gpu.index = index;
  std::string error;
  double limit = kWorkerStartLimitS;
  if (config.deadline)  // a run with --timeout does not wait past it for a GPU to open
    limit = std::clamp(std::chrono::duration<double>(*config.deadline - WorkerProcess::Clock::now()).count(), 1.0,
                       kWorkerStartLimitS);
  gpu.device = describe_device(config.worker, worker_arguments(base_worker_args(index, config)), error, limit);
  if (!gpu.device) {
    gpu.open_error = fmt::format("GPU {} could not be opened: {}", index, error);
    return gpu;
  }
  // The parent loads the same files as the workers: for the level's selection, time
  // limits and the expectation of a probe the runner itself fails. Throws ExpectationError.
  gpu.expectations = load_device_expectations(*gpu.device, config.expectations_dir, config.overlays);
  gpu.probes = select_for_level(probes, gpu.expectations, *gpu.device, config.level);
  return gpu;
}

std::vector<OpenedGpu> open_gpus(const std::vector<int>& indices, const std::vector<const Probe*>& probes,
                                 const RunnerConfig& config) {
  std::vector<OpenedGpu> gpus(indices.size());
  std::vector<std::exception_ptr> errors(indices.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < indices.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        gpus[i] = open_gpu(indices[i], probes, config);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return gpus;
}

namespace {

bool per_gpu(const Probe* p) { return p->scope == Scope::gpu; }

// The probes of `gpu` whose scope `keep` accepts, in its order.
std::vector<const Probe*> probes_where(const OpenedGpu& gpu, bool (*keep)(const Probe*)) {
  std::vector<const Probe*> out;
  for (const Probe* p : gpu.probes)
    if (keep(p)) out.push_back(p);
  return out;
}

// Runs `probes` of one opened GPU (with `peers` for pair and node probes) through
// supervised workers, config.repeats passes, every verdict into the record as it
// arrives and into `run` (at --level long: merged per probe, with its spread line).
void run_probe_passes(const OpenedGpu& gpu, const std::vector<const Probe*>& probes,
                      const std::vector<DeviceInfo>& peers, const RunnerConfig& config, const GpuRunHooks& hooks,
                      GpuRun& run) {
  if (probes.empty()) return;
  const DeviceInfo& device = *gpu.device;
  const ExpectationSet& expectations = gpu.expectations;
  WorkerArgs worker = base_worker_args(gpu.index, config);
  for (const DeviceInfo& p : peers) worker.peers.push_back(p.index);
  const std::vector<std::string> args = worker_arguments(worker);
  const int passes = std::max(1, config.repeats);

  std::map<std::string, const Probe*> by_id;
  std::vector<std::string> ids;
  for (const Probe* p : probes) {
    by_id[p->id] = p;
    ids.push_back(p->id);
  }
  std::map<std::string, std::vector<TestResult>> runs_of;  // per probe, over the passes
  std::vector<TestResult> in_order;                         // the first pass's order
  int pass = 0;
  auto deliver = [&](TestResult r, nlohmann::json line) {
    r.peers = peers;
    line["level"] = level_name(config.level);
    if (passes > 1) line["repeat"] = {{"index", pass + 1}, {"of", passes}};
    append(config, line);
    if (hooks.result) hooks.result(r, pass);
    if (pass == 0) in_order.push_back(r);
    runs_of[r.probe ? r.probe->id : std::string()].push_back(std::move(r));
  };
  ProbeSupervision supervision;
  supervision.started = [&](const std::string& id) {
    if (hooks.started) hooks.started(id, pass);
  };
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
    r.peers = peers;
    if (const Expectation* e = expectations.find(id)) r.expectation = *e;
    deliver(r, record_json(r, device));
  };
  supervision.run_deadline = config.deadline;
  supervision.skipped = [&](const std::string& id, const std::string& reason, double seconds) {
    TestResult r;
    r.probe = by_id[id];
    r.verdict = {Outcome::skip, reason};
    r.seconds = seconds;
    r.peers = peers;
    if (const Expectation* e = expectations.find(id)) r.expectation = *e;
    deliver(r, record_json(r, device));
  };
  for (pass = 0; pass < passes; ++pass) supervise_probes(config.worker, args, ids, supervision);
  if (passes == 1) {
    for (TestResult& r : in_order) run.results.push_back(std::move(r));
    return;
  }
  for (const TestResult& first : in_order) {
    const std::string id = first.probe ? first.probe->id : std::string();
    RepeatedResult merged = aggregate_runs(runs_of[id]);
    merged.result.peers = peers;
    append(config, spread_line(id, merged, device));
    run.results.push_back(merged.result);
    run.repeated.push_back(std::move(merged));
  }
}

// The GPU's run record lines for a GPU that could not be opened.
void append_open_failure(const OpenedGpu& gpu, const RunnerConfig& config) {
  append(config, {{"record", "gpu_open"},
                  {"verdict", "fail"},
                  {"reason", gpu.open_error},
                  {"device", {{"index", gpu.index}}},
                  {"suite", {{"version", suite_version()}, {"commit", suite_git_commit()}}},
                  {"time", utc_timestamp()}});
}

// One GPU's own probes between its state snapshots. `with_pairs`: also its pair and
// node probes, which then meet no peer and skip saying so (a run of one GPU).
GpuRun run_gpu_phase(const OpenedGpu& gpu, const RunnerConfig& config, const GpuRunHooks& hooks, bool with_pairs) {
  GpuRun run;
  run.index = gpu.index;
  run.device = gpu.device;
  run.open_error = gpu.open_error;
  if (!gpu.device) {
    append_open_failure(gpu, config);
    return run;
  }
  // No worker of this GPU is alive here, so NVML's process list shows only what else uses it.
  append(config, gpu_state_line(*gpu.device, "before"));
  run_probe_passes(gpu, with_pairs ? gpu.probes : probes_where(gpu, per_gpu), {}, config, hooks, run);
  append(config, gpu_state_line(*gpu.device, "after"));
  return run;
}

// One GPU's view of the parallel hooks: its calls name GPU `i` (position in `gpus`).
GpuRunHooks hooks_of_gpu(const ParallelRunHooks& hooks, std::size_t i) {
  GpuRunHooks mine;
  mine.started = [&hooks, i](const std::string& probe, int pass) {
    if (hooks.started) hooks.started(i, probe, pass);
  };
  mine.result = [&hooks, i](const TestResult& r, int pass) {
    if (hooks.result) hooks.result(i, r, pass);
  };
  return mine;
}

// After every GPU's own probes, while no other probe runs: each pair probe once per
// ordered pair of opened GPUs (A's selection, peers {B}), then each node probe once on
// the first opened GPU with every other as a peer. Results join A's run.
void run_pair_phase(const std::vector<OpenedGpu>& gpus, const RunnerConfig& config, const ParallelRunHooks& hooks,
                    std::vector<GpuRun>& runs) {
  std::vector<std::size_t> opened;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    if (gpus[i].device) opened.push_back(i);
  for (std::size_t a : opened)
    for (std::size_t b : opened)
      if (a != b)
        run_probe_passes(gpus[a], probes_where(gpus[a], [](const Probe* p) { return p->scope == Scope::pair; }),
                         {*gpus[b].device}, config, hooks_of_gpu(hooks, a), runs[a]);
  if (opened.empty()) return;
  std::vector<DeviceInfo> others;
  for (std::size_t i : opened)
    if (i != opened.front()) others.push_back(*gpus[i].device);
  run_probe_passes(gpus[opened.front()],
                   probes_where(gpus[opened.front()], [](const Probe* p) { return p->scope == Scope::node; }), others,
                   config, hooks_of_gpu(hooks, opened.front()), runs[opened.front()]);
}

}  // namespace

GpuRun run_opened_gpu(const OpenedGpu& gpu, const RunnerConfig& config, const GpuRunHooks& hooks) {
  return run_gpu_phase(gpu, config, hooks, true);
}

std::vector<GpuRun> run_gpus(const std::vector<OpenedGpu>& gpus, const RunnerConfig& config,
                             const ParallelRunHooks& hooks) {
  const std::size_t opened = std::count_if(gpus.begin(), gpus.end(), [](const OpenedGpu& g) { return bool(g.device); });
  const bool pair_phase = opened >= 2;
  std::vector<GpuRun> runs(gpus.size());
  std::vector<std::exception_ptr> errors(gpus.size());
  std::mutex hook_mutex;
  ParallelRunHooks locked;  // hook calls serialised across the GPUs' threads
  locked.started = [&](std::size_t i, const std::string& probe, int pass) {
    std::lock_guard<std::mutex> lock(hook_mutex);
    if (hooks.started) hooks.started(i, probe, pass);
  };
  locked.result = [&](std::size_t i, const TestResult& r, int pass) {
    std::lock_guard<std::mutex> lock(hook_mutex);
    if (hooks.result) hooks.result(i, r, pass);
  };
  auto finished = [&](std::size_t i) {
    std::lock_guard<std::mutex> lock(hook_mutex);
    if (hooks.finished) hooks.finished(i);
  };
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    threads.emplace_back([&, i] {
      const GpuRunHooks mine = hooks_of_gpu(locked, i);
      try {
        runs[i] = run_gpu_phase(gpus[i], config, mine, !pair_phase);
      } catch (...) {  // the record could not be written: the caller says so
        errors[i] = std::current_exception();
      }
      if (!pair_phase) finished(i);
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (pair_phase) {
    run_pair_phase(gpus, config, locked, runs);
    for (std::size_t i = 0; i < gpus.size(); ++i) finished(i);
  }
  return runs;
}

GpuRun run_gpu(int index, const std::vector<const Probe*>& probes, const RunnerConfig& config,
               const GpuRunHooks& hooks) {
  return run_opened_gpu(open_gpu(index, probes, config), config, hooks);
}

}  // namespace gpuconform
