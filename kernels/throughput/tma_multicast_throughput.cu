// SPDX-License-Identifier: Apache-2.0
// TMA multicast (sm_90 cp.async.bulk ... .multicast::cluster) in clusters of
// 2 and 4: each chunk of a device-memory buffer is read once and delivered to
// the shared memory of every CTA of a cluster. Every CTA issues its 1/C slice
// of each chunk, multicast to all C CTAs, so each CTA's stage receives the
// whole chunk (C slices) on its own mbarrier. The value is the bandwidth
// delivered into shared memory (C x the bytes read); the notes give the
// device-memory bytes read per second and their fraction of the HBM peak, and
// the ratio to C x a plain read, which is what multicast is for: delivering C
// copies for the traffic of one.
//
// Order per round n on stage s = n mod S (one issuing thread per CTA):
//   wait for round n - S on the stage's mbarrier (its bytes have all landed),
//   arm the stage for round n (arrive.expect_tx of the whole chunk),
//   cluster barrier (no CTA's slice of round n may land on a barrier that its
//   owner has not re-armed: that would complete the wrong phase),
//   issue this CTA's slice to all CTAs.
// So S rounds stay in flight. Every wait is bounded; a CTA whose wait times out
// stops issuing but keeps meeting the cluster barriers, so the launch ends and
// reports an error instead of hanging. No public peak: a measured minimum.
#include <fmt/format.h>

#include <algorithm>

#include "common/clock_stamps.cuh"
#include "common/fill.cuh"
#include "common/cluster.cuh"
#include "common/cluster_launch.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

// 6 stages of 32 KiB (192 KiB per CTA in flight): each round costs one cluster
// barrier, so rounds must be large; with 4 x 16 KiB an H100 read only 0.44 of
// the HBM peak in clusters of 2 (2026-11-25).
constexpr int kStages = 6;
constexpr unsigned kChunkBytes = 32768;

// One warp per CTA (all its threads meet the cluster barriers; lane 0 issues).
__global__ void __launch_bounds__(32) tma_multicast_kernel(const unsigned char* src, std::size_t chunks,
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
      if (n >= static_cast<std::size_t>(kStages) && !gc_mbar_wait_bounded(bar, static_cast<unsigned>((n / kStages - 1) & 1)))
        failed = true;
      else
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(kChunkBytes) : "memory");
    }
    gc_cluster_sync();
    if (leader && !failed)
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
          ::"r"(buf_s + s * kChunkBytes + rank * slice), "l"(src + c * kChunkBytes + rank * slice), "r"(slice),
          "r"(bar), "h"(mask)
          : "memory");
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

template <int Cluster>
Measurement measure_tma_multicast(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0) throw ProbeSkipped("the device reports no memory clock or bus width");
  const std::size_t smem = static_cast<std::size_t>(kStages) * kChunkBytes;
  GC_CUDA_CHECK(cudaFuncSetAttribute(tma_multicast_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  ClusterLaunch clusters_of(Cluster, 32, smem);
  const cudaLaunchConfig_t& config = clusters_of.config;
  int clusters = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, tma_multicast_kernel, &config));
  if (clusters < 1) throw ProbeSkipped(fmt::format("no cluster of {} CTAs with {} B of shared memory fits", Cluster, smem));
  // One CTA per SM at most: the in-flight bytes per SM stay those of one CTA.
  clusters = std::min(clusters, dev.sm_count / Cluster);
  const int grid = clusters * Cluster;
  clusters_of.set_clusters(static_cast<unsigned>(clusters));
  const std::size_t bytes = std::max<std::size_t>(std::size_t(1) << 30, 8 * static_cast<std::size_t>(dev.l2_bytes)) /
                            kChunkBytes * kChunkBytes;
  const std::size_t chunks = bytes / kChunkBytes;
  DeviceBuffer<unsigned char> src(bytes);
  fill_random(reinterpret_cast<std::uint64_t*>(src.get()), bytes / 8, 0x6d63617374u);
  DeviceBuffer<unsigned> error(1), sink(static_cast<std::size_t>(grid));
  GC_CUDA_CHECK(cudaMemset(error.get(), 0, sizeof(unsigned)));
  auto launch = [&](long long* stamps) {
    GC_CUDA_CHECK(cudaLaunchKernelEx(&config, tma_multicast_kernel, static_cast<const unsigned char*>(src.get()), chunks,
                                     error.get(), sink.get(), stamps));
  };
  Work work;
  work.unit = "B/s";
  work.units_per_launch = static_cast<double>(bytes) * Cluster;  // delivered into shared memory
  work.sms_used = grid;
  work.method = fmt::format("{} MiB read once with cp.async.bulk .multicast::cluster, delivered to all {} CTAs of each "
                            "of {} clusters (one warp per CTA, {} stages x {} B, each CTA issuing a 1/{} slice of "
                            "every chunk); value = bytes delivered into shared memory per second",
                            bytes >> 20, Cluster, clusters, kStages, kChunkBytes, Cluster);
  Measurement m = measure_throughput(ctx, work, launch, throughput_options(ctx));
  if (error.download()[0] != 0)
    throw std::runtime_error(fmt::format("an mbarrier of the TMA multicast never completed (cluster of {})", Cluster));
  const double read_rate = m.value / Cluster;
  const double hbm_peak = 2.0 * dev.mem_clock_khz * 1e3 * (dev.mem_bus_width_bits / 8.0);
  m.note("device_memory_read", fmt::format("{:.4g} B/s read from device memory = {:.4f} of 2 x {:.0f} MHz x {:.0f} B",
                                           read_rate, read_rate / hbm_peak, dev.mem_clock_khz / 1e3,
                                           dev.mem_bus_width_bits / 8.0));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&tma_multicast_kernel), dev.arch()));
  return m;
}

const Requirements kClusters{90, 0, "TMA multicast (thread-block clusters)"};

const bool kRegistered = register_probes({
    Probe{"throughput.tma.multicast.cluster2", Family::throughput,
          "bandwidth delivered into shared memory by TMA multicast to clusters of 2 (each chunk read once, "
          "landing in both CTAs); min",
          kClusters, kMinHint, &measure_tma_multicast<2>},
    Probe{"throughput.tma.multicast.cluster4", Family::throughput,
          "bandwidth delivered into shared memory by TMA multicast to clusters of 4 (each chunk read once, "
          "landing in all four CTAs); min",
          kClusters, kMinHint, &measure_tma_multicast<4>},
});

}  // namespace
}  // namespace gpuconform::kernels
