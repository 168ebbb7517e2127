// SPDX-License-Identifier: Apache-2.0
#pragma once
// The L2 near/far partition machinery of l2_partition_latency.cu (its header comment
// says how it works), shared with the SM-to-L2 latency matrix
// (topology/l2_latency_matrix.cu), which runs the same first-touch chase from every SM.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuconform/probe.hpp"
#include "latency/chase_plan.hpp"
#include "latency/pointer_chase.cuh"

namespace gpuconform::kernels::l2part {

constexpr int kProbingSm = 0;

// Everything one experiment needs.
struct Setup {
  const ProbeContext& ctx;
  chase_dev::ChaseBuffer& buf;
  chase_dev::L2Flusher& flusher;
  unsigned long long footprint;
};

// The sampled lines split by their first-touch latency from SM kProbingSm: `near`
// are homed in its partition, `far` in the other; `warmer` is an SM of the other
// partition (its reads put copies of every line into its own partition).
struct Partition {
  std::vector<unsigned long long> near, far;  // line offsets
  chase::TwoMeans split;
  int warmer = -1;
  std::string trials;  // every warming SM tried, for the note and the failure message
};

// Throws std::runtime_error (with every trial) when no warming SM shows two partitions.
Partition classify(const Setup& s);

// Flush L2, let SM `warmer` alone read the footprint, then time `probing_sm`'s first
// lap over `lines` (a random cycle drawn from `seed`): cycles per hop.
double chase_class(const Setup& s, int warmer, const std::vector<unsigned long long>& lines, std::uint64_t seed,
                   int probing_sm = kProbingSm);

// The chase footprint: an eighth of L2, whole lines.
unsigned long long footprint_bytes(const DeviceInfo& dev);

}  // namespace gpuconform::kernels::l2part
