// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `gpuconform run` shows while the GPUs run at once. On a terminal: one status
// line per GPU (progress, the probe running, elapsed and ETA, failures so far),
// redrawn in place every second and on every event. Otherwise (a pipe, a log, a batch
// job): one plain line per verdict as before, prefixed "GPU N" when several GPUs run.
// Calls may come from several threads (RunEvents serialises the listeners; the ticker
// redraws on its own), so every method locks.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpuconform/run_progress.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform::cli {

class RunDisplay {
 public:
  // `live`: status lines (stdout is a terminal); else plain lines.
  RunDisplay(const std::vector<OpenedGpu>& gpus, int passes, bool live);
  ~RunDisplay();
  RunDisplay(const RunDisplay&) = delete;
  RunDisplay& operator=(const RunDisplay&) = delete;

  void started(std::size_t gpu, const std::string& probe, int pass);
  void result(std::size_t gpu, const TestResult& r, int pass);
  void finished(std::size_t gpu);
  // Last redraw; the ticker stops. Output after this goes below the status lines.
  void close();

  // True when stdout is a terminal that understands cursor movement.
  static bool stdout_is_live_terminal();

 private:
  double now() const;
  void draw_locked(bool first);
  void tick();

  struct Gpu {
    GpuStatus status;
    EtaModel eta;
  };
  std::vector<Gpu> gpus_;
  int passes_;
  bool live_;
  bool drawn_ = false, closed_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread ticker_;
};

}  // namespace gpuconform::cli
