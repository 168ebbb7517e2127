// SPDX-License-Identifier: Apache-2.0
#pragma once
// Run records: one JSON object per line per test, the raw material for
// `record` (evidence), `compare` and any later analysis.
#include <nlohmann/json.hpp>
#include <ctime>
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/expectation_types.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {

struct TestResult;

nlohmann::json device_json(const DeviceInfo& d);
nlohmann::json measurement_json(const Measurement& m);
nlohmann::json expectation_json(const Expectation& e);
// "GPU 0>1" for a result of GPU 0 with peer 1; "GPU 0" without peers.
std::string gpu_label(int index, const std::vector<int>& peer_indices);
// The full record line of one test (pair and node probes: with "peers", each
// {index, uuid, pci_bus_id, name}).
nlohmann::json record_json(const TestResult& r, const DeviceInfo& d);

// Appends one line with a single write(2) on an O_APPEND descriptor, so
// concurrent test processes never interleave partial lines. Throws
// std::runtime_error naming the file when it cannot be written.
void append_record_line(const std::string& path, const nlohmann::json& line);

// Suite identity baked in at configure time.
const char* suite_version();
const char* suite_git_commit();

// `t` in UTC with a strftime format; the default is the record's "2026-11-23T09:41:07Z".
std::string utc_time(std::time_t t, const char* format = "%Y-%m-%dT%H:%M:%SZ");
std::string utc_timestamp();  // now, "2026-11-23T09:41:07Z"

}  // namespace gpuconform
