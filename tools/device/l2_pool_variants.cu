// SPDX-License-Identifier: Apache-2.0
// Does sampling the L2 footprint from many places of one large pool take the
// process out of throughput.l2.read? An investigation tool, not a probe
// (issue 19): with one kernel in each of eight separate allocations per launch
// (stream_throughput.cu, L2Shape::placements) an unseen H100 (GPU-602350d0,
// 2026-11-27) still read 11.38, 11.38, 11.07 and 11.29 TB/s in four processes,
// each process's repeats within 0.3 %: the eight allocations of one process
// seem to share their luck. Standalone; on the GPU node:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/l2p tools/device/l2_pool_variants.cu && /tmp/l2p
//
// Run it in several processes: what matters is how each summary moves between
// them. Modes, each footprint a quarter of the L2 read by the suite's resident
// l2.read kernel (l2_resident.cuh), median of 5 ~2 ms launches after 2 untimed:
//   alloc8        eight separate cudaMalloc footprints, as the suite allocates them
//   pool          one pool of up to 16 GiB (a quarter of the free memory at most),
//                 kWindows footprints at evenly spaced 2 MiB-aligned offsets of it
//   alloc8.again  the eight allocations once more (launch noise, clock drift)
//   alloc8.coprime  the same with a block step coprime to the ring's chunks, so that every block
//                 visits every chunk (the suite's step, grid mod chunks, shares a factor with
//                 them: each block meets one residue class of chunks, and which SM holds that
//                 block is the scheduler's choice)
//   long          allocations 0 and 1 alternately for kLongSeconds (does the level move within
//                 one process?)
// Every line names the block -> SM map of its last launch (map=, a hash).
// One line per footprint (mode= index= offset_mib= tbs= mhz=), then per mode:
//   summary mode= n= mean= median= min= max= sd_pct= and, for the pool, the
//   means of eight consecutive windows (what eight placements drawn from one
//   region would read).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "l2_resident.cuh"

namespace {

constexpr int kWindows = 64;
constexpr double kLongSeconds = 12;
constexpr int kPlacements = 8;
constexpr std::size_t kPage = std::size_t(2) << 20;

struct Reading {
  double tbs, mhz;
  unsigned long long map_hash;  // FNV-1a of the SM of every block in the last timed launch
};

struct Bench {
  int grid;
  unsigned chunks;
  unsigned step;
  unsigned groups = 200;
  float* sink;
  long long* stamps;
  unsigned* smids;
  cudaEvent_t e0, e1;

