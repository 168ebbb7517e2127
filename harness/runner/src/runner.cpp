// SPDX-License-Identifier: Apache-2.0
// The run: open each GPU in a worker, snapshot its state, run the probes through
// supervised workers, hand every verdict to the listeners as soon as it exists.
#include "gpuconform/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <thread>

#include "gpuconform/gpu_state.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform {

// run_gpus hands the line itself to the run record as the worker wrote it, plus the run's
// level and, at --level long, which run it was.
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

TestResult judged_by_runner(const Probe* probe, Outcome outcome, const std::string& reason, double seconds,
                            const std::vector<DeviceInfo>& peers, const ExpectationSet& expectations) {
  TestResult r;
  r.probe = probe;
  r.verdict = {outcome, reason};
  r.seconds = seconds;
  r.peers = peers;
  if (probe)
    if (const Expectation* e = expectations.find(probe->id)) r.expectation = *e;
  return r;
}

namespace {

WorkerArgs base_worker_args(int index, const RunnerConfig& config) {
  WorkerArgs base;
  base.device = index;
  base.expectations_dir = config.expectations_dir;
  base.overlays = config.overlays;
  base.quick = config.level == RunLevel::quick;
  return base;
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
  gpu.selectable = probes.size();
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

// Runs `probes` of one opened GPU, the run's GPU number `position` (with `peers` for pair
// and node probes), through supervised workers, config.repeats passes, every verdict to
// the listeners as it arrives and into `run` (at --level long: merged per probe, with its
// spread).
void run_probe_passes(const OpenedGpu& gpu, std::size_t position, const std::vector<const Probe*>& probes,
                      const std::vector<DeviceInfo>& peers, const RunnerConfig& config, RunEvents& events,
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
    events.probe_verdict(position, r, line, pass);
    if (pass == 0) in_order.push_back(r);
    runs_of[r.probe ? r.probe->id : std::string()].push_back(std::move(r));
  };
  // A verdict the runner makes itself (timed out, the worker died, not run).
  auto judged_here = [&](const std::string& id, Outcome outcome, const std::string& reason, double seconds) {
    const TestResult r = judged_by_runner(by_id[id], outcome, reason, seconds, peers, expectations);
    deliver(r, record_json(r, device));
  };
  ProbeSupervision supervision;
  supervision.started = [&](const std::string& id) { events.probe_started(position, id, pass); };
  supervision.time_limit = [&](const std::string& id) {
    return probe_time_limit(expectations.find(id), config.probe_timeout_s);
  };
  supervision.finished = [&](const std::string& id, const nlohmann::json& record) {
    deliver(result_from_record(by_id[id], record, expectations), record);
  };
  supervision.failed = [&](const std::string& id, const std::string& reason, double seconds) {
    judged_here(id, Outcome::fail, reason, seconds);
  };
  supervision.run_deadline = config.deadline;
  supervision.skipped = [&](const std::string& id, const std::string& reason, double seconds) {
    judged_here(id, Outcome::skip, reason, seconds);
  };
  for (pass = 0; pass < passes; ++pass) supervise_probes(config.worker, args, ids, supervision);
  if (passes == 1) {
    for (TestResult& r : in_order) run.results.push_back(std::move(r));
    return;
  }
  for (const TestResult& first : in_order) {
    RepeatedResult merged = aggregate_runs(runs_of[first.probe ? first.probe->id : std::string()]);
    merged.result.peers = peers;
    events.probe_spread(position, merged, device);
    run.results.push_back(merged.result);
    run.repeated.push_back(std::move(merged));
  }
}

// One GPU's own probes between its state snapshots. `with_pairs`: also its pair and
// node probes, which then meet no peer and skip saying so (a run of one GPU).
GpuRun run_gpu_phase(const OpenedGpu& gpu, std::size_t position, const RunnerConfig& config, RunEvents& events,
                     bool with_pairs) {
  GpuRun run;
  run.index = gpu.index;
  run.device = gpu.device;
  run.open_error = gpu.open_error;
  if (!gpu.device) return run;
  // No worker of this GPU is alive here, so NVML's process list shows only what else uses it.
  events.gpu_state(position, *gpu.device, "before", read_gpu_state(*gpu.device));
  run_probe_passes(gpu, position, with_pairs ? gpu.probes : probes_where(gpu, per_gpu), {}, config, events, run);
  events.gpu_state(position, *gpu.device, "after", read_gpu_state(*gpu.device));
  return run;
}

// After every GPU's own probes, while no other probe runs: each pair probe once per
// ordered pair of opened GPUs (A's selection, peers {B}), then each node probe once on the
// first opened GPU with every other as a peer. Results join A's run.
void run_pair_phase(const std::vector<OpenedGpu>& gpus, const RunnerConfig& config, RunEvents& events,
                    std::vector<GpuRun>& runs) {
  std::vector<std::size_t> opened;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    if (gpus[i].device) opened.push_back(i);
  for (std::size_t a : opened)
    for (std::size_t b : opened)
      if (a != b)
        run_probe_passes(gpus[a], a, probes_where(gpus[a], [](const Probe* p) { return p->scope == Scope::pair; }),
                         {*gpus[b].device}, config, events, runs[a]);
  if (opened.empty()) return;
  const std::size_t first = opened.front();
  std::vector<DeviceInfo> others;
  for (std::size_t i : opened)
    if (i != first) others.push_back(*gpus[i].device);
  run_probe_passes(gpus[first], first,
                   probes_where(gpus[first], [](const Probe* p) { return p->scope == Scope::node; }), others, config,
                   events, runs[first]);
}

}  // namespace

std::vector<GpuRun> run_gpus(const std::vector<OpenedGpu>& gpus, const RunnerConfig& config, RunEvents& events) {
  events.gpus_opened(gpus, config.level, std::max(1, config.repeats));
  const std::size_t opened = std::count_if(gpus.begin(), gpus.end(), [](const OpenedGpu& g) { return bool(g.device); });
  const bool pair_phase = opened >= 2;
  std::vector<GpuRun> runs(gpus.size());
  std::vector<std::exception_ptr> errors(gpus.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < gpus.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        runs[i] = run_gpu_phase(gpus[i], i, config, events, !pair_phase);
        if (!pair_phase) events.gpu_finished(i);
      } catch (...) {  // a listener failed (the record could not be written): the caller says so
        errors[i] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (pair_phase) {
    run_pair_phase(gpus, config, events, runs);
    for (std::size_t i = 0; i < gpus.size(); ++i) events.gpu_finished(i);
  }
  return runs;
}

}  // namespace gpuconform
