// SPDX-License-Identifier: Apache-2.0
// `gpuconform lint`: validate expectation files against the schema and the
// probe registry without touching a GPU; also the band policy (evidence/policy.toml),
// the throttle policy (evidence/throttle_policy.toml) and the peak tables (peaks/).
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "gpuconform/band_policy.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/throttle_policy.hpp"
#include "gpuconform/toml_reader.hpp"

namespace gpuconform::cli {
namespace {

// A file with thousands of mistakes (a wrong file given) must not bury the first ones.
constexpr std::size_t kMaxDiagnosticsPerFile = 50;

void print_diagnostics(const std::string& path, const std::vector<Diagnostic>& diags) {
  for (std::size_t i = 0; i < diags.size() && i < kMaxDiagnosticsPerFile; ++i) fmt::print("{}\n", diags[i].str());
  if (diags.size() > kMaxDiagnosticsPerFile)
    fmt::print("{}: ... {} more diagnostic(s) not shown\n", path, diags.size() - kMaxDiagnosticsPerFile);
}

// One file's diagnostics, whichever of the four kinds it is (by its name); the "ok" line
// says what was read.
std::vector<Diagnostic> lint_one(const std::string& path, std::string& ok) {
  const Registry& reg = Registry::instance();
  const std::string name = std::filesystem::path(path).filename().string();
  std::vector<Diagnostic> diags;
  if (is_peak_table_path(path)) {  // expectations/peaks/sm_XX.toml: per-SM peak rates, not expectations
    const PeakTable t = parse_peak_file(path, diags);
    ok = fmt::format("{} peak entries", t.entries.size());
  } else if (name == "policy.toml") {  // expectations/evidence/policy.toml: how evidence becomes bands
    const BandPolicy p = parse_band_policy_file(path, diags);
    ok = fmt::format("band policy: {} classes, {} supersede, {} exclude, {} invariants", p.classes.size(),
                     p.supersedes.size(), p.exclusions.size(), p.invariants.size());
  } else if (name == "throttle_policy.toml") {  // which clock events fail a measurement
    const ThrottlePolicy t = parse_throttle_policy_text(read_text_file(path).value_or(""), path, diags);
    ok = fmt::format("throttle policy: {} fault event(s)", t.faults.size());
  } else {
    const ExpectationFile f = parse_expectation_file(
        path, diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
    // The parser rejects an id that is both an entry and [[omitted]] (file:line of the
    // omission, naming the entry's line) and an id omitted twice.
    ok = fmt::format("{} entries, {} waivers, {} omitted", f.entries.size(), f.waivers.size(), f.omitted.size());
  }
  return diags;
}

int lint(const std::vector<std::string>& files) {
  bool invalid = false, unreadable = false;
  for (const std::string& path : files) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      fmt::print(stderr, "{}: is a directory; lint takes files (e.g. {}/*.toml)\n", path, path);
      unreadable = true;
      continue;
    }
    if (!std::ifstream(path)) {
      fmt::print(stderr, "{}: cannot read the file\n", path);
      unreadable = true;
      continue;
    }
    std::string ok;
    const std::vector<Diagnostic> diags = lint_one(path, ok);
    print_diagnostics(path, diags);
    if (diags.empty()) fmt::print("{}: ok ({})\n", path, ok);
    invalid |= !diags.empty();
  }
  if (unreadable) return kExitUnusable;
  return invalid ? kExitFailed : kExitOk;
}

}  // namespace

Command add_lint_command(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  CLI::App* sub = app.add_subcommand("lint", "Validate expectation files, peak tables and the band and throttle policies (exit 0 "
                                           "valid, 1 invalid, 2 unreadable or a directory)");
  sub->add_option("files", *files, "Expectation files, peaks/sm_XX.toml, evidence/policy.toml, "
                                   "evidence/throttle_policy.toml")->required();
  return [files] { return lint(*files); };
}

}  // namespace gpuconform::cli
