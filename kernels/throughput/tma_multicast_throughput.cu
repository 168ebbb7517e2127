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
// The kernel and its launch are in tma_multicast.cuh (shared with the L2 traffic
// probes of tma_multicast_l2_traffic.cu, which count this launch's L2 reads).
// No public peak: a measured minimum.
#include <fmt/format.h>

#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "throughput/tma_multicast.cuh"

namespace gpuconform::kernels {
namespace {

template <int Cluster>
Measurement measure_tma_multicast(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0)
    throw ProbeSkipped("the device reports no memory clock or bus width");
  const tma_multicast::ClusterCopyLaunch<Cluster> copies(dev);
  const std::size_t bytes = copies.bytes();
  auto launch = [&](long long* stamps) { copies.template launch<true>(stamps); };
  Work work;
  work.unit = "B/s";
  work.units_per_launch = static_cast<double>(bytes) * Cluster;  // delivered into shared memory
  work.sms_used = copies.grid();
  work.method = fmt::format(
      "{} MiB read once with cp.async.bulk .multicast::cluster, delivered to all {} CTAs of each "
      "of {} clusters (one warp per CTA, {} stages x {} B, each CTA issuing a 1/{} slice of "
      "every chunk); value = bytes delivered into shared memory per second",
      bytes >> 20, Cluster, copies.clusters(), tma_multicast::kStages, tma_multicast::kChunkBytes, Cluster);
  Measurement m = measure_throughput(ctx, work, launch, throughput_options(ctx));
  copies.check("multicast");
  const double read_rate = m.value / Cluster;
  const double hbm_peak = 2.0 * dev.mem_clock_khz * 1e3 * (dev.mem_bus_width_bits / 8.0);
  m.note("device_memory_read",
         fmt::format("{:.4g} B/s read from device memory = {:.4f} of 2 x {:.0f} MHz x {:.0f} B", read_rate,
                     read_rate / hbm_peak, dev.mem_clock_khz / 1e3, dev.mem_bus_width_bits / 8.0));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&tma_multicast::tma_cluster_copy_kernel<true>),
                                         dev.arch()));
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
