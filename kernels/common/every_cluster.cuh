// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every thread-block cluster the GPU holds at once (placement.hpp says why).
//
// A cluster's latency depends on which SMs of which GPC the launch gave it, so
// one cluster measures one spot. Placements launches as many clusters as the
// occupancy API says fit at once, with more than half of an SM's shared memory
// reserved per CTA (topology/per_sm_launch.cuh: one CTA per SM, so no two CTAs
// of a cluster share an SM and no two clusters share one), and each cluster
// writes its result into its own slot of `out` (by %clusterid.x) and each CTA
// its SM into `sms`. collect() turns the slots into one placement::Launch keyed
// by the SM of each cluster's rank 0. A DSMEM chase stays inside its GPC, so
// the other clusters add no load to it.
#include <cuda_runtime.h>

#include <functional>
#include <string>

#include "common/cluster_launch.hpp"
#include "common/placement.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/device_info.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels::every_cluster {

constexpr int kOutStride = 4;  // long longs of `out` per cluster

// This CTA's cluster's slot of `out`; thread 0 of every CTA records its SM in sms[blockIdx.x].
__device__ __forceinline__ long long* slot_of_cluster(long long* out, int* sms) {
  unsigned cluster = 0, sm = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cluster));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
#endif
  if (threadIdx.x == 0) sms[blockIdx.x] = static_cast<int>(sm);
  return out + static_cast<unsigned long long>(kOutStride) * cluster;
}

class Placements {
 public:
  // Reserves one CTA per SM for `kernel` (clusters of `size` CTAs of `threads`)
  // and asks how many clusters fit at once; a GPU that places none is a skip.
  Placements(const void* kernel, unsigned size, unsigned threads, const DeviceInfo& dev);
  Placements(const Placements&) = delete;
  Placements& operator=(const Placements&) = delete;

  const cudaLaunchConfig_t& config() const { return launch_.config; }
  unsigned most() const { return most_; }          // clusters that fit at once
  unsigned clusters() const { return clusters_; }  // clusters the next launch has
  void set_clusters(unsigned n);                   // 1 .. most()
  long long* out() const { return out_.get(); }
  int* sms() const { return sms_.get(); }
  // Before each launch: every slot reads -1 until its cluster writes it.
  void arm();
  // One reading per cluster that wrote out[0] >= 0: value_of(its slot), labelled by its CTAs' SMs.
  placement::Launch collect(const std::function<double(const long long* slot)>& value_of) const;

 private:
  unsigned size_;
  ClusterLaunch launch_;
  unsigned most_ = 0, clusters_ = 0;
  DeviceBuffer<long long> out_;
  DeviceBuffer<int> sms_;
};

// The sampling of median_cycles_of_launches (launch_samples.hpp), with every
// launch holding every cluster: one untimed launch, then 3 (quick) or 9; the
// measurement of placement::to_measurement with the SM clock (each launch's median
// over the clusters, or its mean with Over::mean).
Measurement median_over_clusters(const ProbeContext& ctx, const std::function<placement::Launch()>& one_launch,
                                 const std::string& method, placement::Over over = placement::Over::median);

}  // namespace gpuconform::kernels::every_cluster
