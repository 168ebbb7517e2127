// SPDX-License-Identifier: Apache-2.0
#pragma once
// One worker process: spawned with posix_spawn (never fork: the parent may
// have initialised CUDA, and a forked CUDA process is unusable), in a process
// group of its own so a hung one and anything it started can be killed at
// once, reporting events on a pipe (runner_protocol.hpp).
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "gpuconform/runner_protocol.hpp"

namespace gpuconform {

// The program a worker runs: `exe args... <per-run args>`. The CLI uses
// itself: {"/proc/self/exe" resolved, {"worker"}}; tests use a fake worker.
struct WorkerCommand {
  std::string exe;
  std::vector<std::string> args;
};

class WorkerProcess {
 public:
  using Clock = std::chrono::steady_clock;
  // The descriptor number the worker finds its report pipe on; pass
  // `--report-fd` with it.
  static constexpr int kReportFd = 3;

  // Starts `command` plus `args`. Throws std::runtime_error when it cannot.
  WorkerProcess(const WorkerCommand& command, const std::vector<std::string>& args);
  ~WorkerProcess();  // kills and reaps a worker still running
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  enum class Read { event, timeout, closed };
  // Waits until `deadline` for the next event. `closed`: the worker closed
  // the pipe (it exited or died). Throws std::runtime_error on a malformed line.
  Read next(Clock::time_point deadline, WorkerEvent& event);

  // SIGKILL to the worker's process group.
  void kill();
  // Reaps the worker, killing it if it has not exited within `grace`, and
  // says how it ended: "exited with code 3", "was killed by signal 11 (Segmentation fault)".
  std::string wait(std::chrono::milliseconds grace = std::chrono::seconds(30));
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
  LineSplitter lines_;
};

// "exited with code N" / "was killed by signal N (name)" for a waitpid status.
std::string describe_exit_status(int status);

}  // namespace gpuconform
