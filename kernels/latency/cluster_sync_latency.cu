// SPDX-License-Identifier: Apache-2.0
// Thread-block-cluster latencies beyond the DSMEM load chase of
// cluster_latency.cu (issue 23, item 2):
//
//   latency.cluster.sync.{2,4,8,16}  one cluster barrier (barrier.cluster.arrive
//                                    .release + barrier.cluster.wait.acquire,
//                                    what cluster.sync() compiles to), one
//                                    cluster of that size, one warp per CTA:
//                                    every CTA runs chains of N and 2N barriers
//                                    back to back, rank 0's thread 0 times them
//                                    with clock64, (T(2N) - T(N)) / N. Each
//                                    barrier waits for every CTA's arrival, so
//                                    the chain is dependent by construction.
//                                    16 CTAs need
//                                    cudaFuncAttributeNonPortableClusterSizeAllowed;
//                                    a size the GPU cannot place is a skip.
//   latency.dsmem.store              st.shared::cluster to the peer CTA of a
//                                    cluster of 2, as a ping-pong: rank 0 stores
//                                    round i into rank 1's flag, rank 1 polls its
//                                    own flag (ld.volatile.shared) and stores i
//                                    back into rank 0's; each store is issued only
//                                    after the previous one was seen, so the
//                                    value is the one-way store-to-observe time:
//                                    round-trip cycles / 2 (it includes the
//                                    local poll that sees the store).
//   latency.dsmem.atomic             atom.shared::cluster.cas.b32 pointer chase
//                                    over 64 nodes in the peer CTA (cluster of
//                                    2): each node holds the cluster address of
//                                    the next, the compare value (1) matches no
//                                    node, so the CAS returns the node unchanged
//                                    and its result is the next address: one
//                                    remote atomic per dependent hop.
// The two DSMEM probes run in every cluster the GPU holds at once, one CTA per
// SM (common/every_cluster.cuh), and report the median over clusters: which
// SMs one cluster gets decides its latency, so one cluster measures one spot.
// Every poll is bounded: a peer that never answers ends the kernel with an
// error flag, never a hang.
#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "common/cluster.cuh"
#include "common/cluster_launch.hpp"
#include "common/device_clock.cuh"
#include "common/every_cluster.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/async_plan.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/launch_samples.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kSyncChain = 64;  // barriers in the short chain (the long one has 128)
constexpr int kPingRounds = 1024;
constexpr int kPingWarm = 64;
constexpr long long kPollLimit = 1ll << 20;
constexpr int kAtomicSlots = 64;
constexpr int kAtomicHops = 2048;

__device__ __forceinline__ void cluster_barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void barrier_chain() {
#pragma unroll
  for (int i = 0; i < N; ++i) cluster_barrier();
}

// out[0] = T(N), out[1] = T(2N) of the second pass, timed by rank 0's thread 0.
__global__ void cluster_sync_kernel(long long* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  gc_cluster_sync();
  long long t_short = 0, t_long = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    const long long t0 = gc_clock64();
    barrier_chain<kSyncChain>();
    const long long t1 = gc_clock64();
    barrier_chain<2 * kSyncChain>();
    const long long t2 = gc_clock64();
    t_short = t1 - t0;
    t_long = t2 - t1;
  }
  if (rank == 0 && threadIdx.x == 0) {
    out[0] = t_short;
    out[1] = t_long;
  }
#else
  __trap();
#endif
}

template <int Cluster>
Measurement measure_cluster_sync(const ProbeContext& ctx) {
  if constexpr (Cluster > 8)
    GC_CUDA_CHECK(cudaFuncSetAttribute(cluster_sync_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  const ClusterLaunch launch(Cluster, 32);
  int clusters = 0;
  const cudaError_t occ = cudaOccupancyMaxActiveClusters(&clusters, cluster_sync_kernel, &launch.config);
  if (occ != cudaSuccess) {
    cudaGetLastError();
    throw ProbeSkipped(fmt::format("clusters of {} CTAs cannot be placed on this GPU ({}: {})", Cluster,
                                   cudaGetErrorName(occ), cudaGetErrorString(occ)));
  }
  if (clusters < 1) throw ProbeSkipped(fmt::format("the occupancy API places no cluster of {} CTAs", Cluster));
  DeviceBuffer<long long> out(2);
  auto once = [&] {
    GC_CUDA_CHECK(cudaLaunchKernelEx(&launch.config, cluster_sync_kernel, out.get()));
    GC_CUDA_CHECK_LAUNCH();
    const auto c = out.download();
    return plan::per_step_cycles(c[0], c[1], kSyncChain);
  };
  Measurement m = median_cycles_of_launches(ctx, once);
  m.note("method", fmt::format("barrier.cluster.arrive.release.aligned + barrier.cluster.wait.acquire.aligned chained "
                               "back to back in one cluster of {} CTAs x 32 threads, (T({}) - T({})) / {} by rank 0's "
                               "clock64, median of launches{}",
                               Cluster, 2 * kSyncChain, kSyncChain, kSyncChain,
                               Cluster > 8 ? "; non-portable cluster size allowed" : ""));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&cluster_sync_kernel), ctx.device.arch()));
  return m;
}

