// SPDX-License-Identifier: Apache-2.0
#pragma once
// The run record (JSON lines, run_record.hpp) as a listener: the header line when the run
// starts, a "gpu_open" failure line for each GPU that could not be opened, the "gpu_state"
// lines before and after each GPU's probes, every verdict's line as it arrives and, at
// --level long, a "spread" line per probe. Each line is appended whole with one write(2)
// (append_record_line), so a record stays readable whatever stops the run.
#include <string>

#include "gpuconform/run_listener.hpp"

namespace gpuconform {

class RecordListener : public RunListener {
 public:
  explicit RecordListener(std::string path) : path_(std::move(path)) {}
  std::string name() const override { return "record"; }

  void on_run_started(const RunIdentity& run) override;
  void on_gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel level, int passes) override;
  void on_gpu_state(std::size_t gpu, const DeviceInfo& device, const char* when, const GpuState& state) override;
  void on_probe_verdict(std::size_t gpu, const TestResult& result, const nlohmann::json& record, int pass) override;
  void on_probe_spread(std::size_t gpu, const RepeatedResult& spread, const DeviceInfo& device) override;

 private:
  std::string path_;
};

}  // namespace gpuconform
