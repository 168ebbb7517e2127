// SPDX-License-Identifier: Apache-2.0
// The process layer of the runner: starts workers, enforces time limits,
// replaces workers that hung, died or lost their CUDA context.
#include <fmt/format.h>

#include <algorithm>
#include <deque>

#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

using Clock = WorkerProcess::Clock;

Clock::time_point after(double seconds) {
  seconds = std::min(seconds, 1e8);  // a limit of years is no limit; keeps the clock arithmetic finite
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string seconds_text(double s) { return fmt::format("{:g}", s); }

bool deadline_passed(const ProbeSupervision& hooks) {
  return hooks.run_deadline && Clock::now() >= *hooks.run_deadline;
}

// The earlier of `t` and the run's deadline.
Clock::time_point bounded(Clock::time_point t, const ProbeSupervision& hooks) {
  return hooks.run_deadline ? std::min(t, *hooks.run_deadline) : t;
}

void report_skipped(const ProbeSupervision& hooks, const std::string& probe, const std::string& why, double seconds) {
  const std::string reason = kRunTimeoutPrefix + why;
  if (hooks.skipped)
    hooks.skipped(probe, reason, seconds);
  else
    hooks.failed(probe, reason, seconds);
}

// Every pending probe skipped: the run's deadline expired before it started.
void skip_pending(std::deque<std::string>& pending, const ProbeSupervision& hooks) {
  for (const std::string& id : pending)
    report_skipped(hooks, id, "not run: the run's deadline (--timeout) expired before it started", 0);
  pending.clear();
}

// One worker's life: runs the front of `pending` until it ends. Returns false
// when no further worker should be started (every remaining probe has failed).
// `earlier`: the pids of this GPU's earlier workers. A killed worker's context can
// outlive its process for a moment, and NVML then still lists it: the new worker is
// told those pids are the suite's own, not another process disturbing its timings.
bool run_one_worker(const WorkerCommand& command, const std::vector<std::string>& args,
                    std::deque<std::string>& pending, const ProbeSupervision& hooks, std::vector<pid_t>& earlier) {
  std::vector<std::string> worker_args = args;
  for (pid_t pid : earlier) {
    worker_args.push_back("--own-pid");
    worker_args.push_back(std::to_string(pid));
  }
  for (const std::string& id : pending) {
    worker_args.push_back("--probe");
    worker_args.push_back(id);
  }
  auto fail_all = [&](const std::string& reason) {
    for (const std::string& id : pending) hooks.failed(id, reason, 0);
    pending.clear();
  };
  std::optional<WorkerProcess> worker;
  try {
    worker.emplace(command, worker_args);
  } catch (const std::exception& err) {
    fail_all(fmt::format("not run: {}", err.what()));
    return false;
  }
  earlier.push_back(worker->pid());
  std::optional<std::string> current;  // the probe running now
  Clock::time_point started{};
  double limit = hooks.start_limit_s;
  Clock::time_point deadline = bounded(after(limit), hooks);
  bool started_any = false;
  for (;;) {
    WorkerEvent event;
    WorkerProcess::Read read;
    try {
      read = worker->next(deadline, event);
    } catch (const std::exception& err) {  // a malformed line: the worker is not to be trusted
      worker->kill();
      const std::string how = worker->wait();
      if (current) {
        hooks.failed(*current, fmt::format("the worker process broke the protocol ({}) and {}", err.what(), how),
                     since(started));
        pending.erase(std::find(pending.begin(), pending.end(), *current));
        return true;
      }
      fail_all(fmt::format("not run: the worker process broke the protocol ({}) and {}", err.what(), how));
      return false;
    }
    if (read == WorkerProcess::Read::timeout) {
      worker->kill();
      worker->wait();
      if (deadline_passed(hooks) && !(current && since(started) >= limit)) {
        // The run's deadline, not the probe's own limit: the running probe is stopped
        // and skipped with the rest.
        if (current) {
          report_skipped(hooks, *current,
                         fmt::format("stopped after {:.1f} s: the run's deadline (--timeout) expired while it ran",
                                     since(started)),
                         since(started));
          pending.erase(std::find(pending.begin(), pending.end(), *current));
        }
        skip_pending(pending, hooks);
        return false;
      }
      if (current) {
        hooks.failed(*current,
                     fmt::format("timed out after {} s; the worker process was killed and the remaining probes "
                                 "run in a fresh one (raise the limit with {})",
                                 seconds_text(limit), hooks.raise_limit_with),
                     since(started));
        pending.erase(std::find(pending.begin(), pending.end(), *current));
        return true;
      }
      if (pending.empty()) return false;  // it hung while exiting after its last probe: nothing lost
      if (started_any) return true;       // it hung between probes: a fresh worker takes the rest
      fail_all(fmt::format("not run: the worker process did not start a probe within {} s", seconds_text(limit)));
      return false;
    }
    if (read == WorkerProcess::Read::closed) {
      const std::string how = worker->wait();
      if (current) {
        hooks.failed(*current, fmt::format("the worker process running it {}", how), since(started));
        pending.erase(std::find(pending.begin(), pending.end(), *current));
        return true;
      }
      if (!started_any && !pending.empty()) {
        fail_all(fmt::format("not run: the worker process {} before starting a probe", how));
        return false;
      }
      return true;  // it lost its context after a finished probe, or it is done
    }
    switch (event.kind) {
      case WorkerEventKind::starting:
        if (pending.empty() || std::find(pending.begin(), pending.end(), event.probe) == pending.end()) {
          worker->kill();
          fail_all(fmt::format("not run: the worker process started a probe it was not given ({})", event.probe));
          return false;
        }
        current = event.probe;
        started_any = true;
        started = Clock::now();
        limit = hooks.time_limit(event.probe);
        deadline = bounded(after(limit), hooks);
        if (hooks.started) hooks.started(event.probe);
        break;
      case WorkerEventKind::finished: {
        const auto it = std::find(pending.begin(), pending.end(), event.probe);
        if (it == pending.end()) break;  // a duplicate: the first verdict stands
        pending.erase(it);
        hooks.finished(event.probe, event.record);
        current.reset();
        limit = hooks.start_limit_s;
        deadline = bounded(after(limit), hooks);
        break;
      }
      case WorkerEventKind::fatal:
      case WorkerEventKind::device_error:
        worker->kill();
        worker->wait();
        if (current) {
          hooks.failed(*current, event.error, since(started));
          pending.erase(std::find(pending.begin(), pending.end(), *current));
        }
        fail_all(fmt::format("not run: {}", event.error));
        return false;
      case WorkerEventKind::device:
      case WorkerEventKind::done: break;
    }
  }
}

}  // namespace

