// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where `gpuconform run` writes, and what it writes for machines once it is done:
//
//   default      a new directory per run, gpuconform-runs/<UTC time>-<host>/ (--out-dir DIR
//                names it), holding run.jsonl (first line: the run's header), junit.xml
//                and summary.json;
//   --append     today's files in the working directory, gpuconform-run.jsonl (appended,
//                one header line per run) and gpuconform-junit.xml, no summary.json;
//   --record/--junit  put that file elsewhere in either mode;
//   --json       summary.json's content on stdout (the human lines go to stderr);
//   --prom FILE  Prometheus textfile, replaced atomically;
//   --termination-log FILE  a short summary for Kubernetes (<= 4096 bytes).
//
// Kept apart from cmd_run.cpp: the run decides verdicts, this decides files.
#include <CLI/CLI.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "gpuconform/run_summary.hpp"

namespace gpuconform::cli {

struct RunOutputOptions {
  std::string out_dir;      // "" = gpuconform-runs/<run id>
  bool append = false;
  std::string record_path;  // "" = the mode's default
  std::string junit_path;   // "" = the mode's default
  bool json = false;
  std::string prom_path;
  std::string termination_log;
};

void add_run_output_options(CLI::App& run, RunOutputOptions& options);

class RunOutputs {
 public:
  // Picks the run id and the files, creates the run directory and writes the record's
  // header line. Throws std::runtime_error (with the path and reason) when it cannot:
  // the run must not start without somewhere to put its verdicts.
  explicit RunOutputs(const RunOutputOptions& options);
  ~RunOutputs();
  RunOutputs(const RunOutputs&) = delete;
  RunOutputs& operator=(const RunOutputs&) = delete;

  const std::string& record_path() const { return outcome_.record_path; }
  // The JUnit file of GPU `index`; with several GPUs each gets its own.
  std::string junit_path(int index, bool several_gpus) const;
  // One GPU's results, after its JUnit file (junit_file, "" if none) was written.
  void add(GpuRun gpu, const std::string& junit_file);
  // Why the run could not run (exit 2): goes into every output finish() writes.
  void set_error(RunError error) { outcome_.error = std::move(error); }
  // The run's --timeout: summary.json "timeout", the termination log's first line.
  void set_timeout(double seconds) { outcome_.timeout_s = seconds; }
  // Writes summary.json, the textfile, the termination log and (--json) stdout; returns
  // the run's exit code, or 2 when one of those files could not be written.
  int finish(int exit_code);

 private:
  RunOutputOptions options_;
  std::string dir_;
  RunOutcome outcome_;
  int json_stdout_ = -1;  // the real stdout while --json sends the human lines to stderr
};

// gpuconform-runs/<run_id>, or with "-2", "-3", ... when that exists (two runs in a second).
std::string fresh_run_directory(const std::string& parent, const std::string& run_id);

}  // namespace gpuconform::cli
