#include "gpuconform/verdict_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "gpuconform/run_level.hpp"

namespace gpuconform {
namespace {

using Counts = std::array<int, 4>;  // indexed by Outcome: pass, fail, warn, skip

std::string cell(const Counts& c) { return fmt::format("{}/{}/{}/{}", c[0], c[1], c[2], c[3]); }

std::string column_key(const GpuRun& run) {
  if (!run.device) return fmt::format("GPU {}: not opened", run.index);
  const DeviceInfo& d = *run.device;
  return fmt::format("GPU {}: {} {} ({})", run.index, d.name, d.uuid, d.pci_bus_id);
}

}  // namespace

std::string verdict_matrix(const std::vector<GpuRun>& runs) {
  std::vector<std::string> groups;
  std::map<std::string, std::vector<Counts>> counts;  // group -> per GPU
  std::vector<Counts> all(runs.size(), Counts{});
  for (std::size_t g = 0; g < runs.size(); ++g)
    for (const TestResult& r : runs[g].results) {
      const std::string group = r.probe ? probe_group(r.probe->id) : std::string("?");
      if (!counts.count(group)) {
        groups.push_back(group);
        counts[group].assign(runs.size(), Counts{});
      }
      ++counts[group][g][static_cast<int>(r.verdict.outcome)];
      ++all[g][static_cast<int>(r.verdict.outcome)];
    }
  std::size_t first = std::string("all").size();
  for (const auto& g : groups) first = std::max(first, g.size());
  std::vector<std::size_t> widths;
  for (std::size_t g = 0; g < runs.size(); ++g) {
    std::size_t w = std::max(fmt::format("GPU {}", runs[g].index).size(),
                             runs[g].device ? cell(all[g]).size() : std::string("not opened").size());
    widths.push_back(w);
  }
  std::string header = fmt::format("{:<{}}", "group", first);
  for (std::size_t g = 0; g < runs.size(); ++g) header += fmt::format("  {:>{}}", fmt::format("GPU {}", runs[g].index), widths[g]);
  std::string out = "verdicts per probe group and GPU (pass/fail/warn/skip)\n" + header + "\n";
  auto row = [&](const std::string& name, const std::vector<Counts>& c) {
    std::string line = fmt::format("{:<{}}", name, first);
    for (std::size_t g = 0; g < runs.size(); ++g)
      line += fmt::format("  {:>{}}", runs[g].device ? cell(c[g]) : std::string("not opened"), widths[g]);
    out += line + "\n";
  };
  for (const auto& g : groups) row(g, counts[g]);
  row("all", all);
  for (const GpuRun& r : runs) out += column_key(r) + "\n";
  return out;
}

std::vector<std::string> non_pass_lines(const std::vector<GpuRun>& runs) {
  std::vector<std::string> out;
  for (const GpuRun& r : runs)
    if (!r.open_error.empty()) out.push_back(fmt::format("GPU {} fail {}", r.index, r.open_error));
  for (Outcome o : {Outcome::fail, Outcome::warn, Outcome::skip})
    for (const GpuRun& run : runs)
      for (const TestResult& r : run.results)
        if (r.verdict.outcome == o)
          out.push_back(fmt::format("GPU {} {} {}: {}", run.index, outcome_name(o), r.probe ? r.probe->id : "?",
                                    r.verdict.reason));
  return out;
}

}  // namespace gpuconform
