// SPDX-License-Identifier: Apache-2.0
// Distributed-shared-memory latency on Hopper thread-block clusters: thread 0
// of CTA rank 0 chases pointers that live in the shared memory of the other
// CTAs of its cluster (`ld.shared::cluster.u32`, addresses from `mapa`).
//
// Method: every CTA of the cluster holds 64 node slots at the same shared
// offset; the host draws a random single cycle over the nodes of every rank
// except 0 (for latency.dsmem.self: over rank 0's own nodes, reached through
// the cluster window) and each CTA writes the cluster address of the next
// node into the nodes it owns. After a cluster barrier, rank 0 walks the cycle
// once untimed and then times 2048 hops; a second barrier keeps the other
// CTAs (and their shared memory) alive until it is done. The mean per hop
// averages over the remote ranks, whose SMs sit at different distances in
// the GPC (perf-anchors: 181 cycles at cluster size 2, 184-213 for 2-16).
//
// Every cluster at once (common/every_cluster.cuh): which SMs one cluster gets
// decides its latency (12 H100s read 189.6 cycles at cluster size 2, two read
// 178.6-179.6), so each launch holds as many clusters as fit, one CTA per SM,
// every cluster's rank 0 chases, and the value is the median over clusters
// (common/placement.hpp); one cluster alone is timed once more for the note
// "one_cluster_alone".
#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

#include "common/cluster.cuh"
#include "common/every_cluster.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kSlots = 64;
constexpr int kHops = 2048;

// out, sms: every_cluster's slots (each cluster's cycles, each CTA's SM).
__global__ void dsmem_chase_kernel(const unsigned* owner, const unsigned* slot, const unsigned* next, unsigned nodes,
                                   unsigned start, long long* out, int* sms) {
#if __CUDA_ARCH__ >= 900
  __shared__ unsigned mem[kSlots];
  long long* const mine = every_cluster::slot_of_cluster(out, sms);
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0) {
    for (unsigned i = 0; i < nodes; ++i) {
      if (owner[i] != rank) continue;
      const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(mem + slot[next[i]]));
      unsigned remote;
      asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(owner[next[i]]));
      mem[slot[i]] = remote;
    }
  }
  gc_cluster_sync();
  if (rank == 0 && threadIdx.x == 0) {
    unsigned p;
    const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(mem + slot[start]));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(p) : "r"(local), "r"(owner[start]));
    for (unsigned i = 0; i < nodes; ++i) asm volatile("ld.shared::cluster.u32 %0, [%0];" : "+r"(p)::"memory");
    const long long t0 = gc_clock64();
#pragma unroll 8
    for (int i = 0; i < kHops; ++i) asm volatile("ld.shared::cluster.u32 %0, [%0];" : "+r"(p)::"memory");
    gc_end_timed_chase(mine, t0, p);
  }
  gc_cluster_sync();
#else
  __trap();
#endif
}

// One cluster alone (the single-cluster method), for the note: what the other
// clusters add, and where one cluster's value sits in this board's spread.
std::string one_cluster_note(every_cluster::Placements& where, const std::function<placement::Launch()>& once,
                             const Measurement& m, const char* statistic) {
  where.set_clusters(1);
  const placement::Launch alone = once();
  where.set_clusters(where.most());
  if (alone.readings.empty()) return "one cluster alone did not report";
  return fmt::format(
      "one cluster alone (the single-cluster method): {:.2f} cycles per hop ({}); {} over {} "
      "clusters {:.2f}",
      alone.readings.front().value, alone.readings.front().where, statistic, where.most(), m.value);
}

// cluster = CTAs per cluster; self = chase rank 0's own nodes; over = the per-launch
// statistic over the clusters (placement.hpp: the mean where clusters come in groups).
template <int Cluster, bool Self, placement::Over Over = placement::Over::median>
Measurement measure_dsmem(const ProbeContext& ctx) {
  const char* const statistic = Over == placement::Over::mean ? "mean" : "median";
  std::vector<unsigned> owner, slot;
  for (int r = Self ? 0 : 1; r < (Self ? 1 : Cluster); ++r)
    for (int s = 0; s < kSlots; ++s) {
      owner.push_back(static_cast<unsigned>(r));
      slot.push_back(static_cast<unsigned>(s));
    }
  const auto next = chase::single_cycle(owner.size(), 0x64736d656dull + Cluster);
  DeviceBuffer<unsigned> d_owner(owner), d_slot(slot), d_next(std::vector<unsigned>(next.begin(), next.end()));
  every_cluster::Placements where(reinterpret_cast<const void*>(&dsmem_chase_kernel), Cluster, 32, ctx.device);
  const auto nodes = static_cast<unsigned>(owner.size());
  const std::function<placement::Launch()> once = [&] {
    where.arm();
    GC_CUDA_CHECK(cudaLaunchKernelEx(&where.config(), dsmem_chase_kernel, d_owner.get(), d_slot.get(), d_next.get(),
                                     nodes, 0u, where.out(), where.sms()));
    GC_CUDA_CHECK_LAUNCH();
    return where.collect([](const long long* c) { return static_cast<double>(c[0]) / kHops; });
  };
  Measurement m = every_cluster::median_over_clusters(
      ctx, once,
      fmt::format("ld.shared::cluster pointer chase from rank 0 over {} nodes in {}, cluster of {}, {} timed hops; "
                  "every cluster at once: {} clusters (as many as fit, one CTA per SM by a shared-memory "
                  "reservation), each rank 0 chasing; sample = {} over clusters, value = median of launches",
                  nodes, Self ? "its own shared memory" : "every other CTA's shared memory", Cluster, kHops,
                  where.most(), statistic),
      Over);
  m.note("one_cluster_alone", one_cluster_note(where, once, m, statistic));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&dsmem_chase_kernel), ctx.device.arch()));
  return m;
}

}  // namespace

const bool kClusterRegistered = register_probes({
    {"latency.dsmem.self",
     Family::latency,
     "ld.shared::cluster to the CTA's own shared memory (cluster of 2)",
     {90, 0, "thread-block clusters"},
     kDeterministicLatency,
     &measure_dsmem<2, true>},
    {"latency.dsmem.cluster2",
     Family::latency,
     "distributed shared memory load from rank 0 to the other CTA of a cluster of 2, every cluster at once (median)",
     {90, 0, "thread-block clusters"},
     {ExpectationKind::band, 0.5, 0.005},
     &measure_dsmem<2, false>},
    {"latency.dsmem.cluster4",
     Family::latency,
     "distributed shared memory load from rank 0 to ranks 1-3 of a cluster of 4 (mean), every cluster at once (median)",
     {90, 0, "thread-block clusters"},
     {ExpectationKind::band, 0.5, 0.005},
     &measure_dsmem<4, false>},
    {"latency.dsmem.cluster8",
     Family::latency,
     "distributed shared memory load from rank 0 to ranks 1-7 of a cluster of 8 (mean), every cluster at once (median)",
     {90, 0, "thread-block clusters"},
     {ExpectationKind::band, 0.5, 0.005},
     &measure_dsmem<8, false>},
    {"latency.dsmem.cluster8.mean",
     Family::latency,
     "distributed shared memory load from rank 0 to ranks 1-7 of a cluster of 8, every cluster at once (mean over "
     "clusters: the 15 clusters read in two groups whose shares the GPC layout sets, which moves the median)",
     {90, 0, "thread-block clusters"},
     {ExpectationKind::band, 0.5, 0.005},
     &measure_dsmem<8, false, placement::Over::mean>},
});

}  // namespace gpuconform::kernels
