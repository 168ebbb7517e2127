// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/verdict_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "gpuconform/run_level.hpp"
#include "gpuconform/run_record.hpp"

namespace gpuconform {
namespace {

using Counts = std::array<int, 4>;  // indexed by Outcome: pass, fail, warn, skip

std::string cell(const Counts& c) { return fmt::format("{}/{}/{}/{}", c[0], c[1], c[2], c[3]); }

std::string column_key(const GpuRun& run) {
  if (!run.device) return fmt::format("GPU {}: not opened", run.index);
  const DeviceInfo& d = *run.device;
  return fmt::format("GPU {}: {} {} ({})", run.index, d.name, d.uuid, d.pci_bus_id);
}

// Who a result is about: "GPU 1", or for a pair or node result "GPU 0>1" (from GPU 0 to
// GPU 1): the matrix column and the non-pass line name it alike.
std::string result_label(const GpuRun& run, const TestResult& r) {
  std::vector<int> peers;
  for (const DeviceInfo& p : r.peers) peers.push_back(p.index);
  return gpu_label(run.index, peers);
}

// One matrix: rows are probe groups in the order they first ran, columns GPUs or pairs.
struct Table {
  std::vector<std::string> columns;
  std::vector<bool> opened;  // false: the GPU could not be opened, every cell says so
  std::vector<std::string> groups;
  std::map<std::string, std::vector<Counts>> counts;  // group -> per column
  std::vector<Counts> all;                            // per column
};

// Columns are all added before the first count, so every row is as wide as `columns`.
void add_column(Table& t, const std::string& name, bool opened) {
  t.columns.push_back(name);
  t.opened.push_back(opened);
  t.all.push_back(Counts{});
}

void count(Table& t, std::size_t column, const TestResult& r) {
  const std::string group = r.probe ? probe_group(r.probe->id) : std::string("?");
  const auto [row, added] = t.counts.try_emplace(group, t.columns.size(), Counts{});
  if (added) t.groups.push_back(group);
  ++row->second[column][static_cast<int>(r.verdict.outcome)];
  ++t.all[column][static_cast<int>(r.verdict.outcome)];
}

// Per-GPU results only: a pair result is about two GPUs, so it has a table of its own.
Table gpu_table(const std::vector<GpuRun>& runs) {
  Table t;
  for (const GpuRun& run : runs) add_column(t, gpu_label(run.index, {}), run.device.has_value());
  for (std::size_t g = 0; g < runs.size(); ++g)
    for (const TestResult& r : runs[g].results)
      if (r.peers.empty()) count(t, g, r);
  return t;
}

std::size_t column_index(const Table& t, const std::string& name) {
  return static_cast<std::size_t>(std::find(t.columns.begin(), t.columns.end(), name) - t.columns.begin());
}

// Pair and node results, one column per pair ("GPU 0>1") in the order they ran.
Table pair_table(const std::vector<GpuRun>& runs) {
  std::vector<std::pair<std::string, const TestResult*>> results;  // (column, result)
  for (const GpuRun& run : runs)
    for (const TestResult& r : run.results)
      if (!r.peers.empty()) results.emplace_back(result_label(run, r), &r);
  Table t;
  for (const auto& [column, r] : results)
    if (column_index(t, column) == t.columns.size()) add_column(t, column, true);
  for (const auto& [column, r] : results) count(t, column_index(t, column), *r);
  return t;
}

std::string render(const Table& t, const std::string& title) {
  std::size_t first = std::string("all").size();
  for (const auto& g : t.groups) first = std::max(first, g.size());
  std::vector<std::size_t> widths;
  for (std::size_t c = 0; c < t.columns.size(); ++c) {
    const std::size_t cells = t.opened[c] ? cell(t.all[c]).size() : std::string("not opened").size();
    widths.push_back(std::max(t.columns[c].size(), cells));
  }
  std::string header = fmt::format("{:<{}}", "group", first);
  for (std::size_t c = 0; c < t.columns.size(); ++c) header += fmt::format("  {:>{}}", t.columns[c], widths[c]);
  std::string out = title + "\n" + header + "\n";
  auto row = [&](const std::string& name, const std::vector<Counts>& counts) {
    std::string line = fmt::format("{:<{}}", name, first);
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      line += fmt::format("  {:>{}}", t.opened[c] ? cell(counts[c]) : std::string("not opened"), widths[c]);
    out += line + "\n";
  };
  for (const auto& g : t.groups) row(g, t.counts.at(g));
  row("all", t.all);
  return out;
}

}  // namespace

std::string verdict_matrix(const std::vector<GpuRun>& runs) {
  std::string out = render(gpu_table(runs), "verdicts per probe group and GPU (pass/fail/warn/skip)");
  const Table pairs = pair_table(runs);
  if (!pairs.columns.empty())
    out += render(pairs, "verdicts per probe group and GPU pair (pass/fail/warn/skip; GPU 0>1: from GPU 0 to GPU 1)");
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
          out.push_back(fmt::format("{} {} {}: {}", result_label(run, r), outcome_name(o), r.probe ? r.probe->id : "?",
                                    r.verdict.reason));
  return out;
}

}  // namespace gpuconform
