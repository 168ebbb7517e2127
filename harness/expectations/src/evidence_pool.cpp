// SPDX-License-Identifier: Apache-2.0
// The evidence a derivation may use (evidence_pool.hpp).
#include "gpuconform/evidence_pool.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace gpuconform {
namespace {

// Line number -> time, for the lines in `wanted` (what read_run_record() leaves out of a test
// line and a derivation needs). Old records have no header; every test line carries its own
// time, the moment that decides whether a fix preceded it.
std::map<int, std::string> line_times(std::istream& in, const std::set<int>& wanted) {
  std::map<int, std::string> out;
  std::string text, header_time;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    const bool want = wanted.count(line) > 0;
    // Header lines are few and short; a test line is parsed only when it is wanted.
    if (!want && text.find("\"header\"") == std::string::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) continue;  // a cut last line: read_run_record already said so
    const std::string time = j.contains("time") && j.at("time").is_string() ? j.at("time").get<std::string>() : "";
    if (j.value("record", std::string()) == "header") header_time = time;
    else if (want)
      out[line] = time.empty() ? header_time : time;
  }
  return out;
}

}  // namespace

namespace {

std::vector<TimedRun> with_times(std::vector<RecordedRun> runs, std::istream& in) {
  std::set<int> lines;
  for (const RecordedRun& r : runs) lines.insert(r.line);
  const std::map<int, std::string> times = line_times(in, lines);
  std::vector<TimedRun> out;
  out.reserve(runs.size());
  for (RecordedRun& r : runs) {
    const auto t = times.find(r.line);
    out.push_back(TimedRun{std::move(r), t == times.end() ? "" : t->second});
  }
  return out;
}

}  // namespace

std::vector<TimedRun> read_timed_runs(const std::string& path) {
  std::vector<RecordedRun> runs = read_run_record(path);
  std::ifstream in(path, std::ios::binary);
  return with_times(std::move(runs), in);
}

std::vector<TimedRun> parse_timed_runs_text(std::string_view text, const std::string& path) {
  std::vector<RecordedRun> runs = parse_run_record_text(text, path);
  std::istringstream in{std::string(text)};
  return with_times(std::move(runs), in);
}

std::string retired_because(const BandPolicy& policy, const TimedRun& r) {
  if (const PolicyExclusion* x = policy.exclusion_for(r.run.gpu, r.run.probe))
    return fmt::format("[[exclude]] {} at {}", x->gpu, x->where.str());
  if (const PolicySupersede* s = policy.superseded_by(r.run.probe, r.time))
    return fmt::format("[[supersede]] before {} (fix {}) at {}", s->before, s->fix, s->where.str());
  return "";
}

std::string spread_group(const BandPolicy& policy, const std::string& sku, const std::string& board_part,
                         const std::string& probe_id) {
  if (!policy.splits_by_board_part(sku, probe_id)) return sku;
  return board_part.empty() ? "" : sku + "/" + board_part;
}

void add_to_pool(PooledRuns& pool, const TimedRun& r, const std::function<std::string(const TimedRun&)>& source) {
  auto& boards = pool[r.run.probe];
  auto at = std::find_if(boards.begin(), boards.end(), [&](const BoardRuns& b) { return b.gpu == r.run.gpu; });
  if (at == boards.end()) {
    boards.push_back(BoardRuns{r.run.gpu, source(r), {}, {}});
    at = boards.end() - 1;
  }
  at->runs.push_back(r.run.measurement);
  if (r.run.seconds && *r.run.seconds > 0) at->seconds = std::max(at->seconds.value_or(0), *r.run.seconds);
}

}  // namespace gpuconform
