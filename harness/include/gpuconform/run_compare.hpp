#pragma once
// Two runs side by side (`gpuconform compare`): what moved between a baseline and a
// candidate run record, e.g. before and after a driver or toolkit upgrade, or between
// two boards. No GPU, no expectation files: the run records carry everything.
#include <string>
#include <vector>

#include "gpuconform/run_record_reader.hpp"

namespace gpuconform {

struct ProbeDelta {
  std::string probe, unit;
  double baseline = 0, candidate = 0;  // median over the runs of each side
  int baseline_runs = 0, candidate_runs = 0;
  double relative = 0;                 // (candidate - baseline) / |baseline|; 0 when both are 0
  std::string baseline_verdict, candidate_verdict;  // of the last run of each side
  bool moved = false;  // beyond the threshold, or an exact count that differs
  bool verdict_changed = false;
};

struct RunComparison {
  std::vector<ProbeDelta> probes;  // in both; the moved ones first, largest |relative| first
  std::vector<std::string> only_baseline, only_candidate;
  std::string baseline_setup, candidate_setup;  // "NVIDIA H100 ... GPU-..., driver ..., runtime ..."
  int moved_count() const;
};

// Probes measured in "mismatches" (numeric, exact) move on any difference; every other
// probe when |relative| > threshold. A verdict that differs is reported either way.
RunComparison compare_runs(const std::vector<RecordedRun>& baseline, const std::vector<RecordedRun>& candidate,
                           double threshold);

}  // namespace gpuconform
