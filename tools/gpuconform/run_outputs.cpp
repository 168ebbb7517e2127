// SPDX-License-Identifier: Apache-2.0
#include "run_outputs.hpp"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "commands.hpp"
#include "gpuconform/atomic_file.hpp"
#include "gpuconform/prometheus_textfile.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kRunsParent = "gpuconform-runs";
constexpr const char* kAppendRecord = "gpuconform-run.jsonl";
constexpr const char* kAppendJunit = "gpuconform-junit.xml";

// Not atomic, for the termination log only: Kubernetes mounts /dev/termination-log as a
// file, which a rename cannot replace. Every other output goes through write_file_atomically.
void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", path));
}

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

RunOutputs::RunOutputs(const RunOutputOptions& options) : options_(options) {
  if (options.append && !options.out_dir.empty())
    throw std::runtime_error("--append writes to the working directory; it cannot be combined with --out-dir");
  outcome_.started = std::chrono::system_clock::now();
  outcome_.run.host = host_name();
  outcome_.run.started = utc_iso(outcome_.started);
  outcome_.run.command_line = own_command_line();
  outcome_.run.run_id = make_run_id(compact_utc_timestamp(), outcome_.run.host);

  if (options.append) {
    outcome_.record_path = options.record_path.empty() ? kAppendRecord : options.record_path;
  } else {
    if (options.out_dir.empty()) {
      dir_ = fresh_run_directory(kRunsParent, outcome_.run.run_id);
      outcome_.run.run_id = fs::path(dir_).filename().string();  // with its "-N", if any
    } else {
      dir_ = options.out_dir;
      std::error_code ec;
      fs::create_directories(dir_, ec);
      if (ec) throw std::runtime_error(fmt::format("--out-dir {}: cannot create it: {}", dir_, ec.message()));
      if (fs::exists(fs::path(dir_) / "run.jsonl"))
        throw std::runtime_error(fmt::format(
            "--out-dir {} already holds a run (run.jsonl); give a new directory, or --append to add to a record", dir_));
    }
    outcome_.record_path = options.record_path.empty() ? (fs::path(dir_) / "run.jsonl").string() : options.record_path;
    outcome_.summary_path = (fs::path(dir_) / "summary.json").string();
  }
  append_record_line(outcome_.record_path, run_header_json(outcome_.run, local_driver_versions()));

  if (options.json) {
    // Everything the run prints for people goes to stderr; stdout carries only the JSON.
    std::fflush(stdout);
    json_stdout_ = ::dup(STDOUT_FILENO);
    if (json_stdout_ < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
      throw std::runtime_error("--json: cannot set stdout aside");
  }
}

RunOutputs::~RunOutputs() {
  if (json_stdout_ >= 0) {
    std::fflush(stdout);
    ::dup2(json_stdout_, STDOUT_FILENO);
    ::close(json_stdout_);
  }
}

std::string RunOutputs::junit_path(int index, bool several_gpus) const {
  std::string path = options_.junit_path;
  if (path.empty()) path = options_.append ? kAppendJunit : (fs::path(dir_) / "junit.xml").string();
  if (several_gpus) path = fmt::format("{}.gpu{}.xml", path, index);
  return path;
}

void RunOutputs::add(GpuRun gpu, const std::string& junit_file) {
  if (!junit_file.empty()) outcome_.junit_paths.push_back(junit_file);
  outcome_.gpus.push_back(std::move(gpu));
}

int RunOutputs::finish(int exit_code) {
  outcome_.exit_code = exit_code;
  outcome_.finished = std::chrono::system_clock::now();
  const std::string summary = run_summary_json(outcome_).dump(2) + "\n";
  int code = exit_code;
  auto attempt = [&](const char* what, auto&& write) {
    try {
      write();
    } catch (const std::exception& e) {
      fmt::print(stderr, "gpuconform run: {}: {}\n", what, e.what());
      code = kExitUnusable;  // a health check must not read "ok" from a run whose outputs are missing
    }
  };
  if (!outcome_.summary_path.empty()) {
    attempt("summary", [&] { write_file_atomically(outcome_.summary_path, summary); });
    fmt::print("summary: {}\n", outcome_.summary_path);
  }
  if (!options_.prom_path.empty())
    attempt("--prom", [&] {
      // A failed run keeps the last success time the file it replaces held.
      write_file_atomically(options_.prom_path, prometheus_textfile(outcome_, read_last_success(options_.prom_path)));
    });
  if (!options_.termination_log.empty())
    attempt("--termination-log", [&] { write_text(options_.termination_log, termination_message(outcome_)); });
  if (json_stdout_ >= 0) {
    std::fflush(stdout);
    const std::string text = summary;
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = ::write(json_stdout_, text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
  }
  return code;
}

}  // namespace gpuconform::cli
