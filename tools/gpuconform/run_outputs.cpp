// SPDX-License-Identifier: Apache-2.0
#include "run_outputs.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <stdexcept>

#include "console_listener.hpp"
#include "gpuconform/junit_listener.hpp"
#include "gpuconform/prometheus_listener.hpp"
#include "gpuconform/record_listener.hpp"
#include "gpuconform/run_summary.hpp"
#include "gpuconform/summary_listener.hpp"
#include "gpuconform/termination_log_listener.hpp"
#include "json_stdout_listener.hpp"

namespace gpuconform::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kRunsParent = "gpuconform-runs";
constexpr const char* kAppendRecord = "gpuconform-run.jsonl";
constexpr const char* kAppendJunit = "gpuconform-junit.xml";

}  // namespace

void add_run_output_options(CLI::App& run, RunOutputOptions& o) {
  run.add_option("--out-dir", o.out_dir,
                 fmt::format("Directory for this run's record, JUnit file and summary.json; must not hold a run "
                             "record yet (default: a new {}/<UTC time>-<host>)",
                             kRunsParent));
  run.add_flag("--append", o.append,
               fmt::format("Append to {} and write {} in the working directory instead (no summary.json)",
                           kAppendRecord, kAppendJunit));
  run.add_option("--record", o.record_path, "Run record (JSON lines, appended; default: in the run directory)");
  run.add_option("--junit", o.junit_path, "JUnit XML report (default: in the run directory)");
  run.add_flag("--json", o.json, "Print summary.json on stdout (progress lines go to stderr)");
  run.add_option("--prom", o.prom_path, "Write a Prometheus textfile (node_exporter textfile collector), atomically");
  run.add_option("--termination-log", o.termination_log,
                 "Write a short summary (<= 4096 bytes) here, e.g. /dev/termination-log in Kubernetes");
}

std::string fresh_run_directory(const std::string& parent, const std::string& run_id) {
  const fs::path base = fs::path(parent) / run_id;
  for (int n = 1;; ++n) {
    const fs::path candidate = n == 1 ? base : fs::path(base.string() + fmt::format("-{}", n));
    std::error_code ec;
    fs::create_directories(candidate.parent_path(), ec);
    if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", candidate.parent_path().string(), ec.message()));
    // create_directory reports whether it made the directory: two runs racing for a name
    // never share one.
    if (fs::create_directory(candidate, ec)) return candidate.string();
    if (ec) throw std::runtime_error(fmt::format("cannot create {}: {}", candidate.string(), ec.message()));
  }
}

RunFiles plan_run_files(const RunOutputOptions& options) {
  if (options.append && !options.out_dir.empty())
    throw std::runtime_error("--append writes to the working directory; it cannot be combined with --out-dir");
  RunFiles files;
  files.started = std::chrono::system_clock::now();
  files.run.host = host_name();
  files.run.started = utc_iso(files.started);
  files.run.command_line = own_command_line();
  files.run.run_id = make_run_id(compact_utc_timestamp(), files.run.host);

  if (options.append) {
    files.record = options.record_path.empty() ? kAppendRecord : options.record_path;
    files.junit = options.junit_path.empty() ? kAppendJunit : options.junit_path;
    return files;
  }
  std::string dir;
  if (options.out_dir.empty()) {
    dir = fresh_run_directory(kRunsParent, files.run.run_id);
    files.run.run_id = fs::path(dir).filename().string();  // with its "-N", if any
  } else {
    dir = options.out_dir;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(fmt::format("--out-dir {}: cannot create it: {}", dir, ec.message()));
    if (fs::exists(fs::path(dir) / "run.jsonl"))
      throw std::runtime_error(fmt::format(
          "--out-dir {} already holds a run (run.jsonl); give a new directory, or --append to add to a record", dir));
  }
  files.record = options.record_path.empty() ? (fs::path(dir) / "run.jsonl").string() : options.record_path;
  files.junit = options.junit_path.empty() ? (fs::path(dir) / "junit.xml").string() : options.junit_path;
  files.summary = (fs::path(dir) / "summary.json").string();
  return files;
}

void add_run_listeners(RunEvents& events, const RunOutputOptions& options, const RunFiles& files) {
  // First, so that nothing the others print reaches the real stdout; called last.
  std::unique_ptr<JsonStdoutListener> json;
  if (options.json) json = std::make_unique<JsonStdoutListener>();
  events.add(std::make_unique<RecordListener>(files.record));
  events.add(std::make_unique<ConsoleListener>());
  events.add(std::make_unique<JUnitListener>(files.junit));
  if (!files.summary.empty()) events.add(std::make_unique<SummaryListener>(files.summary));
  if (!options.prom_path.empty()) events.add(std::make_unique<PrometheusListener>(options.prom_path));
  if (!options.termination_log.empty()) events.add(std::make_unique<TerminationLogListener>(options.termination_log));
  if (json) events.add(std::move(json));
}

}  // namespace gpuconform::cli
