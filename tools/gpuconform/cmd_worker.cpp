// SPDX-License-Identifier: Apache-2.0
// `gpuconform worker`: hidden; the process the runner starts to touch a GPU
// (harness runner.hpp). Not for people: it reports on a pipe, not the terminal.
#include "commands.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform::cli {

Command add_worker_command(CLI::App& app) {
  auto args = std::make_shared<WorkerArgs>();
  CLI::App* sub = app.add_subcommand("worker", "internal: runs probes for `gpuconform run`");
  sub->group("");  // hidden from --help
  sub->add_option("--report-fd", args->report_fd, "Descriptor to report events on")->required();
  sub->add_option("--device", args->device, "GPU ordinal")->required();
  sub->add_option("--expectations", args->expectations_dir, "Expectation directory");
  sub->add_option("--overlay", args->overlays, "Extra expectation file(s) applied last");
  sub->add_flag("--quick", args->quick, "Fewer repeats");
  sub->add_flag("--describe", args->describe, "Open the GPU, report it and exit");
  sub->add_option("--probe", args->probes, "Probe ids, run in order");
  sub->add_option("--peer", args->peers, "Pair and node probes: the other GPU ordinal(s)");
  sub->add_option("--own-pid", args->own_pids, "Earlier workers of this run (never a disturbance)");
  return [args] { return run_worker(*args); };
}

}  // namespace gpuconform::cli
