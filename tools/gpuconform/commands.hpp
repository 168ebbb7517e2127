// SPDX-License-Identifier: Apache-2.0
#pragma once
// The gpuconform subcommands. Each registers its options on the app and
// returns the process exit code when run: 0 success, 1 a failed check,
// 2 could not run (no GPU, unusable arguments, unreadable or invalid input),
// 3 (`run` only) a GPU is in use by others, 77 (`run` only) nothing was judged: every selected probe skipped.
#include <CLI/CLI.hpp>
#include <functional>

namespace gpuconform::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUnusable = 2;
constexpr int kExitBusy = 3;            // `run` only: a GPU of the run is in use by others (gpu_busy)
constexpr int kExitNothingJudged = 77;  // ctest's and automake's "skipped"


using Command = std::function<int()>;

Command add_run_command(CLI::App& app);
Command add_record_command(CLI::App& app);
Command add_lint_command(CLI::App& app);
Command add_list_command(CLI::App& app);
Command add_vectors_command(CLI::App& app);
Command add_probe_command(CLI::App& app);    // probe numerics: infer a live GPU's arithmetic
Command add_compare_command(CLI::App& app);
Command add_judge_command(CLI::App& app);      // run records judged again by today's files
Command add_report_command(CLI::App& app);     // HTML / Markdown report of a run record
Command add_resources_command(CLI::App& app);  // CTest resource-spec file
Command add_mathref_command(CLI::App& app);  // correctly rounded math-library results (MPFR)
Command add_worker_command(CLI::App& app);  // hidden: the runner's worker process

}  // namespace gpuconform::cli
