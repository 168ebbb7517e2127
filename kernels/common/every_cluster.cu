// SPDX-License-Identifier: Apache-2.0
// Host side of the every-cluster launch (every_cluster.cuh).
#include "common/every_cluster.cuh"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/timing.hpp"
#include "topology/per_sm_launch.cuh"

namespace gpuconform::kernels::every_cluster {

namespace {

// One CTA per SM for `kernel`, then how many clusters of `config` fit at once.
unsigned fit_clusters(const void* kernel, const cudaLaunchConfig_t& config) {
  per_sm::reserve_smem(kernel, config.dynamicSmemBytes, static_cast<int>(config.blockDim.x));
  int fit = 0;
  const cudaError_t occ = cudaOccupancyMaxActiveClusters(&fit, kernel, &config);
  const unsigned size = config.gridDim.x;  // the launch holds one cluster until set_clusters
  if (occ != cudaSuccess) {
    cudaGetLastError();
    throw ProbeSkipped(fmt::format("clusters of {} CTAs, one per SM, cannot be placed on this GPU ({}: {})", size,
                                   cudaGetErrorName(occ), cudaGetErrorString(occ)));
  }
  if (fit < 1) throw ProbeSkipped(fmt::format("the occupancy API places no cluster of {} CTAs, one per SM", size));
  return static_cast<unsigned>(fit);
}

}  // namespace

Placements::Placements(const void* kernel, unsigned size, unsigned threads, const DeviceInfo& dev)
    : size_(size),
      launch_(size, threads, per_sm::one_block_smem(dev)),
      most_(fit_clusters(kernel, launch_.config)),
      out_(static_cast<std::size_t>(kOutStride) * most_),
      sms_(static_cast<std::size_t>(size) * most_) {
  set_clusters(most_);
}

void Placements::set_clusters(unsigned n) {
  if (n < 1 || n > most_) throw std::invalid_argument(fmt::format("every_cluster: {} clusters of 1..{}", n, most_));
  clusters_ = n;
  launch_.set_clusters(n);
}

void Placements::arm() {
  out_.poison(0xFF);
  sms_.poison(0xFF);
}

placement::Launch Placements::collect(const std::function<double(const long long* slot)>& value_of) const {
  const auto out = out_.download();
  const auto sms = sms_.download();
  placement::Launch l;
  l.expected = static_cast<int>(clusters_);
  for (unsigned c = 0; c < clusters_; ++c) {
    const long long* slot = out.data() + static_cast<std::size_t>(kOutStride) * c;
    if (slot[0] < 0) continue;
    std::string list;
    std::set<int> distinct;
    for (unsigned r = 0; r < size_; ++r) {
      const int sm = sms[c * size_ + r];
      list += fmt::format("{}{}", r ? "," : "", sm);
      distinct.insert(sm);
    }
    // One CTA per SM was reserved: CTAs sharing an SM would time local, not distributed, shared memory.
    if (distinct.size() != size_)
      throw std::runtime_error(fmt::format("cluster {} has CTAs on SMs {}: not one CTA per SM", c, list));
    l.readings.push_back({static_cast<int>(c), sms[c * size_], value_of(slot), "cluster on SMs " + list});
  }
  return l;
}

Measurement median_over_clusters(const ProbeContext& ctx, const std::function<placement::Launch()>& one_launch,
                                 const std::string& method, placement::Over over) {
  one_launch();
  std::vector<placement::Launch> launches;
  for (int r = 0; r < (ctx.quick ? 3 : 9); ++r) launches.push_back(one_launch());
  Measurement m = placement::to_measurement(placement::summarize(launches, "cluster"), method, "cycles", over);
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

}  // namespace gpuconform::kernels::every_cluster
