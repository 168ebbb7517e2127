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

namespace gpuconform {
namespace {

// What read_run_record() leaves out of a test line and a derivation needs.
struct LineExtras {
  std::string time;
  std::optional<Sampling> sampling;
};

// measured.sampling (throughput probes since 2026-11-26): the median's 95 % interval and how
// sampling stopped, as measure_throughput() kept it.
std::optional<Sampling> sampling_of(const nlohmann::json& measured) {
  if (!measured.is_object() || !measured.contains("sampling") || !measured.contains("value")) return std::nullopt;
  const nlohmann::json& s = measured.at("sampling");
  const nlohmann::json& value = measured.at("value");
  if (!s.is_object() || !s.contains("rel_half_width") || !s.at("rel_half_width").is_number() || !value.is_number())
    return std::nullopt;
  // The half-width the probe reported, around the value it reported (PCIe's value is the
  // median of the faster half, its interval that of every copy: the width is what counts).
  const double rel = s.at("rel_half_width").get<double>(), v = value.get<double>();
  if (!std::isfinite(rel) || rel < 0) return std::nullopt;
  Sampling out;
  out.interval.median = v;
  out.interval.low = v - rel * std::fabs(v);
  out.interval.high = v + rel * std::fabs(v);
  out.interval.valid = true;
  out.target_rel_half_width = s.value("target_rel_half_width", 0.0);
  out.stopped = s.value("stopped", std::string());
  return out;
}

// Line number -> time and sampling, for the lines in `wanted`. Old records have no header;
// every test line carries its own time, the moment that decides whether a fix preceded it.
std::map<int, LineExtras> line_extras(const std::string& path, const std::set<int>& wanted) {
  std::map<int, LineExtras> out;
  std::ifstream in(path, std::ios::binary);
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
    else if (want) out[line] = LineExtras{time.empty() ? header_time : time,
                                          j.contains("measured") ? sampling_of(j.at("measured")) : std::nullopt};
  }
  return out;
}

}  // namespace

std::vector<TimedRun> read_timed_runs(const std::string& path) {
  std::vector<RecordedRun> runs = read_run_record(path);
  std::set<int> lines;
  for (const RecordedRun& r : runs) lines.insert(r.line);
  const std::map<int, LineExtras> extras = line_extras(path, lines);
  std::vector<TimedRun> out;
  out.reserve(runs.size());
  for (RecordedRun& r : runs) {
    const auto x = extras.find(r.line);
    if (x == extras.end()) {
      out.push_back(TimedRun{std::move(r), ""});
      continue;
    }
    if (!r.measurement.sampling) r.measurement.sampling = x->second.sampling;
    out.push_back(TimedRun{std::move(r), x->second.time});
  }
  return out;
}

std::string retired_because(const BandPolicy& policy, const TimedRun& r) {
  if (const PolicyExclusion* x = policy.exclusion_for(r.run.gpu, r.run.probe))
    return fmt::format("[[exclude]] {} at {}", x->gpu, x->where.str());
  if (const PolicySupersede* s = policy.superseded_by(r.run.probe, r.time))
    return fmt::format("[[supersede]] before {} (fix {}) at {}", s->before, s->fix, s->where.str());
  return "";
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
