// SPDX-License-Identifier: Apache-2.0
#pragma once
// `run --json` as a listener: from its construction on, everything the run prints for
// people goes to stderr, and at the end stdout carries summary.json's content alone.
// The destructor gives stdout back.
#include <string>

#include "gpuconform/run_listener.hpp"

namespace gpuconform::cli {

class JsonStdoutListener : public RunListener {
 public:
  // Sets stdout aside; throws std::runtime_error when it cannot.
  JsonStdoutListener();
  ~JsonStdoutListener() override;
  JsonStdoutListener(const JsonStdoutListener&) = delete;
  JsonStdoutListener& operator=(const JsonStdoutListener&) = delete;

  std::string name() const override { return "--json"; }
  void on_run_ended(const RunOutcome& outcome) override;

 private:
  int stdout_ = -1;  // the real stdout while fd 1 is stderr
};

}  // namespace gpuconform::cli
