// SPDX-License-Identifier: Apache-2.0
#pragma once
// JUnit XML (junit.hpp) as a listener: at the end of the run, one file per GPU that was
// opened, written atomically; a file that cannot be written is an error of the run.
#include <string>
#include <vector>

#include "gpuconform/run_listener.hpp"

namespace gpuconform {

struct GpuRun;

// The JUnit files of a run's GPUs, one per opened GPU in run order: `base` itself for a
// run of one GPU, "<base>.gpu<N>.xml" for GPU N when the run has several.
std::vector<std::string> junit_file_paths(const std::string& base, const std::vector<GpuRun>& gpus);

class JUnitListener : public RunListener {
 public:
  explicit JUnitListener(std::string base) : base_(std::move(base)) {}
  std::string name() const override { return "junit"; }
  void on_run_ended(const RunOutcome& outcome) override;

 private:
  std::string base_;
};

}  // namespace gpuconform
