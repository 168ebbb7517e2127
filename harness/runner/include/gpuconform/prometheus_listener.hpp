// SPDX-License-Identifier: Apache-2.0
#pragma once
// The Prometheus textfile (prometheus_textfile.hpp) as a listener: written atomically at
// the end of the run, carrying over the last success time of the file it replaces.
#include <string>

#include "gpuconform/run_listener.hpp"

namespace gpuconform {

class PrometheusListener : public RunListener {
 public:
  explicit PrometheusListener(std::string path) : path_(std::move(path)) {}
  std::string name() const override { return "--prom"; }
  void on_run_ended(const RunOutcome& outcome) override;

 private:
  std::string path_;
};

}  // namespace gpuconform
