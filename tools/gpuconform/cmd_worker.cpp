// SPDX-License-Identifier: Apache-2.0
// `gpuconform worker`: hidden; the process the runner starts to touch a GPU
// (harness runner.hpp). Not for people: it reports on a pipe, not the terminal.
#include <string>
#include <vector>

#include "commands.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform::cli {

Command add_worker_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("worker", "internal: runs probes for `gpuconform run`");
  sub->group("");  // hidden from --help
  // Every argument after `worker` is passed through as it came and read by the runner's own
  // parser (parse_worker_arguments), the one gpuconform_gpu_tests' workers use too, so the
  // two binaries' workers cannot read the runner's arguments differently.
  sub->prefix_command();
  return [sub] { return run_worker(parse_worker_arguments(sub->remaining())); };
}

}  // namespace gpuconform::cli
