// SPDX-License-Identifier: Apache-2.0
// `gpuconform run`: the conformance suite on the local GPUs. A thin front end
// over the runner (harness runner.hpp): it selects probes, checks arguments
// before touching a GPU, prints progress, and turns the results into the exit
// code (exit_code.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "commands.hpp"
#include "console.hpp"
#include "run_display.hpp"
#include "gpuconform/atomic_file.hpp"
#include "gpuconform/console_colour.hpp"
#include "gpuconform/exit_code.hpp"
#include "gpuconform/gpu_busy.hpp"
#include "gpuconform/junit.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_level.hpp"
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

void tally(RunTally& t, const std::vector<TestResult>& results) {
  for (const TestResult& r : results) switch (r.verdict.outcome) {
      case Outcome::pass: ++t.passed; break;
      case Outcome::fail: ++t.failed; break;
      case Outcome::warn: ++t.warned; break;
      case Outcome::skip: ++t.skipped; break;
    }
}

// Exit 2 (3 for gpu_busy) with its reason: printed, and kept for summary.json, the
// termination log and the Prometheus textfile (run_error.hpp).
int unusable(RunOutputs& outputs, const char* code, const std::string& message) {
  fmt::print(stderr, "gpuconform run: {}\n", message);
  outputs.set_error(RunError{code, message});
  return run_error_exit_code(code);
}

// The options that need no GPU: colour, level, repeats, time limits, device ordinals. The
// exit code (after the message) when one is wrong.
std::optional<int> check_arguments(const RunArgs& args, RunOutputs& outputs, std::optional<RunLevel>& level,
                                   std::vector<int>& devices) {
  if (!parse_colour_mode(args.colour))
    return unusable(outputs, "bad_argument",
                    fmt::format("--color must be auto, always or never (not '{}')", args.colour));
  level = parse_level(args.level);
  if (!level)
    return unusable(outputs, "bad_argument",
                    fmt::format("--level must be quick, standard or long (not '{}')", args.level));
  if (args.quick) level = RunLevel::quick;
  if (args.repeats_given && *level != RunLevel::long_run)
    return unusable(outputs, "bad_argument", "--repeats applies to --level long only");
  if (*level == RunLevel::long_run && args.repeats < 2)
    return unusable(outputs, "bad_argument", "--repeats must be 2 or more (a spread needs several runs)");
  if (args.probe_timeout_given && !(args.probe_timeout_s > 0))
    return unusable(outputs, "bad_argument", "--probe-timeout must be a positive number of seconds");
  if (args.timeout_given && !(args.timeout_s > 0 && args.timeout_s < 1e8))
    return unusable(outputs, "bad_argument", "--timeout must be a positive number of seconds");
  for (int index : args.devices) {
    if (index < 0)
      return unusable(outputs, "bad_argument", fmt::format("--device {} is not a GPU ordinal (0, 1, ...)", index));
    if (std::find(devices.begin(), devices.end(), index) == devices.end()) devices.push_back(index);
  }
  return std::nullopt;
}

