// SPDX-License-Identifier: Apache-2.0
// Does throughput.l2.read follow the block -> SM map? An investigation tool, not
// a probe (issue 19). l2_pool_variants.cu showed (2026-11-27, H100s GPU-690f792e
// and GPU-c390a60b) that the rate is one level for every footprint of a process,
// wherever its pages lie (9.74 to 11.04 TB/s between four processes of one
// board), that consecutive launches alternate between two block -> SM maps, and
// that the pair of maps differs between processes, with the rate. The suite's
// kernel gives block b the chunks b, b + G, b + 2G, ... (G = grid) of the ring,
// so which SM reads which chunk, near or far L2 partition, is the scheduler's
// choice. Standalone; on the GPU node, in several processes:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/l2m tools/device/l2_block_map_variants.cu && /tmp/l2m
//
// Variants (each over eight footprints of separate allocations, median of 5
// ~2 ms launches after 2 untimed each, two rounds per process):
//   block          the suite's: start = blockIdx, step = grid mod chunks
//   block.coprime  start = blockIdx, the smallest step >= that coprime with the chunks
//                  (every block visits every chunk of the ring)
//   sm             start = %smid x blocks per SM + the block's ticket on its SM, step =
//                  %nsmid x blocks per SM mod chunks: which chunks an SM reads no longer
//                  depends on the scheduler
//   warp.scatter   each warp its own 512 B pieces: warp w starts at piece w x spread, steps by
//                  a count coprime with the pieces, so every SM reads all over the footprint
//                  at every moment (not stamped: its mhz= repeats the last stamped launch)
// Tried on a 4 x H200 node (2026-11-27, GPU-26ef8868 + be0cf102 + 57fdc8e4 + bc2bec45) and
// dropped: *.shift, an untimed empty kernel of a pseudo-random block count before every timed
// launch: the map stayed the same (1-3 maps in 120 launches), and so did the rate.
// (The first run, 2026-11-27 GPU-0c5ec0c4, also had sm.coprime: 9.0 TB/s against 9.5 for sm
// and 11.1 for block: an SM's neighbours reading neighbouring chunks is the slowest order.)
// One line per footprint (variant= round= index= tbs= mhz= map=), then
//   summary variant= round= mean= min= max= maps=<distinct block -> SM maps>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "l2_resident.cuh"

namespace {

constexpr int kPlacements = 8;
constexpr int kRounds = 2;

__global__ void nsmid_kernel(unsigned* out) { asm volatile("mov.u32 %0, %%nsmid;" : "=r"(*out)); }

// warp.scatter: the footprint as pieces of 512 B (one warp's 4 x 128 B loads);
// global warp w starts at piece w x spread and moves on by `step` pieces (both
// coprime with the pieces), so the 32 warps of a block, and so every SM at every
// moment, read places spread over the whole footprint.
__global__ void __launch_bounds__(kThreads)
    read_warp_scatter(const float* a, unsigned pieces, unsigned spread, unsigned step, unsigned groups, float* sink,
                      unsigned* smids) {
  if (threadIdx.x == 0) smids[blockIdx.x] = sm_id();
  const unsigned lane = threadIdx.x % 32;
  const unsigned long long w = blockIdx.x * (kThreads / 32ull) + threadIdx.x / 32;
  unsigned k = static_cast<unsigned>(w * spread % pieces);
  float acc = 0;
#pragma unroll 1
  for (unsigned g = 0; g < groups; ++g) {
    const float* piece = a + static_cast<std::size_t>(k) * 128 + lane;
    float v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) v[u] = __ldcg(piece + u * 32);
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) acc += v[u];
    k += step;
    if (k >= pieces) k -= pieces;
  }
  if (__float_as_uint(acc) == 0x7F7FFFFFu) *sink = acc;
}

struct Reading {
  double tbs, mhz;
  unsigned long long map_hash;
};

struct Variant {
  std::string name;
  bool by_sm;
  unsigned step;
  bool shift;  // an untimed kernel of a varying block count before every timed launch
  bool warp = false;
};

// Moves the block scheduler on: an empty kernel of `blocks` blocks.
__global__ void shift_kernel() {}

