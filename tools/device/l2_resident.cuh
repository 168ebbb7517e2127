// SPDX-License-Identifier: Apache-2.0
// The L2 probes' resident kernel (kernels/throughput/stream_throughput.cu, L2Shape) for the
// stand-alone L2 experiments of tools/device/ (l2_power_variants.cu, l2_spread_variants.cu):
// 1024-thread blocks, 4 x 4 B .cg accesses in flight per thread, one 16 KiB chunk per block
// and step through a ring of `chunks` chunks; reads sum into a sink stored only on an
// impossible condition, writes store per-thread values (or, kConstStore, 1.0f everywhere).
// What the experiments add: where each chunk lies (slot()).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

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
      float v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) v[u] = __ldcg(chunk + u * kThreads);
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) acc += v[u];
    }
    k += step;
    if (k >= chunks) k -= chunks;
    base += 0.5f;
  }
  if (!kWrite && __float_as_uint(acc) == 0x7F7FFFFFu) *sink = acc;
}
