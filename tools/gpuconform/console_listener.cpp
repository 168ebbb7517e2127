// SPDX-License-Identifier: Apache-2.0
#include "console_listener.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "console.hpp"
#include "gpuconform/exit_code.hpp"
#include "gpuconform/run_summary.hpp"

namespace gpuconform::cli {

void ConsoleListener::on_gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel level, int passes) {
  for (const OpenedGpu& g : gpus) {
    if (!g.device) {
      fmt::print("== GPU {}\nfail {}\n", g.index, g.open_error);
      continue;
    }
    print_device_header(*g.device, g.expectations);
    fmt::print("   level {}: {} of {} selected probe(s){}\n", level_name(level), g.probes.size(), g.selectable,
               passes > 1 ? fmt::format(", {} runs each", passes) : "");
  }
  std::fflush(stdout);
  display_ = std::make_unique<RunDisplay>(gpus, passes, RunDisplay::stdout_is_live_terminal());
}

void ConsoleListener::on_probe_started(std::size_t gpu, const std::string& probe, int pass) {
  if (display_) display_->started(gpu, probe, pass);
}

void ConsoleListener::on_probe_verdict(std::size_t gpu, const TestResult& result, const nlohmann::json&, int pass) {
  if (display_) display_->result(gpu, result, pass);
}

void ConsoleListener::on_gpu_finished(std::size_t gpu) {
  if (display_) display_->finished(gpu);
}

void ConsoleListener::on_run_ended(const RunOutcome& outcome) {
  if (display_) {
    display_->close();
    for (const GpuRun& gpu : outcome.gpus)
      if (gpu.device && !gpu.repeated.empty()) print_spreads(gpu);
    const RunTally totals = tally_runs(outcome.gpus);
    print_run_end(outcome.gpus, totals);
    fmt::print("run record: {}\n", outcome.record_path);
    for (const std::string& j : outcome.junit_paths) fmt::print("junit: {}\n", j);
    if (totals.gpus_unopened) fmt::print("{} GPU(s) could not be opened: failed\n", totals.gpus_unopened);
    if (outcome.exit_code == static_cast<int>(RunExit::nothing_judged))
      fmt::print("nothing was judged: every selected probe skipped (exit code {}); see the skip reasons above\n",
                 outcome.exit_code);
  }
  if (!outcome.summary_path.empty()) fmt::print("summary: {}\n", outcome.summary_path);
}

}  // namespace gpuconform::cli
