// SPDX-License-Identifier: Apache-2.0
// `gpuconform probe numerics`: investigate the tensor-core arithmetic of a live GPU. The
// pipeline is the numerics library's (gpuconform/numerics/numerics_probe.hpp: survey every
// MMA path, fit the block-FMA model, write numeric.feature.* entries with --out); this
// command parses, calls it and prints one line per path plus one model-table row each.
// Exit: 0 every path's fit reproduces every output, 1 some output or self-test not,
// 2 could not run (no GPU, bad arguments, unwritable output).
#include <fmt/format.h>

#include <memory>

#include "commands.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/numerics/numerics_probe.hpp"

namespace gpuconform::cli {
namespace {

using namespace gpuconform::numerics;

void print_report(const NumericsProbeReport& r) {
  fmt::print("\n== fitted parameters (one line per path; '= MODEL': the table's model agrees)\n");
  for (const PathFit& f : r.fits) fmt::print("{}\n", f.fit.error.empty() ? infer_line(f.fit) : "FAILED " + f.fit.error);
  fmt::print("\n== model-table rows (reference/src/models.cpp kRows)\n");
  for (const PathFit& f : r.fits) fmt::print("{}\n", model_table_row(f, r.facts));
}

int numerics(const NumericsProbeOptions& args) {
  const Registry& reg = Registry::instance();
  NumericsProbeProgress progress;  // the header and the skipped paths as the run goes
  progress.opened = [](const SurveyFacts& f) {
    fmt::print("{}, {}, driver {}, nvcc {}\n", f.device, f.arch, f.driver, f.nvcc);
  };
  progress.skipped = [](const std::string& variant, const std::string& why) {
    fmt::print("skipped {}: {}\n", variant, why);
  };
  const NumericsProbeReport r =
      probe_numerics(args, [&](const std::string& id) { return reg.find(id) != nullptr; }, progress);
  auto unusable = [&] {
    fmt::print(stderr, "gpuconform probe numerics: {}\n", r.error);
    return kExitUnusable;
  };
  if (r.stop != NumericsProbeStop::kNone && r.stop != NumericsProbeStop::kWrite) return unusable();
  print_report(r);
  if (r.stop == NumericsProbeStop::kWrite) return unusable();
  if (!args.out.empty()) {
    if (!r.left_out.empty()) {
      fmt::print("\n== parameters not written (the data do not pin them)\n");
      for (const std::string& line : r.left_out) fmt::print("{}\n", line);
    }
    fmt::print("\n{} numeric.feature.* entries written to {} (vector files in {})\n", r.entries_written, args.out,
               r.vectors_dir);
  }
  fmt::print("{} paths probed, {} skipped: GPU {:.1f} s, total {:.1f} s ({} fit workers)\n", r.fits.size(),
             r.skipped.size(), r.gpu_seconds, r.total_seconds, r.jobs);
  if (r.io_error) return kExitUnusable;
  return r.unmatched ? kExitFailed : kExitOk;
}

}  // namespace

Command add_probe_command(CLI::App& app) {
  auto args = std::make_shared<NumericsProbeOptions>();
  CLI::App* probe = app.add_subcommand("probe", "Investigate a live GPU: infer its tensor-core arithmetic");
  probe->require_subcommand(1, 1);
  CLI::App* num = probe->add_subcommand(
      "numerics", "Run discriminating MMA vectors on every path the GPU supports, fit the block-FMA model, print the "
                  "parameters and model-table rows; --out writes numeric.feature.* entries. Exit 0 every output "
                  "reproduced, 1 not, 2 could not run");
  num->add_option("--device", args->device, "GPU ordinal")->capture_default_str();
  num->add_option("--out", args->out,
                  "Expectation file to write (numeric.feature.* entries); its vector files go to STEM-vectors/ "
                  "beside it, the entries' source");
  num->add_option("--variant", args->variant_glob, "Only the MMA variants matching this glob")->capture_default_str();
  num->add_option("--per-class", args->per_class, "Random instances per input class")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  num->add_option("--simulate", args->simulate_arch,
                  "No GPU: take D from this architecture's models (tests the pipeline; not a measurement)");
  num->add_option("--jobs", args->jobs, "Fits in parallel (0: one per core)")->capture_default_str()->check(CLI::Range(0, 1024));
  return [=] {
    if (num->parsed()) return numerics(*args);
    return kExitUnusable;
  };
}

}  // namespace gpuconform::cli
