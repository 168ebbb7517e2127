// SPDX-License-Identifier: Apache-2.0
#include "console.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "gpuconform/verdict_matrix.hpp"

namespace gpuconform::cli {

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
  for (const std::string& l : lines) fmt::print("  {}\n", l);
  fmt::print("\n{} passed, {} failed, {} warned, {} skipped\n", totals.passed, totals.failed, totals.warned,
             totals.skipped);
}

}  // namespace gpuconform::cli