int run(const RunArgs& args, RunOutputs& outputs) {
  setup_colour(parse_colour_mode(args.colour) ? args.colour : "never", "run");  // a bad value: check_arguments
  // Everything that can be checked without a GPU is checked before any CUDA call.
  const std::vector<const Probe*> probes = select_probes(args.filters);
  if (probes.empty()) {
    std::string filters;
    for (const auto& f : args.filters) filters += (filters.empty() ? "'" : " '") + f + "'";
    // The group list goes to stderr only: the recorded reason stays one short line.
    const int code =
        unusable(outputs, "no_probe_selected", fmt::format("--filter {} matches no probe; nothing was run", filters));
    fmt::print(stderr, "Probe groups: {}{}\n", selectable_probe_groups(),
               selftest_enabled() ? "" : " (self-test probes need GPUCONFORM_SELFTEST=1)");
    return code;
  }
  std::optional<RunLevel> level;
  std::vector<int> devices;
  if (const std::optional<int> code = check_arguments(args, outputs, level, devices)) return *code;
  // The busy guard, through NVML before CUDA is initialised: a GPU that holds someone
  // else's work is not measured (gpu_busy.hpp). Without NVML the run goes on and says so.
  std::string busy_not_checked;
  if (!args.allow_busy) {
    const BusyCheck busy = check_gpus_busy(devices);
    if (!busy.busy.empty())
      return unusable(outputs, "gpu_busy", fmt::format("GPU in use by others: {}; nothing was run", busy.describe()));
    if (!busy.checked) busy_not_checked = busy.not_checked;
  }
  // Counting GPUs initialises the CUDA driver but creates no context: the GPUs
  // themselves are opened only by the runner's worker processes.
  std::string why;
  bool old_driver = false;
  const int count = device_count(&why, &old_driver);
  if (count == 0) {
    return unusable(outputs, old_driver ? "driver_too_old" : "no_gpu",
                    fmt::format("{}; nothing was run. {}", why,
                                old_driver ? "The driver is older than this build's CUDA runtime needs (R580 or "
                                             "newer for CUDA 13.0)."
                                           : "Run it on a machine with an NVIDIA GPU and driver."));
  }
  if (!busy_not_checked.empty()) fmt::print(stderr, "gpuconform run: busy check skipped: {}\n", busy_not_checked);
  for (int index : devices)
    if (index >= count)
      return unusable(
          outputs, "bad_argument",
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
  config.record_path = outputs.record_path();
  if (args.timeout_given) {
    // Counted from the start of the command: NHC's own limit counts from there too.
    config.deadline = args.started + std::chrono::duration_cast<WorkerProcess::Clock::duration>(
                                         std::chrono::duration<double>(args.timeout_s));
    outputs.set_timeout(args.timeout_s);
  }

  // Every GPU is opened (in parallel) and its expectations checked before any probe runs.
  std::vector<OpenedGpu> opened;
  try {
    opened = open_gpus(devices, probes, config);
  } catch (const ExpectationError& err) {
    fmt::print(stderr, "{}\n", err.what());
    return unusable(outputs, "invalid_expectations",
                    fmt::format("invalid expectation file(s): {}", first_line(err.what())));
  }
  for (const OpenedGpu& g : opened) {
    if (!g.device) {
      fmt::print("== GPU {}\nfail {}\n", g.index, g.open_error);
      continue;
    }
    print_device_header(*g.device, g.expectations);
    fmt::print("   level {}: {} of {} selected probe(s){}\n", level_name(config.level), g.probes.size(),
               probes.size(), config.repeats > 1 ? fmt::format(", {} runs each", config.repeats) : "");
  }
  std::fflush(stdout);

  std::vector<GpuRun> runs;
  {
    RunDisplay display(opened, config.repeats, RunDisplay::stdout_is_live_terminal());
    ParallelRunHooks hooks;
    hooks.started = [&](std::size_t gpu, const std::string& probe, int pass) { display.started(gpu, probe, pass); };
    hooks.result = [&](std::size_t gpu, const TestResult& r, int pass) { display.result(gpu, r, pass); };
    hooks.finished = [&](std::size_t gpu) { display.finished(gpu); };
    runs = run_gpus(opened, config, hooks);
    display.close();
  }

  RunTally totals;
  std::vector<std::string> junit_files;
  for (const GpuRun& gpu : runs) {
    if (!gpu.device) {
      ++totals.gpus_unopened;
      outputs.add(std::move(gpu), "");
      continue;
    }
    tally(totals, gpu.results);
    if (!gpu.repeated.empty()) print_spreads(gpu);
    const std::string junit = outputs.junit_path(gpu.index, runs.size() > 1);
    write_file_atomically(junit, junit_xml(gpu.results, *gpu.device));  // throws, naming the file, if unwritable
    junit_files.push_back(junit);
    outputs.add(std::move(gpu), junit);
  }
  print_run_end(runs, totals);
  fmt::print("run record: {}\n", outputs.record_path());
  for (const auto& j : junit_files) fmt::print("junit: {}\n", j);
  const RunExit code = run_exit_code(totals);
  if (totals.gpus_unopened) fmt::print("{} GPU(s) could not be opened: failed\n", totals.gpus_unopened);
  if (code == RunExit::nothing_judged)
    fmt::print("nothing was judged: every selected probe skipped (exit code {}); see the skip reasons above\n",
               kExitNothingJudged);
  return static_cast<int>(code);
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
    std::unique_ptr<RunOutputs> outputs;
    try {
      outputs = std::make_unique<RunOutputs>(args->outputs);
    } catch (const std::exception& e) {
      fmt::print(stderr, "gpuconform run: {}; nothing was run\n", e.what());
      return kExitUnusable;
    }
    return outputs->finish(run(*args, *outputs));
  };
}

}  // namespace gpuconform::cli
