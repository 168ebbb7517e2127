#include "gpuconform/run_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

struct Side {
  std::vector<const RecordedRun*> runs;
  std::string unit, verdict;
};

std::map<std::string, Side> by_probe(const std::vector<RecordedRun>& runs) {
  std::map<std::string, Side> out;
  for (const RecordedRun& r : runs) {
    Side& s = out[r.probe];
    s.runs.push_back(&r);
    s.unit = r.measurement.unit;
    s.verdict = r.verdict;
  }
  return out;
}

// Every distinct board and software setup of one side, for the header.
std::string setup(const std::vector<RecordedRun>& runs) {
  std::set<std::string> seen;
  std::string out;
  for (const RecordedRun& r : runs) {
    const std::string s = fmt::format("{} {}, driver {}, CUDA runtime {}, suite {}", r.gpu_name, r.gpu, r.driver,
                                      r.cuda_runtime, r.suite_commit);
    if (seen.insert(s).second) out += (out.empty() ? "" : "; ") + s;
  }
  return out;
}

// A board's key for pairing: its UUID, or its CUDA device index.
std::string board_key(const RecordedRun& r, bool by_index) {
  return by_index ? std::to_string(r.device_index) : r.gpu;
}

// The one board of `boards` whose UUID starts with `prefix`.
std::string unique_prefix(const std::map<std::string, std::vector<RecordedRun>>& boards, const std::string& prefix,
                          const char* side) {
  std::vector<std::string> hits;
  for (const auto& [uuid, runs] : boards)
    if (uuid.rfind(prefix, 0) == 0) hits.push_back(uuid);
  if (hits.size() != 1)
    throw std::invalid_argument(fmt::format("--pair: '{}' names {} boards of the {} (it must name one)", prefix,
                                            hits.size(), side));
  return hits.front();
}

}  // namespace

const char* to_string(Judgement j) {
  switch (j) {
    case Judgement::Same: return "SAME";
    case Judgement::Moved: return "MOVED";
    case Judgement::Ambiguous: return "AMBIGUOUS";
  }
  return "?";
}

Spread spread_of(const std::vector<const RecordedRun*>& runs) {
  std::vector<double> values;
  if (runs.size() == 1) values = runs.front()->measurement.samples;
  if (values.empty())
    for (const RecordedRun* r : runs) values.push_back(r->measurement.value);
  Spread s;
  s.n = static_cast<int>(values.size());
  const Summary sum = summarize(values);
  // One run reports its own value (its samples' median, or the figure it checks).
  s.median = runs.size() == 1 ? runs.front()->measurement.value : sum.median;
  s.noise = std::max(1.4826 * sum.mad, (sum.p95 - sum.p5) / 2);
  return s;
}

Judgement judge(const Spread& b, const Spread& c, bool exact, double threshold) {
  const double diff = std::fabs(c.median - b.median);
  if (exact) return diff != 0 ? Judgement::Moved : Judgement::Same;
  const double tol = threshold * std::fabs(b.median != 0 ? b.median : c.median);
  if (diff <= std::min(b.noise, c.noise) + tol) return Judgement::Same;
  if (b.n < kMinSamplesForNoise || c.n < kMinSamplesForNoise) return Judgement::Ambiguous;
  return diff > std::max(b.noise, c.noise) + tol ? Judgement::Moved : Judgement::Ambiguous;
}

int RunComparison::moved_count() const {
  return static_cast<int>(std::count_if(probes.begin(), probes.end(), [](const ProbeDelta& d) { return d.moved; }));
}

int RunComparison::verdicts_changed() const {
  return static_cast<int>(
      std::count_if(probes.begin(), probes.end(), [](const ProbeDelta& d) { return d.verdict_changed; }));
}

