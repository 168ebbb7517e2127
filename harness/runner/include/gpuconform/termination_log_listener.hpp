// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Kubernetes termination message (run_summary.hpp, termination_message) as a listener,
// written at the end of the run. Not atomically: Kubernetes mounts /dev/termination-log as
// a file, which a rename cannot replace, so the file is truncated and written in place.
#include <string>

#include "gpuconform/run_listener.hpp"

namespace gpuconform {

class TerminationLogListener : public RunListener {
 public:
  explicit TerminationLogListener(std::string path) : path_(std::move(path)) {}
  std::string name() const override { return "--termination-log"; }
  void on_run_ended(const RunOutcome& outcome) override;

 private:
  std::string path_;
};

}  // namespace gpuconform