unsigned coprime_from(unsigned step, unsigned chunks) {
  while (std::gcd(step, chunks) != 1) ++step;
  return step;
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_mapped, kThreads, 0));
  const int grid = per_sm * prop.multiProcessorCount;
  const unsigned chunks = static_cast<unsigned>(prop.l2CacheSize / 4 / (kChunkFloats * 4));
  const std::size_t footprint = std::size_t(chunks) * kChunkFloats * 4;
  unsigned *d_nsmid = nullptr, nsmid = 0;
  CHECK(cudaMalloc(&d_nsmid, sizeof(unsigned)));
  nsmid_kernel<<<1, 1>>>(d_nsmid);
  CHECK(cudaMemcpy(&nsmid, d_nsmid, sizeof nsmid, cudaMemcpyDeviceToHost));
  float* sink = nullptr;
  long long* stamps = nullptr;
  unsigned *smids = nullptr, *tickets = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(float)));
  CHECK(cudaMalloc(&stamps, 2 * sizeof(long long)));
  CHECK(cudaMalloc(&smids, grid * sizeof(unsigned)));
  CHECK(cudaMalloc(&tickets, nsmid * sizeof(unsigned)));
  CHECK(cudaMemset(tickets, 0, nsmid * sizeof(unsigned)));
  std::vector<float*> allocs(kPlacements);
  for (float*& a : allocs) {
    CHECK(cudaMalloc(&a, footprint));
    CHECK(cudaMemset(a, 0x3F, footprint));
  }
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));

  const unsigned positions = nsmid * per_sm;
  const unsigned pieces = chunks * (kThreads / 32), warps = grid * (kThreads / 32);
  const unsigned spread = coprime_from(pieces / 32 + 1, pieces);
  const std::vector<Variant> variants = {
      {"block", false, grid % chunks, false},
      {"block.coprime", false, coprime_from(grid % chunks, chunks), false},
      {"sm", true, positions % chunks, false},
      {"warp.scatter", false, coprime_from(warps % pieces, pieces), false, true},
  };
  unsigned groups = 200;
  unsigned shift_seed = 12345;
  std::set<unsigned long long> launch_maps;  // every timed launch's map, shift variants
  auto measure = [&](const Variant& v, const float* a) {
    std::vector<double> ms, mhz;
    const int launches = v.shift ? 15 : 7;
    for (int i = 0; i < launches; ++i) {
      if (v.shift) {
        shift_seed = shift_seed * 1103515245u + 12345u;
        shift_kernel<<<1 + (shift_seed >> 8) % (2 * grid), 32>>>();
      }
      const TimedLaunch l = timed_launch(
          [&] {
            if (v.warp)  // as many bytes per launch as the others: 32 pieces per chunk-step
              read_warp_scatter<<<grid, kThreads>>>(a, pieces, spread, v.step, groups, sink, smids);
            else
              read_mapped<<<grid, kThreads>>>(a, chunks, v.step, groups, v.by_sm, per_sm, tickets, sink, stamps, smids);
          },
          e0, e1, stamps);
      if (i >= 2) {
        ms.push_back(l.ms);
        mhz.push_back(l.mhz);
        if (v.shift) {
          const unsigned long long h = last_map(smids, grid);
          launch_maps.insert(h);
          const double bytes = double(groups) * grid * kChunkFloats * 4;
          std::printf("launch variant=%s i=%d tbs=%.4f map=%016llx\n", v.name.c_str(), i, bytes / (l.ms * 1e-3) / 1e12,
                      h);
        }
      }
    }
    std::sort(ms.begin(), ms.end());
    std::sort(mhz.begin(), mhz.end());
    const double bytes = double(groups) * grid * kChunkFloats * 4;
    return Reading{bytes / (ms[ms.size() / 2] * 1e-3) / 1e12, mhz[mhz.size() / 2], last_map(smids, grid)};
  };
  // Launch length: ~2 ms with the suite's variant.
  const Reading first = measure(variants[0], allocs[0]);
  groups = std::max(
      1u, static_cast<unsigned>(groups * 2.0 / (double(groups) * grid * kChunkFloats * 4 / (first.tbs * 1e12) * 1e3)));
  std::printf("device name=\"%s\" sms=%d nsmid=%u per_sm=%d grid=%d chunks=%u groups=%u steps:", prop.name,
              prop.multiProcessorCount, nsmid, per_sm, grid, chunks, groups);
  for (const Variant& v : variants) std::printf(" %s=%u", v.name.c_str(), v.step);
  std::printf("\n");
  for (int round = 1; round <= kRounds; ++round)
    for (const Variant& v : variants) {
      std::vector<double> tbs;
      std::set<unsigned long long> maps;
      launch_maps.clear();
      for (int p = 0; p < kPlacements; ++p) {
        const Reading r = measure(v, allocs[p]);
        tbs.push_back(r.tbs);
        maps.insert(r.map_hash);
        std::printf("variant=%s round=%d index=%d tbs=%.4f mhz=%.1f map=%016llx\n", v.name.c_str(), round, p, r.tbs,
                    r.mhz, r.map_hash);
      }
      std::sort(tbs.begin(), tbs.end());
      std::printf("summary variant=%s round=%d mean=%.4f min=%.4f max=%.4f maps=%zu\n", v.name.c_str(), round,
                  std::accumulate(tbs.begin(), tbs.end(), 0.0) / tbs.size(), tbs.front(), tbs.back(),
                  v.shift ? launch_maps.size() : maps.size());
      std::fflush(stdout);
    }
  return 0;
}