  Reading measure(const float* a) {
    std::vector<double> ms, mhz;
    for (int i = 0; i < 7; ++i) {
      const TimedLaunch l = timed_launch(
          [&] { read_mapped<<<grid, kThreads>>>(a, chunks, step, groups, false, 0, nullptr, sink, stamps, smids); }, e0,
          e1, stamps);
      if (i >= 2) {
        ms.push_back(l.ms);
        mhz.push_back(l.mhz);
      }
    }
    std::sort(ms.begin(), ms.end());
    std::sort(mhz.begin(), mhz.end());
    const double bytes = double(groups) * grid * kChunkFloats * 4;
    return {bytes / (ms[ms.size() / 2] * 1e-3) / 1e12, mhz[mhz.size() / 2], last_map(smids, grid)};
  }
};

void summary(const char* mode, const std::vector<double>& v) {
  std::vector<double> s = v;
  std::sort(s.begin(), s.end());
  const double mean = std::accumulate(s.begin(), s.end(), 0.0) / s.size();
  double var = 0;
  for (double x : s) var += (x - mean) * (x - mean);
  const double sd = s.size() > 1 ? std::sqrt(var / (s.size() - 1)) : 0;
  std::printf("summary mode=%s n=%zu mean=%.4f median=%.4f min=%.4f max=%.4f sd_pct=%.2f\n", mode, s.size(), mean,
              s[s.size() / 2], s.front(), s.back(), 100 * sd / mean);
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, read_mapped, kThreads, 0));
  Bench b{};
  b.grid = per_sm * prop.multiProcessorCount;
  b.chunks = static_cast<unsigned>(prop.l2CacheSize / 4 / (kChunkFloats * 4));
  const std::size_t footprint = std::size_t(b.chunks) * kChunkFloats * 4;
  CHECK(cudaMalloc(&b.sink, sizeof(float)));
  CHECK(cudaMalloc(&b.stamps, 2 * sizeof(long long)));
  CHECK(cudaMalloc(&b.smids, b.grid * sizeof(unsigned)));
  const unsigned suite_step = b.grid % b.chunks;
  unsigned coprime = suite_step;  // the smallest step >= the suite's that visits every chunk of the ring
  while (std::gcd(coprime, b.chunks) != 1) ++coprime;
  b.step = suite_step;
  CHECK(cudaEventCreate(&b.e0));
  CHECK(cudaEventCreate(&b.e1));

  std::vector<float*> allocs(kPlacements);
  for (float*& a : allocs) {
    CHECK(cudaMalloc(&a, footprint));
    CHECK(cudaMemset(a, 0x3F, footprint));
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t pool_bytes = std::min(std::size_t(16) << 30, free_bytes / 4) / kPage * kPage;
  float* pool = nullptr;
  CHECK(cudaMalloc(&pool, pool_bytes));
  CHECK(cudaMemset(pool, 0x3F, pool_bytes));
  const std::size_t spacing = (pool_bytes - footprint) / (kWindows - 1) / kPage * kPage;

  // Launch length: ~2 ms on the first allocation.
  const Reading first = b.measure(allocs[0]);
  const double ms0 = double(b.groups) * b.grid * kChunkFloats * 4 / (first.tbs * 1e12) * 1e3;
  b.groups = std::max(1u, static_cast<unsigned>(b.groups * 2.0 / ms0));
  std::printf(
      "device name=\"%s\" pci=%02x:%02x sms=%d l2_mib=%.1f grid=%d footprint_mib=%.2f pool_mib=%zu "
      "windows=%d spacing_mib=%zu groups=%u\n",
      prop.name, prop.pciBusID, prop.pciDeviceID, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0, b.grid,
      footprint / 1048576.0, pool_bytes >> 20, kWindows, spacing >> 20, b.groups);

  auto run_allocs = [&](const char* mode) {
    std::vector<double> v;
    for (int p = 0; p < kPlacements; ++p) {
      const Reading r = b.measure(allocs[p]);
      v.push_back(r.tbs);
      std::printf("mode=%s index=%d offset_mib=-1 tbs=%.4f mhz=%.1f map=%016llx\n", mode, p, r.tbs, r.mhz, r.map_hash);
    }
    summary(mode, v);
  };
  run_allocs("alloc8");
  std::vector<double> pool_v;
  for (int w = 0; w < kWindows; ++w) {
    const Reading r = b.measure(pool + w * spacing / sizeof(float));
    pool_v.push_back(r.tbs);
    std::printf("mode=pool index=%d offset_mib=%zu tbs=%.4f mhz=%.1f map=%016llx\n", w, (w * spacing) >> 20, r.tbs,
                r.mhz, r.map_hash);
  }
  summary("pool", pool_v);
  for (int g = 0; g + kPlacements <= kWindows; g += kPlacements) {
    const double m = std::accumulate(pool_v.begin() + g, pool_v.begin() + g + kPlacements, 0.0) / kPlacements;
    std::printf("pool_group first=%d mean=%.4f\n", g, m);
  }
  run_allocs("alloc8.again");
  b.step = coprime;
  std::printf("coprime step=%u (suite %u, chunks %u)\n", coprime, suite_step, b.chunks);
  run_allocs("alloc8.coprime");
  b.step = suite_step;
  // Time series: allocation 0 again and again for kLongSeconds, one line per 25 readings.
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> series;
  for (int i = 0; std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < kLongSeconds; ++i) {
    const Reading r = b.measure(allocs[i % 2 == 0 ? 0 : 1]);
    series.push_back(r.tbs);
    if (i % 25 == 0)
      std::printf("long t=%.2f index=%d tbs=%.4f mhz=%.1f map=%016llx\n",
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), i % 2, r.tbs, r.mhz,
                  r.map_hash);
  }
  summary("long", series);
  std::fflush(stdout);
  return 0;
}
