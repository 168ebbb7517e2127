// SPDX-License-Identifier: Apache-2.0
// The GPC / TPC / SM map of the board in hand, found the way seed 003 (Chen and
// Patel 2026, "Clusters, GPCs, and Floorsweeping") finds it: the CTAs of one
// thread-block cluster always run inside one GPC, so launching clusters and reading
// %smid with %clusterid / %cluster_ctarank groups the SMs by GPC.
//
// Method. Every CTA reserves more than half of an SM's shared memory, so one CTA runs
// per SM and a cluster of s CTAs covers s distinct SMs of one GPC. One mapping pass
// launches every cluster size from 2 to the largest the occupancy API allows
// (cudaOccupancyMaxPotentialClusterSize with cudaFuncAttributeNonPortableClusterSizeAllowed:
// 16 on an H100 instead of the portable 8), each with several waves of clusters that
// hold their SMs ~20 us, so sizes that do not divide a GPC's SM count tile it
// differently and connect all of its SMs. SMs ever in one cluster are in one GPC
// (union-find, layout_analysis.hpp). A second pass, in the opposite size order and
// with another wave count, must find the same grouping. TPCs: SM pairs of size-2
// clusters over three launches; each SM must always pair with the same partner.
// The largest cluster is checked to be achievable: cudaOccupancyMaxActiveClusters of
// them launched at once must all be resident together (each CTA waits for all), each
// on as many distinct SMs as it has CTAs, inside one GPC of the map.
// Floor-swept boards differ, so no probe expects one board's map: the map goes into
// the run record (series gpc_of_sm, sms_per_gpc) and only counts and invariants are
// judged.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <string>

#include "common/cluster_launch.hpp"
#include "gpuconform/device_buffer.hpp"
#include "topology/gpc_layout.hpp"
#include "topology/per_sm_launch.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kThreads = 32;

// Records the SM of every CTA at index clusterid x size + rank. With `arrived`, each
// CTA also waits until all `expected` CTAs have arrived (or kWaitNs passed) and
// records whether they did: all resident at once.
__global__ void cluster_where_kernel(int* sm_of_cta, unsigned* arrived, unsigned expected, int* all_seen) {
#if __CUDA_ARCH__ >= 900
  constexpr unsigned long long kHoldNs = 20000;     // keeps a wave's SMs busy while the next clusters are placed
  constexpr unsigned long long kWaitNs = 50000000;  // co-residence wait before giving up
  extern __shared__ char reserve[];
  if (threadIdx.x != 0) return;
  unsigned rank, id, size;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(id));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  const unsigned index = id * size + rank;
  sm_of_cta[index] = static_cast<int>(per_sm::smid());
  reserve[0] = static_cast<char>(rank);
  if (arrived) {
    atomicAdd(arrived, 1u);
    const unsigned long long t0 = per_sm::globaltimer();
    while (*reinterpret_cast<volatile unsigned*>(arrived) < expected && per_sm::globaltimer() - t0 < kWaitNs) {
    }
    all_seen[index] = *reinterpret_cast<volatile unsigned*>(arrived) >= expected;
  } else {
    per_sm::hold_ns(kHoldNs);
  }
#else
  __trap();
#endif
}

struct Launcher {
  std::size_t smem = 0;
  int sm_count = 0;

  int max_active(int size) const {
    const ClusterLaunch l(static_cast<unsigned>(size), kThreads, smem);
    int n = 0;
    GC_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&n, reinterpret_cast<const void*>(cluster_where_kernel), &l.config));
    return n;
  }

  // The SMs of each cluster of one launch.
  std::vector<std::vector<int>> run(int clusters, int size) const {
    const ClusterLaunch l(static_cast<unsigned>(size), kThreads, smem, static_cast<unsigned>(clusters));
    DeviceBuffer<int> where(static_cast<std::size_t>(clusters * size));
    GC_CUDA_CHECK(cudaMemset(where.get(), 0xFF, where.bytes()));
    GC_CUDA_CHECK(cudaLaunchKernelEx(&l.config, cluster_where_kernel, where.get(), static_cast<unsigned*>(nullptr), 0u,
                                     static_cast<int*>(nullptr)));
    GC_CUDA_CHECK_LAUNCH();
    const auto sm = where.download();
    std::vector<std::vector<int>> out(static_cast<std::size_t>(clusters));
    for (int i = 0; i < clusters * size; ++i) out[i / size].push_back(sm[i]);
    return out;
  }
};

