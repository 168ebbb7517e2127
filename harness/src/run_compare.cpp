#include "gpuconform/run_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

struct Side {
  std::vector<double> values;
  std::string unit, verdict;
};

std::map<std::string, Side> by_probe(const std::vector<RecordedRun>& runs) {
  std::map<std::string, Side> out;
  for (const RecordedRun& r : runs) {
    Side& s = out[r.probe];
    s.values.push_back(r.measurement.value);
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

}  // namespace

int RunComparison::moved_count() const {
  return static_cast<int>(std::count_if(probes.begin(), probes.end(), [](const ProbeDelta& d) { return d.moved; }));
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
    ProbeDelta d;
    d.probe = probe;
    d.unit = c.unit;
    d.baseline = median(b.values);
    d.candidate = median(c.values);
    d.baseline_runs = static_cast<int>(b.values.size());
    d.candidate_runs = static_cast<int>(c.values.size());
    d.relative = d.baseline != 0 ? (d.candidate - d.baseline) / std::fabs(d.baseline) : (d.candidate != 0 ? 1 : 0);
    d.baseline_verdict = b.verdict;
    d.candidate_verdict = c.verdict;
    if (b.unit != c.unit)
      d.moved = true;  // the probe itself changed
    else if (d.unit == "mismatches")
      d.moved = d.candidate != d.baseline;  // bit-exact: any difference counts
    else
      d.moved = std::fabs(d.relative) > threshold;
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

}  // namespace gpuconform
