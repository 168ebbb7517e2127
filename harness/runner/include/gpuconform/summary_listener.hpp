// SPDX-License-Identifier: Apache-2.0
#pragma once
// summary.json (run_summary.hpp) as a listener: written atomically at the end of the run.
#include <string>

#include "gpuconform/run_listener.hpp"

namespace gpuconform {

// summary.json's text: the JSON indented by 2, with a final newline (the file and `--json`).
std::string run_summary_text(const RunOutcome& outcome);

class SummaryListener : public RunListener {
 public:
  explicit SummaryListener(std::string path) : path_(std::move(path)) {}
  std::string name() const override { return "summary"; }
  void on_run_ended(const RunOutcome& outcome) override;

 private:
  std::string path_;
};

}  // namespace gpuconform
