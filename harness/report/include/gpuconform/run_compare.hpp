// SPDX-License-Identifier: Apache-2.0
#pragma once
// Two runs side by side (`gpuconform compare`): what moved between a baseline and a
// candidate run record, board by board, e.g. before and after a driver or toolkit
// upgrade. No GPU, no expectation files: the run records carry everything.
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/run_record_reader.hpp"

namespace gpuconform {

// How a probe's value compares, judged against the recorded spread (nvbench's
// compare script is the model):
//   tol   = threshold x |baseline median|   (the run-to-run drift a stable board shows
//                                           that one run's samples cannot see)
//   SAME       |diff| <= min(noise_b, noise_c) + tol   (within the noise of both sides)
//   MOVED      |diff| >  max(noise_b, noise_c) + tol   and both sides have >= 3 samples
//   AMBIGUOUS  otherwise: beyond the quieter side's noise but not the noisier one's,
//              or too few samples to know the noise
// Exact values are MOVED on any difference, as is a changed unit: see exact_value.
enum class Judgement { Same, Moved, Ambiguous };
const char* to_string(Judgement j);

// Whether a probe's value is exact, a figure computed over fixed inputs rather than a
// timing with noise: a count of "mismatches", an error in "ulp", and every numeric.*
// value (a maximum ulp, absolute or relative error over the same inputs each run). One
// ulp more after a toolkit upgrade is a change of the math library, never noise; judged
// as a timing it would read AMBIGUOUS (one run, no samples) or SAME (within threshold).
bool exact_value(const std::string& probe, const std::string& unit);

// One board's view of one probe: the median, and the noise as a half-width,
// max(1.4826 x MAD, (p95 - p5) / 2), over its runs' values when it ran several times,
// else over the one run's samples (the same data its `stats` summarise).
struct Spread {
  double median = 0, noise = 0;
  int n = 0;  // values the noise rests on
};
Spread spread_of(const std::vector<const RecordedRun*>& runs);
constexpr int kMinSamplesForNoise = 3;
Judgement judge(const Spread& baseline, const Spread& candidate, bool exact, double threshold);

// Which way is better for a probe, from its expectation's kind: a limit from below
// ("min", "fraction_of_peak") wants more, one from above ("max") less, and a latency
// (any `latency.*` probe, whose entries are two-sided bands) less too. Any other entry,
// a two-sided band or an exact value, has no better side: a move is just MOVED.
enum class Direction { two_sided, higher_is_better, lower_is_better };
const char* to_string(Direction d);  // "two_sided", "higher_is_better", "lower_is_better"
Direction direction_of(const std::string& probe, const std::string& expected_kind);

struct ProbeDelta {
  std::string probe, unit;
  double baseline = 0, candidate = 0;  // median over the runs of each side
  double baseline_noise = 0, candidate_noise = 0;
  int baseline_runs = 0, candidate_runs = 0;
  double relative = 0;                 // (candidate - baseline) / |baseline|; 0 when both are 0
  std::string baseline_verdict, candidate_verdict;  // of the last run of each side
  Judgement judgement = Judgement::Same;
  Direction direction = Direction::two_sided;
  bool unit_changed = false;
  bool moved = false;  // judgement == Moved
  // SAME, AMBIGUOUS, or for a move BETTER / WORSE by `direction` (MOVED when two-sided, or
  // when the unit changed and the values cannot be ordered).
  std::string change() const;
  bool verdict_changed = false;
};

struct RunComparison {
  std::vector<ProbeDelta> probes;  // in both; the moved ones first, largest |relative| first
  std::vector<std::string> only_baseline, only_candidate;
  std::string baseline_setup, candidate_setup;  // "NVIDIA H100 ... GPU-..., driver ..., runtime ..."
  int moved_count() const;
  int verdicts_changed() const;
};

// Every run of both sides as one board each (the caller pairs boards).
RunComparison compare_runs(const std::vector<RecordedRun>& baseline, const std::vector<RecordedRun>& candidate,
                           double threshold);

// Which baseline board is compared with which candidate board.
struct Pairing {
  // UUID prefixes, `--pair B=A`: baseline board B is candidate board A, as a device and
  // as a peer (with B=A and D=C, the pair result B>D compares with A>C).
  std::vector<std::pair<std::string, std::string>> explicit_pairs;
  bool by_index = false;  // pair by CUDA device index (of device and peers) instead of UUID
  // Pair a record of one board with a record of another single board when nothing else
  // pairs them. Off for `compare` (two different boards are compared only when the user
  // says so: --pair, --by-index); the report's --baseline turns it on.
  bool pair_single_boards = false;
};

struct BoardPair {
  std::string baseline_gpu, candidate_gpu;  // RecordedRun::gpu: a UUID, or "A>B" for pair results
  RunComparison comparison;
};

struct PairedComparison {
  std::vector<BoardPair> pairs;  // in the baseline's board order
  std::vector<std::string> only_baseline_gpus, only_candidate_gpus;
  int moved_count() const;
  int verdicts_changed() const;
};

// Pairs boards: explicit pairs first, then the rest by UUID (or by device index). A pair
// result's unit ("A>B") pairs only with the same boards in the same roles: A>B with A>B,
// never with A alone or with B>A. With pair_single_boards, when each side holds exactly
// one board (and no pair result) and nothing else paired them, they are paired.
// Throws std::invalid_argument for a --pair prefix that names no board or several.
PairedComparison compare_boards(const std::vector<RecordedRun>& baseline, const std::vector<RecordedRun>& candidate,
                                double threshold, const Pairing& pairing);

}  // namespace gpuconform