// ---- DSMEM store: ping-pong ------------------------------------------------------

// Per cluster (every_cluster's slot): [0] = cycles of kPingRounds timed round trips
// (rank 0's clock), [1] = error; sms: each CTA's SM.
__global__ void dsmem_pingpong_kernel(long long* out_all, int* sms) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  long long* const out = every_cluster::slot_of_cluster(out_all, sms);
  __shared__ unsigned flag;
  __shared__ unsigned abort_flag;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (threadIdx.x == 0) {
    flag = 0;
    abort_flag = 0;
  }
  gc_cluster_sync();
  if (threadIdx.x == 0 && rank < 2) {
    const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(&flag));
    unsigned remote, remote_abort;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(rank ^ 1u));
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote_abort)
                 : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&abort_flag))), "r"(rank ^ 1u));
    bool failed = false;
    // Waits until the local flag reads `want`; false after kPollLimit polls or when the peer gave up.
    auto wait_for = [&](unsigned want) {
      for (long long i = 0; i < kPollLimit; ++i) {
        unsigned v, ab;
        asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(local) : "memory");
        if (v == want) return true;
        asm volatile("ld.volatile.shared.u32 %0, [%1];"
                     : "=r"(ab)
                     : "r"(static_cast<unsigned>(__cvta_generic_to_shared(&abort_flag)))
                     : "memory");
        if (ab) return false;
      }
      return false;
    };
    auto store = [&](unsigned v) {
      asm volatile("st.relaxed.cluster.shared::cluster.u32 [%0], %1;" ::"r"(remote), "r"(v) : "memory");
    };
    long long t0 = 0, t1 = 0;
    const unsigned total = kPingWarm + kPingRounds;
    for (unsigned i = 1; i <= total && !failed; ++i) {
      if (i == kPingWarm + 1 && rank == 0) t0 = gc_clock64();
      if (rank == 0) {
        store(i);
        failed = !wait_for(i);
      } else {
        failed = !wait_for(i);
        if (!failed) store(i);
      }
    }
    if (rank == 0) t1 = gc_clock64();
    if (failed) asm volatile("st.relaxed.cluster.shared::cluster.u32 [%0], 1;" ::"r"(remote_abort) : "memory");
    if (rank == 0) {
      out[0] = t1 - t0;
      out[1] = failed ? 1 : 0;
    }
  }
  gc_cluster_sync();
#else
  __trap();
#endif
}

Measurement measure_dsmem_store(const ProbeContext& ctx) {
  every_cluster::Placements where(reinterpret_cast<const void*>(&dsmem_pingpong_kernel), 2, 32, ctx.device);
  auto once = [&] {
    where.arm();
    GC_CUDA_CHECK(cudaLaunchKernelEx(&where.config(), dsmem_pingpong_kernel, where.out(), where.sms()));
    GC_CUDA_CHECK_LAUNCH();
    return where.collect([](const long long* c) {
      if (c[1] != 0)
        throw std::runtime_error(
            fmt::format("a DSMEM ping-pong store was not seen by its peer within {} polls", kPollLimit));
      return plan::one_way_cycles(c[0], kPingRounds);
    });
  };
  Measurement m = every_cluster::median_over_clusters(
      ctx, once,
      fmt::format("ping-pong between the two CTAs of a cluster of 2: st.relaxed.cluster.shared::cluster of round i "
                  "into the peer's flag, the peer polls its own flag with ld.volatile.shared and answers; {} warm "
                  "rounds, {} timed round trips by rank 0's clock64, / (2 x rounds) = one store-to-observe hop; every "
                  "cluster at once: {} clusters (as many as fit, one CTA per SM); sample = median over clusters, "
                  "value = median of launches",
                  kPingWarm, kPingRounds, where.most()));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&dsmem_pingpong_kernel), ctx.device.arch()));
  return m;
}

// ---- DSMEM atomic: CAS chase in the peer ------------------------------------------

