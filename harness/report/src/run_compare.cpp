// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "gpuconform/run_record.hpp"
#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

struct Side {
  std::vector<const RecordedRun*> runs;
  std::string unit, verdict, kind;
};

std::map<std::string, Side> by_probe(const std::vector<RecordedRun>& runs) {
  std::map<std::string, Side> out;
  for (const RecordedRun& r : runs) {
    Side& s = out[r.probe];
    s.runs.push_back(&r);
    s.unit = r.measurement.unit;
    s.verdict = r.verdict;
    if (!r.expected_kind.empty()) s.kind = r.expected_kind;
  }
  return out;
}

// Every distinct board and software setup of one side, for the header.
std::string setup(const std::vector<RecordedRun>& runs) {
  std::set<std::string> seen;
  std::string out;
  for (const RecordedRun& r : runs) {
    const std::string s = fmt::format("{} {}, driver {}, CUDA runtime {}, suite {}{}", r.gpu_name, r.gpu, r.driver,
                                      r.cuda_runtime, r.suite_commit, r.firmware.empty() ? "" : ", " + r.firmware);
    if (seen.insert(s).second) out += (out.empty() ? "" : "; ") + s;
  }
  return out;
}

using Units = std::map<std::string, std::vector<RecordedRun>>;  // RecordedRun::gpu -> its runs
using Renaming = std::map<std::string, std::string>;            // baseline board -> candidate board

// Every board a side names, as a device or as a peer: what a --pair prefix may name, so
// that a record holding only pair results can still be paired by hand.
std::set<std::string> boards_of(const std::vector<RecordedRun>& runs) {
  std::set<std::string> out;
  for (const RecordedRun& r : runs) {
    out.insert(r.board);
    out.insert(r.peers.begin(), r.peers.end());
  }
  return out;
}

// The one board of `boards` whose id starts with `prefix`.
std::string unique_prefix(const std::set<std::string>& boards, const std::string& prefix, const char* side) {
  std::vector<std::string> hits;
  for (const std::string& id : boards)
    if (id.rfind(prefix, 0) == 0) hits.push_back(id);
  if (hits.size() != 1)
    throw std::invalid_argument(fmt::format("--pair: '{}' names {} boards of the {} (it must name one)", prefix,
                                            hits.size(), side));
  return hits.front();
}

// --pair as a renaming of boards rather than of units, so that one --pair per board also
// pairs the pair results between renamed boards (A>B with C>D under A=C and B=D).
Renaming renaming(const std::vector<RecordedRun>& baseline, const std::vector<RecordedRun>& candidate,
                  const Pairing& pairing) {
  const std::set<std::string> base = boards_of(baseline), cand = boards_of(candidate);
  Renaming out;
  std::set<std::string> targets;
  for (const auto& [bp, cp] : pairing.explicit_pairs) {
    const std::string b = unique_prefix(base, bp, "baseline"), c = unique_prefix(cand, cp, "candidate");
    if (!out.emplace(b, c).second || !targets.insert(c).second)
      throw std::invalid_argument(fmt::format("--pair {}={}: a board is paired twice", bp, cp));
  }
  return out;
}

// Whether --pair names a board of the unit, as device or as peer: such a unit is paired
// by the names --pair gives, even with --by-index.
bool renamed(const RecordedRun& r, const Renaming& names) {
  if (names.count(r.board)) return true;
  return std::any_of(r.peers.begin(), r.peers.end(), [&](const std::string& p) { return names.count(p) > 0; });
}

// Whether candidate unit `c` is the one baseline unit `b` compares with: the same boards
// in the same roles (A>B with A>B, never with A or B>A), each baseline board as --pair
// renames it; with by_index, and no --pair naming its boards, the same device indices.
bool same_unit(const RecordedRun& b, const RecordedRun& c, const Renaming& names, bool by_index) {
  if (by_index && !renamed(b, names))
    return gpu_label(b.device_index, b.peer_indices) == gpu_label(c.device_index, c.peer_indices);
  const auto name = [&](const std::string& id) {
    const auto it = names.find(id);
    return it == names.end() ? id : it->second;
  };
  std::vector<std::string> peers;
  for (const std::string& p : b.peers) peers.push_back(name(p));
  return board_key(name(b.board), peers) == c.gpu;
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

bool exact_value(const std::string& probe, const std::string& unit) {
  return unit == "mismatches" || unit == "ulp" || probe.rfind("numeric.", 0) == 0;
}

const char* to_string(Direction d) {
  switch (d) {
    case Direction::higher_is_better: return "higher_is_better";
    case Direction::lower_is_better: return "lower_is_better";
    default: return "two_sided";
  }
}

Direction direction_of(const std::string& probe, const std::string& kind) {
  if (kind == "min" || kind == "fraction_of_peak") return Direction::higher_is_better;
  if (kind == "max") return Direction::lower_is_better;
  if (kind == "exact") return Direction::two_sided;
  if (probe.rfind("latency.", 0) == 0) return Direction::lower_is_better;
  return Direction::two_sided;
}

std::string ProbeDelta::change() const {
  if (judgement != Judgement::Moved) return to_string(judgement);
  const bool comparable = !unit_changed && candidate != baseline;
  if (direction == Direction::two_sided || !comparable) return "MOVED";
  const bool up = candidate > baseline;
  return up == (direction == Direction::higher_is_better) ? "BETTER" : "WORSE";
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
                                   : judge(sb, sc, exact_value(probe, d.unit), threshold);
    // The candidate's entry decides, as its verdict does; the baseline's where it has none.
    d.direction = direction_of(probe, c.kind.empty() ? b.kind : c.kind);
    d.unit_changed = b.unit != c.unit;  // values in two units cannot be ordered
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
  const Renaming names = renaming(baseline, candidate, pairing);
  // Runs grouped by unit; `order` keeps the baseline's first-seen unit order for output.
  Units base, cand;
  std::vector<std::string> order;
  for (const RecordedRun& r : baseline) {
    if (!base.count(r.gpu)) order.push_back(r.gpu);
    base[r.gpu].push_back(r);
  }
  for (const RecordedRun& r : candidate) cand[r.gpu].push_back(r);

  std::vector<std::pair<std::string, std::string>> matched;  // baseline unit, candidate unit
  std::set<std::string> used_b, used_c;
  // Units that --pair renames first, so that they win a candidate unit over one that
  // merely shares its UUID or index.
  for (const bool by_hand : {true, false})
    for (const std::string& b : order) {
      const RecordedRun& rb = base[b].front();
      if (renamed(rb, names) != by_hand) continue;
      for (const auto& [c, runs] : cand)
        if (!used_c.count(c) && same_unit(rb, runs.front(), names, pairing.by_index)) {
          used_b.insert(b);
          used_c.insert(c);
          matched.emplace_back(b, c);
          break;
        }
    }
  // Single boards only: a pair's direction would be guessed (A>B with B>A), and a pair
  // with a single board compares unlike things.
  if (pairing.pair_single_boards && matched.empty() && base.size() == 1 && cand.size() == 1 &&
      base.begin()->second.front().peers.empty() && cand.begin()->second.front().peers.empty()) {
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
