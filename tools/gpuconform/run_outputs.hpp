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
// Kept apart from cmd_run.cpp: the run decides verdicts, this decides files. Each output
// is one listener of the run (run_listener.hpp); this picks them and their order.
#include <CLI/CLI.hpp>
#include <chrono>
#include <string>

#include "gpuconform/run_header.hpp"
#include "gpuconform/run_listener.hpp"

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

// Where one run's files go, decided (and its directory made) before the run starts.
struct RunFiles {
  RunIdentity run;
  std::chrono::system_clock::time_point started;
  std::string record;   // the run record
  std::string junit;    // JUnit; "<junit>.gpu<N>.xml" per GPU when several (junit_listener.hpp)
  std::string summary;  // summary.json; "" with --append
};

// Picks the run id and the files and creates the run directory. Throws std::runtime_error
// (with the path and reason) when it cannot: the run must not start without somewhere to
// put its verdicts.
RunFiles plan_run_files(const RunOutputOptions& options);

// Every output of the run as a listener of `events`, in this order: the run record, the
// console, JUnit, summary.json, the Prometheus textfile, the termination log, --json's
// stdout. With --json, stdout is set aside at once (throws std::runtime_error when it
// cannot), so every line for people goes to stderr.
void add_run_listeners(RunEvents& events, const RunOutputOptions& options, const RunFiles& files);

// gpuconform-runs/<run_id>, or with "-2", "-3", ... when that exists (two runs in a second).
std::string fresh_run_directory(const std::string& parent, const std::string& run_id);

}  // namespace gpuconform::cli