topology::GpcMap mapping_pass(const Launcher& l, const std::vector<int>& sizes, int waves) {
  std::vector<std::vector<int>> clusters;
  for (int s : sizes) {
    const int active = l.max_active(s);
    if (active <= 0) continue;
    for (auto& c : l.run(active * waves, s)) clusters.push_back(std::move(c));
  }
  return topology::group_by_cluster(l.sm_count, clusters);
}

std::vector<std::string> check_achievable(const Launcher& l, const BoardLayout& b) {
  std::vector<std::string> v;
  const int size = b.max_cluster, clusters = b.max_active_clusters;
  if (clusters <= 0) return {fmt::format("cudaOccupancyMaxActiveClusters allows no cluster of {} CTAs", size)};
  const ClusterLaunch launch(static_cast<unsigned>(size), kThreads, l.smem, static_cast<unsigned>(clusters));
  const cudaLaunchConfig_t& c = launch.config;
  const unsigned ctas = static_cast<unsigned>(clusters * size);
  DeviceBuffer<int> where(ctas), seen(ctas);
  DeviceBuffer<unsigned> arrived(1);
  GC_CUDA_CHECK(cudaMemset(where.get(), 0xFF, where.bytes()));
  GC_CUDA_CHECK(cudaMemset(seen.get(), 0, seen.bytes()));
  GC_CUDA_CHECK(cudaMemset(arrived.get(), 0, sizeof(unsigned)));
  const cudaError_t err = cudaLaunchKernelEx(&c, cluster_where_kernel, where.get(), arrived.get(), ctas, seen.get());
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return {fmt::format("launching {} clusters of {} CTAs failed: {}", clusters, size, cudaGetErrorName(err))};
  }
  GC_CUDA_CHECK_LAUNCH();
  const auto sm = where.download();
  const auto all = seen.download();
  int split = 0, crowded = 0, late = 0;
  for (int k = 0; k < clusters; ++k) {
    std::set<int> sms, gpcs;
    for (int r = 0; r < size; ++r) {
      const int s = sm[k * size + r];
      sms.insert(s);
      gpcs.insert(s >= 0 && s < l.sm_count ? b.first.gpc_of_sm[s] : -2);
      late += all[k * size + r] == 0;
    }
    crowded += static_cast<int>(sms.size()) != size;
    split += gpcs.size() != 1;
  }
  if (crowded) v.push_back(fmt::format("{} of {} clusters of {} ran on fewer distinct SMs than CTAs", crowded, clusters, size));
  if (split) v.push_back(fmt::format("{} of {} clusters of {} spanned more than one GPC of the map", split, clusters, size));
  if (late)
    v.push_back(fmt::format("{} of {} CTAs never saw all {} clusters of {} resident at once (the occupancy API "
                            "said they fit)", late, ctas, clusters, size));
  return v;
}

