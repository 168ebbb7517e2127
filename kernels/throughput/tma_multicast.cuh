// SPDX-License-Identifier: Apache-2.0
#pragma once
// The TMA kernel shared by the multicast probes (sm_90 cp.async.bulk into the
// shared memory of the CTAs of a cluster) and the launch they share: the timed
// bandwidth probes (tma_multicast_throughput.cu) and the L2 traffic probes
// (tma_multicast_l2_traffic.cu), which count the L2 reads of this very launch.
//
// Two modes, identical but for the copy instruction, so that the L2 traffic
// probes compare like with like:
// - multicast: every CTA issues its 1/C slice of each chunk with
//   .multicast::cluster to all C CTAs, so each chunk is read once and each CTA's
//   stage receives the whole chunk (C slices) on its own mbarrier;
// - unicast (the control): every CTA issues all C slices of the chunk itself,
//   into its own shared memory, with the same bulk copy without .multicast, so
//   each chunk is read C times for the same bytes delivered.
//
// Order per round n on stage s = n mod S (one issuing thread per CTA):
//   wait for round n - S on the stage's mbarrier (its bytes have all landed),
//   arm the stage for round n (arrive.expect_tx of the whole chunk),
//   cluster barrier (no CTA's slice of round n may land on a barrier that its
//   owner has not re-armed: that would complete the wrong phase),
//   issue this CTA's copies.
// So S rounds stay in flight. Every wait is bounded; a CTA whose wait times out
// stops issuing but keeps meeting the cluster barriers, so the launch ends and
// reports an error instead of hanging.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include "common/clock_stamps.cuh"
#include "common/cluster.cuh"
#include "common/cluster_launch.hpp"
#include "common/fill.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels::tma_multicast {

// 6 stages of 32 KiB (192 KiB per CTA in flight): each round costs one cluster
// barrier, so rounds must be large; with 4 x 16 KiB an H100 read only 0.44 of
// the HBM peak in clusters of 2 (2026-11-25).
constexpr int kStages = 6;
constexpr unsigned kChunkBytes = 32768;

// One warp per CTA (all its threads meet the cluster barriers; lane 0 issues).
template <bool Multicast>
__global__ void __launch_bounds__(32) tma_cluster_copy_kernel(const unsigned char* src, std::size_t chunks,
                                                              unsigned* error, unsigned* sink, long long* stamps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char buf[];
  __shared__ __align__(8) unsigned long long bars[kStages];
  const GcStamp begin = gc_stamp_now();
  unsigned rank, size, cluster, clusters;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cluster));
  asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(clusters));
  const bool leader = threadIdx.x == 0;
  if (leader) {
    for (int s = 0; s < kStages; ++s) {
      const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
      asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  gc_cluster_sync();  // every barrier of the cluster is initialised before any slice lands
  const unsigned buf_s = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  const unsigned slice = kChunkBytes / size;
  const unsigned short mask = static_cast<unsigned short>((1u << size) - 1u);
  bool failed = false;
  std::size_t n = 0;  // rounds of this cluster
  for (std::size_t c = cluster; c < chunks; c += clusters, ++n) {
    const int s = static_cast<int>(n % kStages);
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
    if (leader && !failed) {
      if (n >= static_cast<std::size_t>(kStages) &&
          !gc_mbar_wait_bounded(bar, static_cast<unsigned>((n / kStages - 1) & 1)))
        failed = true;
      else
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(kChunkBytes) : "memory");
    }
    gc_cluster_sync();
    if (leader && !failed) {
      // clang-format off
      if constexpr (Multicast) {
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
            :: "r"(buf_s + s * kChunkBytes + rank * slice), "l"(src + c * kChunkBytes + rank * slice), "r"(slice),
               "r"(bar), "h"(mask)
            : "memory");
      } else {
        // The same slices, each read by this CTA for itself: a shared::cta address is
        // this CTA's own shared::cluster address.
        for (unsigned r = 0; r < size; ++r)
          asm volatile(
              "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
              :: "r"(buf_s + s * kChunkBytes + r * slice), "l"(src + c * kChunkBytes + r * slice), "r"(slice), "r"(bar)
              : "memory");
      }
      // clang-format on
    }
  }
  // Drain: the last round of every stage.
  if (leader && !failed)
    for (int s = 0; s < kStages && static_cast<std::size_t>(s) < n; ++s) {
      const std::size_t uses = (n - s + kStages - 1) / kStages;
      const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&bars[s]));
      if (!gc_mbar_wait_bounded(bar, static_cast<unsigned>((uses - 1) & 1))) failed = true;
    }
  if (failed) atomicAdd(error, 1u);
  gc_stamp_store(stamps, begin);
  gc_cluster_sync();  // no CTA leaves while a peer's slice may still target its shared memory
  if (leader) sink[blockIdx.x] = reinterpret_cast<const unsigned*>(buf)[0];
