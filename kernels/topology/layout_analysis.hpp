// SPDX-License-Identifier: Apache-2.0
#pragma once
// Host-side analysis behind the topology and parallel families (no CUDA, unit-tested
// in tests/unit/topology_analysis_test.cpp): SMs grouped into GPCs from where the
// CTAs of thread-block clusters ran, SM pairs (TPCs) from size-2 clusters, the
// structural invariants of such a map, the SM-to-L2-partition split, and the shape of
// a contention curve.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace gpuconform::topology {

// Logical GPCs: the CTAs of one cluster always run inside one GPC (CUDA C++ Programming
// Guide, "Thread Block Clusters"), so SMs that ever shared a cluster share a GPC.
// Connected components over every cluster seen (union-find).
struct GpcMap {
  std::vector<std::vector<int>> gpcs;  // SM ids per GPC, ascending; GPCs largest first, then by lowest SM
  std::vector<int> gpc_of_sm;          // index into gpcs; -1 for an SM no cluster ran on
  std::vector<int> sizes() const;      // SMs per GPC, as ordered in gpcs (descending)
  std::string describe() const;        // "GPC 0 (18 SMs): 0-3,8,9,...; GPC 1 ..."
};
GpcMap group_by_cluster(int sm_count, const std::vector<std::vector<int>>& clusters);

// Seed 003 found TPCs that form a logical GPC of their own (never co-scheduled with
// another TPC); they count apart from the GPCs proper.
struct GpcCount {
  int multi_tpc = 0;       // groups of more than 2 SMs: GPCs proper
  int singleton_tpcs = 0;  // groups of 1 or 2 SMs
};
GpcCount count_gpcs(const GpcMap& map);

// TPC pairs from size-2 clusters: an SM's TPC partner is the SM it shared every
// size-2 cluster with, in every launch that placed it. An SM seen with two different
// partners is inconsistent (the hardware does not place pairs on TPCs).
struct TpcMap {
  std::vector<std::pair<int, int>> pairs;  // (lower SM, higher SM), ascending
  std::vector<int> unpaired;               // SMs seen alone or never seen
  std::vector<int> inconsistent;           // SMs seen with more than one partner
};
TpcMap pair_tpcs(int sm_count, const std::vector<std::vector<std::pair<int, int>>>& launches);

// Every structural invariant of a layout that fails, one sentence each:
// every SM lies in a GPC (their SM counts sum to the SM count); a second, independent
// mapping pass finds the same grouping; the largest GPC holds the largest cluster
// (max_cluster SMs at one CTA per SM); TPC pairs are consistent and each lies inside
// one GPC.
std::vector<std::string> layout_violations(int sm_count, const GpcMap& first, const GpcMap& second,
                                           const TpcMap& tpcs, int max_cluster);

// The SM-to-L2 latency matrix: per SM, first-touch latency to lines homed in partition
// A (SM 0's) and in partition B. Each SM's lower value is its near class, the higher
// its far class, and its partition the one it is near to.
struct L2Split {
  std::vector<int> partition;     // 0: near to A (SM 0's side), 1: near to B, per row
  std::vector<double> near, far;  // cycles, per row
  std::vector<std::string> violations;
};
// `sms`: the SM id of each row; `gpc_of_sm` may be empty (no GPC map: no consistency
// check). Violations: an SM whose far / near ratio is below min_ratio (one class only),
// a GPC whose SMs lie in both partitions, a partition holding no SM.
L2Split analyze_l2_matrix(const std::vector<int>& sms, const std::vector<double>& to_a, const std::vector<double>& to_b,
                          double min_ratio, const std::vector<int>& gpc_of_sm);

// The shape of a contention curve over n = 1 .. all SMs: latency must not fall as more
// SMs contend (a point below (1 - tol) x the highest latency before it is a violation),
// and throughput must not collapse past its saturation point (a point below half of
// the best throughput after it was reached is a violation).
struct CurveShape {
  std::vector<std::string> violations;
  std::size_t saturation = 0;  // index of the first point reaching 90% of the best throughput
};
CurveShape check_contention_curve(const std::vector<double>& sms, const std::vector<double>& latency,
                                  const std::vector<double>& throughput, double tol);

// "3 violations: a; b; c" for the run record's `violations` note ("" when none).
std::string join_violations(const std::vector<std::string>& violations);

// Ranges of consecutive ids: {0,1,2,5,7,8} -> "0-2,5,7-8".
std::string id_ranges(std::vector<int> ids);

}  // namespace gpuconform::topology

namespace gpuconform::topology {

// Where the blocks of a grid ran: every SM must have run exactly `per_sm` blocks
// (a grid of per_sm x SMs blocks, per_sm the occupancy calculator's residency, all
// resident at once). One sentence per kind of deviation; empty when none.
std::vector<std::string> placement_violations(const std::vector<int>& sm_of_block, int sm_count, int per_sm);

}  // namespace gpuconform::topology
