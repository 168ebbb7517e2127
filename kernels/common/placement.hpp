// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host side of a latency measured in every placement at once (no CUDA).
//
// A chase timed from one block reads the latency of wherever that block sits:
// logical SM 0 (or the one cluster a launch places) is a different physical
// spot on every board (floorsweeping), so such a value moves from board to
// board with placement, not with health. The placement-free form runs the same
// chase in every SM (every_sm.cuh) or every cluster the GPU holds at once
// (every_cluster.cuh), and reports the median over them:
//
//   one launch  -> one reading per placement (SM, or cluster)
//   sample      =  the median (or, where placements come in groups, the mean)
//                  over the placements of one launch
//   value       =  the median of the samples (every launch is placement-free)
//   note        =  the per-placement spread: each placement's median over the
//                  launches, its min, median and max, and the slowest
//
// A placement is keyed by the SM it measured from (a cluster by its rank 0's
// SM), so a slow SM is named the same way in every launch. A launch in which
// fewer than `min_fraction` of the expected placements reported is an error:
// the median of a part of the chip is not the chip's. Unit-tested in
// tests/unit/kernels/placement_test.cpp.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuconform/measurement.hpp"

namespace gpuconform::kernels::placement {

// The share of the expected placements a launch must measure (the rest are
// reported as missing).
inline constexpr double kMinMeasuredFraction = 0.9;

// One placement's reading in one launch.
struct Reading {
  int slot = 0;       // 0 .. expected-1: the SM id, or the cluster's index in the grid
  int place = 0;      // the SM it measured from (a cluster: its rank 0's SM)
  double value = 0;   // cycles per hop
  std::string where;  // "SM 17", "cluster on SMs 16,17"
};

struct Launch {
  std::vector<Reading> readings;
  int expected = 0;  // placements launched (SM count, or clusters launched)
  int outside = 0;   // readings refused: an SM id outside 0..expected-1
};

// One placement over all launches.
struct Place {
  int place = 0;
  double median = 0;  // of its readings over the launches
  int launches = 0;   // launches in which it reported
  std::string where;  // from the last launch it reported in
};

struct Summary {
  std::string unit;                      // "SM" or "cluster"
  std::vector<double> samples;           // per launch: the median over its placements
  double value = 0;                      // median of `samples`
  std::vector<double> mean_samples;      // per launch: the mean over its placements
  double mean_value = 0;                 // median of `mean_samples`
  std::vector<Place> places;             // sorted by place
  double min = 0, median = 0, max = 0;   // over places[].median
  std::size_t fastest = 0, slowest = 0;  // indices into places
  int expected = 0;                      // per launch (the largest over the launches)
  int fewest_measured = 0;               // the fewest placements one launch measured
  std::vector<std::string> missing;      // "SM 40 (2 of 7 launches)", from every launch
  int outside = 0;                       // over all launches
};

// Throws std::runtime_error when there is no launch, a launch measured fewer
// than min_fraction x expected placements (naming what was missing), or a
// reading is not a positive finite number.
Summary summarize(const std::vector<Launch>& launches, const std::string& unit,
                  double min_fraction = kMinMeasuredFraction);

// The note the probes write under "per_sm" / "per_cluster":
//   "median 283.1 cycles over 132 SMs (min 276.4 on SM 18, max 291.9 on SM 97); slowest SM 97 at 1.0311 of
//    the median; 7 launches, each measured 132 of 132 SMs; missing: none"
std::string spread_note(const Summary& s, const std::string& value_unit);

// The note key: "per_sm" or "per_cluster".
std::string note_key(const Summary& s);

// Which per-launch statistic a measurement reports. The median suits placements of
// one kind; where they fall into groups by where they sit (the 15 clusters of 8 on an
// H100 or H200 read about 189 or 207-215 cycles, in proportions the board's GPC layout
// sets), the median jumps between the groups from board to board and the mean does not.
enum class Over { median, mean };

// value, samples (the statistic `over` picks), unit (the readings' unit: "cycles", or
// "ns" per hop), the method and spread notes, and the series "latency_per_<unit>" (x: the
// SM each placement measured from, y: its median). Not named kPerSmSeries: that one
// holds ratios for the uniformity verdict.
Measurement to_measurement(const Summary& s, const std::string& method, const std::string& value_unit = "cycles",
                           Over over = Over::median);

// The note "sm0_alone": the single-block reading of `place` (the method before
// this one) beside its reading among every placement and the median over them:
//   "SM 0 chasing alone (the single-block method): 284.21 cycles per hop; SM 0 among every SM 284.50; median
//    over SMs 283.10"
std::string alone_note(const Summary& s, int place, double alone);

// next[] of `units` disjoint cycles of `per_unit` nodes each: unit u owns nodes
// u x per_unit .. (u + 1) x per_unit - 1 and visits them in that order, so a
// chaser starting at its first node walks its own nodes only (ChaseBuffer::place's
// format). units, per_unit >= 1.
std::vector<std::uint32_t> disjoint_cycles(std::size_t units, std::size_t per_unit);

// Starting nodes for `units` chasers on one single cycle: following `next`
// from `start`, the node at position floor(u x n / units) for u = 0 .. units-1,
// so every chaser walks the same lines, each from its own point of the cycle
// and as far from its neighbours as the cycle allows. units >= 1.
std::vector<std::uint32_t> spread_starts(const std::vector<std::uint32_t>& next, std::uint32_t start,
                                         std::size_t units);

}  // namespace gpuconform::kernels::placement