#else
  __trap();
#endif
}

// The launch both probe files make: clusters of `Cluster` CTAs, at most one CTA per SM
// (the in-flight bytes per SM stay those of one CTA), streaming a random buffer of at
// least 1 GiB and 8 x the L2 (so it is read from device memory), whole chunks only.
template <int Cluster>
class ClusterCopyLaunch {
 public:
  explicit ClusterCopyLaunch(const DeviceInfo& dev)
      : clusters_of_(Cluster, 32, kSmemBytes),
        clusters_(fitting_clusters(dev, clusters_of_.config)),
        bytes_(std::max<std::size_t>(std::size_t(1) << 30, 8 * static_cast<std::size_t>(dev.l2_bytes)) / kChunkBytes *
               kChunkBytes),
        src_(bytes_),
        error_(1),
        sink_(static_cast<std::size_t>(clusters_) * Cluster) {
    clusters_of_.set_clusters(static_cast<unsigned>(clusters_));
    fill_random(reinterpret_cast<std::uint64_t*>(src_.get()), bytes_ / 8, 0x6d63617374u);
    GC_CUDA_CHECK(cudaMemset(error_.get(), 0, sizeof(unsigned)));
  }

  // One launch, asynchronous; `stamps` may be null.
  template <bool Multicast>
  void launch(long long* stamps = nullptr) const {
    GC_CUDA_CHECK(cudaLaunchKernelEx(&clusters_of_.config, tma_cluster_copy_kernel<Multicast>,
                                     static_cast<const unsigned char*>(src_.get()), bytes_ / kChunkBytes, error_.get(),
                                     sink_.get(), stamps));
  }

  // Throws when an mbarrier of any launch so far never completed (synchronises).
  void check(const char* what) const {
    if (error_.download()[0] != 0)
      throw std::runtime_error(fmt::format("an mbarrier of the TMA {} never completed (cluster of {})", what, Cluster));
  }

  int clusters() const { return clusters_; }
  int grid() const { return clusters_ * Cluster; }
  std::size_t bytes() const { return bytes_; }  // read per launch by multicast; C x by unicast

  static constexpr std::size_t kSmemBytes = static_cast<std::size_t>(kStages) * kChunkBytes;

 private:
  template <bool Multicast>
  static void prepare() {
    GC_CUDA_CHECK(cudaFuncSetAttribute(tma_cluster_copy_kernel<Multicast>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(kSmemBytes)));
  }

  // Clusters resident at once (both modes use the same resources), one CTA per SM at most.
  static int fitting_clusters(const DeviceInfo& dev, const cudaLaunchConfig_t& config) {
    prepare<true>();
    prepare<false>();
    int fit = 0;
    GC_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&fit, tma_cluster_copy_kernel<true>, &config));
    if (fit < 1)
      throw ProbeSkipped(fmt::format("no cluster of {} CTAs with {} B of shared memory fits", Cluster, kSmemBytes));
    return std::min(fit, dev.sm_count / Cluster);
  }

  ClusterLaunch clusters_of_;
  int clusters_ = 0;
  std::size_t bytes_ = 0;
  DeviceBuffer<unsigned char> src_;
  DeviceBuffer<unsigned> error_, sink_;
};

}  // namespace gpuconform::kernels::tma_multicast
