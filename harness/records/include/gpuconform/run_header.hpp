// SPDX-License-Identifier: Apache-2.0
#pragma once
// The first line of every run's record: who ran what, where, on which driver and suite.
// A record file that several runs appended to (`run --append`) holds one header per run,
// so each run's lines can be told apart; readers of test lines skip it (record kind
// "header", run_record_schema.hpp).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gpuconform {

// What identifies one `gpuconform run`.
struct RunIdentity {
  std::string run_id;                     // "20261125T024700Z-node17" (+ "-N" when taken)
  std::string host;                       // gethostname()
  std::string started;                    // utc_timestamp() at start
  std::vector<std::string> command_line;  // argv, as the process was started
};

// The node's driver stack, read without opening a GPU (the parent of a run never creates
// a CUDA context): kernel module version from sysfs, CUDA driver and runtime API versions.
// Empty / 0 where unknown (no driver loaded).
struct DriverVersions {
  std::string driver;        // "580.159.04"
  int cuda_driver_version = 0;
  int cuda_runtime_version = 0;
};
DriverVersions local_driver_versions();

std::string host_name();                        // "" if unavailable
std::vector<std::string> own_command_line();    // /proc/self/cmdline; empty if unreadable
// "20261125T024700Z": a UTC time usable in a file name and sorting as the time does.
std::string compact_utc_timestamp();
// "<compact time>-<host>", the host reduced to [A-Za-z0-9._-] so the id is a safe file name.
std::string make_run_id(const std::string& compact_time, const std::string& host);

// The header line (record kind "header").
nlohmann::json run_header_json(const RunIdentity& run, const DriverVersions& versions);

}  // namespace gpuconform
