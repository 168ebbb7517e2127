// SPDX-License-Identifier: Apache-2.0
// Distributed-shared-memory read bandwidth (sm_90 thread-block clusters of 2
// and 4): every CTA reads the shared memory of the next CTA of its cluster
// (rank + 1 mod size) with ld.shared::cluster.v4 at addresses from mapa, in
// the conflict-free 16-slot layout of onchip_throughput.cu (eight 16-byte
// loads per thread per trip, window sliding by one slot per trip). As many
// clusters as can be resident at once (cudaOccupancyMaxActiveClusters). No
// public peak (seed 003 and perf-anchors report measured 2-3 TB/s on
// Hopper): the expectation is a measured minimum. A cluster barrier before
// the exit keeps every CTA's shared memory alive until its peer has read it.
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

constexpr int kThreads = 256;
constexpr int kSlots = 16, kWindow = 8;

__global__ void __launch_bounds__(kThreads) dsmem_read_kernel(const uint4* global, int trips, uint4* sink,
                                                              long long* stamps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ uint4 smem[];
  const unsigned t = threadIdx.x;
  for (int s = 0; s < kSlots; ++s) smem[s * kThreads + t] = global[(blockIdx.x * kSlots + s) * kThreads + t];
  unsigned rank, size;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  gc_cluster_sync();
  const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + t * 16u;
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"((rank + 1) % size));
  constexpr unsigned slot_bytes = kThreads * 16u;
  uint4 acc = make_uint4(t, 1u, 2u, 3u);
  const GcStamp begin = gc_stamp_now();
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    const unsigned addr = remote + (static_cast<unsigned>(trip) & (kWindow - 1)) * slot_bytes;
    uint4 v[kWindow];
#pragma unroll
    for (int k = 0; k < kWindow; ++k)
      asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[k].x), "=r"(v[k].y), "=r"(v[k].z), "=r"(v[k].w) : "r"(addr + k * slot_bytes));
#pragma unroll
    for (int k = 0; k < kWindow; ++k) { acc.x ^= v[k].x ^ v[k].y; acc.y ^= v[k].z ^ v[k].w; }
  }
  gc_stamp_store(stamps, begin);
  gc_cluster_sync();
  sink[blockIdx.x * static_cast<std::size_t>(kThreads) + t] = acc;
#else
  __trap();
#endif
}

template <int Cluster>
Measurement measure_dsmem_read(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const std::size_t smem = static_cast<std::size_t>(kSlots) * kThreads * sizeof(uint4);
  GC_CUDA_CHECK(cudaFuncSetAttribute(dsmem_read_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  ClusterLaunch launch(Cluster, kThreads, smem);
  const cudaLaunchConfig_t& config = launch.config;
  int clusters = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, dsmem_read_kernel, &config));
  if (clusters < 1) throw ProbeSkipped(fmt::format("no cluster of {} CTAs with {} B of shared memory fits", Cluster, smem));
  const int grid = clusters * Cluster;
  launch.set_clusters(static_cast<unsigned>(clusters));
  DeviceBuffer<uint4> source(static_cast<std::size_t>(grid) * kSlots * kThreads);
  fill_random(reinterpret_cast<std::uint64_t*>(source.get()), source.size() * 2, 0x64736d656d72u);
  DeviceBuffer<uint4> sink(static_cast<std::size_t>(grid) * kThreads);
  auto run = [&](int trips, long long* stamps) {
    GC_CUDA_CHECK(cudaLaunchKernelEx(&config, dsmem_read_kernel, static_cast<const uint4*>(source.get()), trips,
                                     sink.get(), stamps));
  };
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kLaunchTargetMs, 64);
  Work work;
  work.unit = "B/s";
  work.units_per_launch = static_cast<double>(grid) * kThreads * trips * kWindow * sizeof(uint4);
  work.sms_used = std::min(grid, dev.sm_count);
  work.method = fmt::format("{} clusters of {} CTAs x {} threads (as many as are co-resident), each CTA reading its "
                            "neighbour's shared memory: {} trips x {} ld.shared::cluster.v4 per thread",
                            clusters, Cluster, kThreads, trips, kWindow);
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&dsmem_read_kernel), dev.arch()));
  return m;
}

const Requirements kClusters{90, 0, "thread-block clusters"};

const bool kRegistered = register_probes({
    Probe{"throughput.dsmem.cluster2", Family::throughput,
          "distributed shared memory read bandwidth, each CTA of a cluster of 2 reading its neighbour (min)", kClusters,
          kMinHint, &measure_dsmem_read<2>},
    Probe{"throughput.dsmem.cluster4", Family::throughput,
          "distributed shared memory read bandwidth, each CTA of a cluster of 4 reading its neighbour (min)", kClusters,
          kMinHint, &measure_dsmem_read<4>},
});

}  // namespace
}  // namespace gpuconform::kernels
