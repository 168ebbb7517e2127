// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host-side planning and analysis for the memory-latency probes (no CUDA):
// random single-cycle permutations for pointer chases, the latency staircase
// (footprint -> cycles) with its plateaus and capacity edges, and a two-way
// split of per-access latencies (near / far L2 partition). Unit-tested in
// tests/unit/latency_chase_test.cpp.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuconform::chase {

// next[i] = the slot visited after slot i; following next from any slot
// visits all n slots once before returning (Sattolo's algorithm: a uniformly
// random cyclic permutation). Deterministic for a given seed; n >= 1.
std::vector<std::uint32_t> single_cycle(std::size_t n, std::uint64_t seed);

// True when following `next` from slot 0 visits every slot exactly once
// before returning to 0.
bool is_single_cycle(const std::vector<std::uint32_t>& next);

// The order in which a chase starting at `start` visits the slots.
std::vector<std::uint32_t> visit_order(const std::vector<std::uint32_t>& next, std::uint32_t start = 0);

// `count` distinct slot indices drawn uniformly from [0, total), sorted;
// count <= total. For chases over footprints too large to visit in full.
std::vector<std::uint64_t> distinct_sample(std::uint64_t total, std::size_t count, std::uint64_t seed);

// Footprints from `lo` to `hi` bytes (both included), `per_octave` points per
// doubling, each rounded down to a multiple of `align`.
std::vector<std::uint64_t> footprint_sweep(std::uint64_t lo, std::uint64_t hi, int per_octave, std::uint64_t align);

struct StairPoint {
  double bytes = 0;   // footprint
  double cycles = 0;  // mean latency per access
};

// Median latency of the points whose footprint lies in [lo, hi]; nullopt if
// there is none.
std::optional<double> plateau(const std::vector<StairPoint>& points, double lo, double hi);

// The footprint at which the latency first rises past `level`, interpolated in
// log(footprint) between the two points around the crossing; the smallest
// footprint when it is already above; nullopt when it never crosses. Points
// must be sorted by footprint.
std::optional<double> first_crossing(const std::vector<StairPoint>& points, double level);

// A capacity edge: the footprint where the latency leaves the lower plateau
// `low` by more than `rise` (relative). A footprint F above a capacity C
// misses with probability 1 - C/F under random replacement and always under
// LRU with a cyclic walk, so with a rise of a tenth of the step to the next
// level the edge lies within about 10% above C either way.
std::optional<double> capacity_edge(const std::vector<StairPoint>& points, double low, double rise = 0.10);

// {"bytes":[...],"cycles":[...]} for the run record.
std::string staircase_json(const std::vector<StairPoint>& points);

// Two clusters of a one-dimensional sample (Lloyd's k-means with k = 2,
// started at the 10th and 90th percentiles).
struct TwoMeans {
  double low = 0, high = 0;       // cluster centres
  double threshold = 0;           // midpoint: a value <= threshold is "low"
  std::size_t low_count = 0, high_count = 0;
  // Separation of the centres in units of the pooled within-cluster spread.
  double separation = 0;
};
TwoMeans two_means(const std::vector<double>& values);

// Whether a split of per-line L2 latencies shows two partitions and not the
// sub-levels inside one: clean (centres >= 4 pooled deviations apart, each side
// >= 10% of the values) and the far centre at least `min_ratio` times the near
// one (published H100 sub-levels differ by about 10%, partitions by 1.6-1.9x).
bool shows_partitions(const TwoMeans& split, double min_ratio = 1.3);

// One trial of the L2 partition search: first-touch latencies from the probing
// SM after SM `warmer` alone brought the lines into L2.
struct PartitionTrial {
  int warmer = -1;
  TwoMeans split;
};

// The trial with the widest split among those that show two partitions;
// nullopt when none does.
std::optional<std::size_t> best_partition_trial(const std::vector<PartitionTrial>& trials);

}  // namespace gpuconform::chase
