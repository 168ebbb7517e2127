// SPDX-License-Identifier: Apache-2.0
// `gpuconform lint`: validate expectation files against the schema and the
// probe registry without touching a GPU.
#include <fmt/format.h>

#include <fstream>

#include "commands.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::cli {
namespace {

int lint(const std::vector<std::string>& files) {
  const Registry& reg = Registry::instance();
  bool invalid = false, unreadable = false;
  for (const std::string& path : files) {
    if (!std::ifstream(path)) {
      fmt::print(stderr, "{}: cannot read the file\n", path);
      unreadable = true;
      continue;
    }
    std::vector<Diagnostic> diags;
    if (is_peak_table_path(path)) {  // expectations/peaks/sm_XX.toml: per-SM peak rates, not expectations
      const PeakTable t = parse_peak_file(path, diags);
      for (const Diagnostic& d : diags) fmt::print("{}\n", d.str());
      if (diags.empty()) fmt::print("{}: ok ({} peak entries)\n", path, t.entries.size());
      invalid |= !diags.empty();
      continue;
    }
    const ExpectationFile f = parse_expectation_file(
        path, diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
    for (const Diagnostic& d : diags) fmt::print("{}\n", d.str());
    if (diags.empty())
      fmt::print("{}: ok ({} entries, {} waivers)\n", path, f.entries.size(), f.waivers.size());
    invalid |= !diags.empty();
  }
  if (unreadable) return kExitUnusable;
  return invalid ? kExitFailed : kExitOk;
}

}  // namespace

Command add_lint_command(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand("lint", "Validate expectation files (exit 0 valid, 1 invalid, 2 unreadable)");
  sub->add_option("files", *files, "Expectation files")->required();
  return [files] { return lint(*files); };
}

}  // namespace gpuconform::cli