BoardLayout measure_layout(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  Launcher l;
  l.sm_count = dev.sm_count;
  l.smem = per_sm::one_block_smem(dev);
  per_sm::reserve_smem(cluster_where_kernel, l.smem, kThreads);
  // Non-portable sizes (above 8) where the device allows them; harmless where not.
  const cudaError_t np = cudaFuncSetAttribute(cluster_where_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  if (np != cudaSuccess) (void)cudaGetLastError();
  BoardLayout b;
  {
    ClusterLaunch launch(1, kThreads, l.smem, static_cast<unsigned>(dev.sm_count));
    cudaLaunchConfig_t c = launch.config;
    c.numAttrs = 0;  // the query takes no cluster dimension
    GC_CUDA_CHECK(cudaOccupancyMaxPotentialClusterSize(&b.max_cluster,
                                                       reinterpret_cast<const void*>(cluster_where_kernel), &c));
  }
  if (b.max_cluster < 2) throw ProbeSkipped(fmt::format("the largest cluster this device runs is {} CTA(s)", b.max_cluster));
  b.max_active_clusters = l.max_active(b.max_cluster);
  std::vector<int> sizes(static_cast<std::size_t>(b.max_cluster - 1));
  std::iota(sizes.begin(), sizes.end(), 2);
  b.first = mapping_pass(l, std::vector<int>(sizes.rbegin(), sizes.rend()), 3);
  b.second = mapping_pass(l, sizes, 2);
  std::vector<std::vector<std::pair<int, int>>> pairs;
  const int pair_active = l.max_active(2);
  for (int waves = 1; waves <= 3 && pair_active > 0; ++waves) {
    pairs.emplace_back();
    for (const auto& c : l.run(pair_active * waves, 2)) pairs.back().emplace_back(c[0], c[1]);
  }
  b.tpcs = topology::pair_tpcs(dev.sm_count, pairs);
  b.achievable = check_achievable(l, b);
  b.method = fmt::format("1 CTA per SM ({} B shared memory each); cluster sizes 2..{} (largest from "
                         "cudaOccupancyMaxPotentialClusterSize, non-portable sizes {}), 3 waves each (second pass: "
                         "ascending, 2 waves); SMs sharing a cluster share a GPC; TPCs from 3 launches of size-2 "
                         "clusters; {} clusters of {} launched at once to check co-residence",
                         l.smem, b.max_cluster, np == cudaSuccess ? "allowed" : "not allowed", b.max_active_clusters,
                         b.max_cluster);
  return b;
}

Series gpc_of_sm_series(const topology::GpcMap& map) {
  Series s{"gpc_of_sm", "SM", "SM id", "GPC", "GPC index (largest first)", {}, {}};
  for (std::size_t sm = 0; sm < map.gpc_of_sm.size(); ++sm) {
    s.x.push_back(static_cast<double>(sm));
    s.y.push_back(map.gpc_of_sm[sm]);
  }
  return s;
}

Series sms_per_gpc_series(const topology::GpcMap& map) {
  Series s{"sms_per_gpc", "GPC", "GPC index (largest first)", "SMs", "SMs", {}, {}};
  const auto sizes = map.sizes();
  for (std::size_t g = 0; g < sizes.size(); ++g) {
    s.x.push_back(static_cast<double>(g));
    s.y.push_back(sizes[g]);
  }
  return s;
}

Measurement layout_measurement(const BoardLayout& b, double value, const std::string& unit) {
  Measurement m;
  m.value = value;
  m.unit = unit;
  m.samples.push_back(value);
  m.note("gpc_map", b.first.describe());
  m.note("sm_counts", fmt::format("[{}]", fmt::join(b.first.sizes(), ", ")));
  const auto count = topology::count_gpcs(b.first);
  m.note("gpcs", fmt::format("{} GPCs of more than one TPC, {} TPCs forming a logical GPC of their own",
                             count.multi_tpc, count.singleton_tpcs));
  m.note("tpcs", fmt::format("{} TPC pairs; unpaired SMs: {}; inconsistent: {}", b.tpcs.pairs.size(),
                             b.tpcs.unpaired.empty() ? "none" : topology::id_ranges(b.tpcs.unpaired),
                             b.tpcs.inconsistent.empty() ? "none" : topology::id_ranges(b.tpcs.inconsistent)));
  m.note("clusters", fmt::format("largest cluster {} CTAs, {} of them resident at once (occupancy API)", b.max_cluster,
                                 b.max_active_clusters));
  m.note("method", b.method);
  m.series.push_back(sms_per_gpc_series(b.first));
  m.series.push_back(gpc_of_sm_series(b.first));
  return m;
}

Measurement invariant_measurement(const BoardLayout& b, const std::vector<std::string>& violations) {
  Measurement m = layout_measurement(b, static_cast<double>(violations.size()), "violations");
  if (!violations.empty()) m.note("violations", topology::join_violations(violations));
  return m;
}

Measurement measure_gpc_count(const ProbeContext& ctx) {
  const BoardLayout& b = board_layout(ctx, "topology.gpc.count");
  return layout_measurement(b, topology::count_gpcs(b.first).multi_tpc, "GPCs");
}

Measurement measure_singleton_tpcs(const ProbeContext& ctx) {
  const BoardLayout& b = board_layout(ctx, "topology.gpc.singleton_tpcs");
  return layout_measurement(b, topology::count_gpcs(b.first).singleton_tpcs, "TPCs");
}

Measurement measure_sm_counts(const ProbeContext& ctx) {
  const BoardLayout& b = board_layout(ctx, "topology.gpc.sm_counts");
  return invariant_measurement(
      b, topology::layout_violations(ctx.device.sm_count, b.first, b.second, b.tpcs, b.max_cluster));
}

Measurement measure_tpc_count(const ProbeContext& ctx) {
  const BoardLayout& b = board_layout(ctx, "topology.tpc.count");
  return layout_measurement(b, static_cast<double>(b.tpcs.pairs.size()), "TPCs");
}

Measurement measure_max_cluster(const ProbeContext& ctx) {
  const BoardLayout& b = board_layout(ctx, "topology.cluster.max_size");
  return layout_measurement(b, b.max_cluster, "CTAs");
}

Measurement measure_achievable(const ProbeContext& ctx) {
  const BoardLayout& b = board_layout(ctx, "topology.cluster.max_size_achievable");
  return invariant_measurement(b, b.achievable);
}

const Requirements kClusters{90, 0, "thread-block clusters"};

}  // namespace

