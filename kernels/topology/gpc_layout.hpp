// SPDX-License-Identifier: Apache-2.0
#pragma once
// The board's layout as the cluster probes find it (gpc_layout.cu), measured once per
// device and process and shared by every probe that needs it (the L2 matrix checks
// its partition split against the GPCs, block placement records GPCs per block).
#include <string>
#include <vector>

#include "gpuconform/probe.hpp"
#include "topology/layout_analysis.hpp"

namespace gpuconform::kernels {

struct BoardLayout {
  int max_cluster = 0;          // cudaOccupancyMaxPotentialClusterSize, one CTA per SM, non-portable allowed
  int max_active_clusters = 0;  // cudaOccupancyMaxActiveClusters of that size
  topology::GpcMap first, second;  // two independent mapping passes
  topology::TpcMap tpcs;
  std::vector<std::string> achievable;  // violations of "the largest cluster is achievable"
  std::string method;
};

// Throws ProbeSkipped below compute capability 9.0 (no thread-block clusters).
// `consumer` names the caller (its probe id): a consumer that asks again gets a fresh
// measurement, so `record --runs N`, which runs a probe N times in one process, records N
// independent maps, while the probes of one run share one.
const BoardLayout& board_layout(const ProbeContext& ctx, const std::string& consumer);

}  // namespace gpuconform::kernels
