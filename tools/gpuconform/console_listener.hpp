// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `gpuconform run` prints for people, as one listener (run_listener.hpp): each GPU's
// header once the GPUs are open, the progress while they run (run_display.hpp: live status
// lines on a terminal, one line per verdict otherwise), and at the end the spreads (--level
// long), the verdict matrix, what did not pass, the totals and where the files are.
// A run that stopped before its GPUs were opened (exit 2 or 3, said on stderr where it
// stopped) prints only where its summary is.
#include <memory>
#include <string>
#include <vector>

#include "gpuconform/run_listener.hpp"
#include "run_display.hpp"

namespace gpuconform::cli {

class ConsoleListener : public RunListener {
 public:
  std::string name() const override { return "console"; }
  void on_gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel level, int passes) override;
  void on_probe_started(std::size_t gpu, const std::string& probe, int pass) override;
  void on_probe_verdict(std::size_t gpu, const TestResult& result, const nlohmann::json& record, int pass) override;
  void on_gpu_finished(std::size_t gpu) override;
  void on_run_ended(const RunOutcome& outcome) override;

 private:
  std::unique_ptr<RunDisplay> display_;  // from the GPUs' opening to the end of the run
};

}  // namespace gpuconform::cli