RunComparison compare_runs(const std::vector<RecordedRun>& baseline, const std::vector<RecordedRun>& candidate,
                           double threshold) {
  const auto base = by_probe(baseline), cand = by_probe(candidate);
  RunComparison out;
  out.baseline_setup = setup(baseline);
  out.candidate_setup = setup(candidate);
  for (const auto& [probe, b] : base) {
    const auto it = cand.find(probe);
    if (it == cand.end()) {
      out.only_baseline.push_back(probe);
      continue;
    }
    const Side& c = it->second;
    const Spread sb = spread_of(b.runs), sc = spread_of(c.runs);
    ProbeDelta d;
    d.probe = probe;
    d.unit = c.unit;
    d.baseline = sb.median;
    d.candidate = sc.median;
    d.baseline_noise = sb.noise;
    d.candidate_noise = sc.noise;
    d.baseline_runs = static_cast<int>(b.runs.size());
    d.candidate_runs = static_cast<int>(c.runs.size());
    d.relative = d.baseline != 0 ? (d.candidate - d.baseline) / std::fabs(d.baseline) : (d.candidate != 0 ? 1 : 0);
    d.baseline_verdict = b.verdict;
    d.candidate_verdict = c.verdict;
    d.judgement = b.unit != c.unit ? Judgement::Moved  // the probe itself changed
                                   : judge(sb, sc, d.unit == "mismatches", threshold);
    d.moved = d.judgement == Judgement::Moved;
    // `record` writes "recorded", not a verdict: only two real verdicts can differ.
    d.verdict_changed = b.verdict != c.verdict && b.verdict != "recorded" && c.verdict != "recorded";
    out.probes.push_back(std::move(d));
  }
  for (const auto& [probe, c] : cand)
    if (!base.count(probe)) out.only_candidate.push_back(probe);
  std::stable_sort(out.probes.begin(), out.probes.end(), [](const ProbeDelta& x, const ProbeDelta& y) {
    if (x.moved != y.moved) return x.moved;
    return std::fabs(x.relative) > std::fabs(y.relative);
  });
  return out;
}

int PairedComparison::moved_count() const {
  int n = 0;
  for (const BoardPair& p : pairs) n += p.comparison.moved_count();
  return n;
}

int PairedComparison::verdicts_changed() const {
  int n = 0;
  for (const BoardPair& p : pairs) n += p.comparison.verdicts_changed();
  return n;
}

PairedComparison compare_boards(const std::vector<RecordedRun>& baseline, const std::vector<RecordedRun>& candidate,
                                double threshold, const Pairing& pairing) {
  // Runs grouped by UUID; `order` keeps the baseline's first-seen board order for output.
  std::map<std::string, std::vector<RecordedRun>> base, cand;
  std::vector<std::string> order;
  for (const RecordedRun& r : baseline) {
    if (!base.count(r.gpu)) order.push_back(r.gpu);
    base[r.gpu].push_back(r);
  }
  for (const RecordedRun& r : candidate) cand[r.gpu].push_back(r);

  std::vector<std::pair<std::string, std::string>> matched;  // baseline UUID, candidate UUID
  std::set<std::string> used_b, used_c;
  for (const auto& [bp, cp] : pairing.explicit_pairs) {
    const std::string b = unique_prefix(base, bp, "baseline"), c = unique_prefix(cand, cp, "candidate");
    if (!used_b.insert(b).second || !used_c.insert(c).second)
      throw std::invalid_argument(fmt::format("--pair {}={}: a board is paired twice", bp, cp));
    matched.emplace_back(b, c);
  }
  for (const std::string& b : order) {
    if (used_b.count(b)) continue;
    const std::string key = board_key(base[b].front(), pairing.by_index);
    for (const auto& [c, runs] : cand)
      if (!used_c.count(c) && board_key(runs.front(), pairing.by_index) == key) {
        used_b.insert(b);
        used_c.insert(c);
        matched.emplace_back(b, c);
        break;
      }
  }
  if (matched.empty() && base.size() == 1 && cand.size() == 1) {
    matched.emplace_back(base.begin()->first, cand.begin()->first);
    used_b.insert(base.begin()->first);
    used_c.insert(cand.begin()->first);
  }

  PairedComparison out;
  for (const auto& [b, c] : matched) out.pairs.push_back({b, c, compare_runs(base[b], cand[c], threshold)});
  for (const std::string& b : order)
    if (!used_b.count(b)) out.only_baseline_gpus.push_back(b);
  for (const auto& [c, runs] : cand)
    if (!used_c.count(c)) out.only_candidate_gpus.push_back(c);
  return out;
}

}  // namespace gpuconform
