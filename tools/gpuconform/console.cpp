// SPDX-License-Identifier: Apache-2.0
#include "console.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>

#include "gpuconform/console_colour.hpp"
#include "gpuconform/verdict_matrix.hpp"

namespace gpuconform::cli {

namespace {
std::atomic<bool> colour_on{false};
}  // namespace

void set_colour(bool on) { colour_on = on; }
bool colour() { return colour_on; }

bool setup_colour(const std::string& mode, const char* command) {
  const std::optional<ColourMode> m = parse_colour_mode(mode);
  if (!m) {
    fmt::print(stderr, "gpuconform {}: --color must be auto, always or never (not '{}')\n", command, mode);
    return false;
  }
  set_colour(colour_wanted(*m, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM")));
  return true;
}

void print_device_header(const DeviceInfo& d, const ExpectationSet& expectations) {
  fmt::print("== GPU {}: {} ({}, SKU {}, {} SMs, driver {}, CUDA runtime {})\n", d.index, d.name, d.arch(),
             d.sku().empty() ? "unknown" : d.sku(), d.sm_count, d.driver_version.empty() ? "?" : d.driver_version,
             d.cuda_runtime_version);
  if (expectations.files().empty())
    fmt::print("   no expectation file for {}: every probe will be skipped (see `gpuconform record`)\n", d.arch());
  for (const auto& f : expectations.files()) fmt::print("   expectations: {}\n", f);
}

void print_spreads(const GpuRun& gpu) {
  std::size_t wid = 4;
  for (const auto& r : gpu.repeated) wid = std::max(wid, r.result.probe ? r.result.probe->id.size() : 1);
  fmt::print("\nGPU {}: spread over the runs of each probe\n{:<{}}  {:>5}  {:>14}  {:>12}  {:>14}  {:>14}  {}\n",
             gpu.index, "test", wid, "runs", "median", "MAD", "min", "max", "verdict");
  for (const RepeatedResult& r : gpu.repeated) {
    const std::string id = r.result.probe ? r.result.probe->id : "?";
    if (!r.spread) {
      fmt::print("{:<{}}  {:>5}  {:>14}  {:>12}  {:>14}  {:>14}  {}\n", id, wid, r.runs, "-", "-", "-", "-",
                 outcome_name(r.result.verdict.outcome));
      continue;
    }
    const std::string unit = r.result.measurement ? r.result.measurement->unit : std::string();
    fmt::print("{:<{}}  {:>5}  {:>14}  {:>12}  {:>14}  {:>14}  {}\n", id, wid, r.spread->n,
               format_value(r.spread->median, unit), format_value(r.spread->mad, unit),
               format_value(r.spread->min, unit), format_value(r.spread->max, unit),
               outcome_name(r.result.verdict.outcome));
  }
}

void print_run_end(const std::vector<GpuRun>& runs, const RunTally& totals) {
  fmt::print("\n{}", verdict_matrix(runs));
  const std::vector<std::string> lines = non_pass_lines(runs);
  if (!lines.empty()) fmt::print("\nNot passed:\n");
  for (const std::string& l : lines) fmt::print("  {}\n", paint_first_verdict(l, colour()));
  fmt::print("\n{} passed, {} {}, {} {}, {} skipped\n", totals.passed, totals.failed,
             paint_word("failed", colour() && totals.failed > 0), totals.warned,
             paint_word("warned", colour() && totals.warned > 0), totals.skipped);
}

}  // namespace gpuconform::cli
