// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run listener (run_listener.hpp) made of callbacks, for the runner's tests: each test
// sets the events it watches.
#include <functional>
#include <string>

#include "gpuconform/run_listener.hpp"

namespace gpuconform::test {

struct LambdaListener : RunListener {
  std::function<void(std::size_t gpu, const std::string& probe, int pass)> started;
  std::function<void(std::size_t gpu, const TestResult&, int pass)> verdict;
  std::function<void(std::size_t gpu)> finished;

  std::string name() const override { return "test"; }
  void on_probe_started(std::size_t gpu, const std::string& probe, int pass) override {
    if (started) started(gpu, probe, pass);
  }
  void on_probe_verdict(std::size_t gpu, const TestResult& r, const nlohmann::json&, int pass) override {
    if (verdict) verdict(gpu, r, pass);
  }
  void on_gpu_finished(std::size_t gpu) override {
    if (finished) finished(gpu);
  }
};

}  // namespace gpuconform::test