// out_all, sms: every_cluster's slots (each cluster's cycles, each CTA's SM).
__global__ void dsmem_atomic_chase_kernel(const unsigned* next, unsigned start, long long* out_all, int* sms) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  long long* const out = every_cluster::slot_of_cluster(out_all, sms);
  __shared__ unsigned mem[kAtomicSlots];
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  if (rank == 1 && threadIdx.x == 0) {
    // Each node holds the cluster address (as rank 0 sees it) of the next node.
    for (unsigned i = 0; i < kAtomicSlots; ++i) {
      const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(mem + next[i]));
      unsigned remote;
      asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remote) : "r"(local));
      mem[i] = remote;
    }
  }
  gc_cluster_sync();
  if (rank == 0 && threadIdx.x == 0) {
    unsigned p;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;"
                 : "=r"(p)
                 : "r"(static_cast<unsigned>(__cvta_generic_to_shared(mem + start))));
    for (int i = 0; i < kAtomicSlots; ++i)
      asm volatile("atom.shared::cluster.cas.b32 %0, [%0], 1, 2;" : "+r"(p)::"memory");
    const long long t0 = gc_clock64();
#pragma unroll 8
    for (int i = 0; i < kAtomicHops; ++i)
      asm volatile("atom.shared::cluster.cas.b32 %0, [%0], 1, 2;" : "+r"(p)::"memory");
    gc_end_timed_chase(out, t0, p);
  }
  gc_cluster_sync();
#else
  __trap();
#endif
}

Measurement measure_dsmem_atomic(const ProbeContext& ctx) {
  const auto next = chase::single_cycle(kAtomicSlots, 0x61746f6d64736dull);
  DeviceBuffer<unsigned> d_next(std::vector<unsigned>(next.begin(), next.end()));
  every_cluster::Placements where(reinterpret_cast<const void*>(&dsmem_atomic_chase_kernel), 2, 32, ctx.device);
  auto once = [&] {
    where.arm();
    GC_CUDA_CHECK(cudaLaunchKernelEx(&where.config(), dsmem_atomic_chase_kernel,
                                     static_cast<const unsigned*>(d_next.get()), 0u, where.out(), where.sms()));
    GC_CUDA_CHECK_LAUNCH();
    return where.collect([](const long long* c) { return static_cast<double>(c[0]) / kAtomicHops; });
  };
  Measurement m = every_cluster::median_over_clusters(
      ctx, once,
      fmt::format("atom.shared::cluster.cas.b32 pointer chase from rank 0 over {} nodes in rank 1's shared memory "
                  "(cluster of 2); compare value 1 matches no node, so each CAS returns the next node's cluster "
                  "address unchanged; {} timed hops; every cluster at once: {} clusters (as many as fit, one CTA per "
                  "SM); sample = median over clusters, value = median of launches",
                  kAtomicSlots, kAtomicHops, where.most()));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&dsmem_atomic_chase_kernel), ctx.device.arch()));
  return m;
}

const Requirements kClusters{90, 0, "thread-block clusters"};
const RecordHint kClusterBand{ExpectationKind::band, 0, 0.01};

// The cluster barrier is recorded (kInfoHint), not judged: the same SASS read 684-915 cycles
// on H100 GPU-791fafea, 760-814 (sizes 2-8) on H100 GPU-6abf0f92 and 336-349 on H200
// GPU-af2291a5 (2026-11-26). barrier.cluster.arrive.release / wait.acquire compiles to a
// GPU-scope MEMBAR (see the sass note), whose cost depends on the memory system's state, so a
// band from a few boards would fail healthy ones. The dsmem probes below stay judged.
const bool kRegistered = register_probes({
    {"latency.cluster.sync.2", Family::latency,
     "cluster barrier (barrier.cluster.arrive.release + wait.acquire) in a cluster of 2, chained", kClusters, kInfoHint,
     &measure_cluster_sync<2>},
    {"latency.cluster.sync.4", Family::latency,
     "cluster barrier (barrier.cluster.arrive.release + wait.acquire) in a cluster of 4, chained", kClusters, kInfoHint,
     &measure_cluster_sync<4>},
    {"latency.cluster.sync.8", Family::latency,
     "cluster barrier (barrier.cluster.arrive.release + wait.acquire) in a cluster of 8, chained", kClusters, kInfoHint,
     &measure_cluster_sync<8>},
    {"latency.cluster.sync.16", Family::latency,
     "cluster barrier in a non-portable cluster of 16 (cudaFuncAttributeNonPortableClusterSizeAllowed), chained",
     kClusters, kInfoHint, &measure_cluster_sync<16>},
    {"latency.dsmem.store", Family::latency,
     "st.shared::cluster to the peer CTA of a cluster of 2, one-way store-to-observe by ping-pong (round trip / 2), "
     "every cluster at once (median)",
     kClusters, kClusterBand, &measure_dsmem_store},
    {"latency.dsmem.atomic", Family::latency,
     "atom.shared::cluster.cas.b32 to the peer CTA of a cluster of 2, dependent chase (the CAS result is the next "
     "address), every cluster at once (median)",
     kClusters, kClusterBand, &measure_dsmem_atomic},
});

}  // namespace
}  // namespace gpuconform::kernels
