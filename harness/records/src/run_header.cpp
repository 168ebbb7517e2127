// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_header.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <climits>
#include <ctime>
#include <fstream>
#include <iterator>

#include "gpuconform/device_info.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_schema.hpp"
#include "gpuconform/selftest_injection.hpp"

namespace gpuconform {

DriverVersions local_driver_versions() {
  DriverVersions v;
  v.driver = nvidia_driver_version();
  // Neither call creates a context; without a driver the first leaves 0.
  if (cudaDriverGetVersion(&v.cuda_driver_version) != cudaSuccess) v.cuda_driver_version = 0;
  if (cudaRuntimeGetVersion(&v.cuda_runtime_version) != cudaSuccess) v.cuda_runtime_version = 0;
  return v;
}

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::string arg;
  for (char c : raw) {
    if (c == '\0') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += c;
    }
  }
  if (!arg.empty()) args.push_back(arg);
  return args;
}

std::string compact_utc_timestamp() { return utc_time(std::time(nullptr), "%Y%m%dT%H%M%SZ"); }

std::string make_run_id(const std::string& compact_time, const std::string& host) {
  std::string safe;
  for (char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-';
    safe += ok ? c : '_';
  }
  // A leading dot would hide the directory; an empty host still names the run.
  if (safe.empty() || safe[0] == '.') safe = "host" + safe;
  return compact_time + "-" + safe;
}

nlohmann::json run_header_json(const RunIdentity& run, const DriverVersions& versions) {
  nlohmann::json header = {{"schema_version", kRunRecordSchemaVersion},
                           {"record", "header"},
                           {"run_id", run.run_id},
                           {"host", run.host},
                           {"command_line", run.command_line},
                           {"driver", versions.driver},
                           {"cuda_driver_version", versions.cuda_driver_version},
                           {"cuda_runtime_version", versions.cuda_runtime_version},
                           {"suite", {{"version", suite_version()}, {"commit", suite_git_commit()}}},
                           {"time", run.started}};
  // A run with self-test fault injection (docs/selftest.md) is marked from its first line.
  if (nlohmann::json injection = selftest::injection_header_json(); !injection.is_null())
    header["selftest_injection"] = std::move(injection);
  return header;
}

}  // namespace gpuconform
