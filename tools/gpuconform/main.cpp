// SPDX-License-Identifier: Apache-2.0
// gpuconform: command-line front end. Parsing only; the work is in harness/.
#include <fmt/format.h>

#include <exception>
#include <map>

#include "commands.hpp"
#include "gpuconform/run_record.hpp"

int main(int argc, char** argv) {
  using namespace gpuconform::cli;
  CLI::App app{"gpuconform: hardware conformance suite for NVIDIA GPUs.\n"
               "Exit codes: 0 all passed (or warned), 1 a check failed or a file is invalid, 2 could not run,\n"
               "77 (run) nothing was judged: every selected probe skipped."};
  app.set_version_flag("--version",
                       fmt::format("gpuconform {} (suite commit {})", gpuconform::suite_version(),
                                   gpuconform::suite_git_commit()),
                       "Print the version and the suite commit, then exit");
  app.require_subcommand(1, 1);
  // One subcommand per line, in the order --help lists them.
  // clang-format off
  const std::map<std::string, Command> commands = {
      {"run", add_run_command(app)},
      {"record", add_record_command(app)},
      {"lint", add_lint_command(app)},
      {"list", add_list_command(app)},
      {"vectors", add_vectors_command(app)},
      {"probe", add_probe_command(app)},
      {"compare", add_compare_command(app)},
      {"judge", add_judge_command(app)},
      {"report", add_report_command(app)},
      {"resources", add_resources_command(app)},
      {"mathref", add_mathref_command(app)},
      {"worker", add_worker_command(app)},
  };
  // clang-format on
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUnusable;
  }
  try {
    for (const auto& [name, command] : commands)
      if (app.got_subcommand(name)) return command();
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform: {}\n", e.what());
    return kExitUnusable;
  }
  return kExitUnusable;
}
