#include "console.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpuconform::cli {

void print_device_header(const DeviceInfo& d, const ExpectationSet& expectations) {
  fmt::print("== GPU {}: {} ({}, SKU {}, {} SMs, driver {}, CUDA runtime {})\n", d.index, d.name, d.arch(),
             d.sku().empty() ? "unknown" : d.sku(), d.sm_count, d.driver_version.empty() ? "?" : d.driver_version,
             d.cuda_runtime_version);
  if (expectations.files().empty())
    fmt::print("   no expectation file for {}: every probe will be skipped (see `gpuconform record`)\n", d.arch());
  for (const auto& f : expectations.files()) fmt::print("   expectations: {}\n", f);
}

void print_progress(std::size_t done, std::size_t total, const TestResult& r) {
  fmt::print("[{:>3}/{}] {:<44} {:<4} {:6.2f} s\n", done, total, r.probe->id, outcome_name(r.verdict.outcome),
             r.seconds);
  std::fflush(stdout);
}

static std::string measured_text(const TestResult& r) {
  if (!r.measurement) return "-";
  const Measurement& m = *r.measurement;
  if (m.peak) return fmt::format("{} ({:.3f} of peak)", format_value(m.value, m.unit), m.value / *m.peak);
  if (m.compared) return fmt::format("{:.0f} of {} differ", m.value, m.compared);
  return format_value(m.value, m.unit);
}

void print_summary(const std::vector<TestResult>& results) {
  std::size_t wid = 4;
  for (const auto& r : results) wid = std::max(wid, r.probe->id.size());
  fmt::print("\n{:<{}}  {:<28}  {:<34}  {}\n", "test", wid, "measured", "expected", "verdict");
  int counts[4] = {0, 0, 0, 0};
  for (const auto& r : results) {
    ++counts[static_cast<int>(r.verdict.outcome)];
    const std::string expected = r.expectation ? describe_expected(*r.expectation) : "-";
    fmt::print("{:<{}}  {:<28}  {:<34}  {}\n", r.probe->id, wid, measured_text(r), expected,
               outcome_name(r.verdict.outcome));
  }
  bool header = false;
  for (const auto& r : results) {
    if (r.verdict.outcome == Outcome::pass) continue;
    if (!header) fmt::print("\nDetails:\n");
    header = true;
    fmt::print("  {} {}: {}\n", outcome_name(r.verdict.outcome), r.probe->id, r.verdict.reason);
  }
  fmt::print("\n{} passed, {} failed, {} warned, {} skipped\n", counts[static_cast<int>(Outcome::pass)],
             counts[static_cast<int>(Outcome::fail)], counts[static_cast<int>(Outcome::warn)],
             counts[static_cast<int>(Outcome::skip)]);
}

}  // namespace gpuconform::cli
