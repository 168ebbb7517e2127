// SPDX-License-Identifier: Apache-2.0
#pragma once
// The runner: the one place that owns a GPU's run. For one device it opens the
// GPU in a worker process, snapshots its state (NVML) before and after, and runs
// the selected probes in worker processes under a per-probe time limit:
//
// - a probe that exceeds its limit fails with "timed out after N s"; the worker
//   (its whole process group) is killed and a fresh one runs the remaining probes;
// - a probe that leaves a sticky CUDA error (illegal address, launch failure) fails
//   with the error's name; the worker exits and a fresh one continues;
// - a worker that dies fails the probe it was running with how it died;
// - every verdict goes to the run's listeners as soon as it exists (run_listener.hpp:
//   the run record, the console, ...).
//
// The parent never creates a CUDA context (the worker reports the device), so
// NVML sees only the worker on the GPU and no fault can reach the parent. The
// CLI (`gpuconform run`) is a thin front end over run_gpus, which runs every opened
// GPU at once, one thread (and one worker at a time) per GPU: the GPUs share no state
// but the listeners, whose calls RunEvents serialises. Workers die with the thread that
// started them (PR_SET_PDEATHSIG): keep that thread in the GPU's thread of run_gpus.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/conformance.hpp"
#include "gpuconform/run_level.hpp"
#include "gpuconform/run_listener.hpp"
#include "gpuconform/worker_process.hpp"

