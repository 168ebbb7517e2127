// SPDX-License-Identifier: Apache-2.0
// `gpuconform run`: the conformance suite on the local GPUs. A thin front end
// over the runner (harness runner.hpp): it selects probes, checks arguments
// before touching a GPU, runs the GPUs with every output as a listener of the run
// (run_outputs.hpp, run_listener.hpp), and turns the results into the exit code
// (exit_code.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "commands.hpp"
#include "console.hpp"
#include "gpuconform/console_colour.hpp"
#include "gpuconform/exit_code.hpp"
#include "gpuconform/gpu_busy.hpp"
#include "gpuconform/junit_listener.hpp"
#include "gpuconform/run_level.hpp"
#include "gpuconform/run_summary.hpp"
#include "gpuconform/runner.hpp"
#include "run_outputs.hpp"

namespace gpuconform::cli {
namespace {

static_assert(static_cast<int>(RunExit::ok) == kExitOk && static_cast<int>(RunExit::failed) == kExitFailed &&
              static_cast<int>(RunExit::unusable) == kExitUnusable && static_cast<int>(RunExit::busy) == kExitBusy &&
              static_cast<int>(RunExit::nothing_judged) == kExitNothingJudged);

struct RunArgs {
  std::vector<int> devices;
  std::string expectations_dir = default_expectations_dir();
  std::vector<std::string> overlays;
  std::vector<std::string> filters{"*"};
  RunOutputOptions outputs;  // where the record, JUnit and summary go (run_outputs.hpp)
  bool quick = false;  // the old spelling of --level quick
  std::string level = "standard";
  int repeats = kLongRepeatsDefault;
  bool repeats_given = false;
  double probe_timeout_s = 0;
  bool probe_timeout_given = false;
  bool allow_busy = false;
  std::string colour = "auto";
  double timeout_s = 0;
  bool timeout_given = false;
  WorkerProcess::Clock::time_point started = WorkerProcess::Clock::now();
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// Exit 2 (3 for gpu_busy) with its reason: printed, and kept for summary.json, the
// termination log and the Prometheus textfile (run_error.hpp).
int unusable(RunOutcome& outcome, const char* code, const std::string& message) {
  fmt::print(stderr, "gpuconform run: {}\n", message);
  outcome.error = RunError{code, message};
  return run_error_exit_code(code);
}

// The options that need no GPU: colour, level, repeats, time limits, device ordinals. The
// exit code (after the message) when one is wrong.
std::optional<int> check_arguments(const RunArgs& args, RunOutcome& outcome, std::optional<RunLevel>& level,
                                   std::vector<int>& devices) {
  if (!parse_colour_mode(args.colour))
    return unusable(outcome, "bad_argument",
                    fmt::format("--color must be auto, always or never (not '{}')", args.colour));
  level = parse_level(args.level);
  if (!level)
    return unusable(outcome, "bad_argument",
                    fmt::format("--level must be quick, standard or long (not '{}')", args.level));
  if (args.quick) level = RunLevel::quick;
  if (args.repeats_given && *level != RunLevel::long_run)
    return unusable(outcome, "bad_argument", "--repeats applies to --level long only");
  if (*level == RunLevel::long_run && args.repeats < 2)
    return unusable(outcome, "bad_argument", "--repeats must be 2 or more (a spread needs several runs)");
  if (args.probe_timeout_given && !(args.probe_timeout_s > 0))
    return unusable(outcome, "bad_argument", "--probe-timeout must be a positive number of seconds");
  if (args.timeout_given && !(args.timeout_s > 0 && args.timeout_s < 1e8))
    return unusable(outcome, "bad_argument", "--timeout must be a positive number of seconds");
  for (int index : args.devices) {
    if (index < 0)
      return unusable(outcome, "bad_argument", fmt::format("--device {} is not a GPU ordinal (0, 1, ...)", index));
    if (std::find(devices.begin(), devices.end(), index) == devices.end()) devices.push_back(index);
  }
  return std::nullopt;
}

// The run once its outputs are in place (`files`, the listeners of `events`): its exit
// code, with `outcome` (what the listeners get at the end) holding the GPUs' results or
// why it could not run.
int run(const RunArgs& args, const RunFiles& files, RunEvents& events, RunOutcome& outcome) {
  setup_colour(parse_colour_mode(args.colour) ? args.colour : "never", "run");  // a bad value: check_arguments
  // Everything that can be checked without a GPU is checked before any CUDA call.
  const std::vector<const Probe*> probes = select_probes(args.filters);
  if (probes.empty()) {
    std::string filters;
    for (const auto& f : args.filters) filters += (filters.empty() ? "'" : " '") + f + "'";
    // The group list goes to stderr only: the recorded reason stays one short line.
    const int code =
        unusable(outcome, "no_probe_selected", fmt::format("--filter {} matches no probe; nothing was run", filters));
    fmt::print(stderr, "Probe groups: {}{}\n", selectable_probe_groups(),
               selftest_enabled() ? "" : " (self-test probes need GPUCONFORM_SELFTEST=1)");
    return code;
  }
  std::optional<RunLevel> level;
  std::vector<int> devices;
  if (const std::optional<int> code = check_arguments(args, outcome, level, devices)) return *code;
  // The busy guard, through NVML before CUDA is initialised: a GPU that holds someone
  // else's work is not measured (gpu_busy.hpp). Without NVML the run goes on and says so.
  std::string busy_not_checked;
  if (!args.allow_busy) {
    const BusyCheck busy = check_gpus_busy(devices);
    if (!busy.busy.empty())
      return unusable(outcome, "gpu_busy", fmt::format("GPU in use by others: {}; nothing was run", busy.describe()));
    if (!busy.checked) busy_not_checked = busy.not_checked;
  }
  // Counting GPUs initialises the CUDA driver but creates no context: the GPUs
  // themselves are opened only by the runner's worker processes.
  std::string why;
  bool old_driver = false;
  const int count = device_count(&why, &old_driver);
  if (count == 0) {
    return unusable(outcome, old_driver ? "driver_too_old" : "no_gpu",
                    fmt::format("{}; nothing was run. {}", why,
                                old_driver ? "The driver is older than this build's CUDA runtime needs (R580 or "
                                             "newer for CUDA 13.0)."
                                           : "Run it on a machine with an NVIDIA GPU and driver."));
  }
  if (!busy_not_checked.empty()) fmt::print(stderr, "gpuconform run: busy check skipped: {}\n", busy_not_checked);
  for (int index : devices)
    if (index >= count)
      return unusable(
          outcome, "bad_argument",
          fmt::format("--device {} does not exist (this machine has {} GPU(s): 0..{})", index, count, count - 1));
  if (devices.empty())
    for (int i = 0; i < count; ++i) devices.push_back(i);

  RunnerConfig config;
  config.worker = self_worker_command();
  config.expectations_dir = args.expectations_dir;
  config.overlays = args.overlays;
  config.level = *level;
  config.repeats = *level == RunLevel::long_run ? args.repeats : 1;
  if (args.probe_timeout_given) config.probe_timeout_s = args.probe_timeout_s;
  if (args.timeout_given) {
    // Counted from the start of the command: NHC's own limit counts from there too.
    config.deadline = args.started + std::chrono::duration_cast<WorkerProcess::Clock::duration>(
                                         std::chrono::duration<double>(args.timeout_s));
    outcome.timeout_s = args.timeout_s;
  }

  // Every GPU is opened (in parallel) and its expectations checked before any probe runs.
  std::vector<OpenedGpu> opened;
  try {
    opened = open_gpus(devices, probes, config);
  } catch (const ExpectationError& err) {
    fmt::print(stderr, "{}\n", err.what());
    return unusable(outcome, "invalid_expectations",
                    fmt::format("invalid expectation file(s): {}", first_line(err.what())));
  }
  outcome.gpus = run_gpus(opened, config, events);
  outcome.junit_paths = junit_file_paths(files.junit, outcome.gpus);
  return static_cast<int>(run_exit_code(tally_runs(outcome.gpus)));
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand(
      "run",
      "Run the conformance tests on all (or --device N) local GPUs.\n"
      "Exit codes: 0 every judged test passed or warned, 1 a test failed or a GPU could not be opened,\n"
      "2 could not run (no GPU, invalid file, a filter matching no probe), 3 a GPU is in use by others\n"
      "(gpu_busy: nothing was run; --allow-busy overrides), 77 nothing was judged (all skipped).");
  sub->add_option("--device", args->devices, "GPU ordinal(s) to test (default: all)");
  sub->add_option("--expectations", args->expectations_dir, "Expectation directory")->capture_default_str();
  sub->add_option("--overlay", args->overlays, "Extra expectation file(s) applied last")->check(CLI::ExistingFile);
  sub->add_option("--filter", args->filters, "Probe id glob(s), e.g. 'latency.*'")->capture_default_str();
  add_run_output_options(*sub, args->outputs);
  sub->add_option("--level", args->level,
                  "quick: a verdict from every probe group in seconds (node health checks); standard: every "
                  "probe once; long: every probe --repeats times, with the spread")
      ->capture_default_str();
  CLI::Option* repeats = sub->add_option("--repeats", args->repeats, "Runs of each probe at --level long")
                             ->capture_default_str();
  sub->add_flag("--quick", args->quick, "Same as --level quick");
  sub->add_option("--color", args->colour,
                  "Colour fail and warn on the console: auto (a terminal, unless NO_COLOR is set), always, never")
      ->capture_default_str();
  sub->add_flag("--allow-busy", args->allow_busy,
                "Run even when a GPU of the run holds other compute processes or is in an exclusive or "
                "prohibited compute mode (default: stop before any probe, exit 3, run error gpu_busy)");
  CLI::Option* timeout = sub->add_option("--probe-timeout", args->probe_timeout_s,
                  fmt::format("Time limit of every probe, seconds (default: max({:g}, {:g} x its recorded seconds), "
                              "else {:g})",
                              kTimeLimitFloorS, kTimeLimitFactor, kTimeLimitUnrecordedS));
  CLI::Option* run_timeout = sub->add_option(
      "--timeout", args->timeout_s,
      "Deadline of the whole run, seconds from its start: probes not started by then, and one still running "
      "then, are skipped (reason 'run timeout: ...', code run_timeout); the exit code is that of what ran");
  return [args, timeout, repeats, run_timeout] {
    args->started = WorkerProcess::Clock::now();
    args->timeout_given = run_timeout->count() > 0;
    args->probe_timeout_given = timeout->count() > 0;
    args->repeats_given = repeats->count() > 0;
    // The run's files and listeners, and the record's header, before anything is checked:
    // even a run that cannot run says why in its outputs.
    RunEvents events("gpuconform run");
    RunFiles files;
    try {
      files = plan_run_files(args->outputs);
      add_run_listeners(events, args->outputs, files);
      events.run_started(files.run);
    } catch (const std::exception& e) {
      fmt::print(stderr, "gpuconform run: {}; nothing was run\n", e.what());
      return kExitUnusable;
    }
    RunOutcome outcome;
    outcome.run = files.run;
    outcome.started = files.started;
    outcome.record_path = files.record;
    outcome.summary_path = files.summary;
    outcome.exit_code = run(*args, files, events, outcome);
    outcome.finished = std::chrono::system_clock::now();
    return events.run_ended(outcome);
  };
}

}  // namespace gpuconform::cli
