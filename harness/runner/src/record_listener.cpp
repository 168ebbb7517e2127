// SPDX-License-Identifier: Apache-2.0
// The run record's lines (record_listener.hpp). A verdict's line arrives made (the
// worker's, with the runner's level and repeat); the others are made here.
#include "gpuconform/record_listener.hpp"

#include "gpuconform/gpu_state.hpp"
#include "gpuconform/run_header.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_schema.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

nlohmann::json suite_json() { return {{"version", suite_version()}, {"commit", suite_git_commit()}}; }

nlohmann::json device_key(const DeviceInfo& device) {
  return {{"index", device.index}, {"uuid", device.uuid}, {"pci_bus_id", device.pci_bus_id}};
}

}  // namespace

void RecordListener::on_run_started(const RunIdentity& run) {
  append_record_line(path_, run_header_json(run, local_driver_versions()));
}

void RecordListener::on_gpus_opened(const std::vector<OpenedGpu>& gpus, RunLevel, int) {
  for (const OpenedGpu& gpu : gpus)
    if (!gpu.device)
      append_record_line(path_, {{"record", "gpu_open"},
                                 {"verdict", "fail"},
                                 {"reason", gpu.open_error},
                                 {"device", {{"index", gpu.index}}},
                                 {"suite", suite_json()},
                                 {"time", utc_timestamp()}});
}

void RecordListener::on_gpu_state(std::size_t, const DeviceInfo& device, const char* when, const GpuState& state) {
  append_record_line(path_, {{"record", "gpu_state"},
                             {"when", when},
                             {"device", device_key(device)},
                             {"state", state.to_json()},
                             {"suite", suite_json()},
                             {"time", utc_timestamp()}});
}

void RecordListener::on_probe_verdict(std::size_t, const TestResult&, const nlohmann::json& record, int) {
  append_record_line(path_, record);
}

// The spread of a probe's runs at --level long, for readers of the record (compare reads
// the runs themselves: one test line each).
void RecordListener::on_probe_spread(std::size_t, const RepeatedResult& r, const DeviceInfo& device) {
  nlohmann::json j = {{"schema_version", kRunRecordSchemaVersion},
                      {"record", "spread"},
                      {"probe", r.result.probe ? r.result.probe->id : std::string()},
                      {"runs", r.runs},
                      {"verdict", outcome_name(r.result.verdict.outcome)},
                      {"values", r.values},
                      {"device", device_key(device)},
                      {"suite", suite_json()},
                      {"time", utc_timestamp()}};
  if (r.result.measurement) j["unit"] = r.result.measurement->unit;
  if (r.spread)
    j["stats"] = {{"n", r.spread->n},
                  {"median", r.spread->median},
                  {"mad", r.spread->mad},
                  {"min", r.spread->min},
                  {"max", r.spread->max}};
  append_record_line(path_, j);
}

}  // namespace gpuconform