const BoardLayout& board_layout(const ProbeContext& ctx, const std::string& consumer) {
  if (ctx.device.cc() < 90) throw ProbeSkipped("the GPC map needs thread-block clusters (compute capability 9.0)");
  struct Cached {
    BoardLayout layout;
    std::set<std::string> consumers;  // callers that have used this measurement
  };
  static std::mutex mutex;
  static std::map<int, Cached> layouts;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = layouts.find(ctx.device.index);
  if (it == layouts.end() || it->second.consumers.count(consumer))
    it = layouts.insert_or_assign(ctx.device.index, Cached{measure_layout(ctx), {}}).first;
  it->second.consumers.insert(consumer);
  return it->second.layout;
}

const bool kRegistered = register_probes({
    Probe{"topology.gpc.count",
          Family::topology,
          "GPCs (logical groups of more than one TPC) found by where thread-block clusters run",
          kClusters,
          {ExpectationKind::band, 0, 0},
          &measure_gpc_count},
    Probe{"topology.gpc.singleton_tpcs", Family::topology,
          "TPCs never co-scheduled with another TPC (a logical GPC of their own, seed 003)", kClusters, kInfoHint,
          &measure_singleton_tpcs},
    Probe{"topology.gpc.sm_counts", Family::topology,
          "violated layout invariants: GPC SM counts sum to the SM count, two passes agree, the largest "
          "cluster fits a GPC, TPC pairs are fixed and inside one GPC",
          kClusters, kMaxHint, &measure_sm_counts},
    Probe{"topology.tpc.count", Family::topology,
          "SM pairs that size-2 clusters always placed together: a lower bound of the TPCs (Hopper does not "
          "pin clusters of 2 to TPCs), recorded",
          kClusters, kInfoHint, &measure_tpc_count},
    Probe{"topology.cluster.max_size",
          Family::topology,
          "largest cluster at one CTA per SM (cudaOccupancyMaxPotentialClusterSize, non-portable allowed)",
          kClusters,
          {ExpectationKind::band, 0, 0},
          &measure_max_cluster},
    Probe{"topology.cluster.max_size_achievable", Family::topology,
          "violations: the occupancy API's largest clusters, as many as it says fit, all resident at once "
          "on distinct SMs inside one GPC",
          kClusters, kMaxHint, &measure_achievable},
});

}  // namespace gpuconform::kernels