void supervise_probes(const WorkerCommand& command, const std::vector<std::string>& args,
                      const std::vector<std::string>& probes, const ProbeSupervision& hooks) {
  std::deque<std::string> pending(probes.begin(), probes.end());
  std::vector<pid_t> earlier;
  while (!pending.empty()) {
    if (deadline_passed(hooks)) {
      skip_pending(pending, hooks);
      break;
    }
    if (!run_one_worker(command, args, pending, hooks, earlier)) break;
  }
}

std::optional<DeviceInfo> describe_device(const WorkerCommand& command, const std::vector<std::string>& args,
                                          std::string& error, double limit_s) {
  std::vector<std::string> worker_args = args;
  worker_args.push_back("--describe");
  try {
    WorkerProcess worker(command, worker_args);
    const auto deadline = after(limit_s);
    for (;;) {
      WorkerEvent event;
      const WorkerProcess::Read read = worker.next(deadline, event);
      if (read == WorkerProcess::Read::timeout) {
        worker.kill();
        worker.wait();
        error = fmt::format("opening the GPU did not finish within {} s", seconds_text(limit_s));
        return std::nullopt;
      }
      if (read == WorkerProcess::Read::closed) {
        error = fmt::format("the worker process opening the GPU {} without reporting it", worker.wait());
        return std::nullopt;
      }
      if (event.kind == WorkerEventKind::device) {
        worker.wait();
        return event.device;
      }
      if (event.kind == WorkerEventKind::device_error || event.kind == WorkerEventKind::fatal) {
        worker.wait();
        error = event.error;
        return std::nullopt;
      }
    }
  } catch (const std::exception& err) {
    error = err.what();
    return std::nullopt;
  }
}

}  // namespace gpuconform
