// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_level.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace gpuconform {

const char* level_name(RunLevel level) {
  switch (level) {
    case RunLevel::quick: return "quick";
    case RunLevel::standard: return "standard";
    case RunLevel::long_run: return "long";
  }
  return "?";
}

std::optional<RunLevel> parse_level(std::string_view text) {
  for (RunLevel l : {RunLevel::quick, RunLevel::standard, RunLevel::long_run})
    if (text == level_name(l)) return l;
  return std::nullopt;
}

std::string probe_group(std::string_view id) {
  const std::size_t first = id.find('.');
  if (first == std::string_view::npos) return std::string(id);
  return std::string(id.substr(0, id.find('.', first + 1)));
}

std::optional<double> recorded_seconds(const ExpectationSet& expectations, const std::string& probe_id) {
  const Expectation* e = expectations.find(probe_id);
  if (e && e->seconds && *e->seconds >= 0) return e->seconds;
  return std::nullopt;
}

const std::vector<std::string>& quick_required_probes() {
  // What a node health check must see whatever the cost ranking says (issue 19 item 7):
  // the cheapest-first rule alone picks the quickest probes of a group, which are rarely
  // the paths jobs depend on.
  static const std::vector<std::string> ids = {
      "latency.mem.l2_hit",                   // one L2 latency: a slow L2 path slows every job's misses
      // one HBM latency: the memory's own timing, beyond its bandwidth. An L2 miss homed in the far
      // partition (about 0.04 s) rather than latency.mem.hbm, whose every-SM chase over 8x the L2
      // takes 1-2 s, more than a quick group's whole budget.
      "latency.mem.l2_miss.far",
      "throughput.hbm.read",                  // HBM bandwidth, what memory-bound jobs run at
      "throughput.l2.read",                   // L2 bandwidth, what every HBM access passes through
      "throughput.wgmma.m64n256k16.f32.f16",  // an all-SM tensor load: the rate (and the power) training runs at
      "numeric.mma_sync.m16n8k16.f32.f16",    // the f16 -> f32 tensor-core arithmetic, bit for bit
  };
  return ids;
}

namespace {

// The quick share of one group (see run_level.hpp), as a set of probes.
void select_quick_group(const std::vector<const Probe*>& group, const ExpectationSet& expectations,
                        const DeviceInfo& device, std::set<const Probe*>& chosen) {
  std::vector<const Probe*> judged;  // runnable here, with an entry that can fail
  for (const Probe* p : group) {
    const Expectation* e = expectations.find(p->id);
    if (e && e->kind != ExpectationKind::info && unmet_requirement(*p, device).empty()) judged.push_back(p);
  }
  if (judged.empty()) {  // its skip verdict still tells the operator why this group says nothing
    chosen.insert(group.front());
    return;
  }
  // Node health is what a quick check is for, and each reading costs milliseconds: all of it.
  if (judged.front()->family == Family::health) {
    chosen.insert(judged.begin(), judged.end());
    return;
  }
  // The required probes first (quick_required_probes: they count toward the group's
  // probes and seconds), then the cheapest; an entry without recorded seconds costs an
  // unknown amount: last.
  const std::vector<std::string>& required = quick_required_probes();
  auto is_required = [&](const Probe* p) {
    return std::find(required.begin(), required.end(), p->id) != required.end();
  };
  std::stable_sort(judged.begin(), judged.end(), [&](const Probe* a, const Probe* b) {
    if (is_required(a) != is_required(b)) return is_required(a);
    const auto sa = recorded_seconds(expectations, a->id), sb = recorded_seconds(expectations, b->id);
    if (sa.has_value() != sb.has_value()) return sa.has_value();
    return sa && *sa < *sb;
  });
  chosen.insert(judged.front());
  double spent = recorded_seconds(expectations, judged.front()->id).value_or(0);
  for (std::size_t i = 1; i < judged.size(); ++i) {
    const auto s = recorded_seconds(expectations, judged[i]->id);
    if (is_required(judged[i])) {  // in whatever it costs
      spent += s.value_or(0);
      chosen.insert(judged[i]);
      continue;
    }
    if (i >= kQuickProbesPerGroup || !s || spent + *s > kQuickGroupSeconds) break;
    spent += *s;
    chosen.insert(judged[i]);
  }
}

}  // namespace

std::vector<const Probe*> select_for_level(const std::vector<const Probe*>& probes,
                                           const ExpectationSet& expectations, const DeviceInfo& device,
                                           RunLevel level) {
  if (level != RunLevel::quick) return probes;
  std::vector<std::string> order;  // groups in order of first appearance
  std::map<std::string, std::vector<const Probe*>> groups;
  for (const Probe* p : probes) {
    const std::string g = probe_group(p->id);
    if (!groups.count(g)) order.push_back(g);
    groups[g].push_back(p);
  }
  std::set<const Probe*> chosen;
  for (const std::string& g : order) select_quick_group(groups[g], expectations, device, chosen);
  std::vector<const Probe*> out;
  for (const Probe* p : probes)
    if (chosen.count(p)) out.push_back(p);
  return out;
}

namespace {

int severity(Outcome o) {
  switch (o) {
    case Outcome::fail: return 3;
    case Outcome::warn: return 2;
    case Outcome::pass: return 1;
    case Outcome::skip: return 0;
  }
  return 0;
}

}  // namespace

RepeatedResult aggregate_runs(const std::vector<TestResult>& runs) {
  RepeatedResult out;
  out.runs = static_cast<int>(runs.size());
  if (runs.empty()) return out;
  std::size_t worst = 0;
  int not_worst = 0;
  for (std::size_t i = 1; i < runs.size(); ++i)
    if (severity(runs[i].verdict.outcome) > severity(runs[worst].verdict.outcome)) worst = i;
  for (const TestResult& r : runs)
    if (r.verdict.outcome != runs[worst].verdict.outcome) ++not_worst;
  std::vector<std::size_t> measured;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (runs[i].measurement) {
      measured.push_back(i);
      out.values.push_back(runs[i].measurement->value);
    }
  out.result = runs[worst];
  out.result.seconds = 0;
  for (const TestResult& r : runs) out.result.seconds += r.seconds;
  if (!measured.empty()) {
    out.spread = summarize(out.values);
    // The run whose value is the (lower) median stands for the probe's measurement.
    std::vector<std::size_t> by_value = measured;
    std::sort(by_value.begin(), by_value.end(), [&](std::size_t a, std::size_t b) {
      return runs[a].measurement->value < runs[b].measurement->value;
    });
    out.result.measurement = runs[by_value[(by_value.size() - 1) / 2]].measurement;
  }
  if (not_worst > 0)
    out.result.verdict.reason =
        fmt::format("{} in {} of {} runs: {}", outcome_name(out.result.verdict.outcome),
                    out.runs - not_worst, out.runs, runs[worst].verdict.reason);
  return out;
}

}  // namespace gpuconform
