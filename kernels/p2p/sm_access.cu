// SPDX-License-Identifier: Apache-2.0
// GPU-to-GPU bandwidth of loads and stores issued by the SMs of GPU A to GPU B's
// memory through peer access, as nvbandwidth's "memcpy_sm" tests move it, as a
// fraction of the one-way link peak (p2p/peer_link.hpp):
// - p2p.bandwidth.sm_read: A's SMs read 1 GiB of B's memory (data flows B -> A, so
//   the peak is that of the direction from B to A);
// - p2p.bandwidth.sm_write: A's SMs write 1 GiB into B's memory (A -> B).
// Blocks of 1024 threads fill every SM of A twice; each thread keeps four 16-byte
// accesses in flight, grid-stride. Read data feed a sum that is stored only on an
// impossible condition (so the loads stay); written data are the index's bits, and
// three slices are checked afterwards. Data are random and non-zero.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "common/clock_stamps.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/throughput.hpp"
#include "p2p/peer_buffers.hpp"
#include "p2p/peer_link.hpp"

namespace gpuconform::kernels {
namespace {

constexpr std::size_t kBytes = std::size_t(1) << 30;
constexpr int kThreads = 1024;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kThreads) peer_read(const uint4* __restrict__ src, std::size_t count,
                                                      unsigned* sink, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  unsigned acc = 0;
  std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldcg(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < count; i += stride) {
    const uint4 v = __ldcg(src + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;  // never true for these data; keeps the loads
  gc_stamp_store(stamps, begin);
}

__global__ void __launch_bounds__(kThreads) peer_write(uint4* __restrict__ dst, std::size_t count, unsigned salt,
                                                       long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const unsigned w = static_cast<unsigned>(i) ^ salt;
    __stcg(dst + i, make_uint4(w, w + 1, w + 2, w + 3));
  }
  gc_stamp_store(stamps, begin);
}

template <bool Read>
Measurement sm_access(const ProbeContext& ctx) {
  const DeviceInfo& a = ctx.device;
  const DeviceInfo& b = require_peers(ctx).front();
  enable_peer_access(a, b);
  const PeerBuffer remote(b.index, kBytes, Read ? 0x5e01 : 0x5e02);
  const DeviceBuffer<unsigned> sink(1);
  const std::size_t count = kBytes / sizeof(uint4);
  const int grid = 2 * a.sm_count;
  const unsigned salt = 0x2545F491u;
  auto launch = [&](long long* stamps) {
    if (Read) peer_read<<<grid, kThreads>>>(remote.get<const uint4>(), count, sink.get(), stamps);
    else peer_write<<<grid, kThreads>>>(remote.get<uint4>(), count, salt, stamps);
    GC_CUDA_CHECK(cudaGetLastError());
  };
  const std::string method = fmt::format(
      "{} blocks x {} threads on GPU {} {} {} MiB of GPU {}'s memory with 16-byte {} (4 in flight per thread), "
      "event-timed",
      grid, kThreads, a.index, Read ? "read" : "write", kBytes >> 20, b.index, Read ? "ld.global.cg" : "st.global.cg");
  const Measurement m =
      measure_link(ctx, static_cast<double>(kBytes), method, Read ? pair_peak(b, a) : pair_peak(a, b), launch);
  if (!Read) {  // every written word must have arrived: three slices checked
    std::vector<uint4> host(4096);
    for (std::size_t first : {std::size_t(0), count / 2, count - host.size()}) {
      GC_CUDA_CHECK(cudaMemcpy(host.data(), remote.get<uint4>() + first, host.size() * sizeof(uint4),
                               cudaMemcpyDefault));
      for (std::size_t k = 0; k < host.size(); ++k) {
        const unsigned w = static_cast<unsigned>(first + k) ^ salt;
        if (host[k].x != w || host[k].w != w + 3)
          throw std::runtime_error(fmt::format("16-byte word {} of GPU {}'s buffer holds 0x{:08x}, not 0x{:08x}: "
                                               "a store from GPU {} was lost",
                                               first + k, b.index, host[k].x, w, a.index));
      }
    }
  }
  return m;
}

const bool kRegistered = register_probes({
    Probe{"p2p.bandwidth.sm_read",
          Family::p2p,
          "bandwidth of GPU A's SMs reading GPU B's memory (peer access) as a fraction of the link peak",
          {60},
          kFractionOfPeakHint,
          &sm_access<true>,
          Scope::pair},
    Probe{"p2p.bandwidth.sm_write",
          Family::p2p,
          "bandwidth of GPU A's SMs writing GPU B's memory (peer access) as a fraction of the link peak",
          {60},
          kFractionOfPeakHint,
          &sm_access<false>,
          Scope::pair},
});

}  // namespace
}  // namespace gpuconform::kernels
