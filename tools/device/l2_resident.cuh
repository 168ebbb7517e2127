// SPDX-License-Identifier: Apache-2.0
// The L2 probes' resident kernel (kernels/throughput/stream_throughput.cu, L2Shape) for the
// stand-alone L2 experiments of tools/device/ (l2_power_variants.cu, l2_spread_variants.cu):
// 1024-thread blocks, 4 x 4 B .cg accesses in flight per thread, one 16 KiB chunk per block
// and step through a ring of `chunks` chunks; reads sum into a sink stored only on an
// impossible condition, writes store per-thread values (or, kConstStore, 1.0f everywhere).
// What the experiments add: where each chunk lies (slot()); where each block starts and which SM
// ran it (read_mapped(), timed_launch(), last_map(): l2_pool_variants.cu, l2_block_map_variants.cu).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "cuda_check.cuh"

constexpr int kThreads = 1024;
constexpr int kInFlight = 4;
constexpr std::size_t kChunkFloats = std::size_t(kThreads) * kInFlight;  // 16 KiB

// Where chunk k of the footprint lies, in chunks from the buffer's start. stride 1: k.
// stride S: k x S, so the footprint spans S times as many 2 MiB pages but uses only
// every S-th 16 KiB of each, the same ones in every page (address bits 14.. of the
// offset within a page are fixed). rotate: as stride S, shifted by (page mod S) chunks,
// so that S consecutive pages together use every offset within a page once.
constexpr unsigned kChunksPerPage = (2u << 20) / (kChunkFloats * 4);  // 128
__device__ __forceinline__ std::size_t slot(unsigned k, unsigned stride, bool rotate) {
  const std::size_t at = static_cast<std::size_t>(k) * stride;
  return rotate ? at + (at / kChunksPerPage) % stride : at;
}

// One step's loads: thread t reads elements t + u x kThreads of the chunk, kInFlight in flight, into acc.
__device__ __forceinline__ void read_chunk(const float* chunk, float& acc) {
  float v[kInFlight];
#pragma unroll
  for (int u = 0; u < kInFlight; ++u) v[u] = __ldcg(chunk + u * kThreads);
#pragma unroll
  for (int u = 0; u < kInFlight; ++u) acc += v[u];
}

template <bool kWrite, bool kConstStore = false>
__global__ void __launch_bounds__(kThreads)
    resident(float* a, unsigned chunks, unsigned stride, bool rotate, unsigned groups, float* sink) {
  const unsigned step = gridDim.x % chunks;
  unsigned k = blockIdx.x % chunks;
  float base = 1.0f + static_cast<float>(threadIdx.x), acc = 0;
#pragma unroll 1
  for (unsigned g = 0; g < groups; ++g) {
    float* chunk = a + slot(k, stride, rotate) * kChunkFloats + threadIdx.x;
    if constexpr (kWrite) {
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) __stcg(chunk + u * kThreads, kConstStore ? 1.0f : base + u);
    } else {
      read_chunk(chunk, acc);
    }
    k += step;
    if (k >= chunks) k -= chunks;
    base += 0.5f;
  }
  if (!kWrite && __float_as_uint(acc) == 0x7F7FFFFFu) *sink = acc;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  return sm;
}

// The read loop once more, with what the block -> SM experiments vary and watch: block b starts
// at chunk b, or (by_sm) at its SM x per_sm + its ticket on that SM (tickets grow by per_sm each
// launch, so "mod per_sm" numbers an SM's blocks 0, 1, ... in every launch); it moves on by
// `step` chunks. Thread 0 of every block notes its SM in smids; block 0 stamps its clock64
// cycles and %globaltimer nanoseconds into stamps[0], stamps[1].
__global__ void __launch_bounds__(kThreads)
    read_mapped(const float* a, unsigned chunks, unsigned step, unsigned groups, bool by_sm, unsigned per_sm,
                unsigned* tickets, float* sink, long long* stamps, unsigned* smids) {
  __shared__ unsigned start;
  long long c0 = 0, t0 = 0;
  if (threadIdx.x == 0) {
    const unsigned sm = sm_id();
    smids[blockIdx.x] = sm;
    start = by_sm ? sm * per_sm + atomicAdd(&tickets[sm], 1u) % per_sm : blockIdx.x;
    if (blockIdx.x == 0) {
      c0 = clock64();
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    }
  }
  __syncthreads();
  unsigned k = start % chunks;
  float acc = 0;
#pragma unroll 1
  for (unsigned g = 0; g < groups; ++g) {
    read_chunk(a + static_cast<std::size_t>(k) * kChunkFloats + threadIdx.x, acc);
    k += step;
    if (k >= chunks) k -= chunks;
  }
  if (__float_as_uint(acc) == 0x7F7FFFFFu) *sink = acc;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long t1 = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    stamps[0] = clock64() - c0;
    stamps[1] = t1 - t0;
  }
}

// FNV-1a over the SM of every block of the last launch (read_mapped's smids, `grid` of them):
// equal hashes, the same block -> SM map.
inline unsigned long long last_map(const unsigned* smids, int grid) {
  std::vector<unsigned> sm(grid);
  CHECK(cudaMemcpy(sm.data(), smids, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));
  unsigned long long h = 1469598103934665603ull;
  for (unsigned x : sm) h = (h ^ x) * 1099511628211ull;
  return h;
}

// One launch between two events: its milliseconds, and the SM clock (MHz) from the cycles and
// nanoseconds block 0 of read_mapped stamped (0 when the launch stamped nothing new).
struct TimedLaunch {
  double ms, mhz;
};
template <class Launch>
TimedLaunch timed_launch(Launch launch, cudaEvent_t e0, cudaEvent_t e1, const long long* stamps) {
  CHECK(cudaEventRecord(e0));
  launch();
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  CHECK(cudaGetLastError());
  float t = 0;
  CHECK(cudaEventElapsedTime(&t, e0, e1));
  long long s[2];
  CHECK(cudaMemcpy(s, stamps, sizeof s, cudaMemcpyDeviceToHost));
  return {t, s[1] > 0 ? double(s[0]) / double(s[1]) * 1e3 : 0};
}