namespace gpuconform {

// Time limits. A probe's default limit is max(kTimeLimitFloorS, kTimeLimitFactor x
// the seconds it took when its expectation was recorded); with no recorded
// seconds, kTimeLimitUnrecordedS. `override_s` (--probe-timeout) wins.
constexpr double kTimeLimitFloorS = 60;
constexpr double kTimeLimitFactor = 10;
constexpr double kTimeLimitUnrecordedS = 300;
double probe_time_limit(const Expectation* expectation, std::optional<double> override_s);

// Limit for a worker to open the GPU, to start its next probe, and to exit
// (CUDA context creation and teardown, loading expectations).
constexpr double kWorkerStartLimitS = 120;

// The whole run's deadline (`run --timeout S`): a probe not started when it expires is
// skipped, and one still running then is stopped and skipped, each with a reason that
// starts with kRunTimeoutPrefix (summary.json gives them the code run_timeout). A probe
// past its own time limit still fails ("timed out after N s": code probe_timeout).
inline constexpr const char* kRunTimeoutPrefix = "run timeout: ";
inline constexpr const char* kProbeTimeoutPrefix = "timed out after ";

// Exit codes of a worker process.
constexpr int kWorkerExitDone = 0;
constexpr int kWorkerExitContextLost = 3;  // a probe left a sticky CUDA error
constexpr int kWorkerExitNoDevice = 4;     // the GPU could not be opened
constexpr int kWorkerExitFatal = 5;        // could not go on (expectations, bad arguments)

// --- the process layer (no GPU knowledge; tested on the CPU with a fake worker)

// What the supervisor reports as probes end.
struct ProbeSupervision {
  // A worker started the probe (optional; for progress displays).
  std::function<void(const std::string& probe)> started;
  // Time limit of each probe, seconds.
  std::function<double(const std::string& probe)> time_limit;
  // A worker finished the probe: its record line (verdict inside).
  std::function<void(const std::string& probe, const nlohmann::json& record)> finished;
  // The runner judged the probe itself: timed out, the worker died, not run.
  std::function<void(const std::string& probe, const std::string& reason, double seconds)> failed;
  double start_limit_s = kWorkerStartLimitS;
  // How the front end's user raises a probe's limit, for the time-out's reason (the gtest
  // binary's is GPUCONFORM_PROBE_TIMEOUT).
  std::string raise_limit_with = "--probe-timeout";
  // The run's deadline (optional): probes not started by then, and the one running then,
  // are passed to `skipped` with a kRunTimeoutPrefix reason (to `failed` when unset).
  std::optional<WorkerProcess::Clock::time_point> run_deadline;
  std::function<void(const std::string& probe, const std::string& reason, double seconds)> skipped;
};

// Runs `probes` in order through workers started as `command` + `args` +
// `--probe ID...` (the remaining ones), restarting after a timeout or a dead
// worker, until every probe has a verdict.
void supervise_probes(const WorkerCommand& command, const std::vector<std::string>& args,
                      const std::vector<std::string>& probes, const ProbeSupervision& hooks);

// Opens the GPU in a worker (`args` + `--describe`) and returns its identity,
// or the reason it could not be opened in `error`.
std::optional<DeviceInfo> describe_device(const WorkerCommand& command, const std::vector<std::string>& args,
                                          std::string& error, double limit_s = kWorkerStartLimitS);

// --- selection

// The selectable probes (is_selectable: self-tests only in self-test mode)
// whose id matches any of `filters`, in registry (id) order.
std::vector<const Probe*> select_probes(const std::vector<std::string>& filters);
// "latency.alu.*, latency.mem.*, ...": the selectable probe groups, for the
// message when a filter matches nothing.
std::string selectable_probe_groups();

// --- the run

struct RunnerConfig {
  WorkerCommand worker;               // self_worker_command() in the CLI
  std::string expectations_dir;
  std::vector<std::string> overlays;
  RunLevel level = RunLevel::standard;
  int repeats = 1;                    // passes over the selection (--level long)
  std::optional<double> probe_timeout_s;  // overrides every probe's limit
  // The whole run's deadline (--timeout): see kRunTimeoutPrefix. Opening a GPU is bounded
  // by it too.
  std::optional<WorkerProcess::Clock::time_point> deadline;
};

// `/proc/self/exe worker`: the running binary's hidden worker subcommand.
WorkerCommand self_worker_command();

// A GPU after its describe worker: its identity and expectations, and what its
// level selects, or why it could not be opened.
struct OpenedGpu {
  int index = 0;
  std::optional<DeviceInfo> device;
  std::string open_error;  // the GPU could not be opened: a failure of this GPU
  ExpectationSet expectations;
  std::vector<const Probe*> probes;  // select_for_level of the filtered probes
  std::size_t selectable = 0;        // how many filtered probes the level selected from
};

struct GpuRun {
  int index = 0;
  std::optional<DeviceInfo> device;
  std::string open_error;
  // One result per probe, in run order; at --level long the runs of a probe merged
  // (aggregate_runs), whose spreads are in `repeated`.
  std::vector<TestResult> results;
  std::vector<RepeatedResult> repeated;
};

// Opens GPU `index` in a describe worker, loads its expectations and selects its
// probes for the level. Throws ExpectationError for an invalid expectation file
// (nothing can be judged on any GPU).
OpenedGpu open_gpu(int index, const std::vector<const Probe*>& probes, const RunnerConfig& config);
// The same for several GPUs at once (their describe workers run in parallel),
// in `indices` order. Throws ExpectationError before any probe has run.
std::vector<OpenedGpu> open_gpus(const std::vector<int>& indices, const std::vector<const Probe*>& probes,
                                 const RunnerConfig& config);

// Every opened GPU at once, one thread each; results in `gpus` order. Emits to `events`
// (run_listener.hpp): gpus_opened first, then per GPU its state before, every probe's
// start and verdict (and at --level long its spread), its state after and gpu_finished;
// `gpu` in each is the GPU's position in `gpus`. Every verdict's record line carries the
// run's level (and at --level long which run it was). An unopened GPU gets no results.
// With two or more opened GPUs, the pair and node probes (Probe::scope) wait until
// every GPU's own probes are done, then run one worker at a time: each pair probe once
// per ordered pair (A, B), in A's results with peers {B}; each node probe once, on the
// first opened GPU with every other as a peer. With fewer, they run with the GPU's own
// probes, meet no peer and skip, saying that a second GPU is needed.
// A listener that throws stops its GPU; the exception is rethrown once every GPU is done.
std::vector<GpuRun> run_gpus(const std::vector<OpenedGpu>& gpus, const RunnerConfig& config, RunEvents& events);

// The parent's view of a worker's record line (a `finished` event): verdict, reason,
// seconds and measurement, with `probe` and its expectation in `expectations`; enough for
// the summary, JUnit and gtest's properties (the line itself goes to the run record).
TestResult result_from_record(const Probe* probe, const nlohmann::json& record, const ExpectationSet& expectations);

// A verdict the parent makes itself (timed out, the worker died, not run): `probe` with
// `outcome` and `reason`, its expectation from `expectations`, run against `peers`.
TestResult judged_by_runner(const Probe* probe, Outcome outcome, const std::string& reason, double seconds,
                            const std::vector<DeviceInfo>& peers, const ExpectationSet& expectations);

// The worker side: `gpuconform worker --report-fd 3 --device N ... --probe ID...`.
struct WorkerArgs {
  int report_fd = WorkerProcess::kReportFd;
  int device = 0;
  std::string expectations_dir;
  std::vector<std::string> overlays;
  bool quick = false;
  bool describe = false;  // open the GPU, report it, exit
  std::vector<std::string> probes;
  std::vector<int> peers;  // pair and node probes: the other GPUs (ProbeContext::peers)
  std::vector<unsigned> own_pids;  // earlier workers of this run: not "another process" (gpu_state.hpp)
};
// Command-line arguments (after the worker command) that make a worker of `args`.
std::vector<std::string> worker_arguments(const WorkerArgs& args);
// The inverse, for every binary that can be a worker (`gpuconform worker`, `gpuconform_gpu_tests
// worker`): `args` as worker_arguments writes them (each option and its value, or
// `--option=value`), plus the supervisor's `--own-pid N`. --report-fd and --device are
// required. Throws std::invalid_argument naming a missing, unknown or malformed argument.
WorkerArgs parse_worker_arguments(const std::vector<std::string>& args);
// Runs in the worker process; returns its exit code (kWorkerExit*).
int run_worker(const WorkerArgs& args);

}  // namespace gpuconform
