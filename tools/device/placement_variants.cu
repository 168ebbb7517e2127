// SPDX-License-Identifier: Apache-2.0
// How much does the physical placement of a buffer move the L2-side rates? An
// investigation tool, not a probe (issue 19): throughput.atomic.global.add.distinct
// reads 4.56-4.91e11 op/s in three runs of one healthy H100 (dea38b06) while
// the six repeats inside one process of another agree to 0.4 %, so the value
// looks fixed per allocation, not per launch. Standalone; on the GPU node:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/pv tools/device/placement_variants.cu && /tmp/pv
//
// (a few seconds; needs 1 GiB of device memory). One pool is allocated once;
// each "placement" is a window of it at another 64 MiB offset (other physical
// pages), half of them 1 MiB into a 2 MiB page. Per placement and variant: the
// median of 7 event-timed launches after 2 untimed ones; per variant the
// spread over placements (max / min - 1) is what a run-to-run band must hold.
//
// Variants (one machine-parsable line each: variant= placement= offset_mib= rate= unit=):
//   atomic.fixed1m      the suite's distinct kernel: every thread its own word, each warp its own
//                       128-byte line for the whole launch (1 MiB for 132 SMs x 2048 threads)
//   atomic.rotN m       every thread its own word, but the warps sweep a window of N MiB: at
//                       step j warp w adds to line (w + j x warps) mod lines, so each warp meets
//                       every L2 slice the window maps to instead of the few its line hashes to
//   atomic.same_line    the suite's serialisation case: every thread to one 128-byte line
//   l2.read             the suite's l2.read shape: resident 1024-thread grid, 4 x 4 B .cg loads in
//                       flight, chunks cycling through a quarter of the L2
//   atomic.fixed1m.again  placement 0 measured again after the others (same pages: launch noise)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.cuh"

constexpr int kAtomicThreads = 256;
constexpr int kUnroll = 8;
constexpr int kReadThreads = 1024;
constexpr int kReadInFlight = 4;

__global__ void __launch_bounds__(kAtomicThreads) red_fixed(unsigned* words, int trips, int same_line) {
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  unsigned* p = same_line ? words + (threadIdx.x & 31) : words + tid;
  const unsigned v = 3u + static_cast<unsigned>(tid & 7);
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  }
}

// total = lines x 32 words, stride = warps x 32 words: at each step every warp
// moves on by the whole grid's width, so concurrent warps stay on distinct lines.
__global__ void __launch_bounds__(kAtomicThreads)
    red_rotating(unsigned* words, int trips, unsigned total, unsigned stride) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned at = tid % total;
  const unsigned v = 3u + (tid & 7);
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      asm volatile("red.global.add.u32 [%0], %1;" ::"l"(words + at), "r"(v) : "memory");
      at += stride;
      if (at >= total) at -= total;
    }
  }
}

__global__ void __launch_bounds__(kReadThreads) l2_read(const float* a, unsigned chunks, unsigned groups, float* sink) {
  const unsigned step = gridDim.x % chunks;
  unsigned k = blockIdx.x % chunks;
  float acc = 0;
#pragma unroll 1
  for (unsigned g = 0; g < groups; ++g) {
    const std::size_t first = static_cast<std::size_t>(k) * (kReadThreads * kReadInFlight) + threadIdx.x;
    float v[kReadInFlight];
#pragma unroll
    for (int u = 0; u < kReadInFlight; ++u) v[u] = __ldcg(a + first + static_cast<std::size_t>(u) * kReadThreads);
#pragma unroll
    for (int u = 0; u < kReadInFlight; ++u) acc += v[u];
    k += step;
    if (k >= chunks) k -= chunks;
  }
  if (acc == 1.2345e-30f) *sink = acc;
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
  }
  template <class Launch>
  double median_ms(Launch launch) {
    for (int i = 0; i < 2; ++i) launch();
    std::vector<double> ms;
    for (int i = 0; i < 7; ++i) {
      CHECK(cudaEventRecord(start));
      launch();
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

struct Variant {
  std::string name;
  std::string unit;
  std::vector<double> rates;
};

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device name=\"%s\" sms=%d l2_mib=%.1f\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize / 1048576.0);
  constexpr std::size_t kMiB = std::size_t(1) << 20;
  constexpr int kPlacements = 12;
  const std::size_t pool_bytes = (kPlacements * 64 + 64) * kMiB;
  char* pool = nullptr;
  CHECK(cudaMalloc(&pool, pool_bytes));
  CHECK(cudaMemset(pool, 0x11, pool_bytes));
  float* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(float)));
  Timer timer;

  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, red_fixed, kAtomicThreads, 0));
  const int grid = per_sm * prop.multiProcessorCount;
  const unsigned threads = static_cast<unsigned>(grid) * kAtomicThreads;
  int read_per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&read_per_sm, l2_read, kReadThreads, 0));
  const int read_grid = read_per_sm * prop.multiProcessorCount;
  const std::size_t read_bytes = static_cast<std::size_t>(prop.l2CacheSize) / 4 / (kReadThreads * kReadInFlight * 4) *
                                 (kReadThreads * kReadInFlight * 4);
  const unsigned chunks = static_cast<unsigned>(read_bytes / (kReadThreads * kReadInFlight * 4));
  std::printf("atomic grid=%d x %d threads (%.2f MiB of words), read grid=%d x %d, read footprint %.1f MiB\n", grid,
              kAtomicThreads, threads * 4.0 / kMiB, read_grid, kReadThreads, read_bytes / double(kMiB));

  std::vector<Variant> variants = {{"atomic.fixed1m", "op/s", {}},   {"atomic.rot4m", "op/s", {}},
                                   {"atomic.rot16m", "op/s", {}},    {"atomic.rot32m", "op/s", {}},
                                   {"atomic.same_line", "op/s", {}}, {"l2.read", "B/s", {}}};
  const unsigned rot_mib[] = {0, 4, 16, 32};
  // Work per launch (trips or read groups), sized at placement 0 for launches of about 3 ms.
  std::vector<int> work(variants.size(), 40);
  auto offset_of = [&](int p) { return (static_cast<std::size_t>(p) * 64 + (p % 2)) * kMiB; };
  // Returns the rate; ms_out gets the median launch time.
  auto measure = [&](int v, char* base, double* ms_out) -> double {
    auto* words = reinterpret_cast<unsigned*>(base);
    const int n = work[v];
    double ms = 0, units = 0;
    if (v == 0 || v == 4) {
      ms = timer.median_ms([&] { red_fixed<<<grid, kAtomicThreads>>>(words, n, v == 4); });
      units = double(threads) * n * kUnroll;
    } else if (v <= 3) {
      const unsigned total = static_cast<unsigned>(rot_mib[v] * kMiB / 4);
      ms = timer.median_ms([&] { red_rotating<<<grid, kAtomicThreads>>>(words, n, total, threads); });
      units = double(threads) * n * kUnroll;
    } else {
      ms = timer.median_ms([&] {
        l2_read<<<read_grid, kReadThreads>>>(reinterpret_cast<const float*>(base), chunks, unsigned(n), sink);
      });
      units = double(read_grid) * kReadThreads * kReadInFlight * 4.0 * n;
    }
    if (ms_out) *ms_out = ms;
    return units / (ms * 1e-3);
  };
  for (std::size_t v = 0; v < variants.size(); ++v) {
    double ms = 0;
    measure(static_cast<int>(v), pool, &ms);
    work[v] = std::max(1, static_cast<int>(work[v] * 3.0 / ms));
    measure(static_cast<int>(v), pool, &ms);
    std::printf("variant=%s work=%d launch_ms=%.3f\n", variants[v].name.c_str(), work[v], ms);
  }
  for (int p = 0; p < kPlacements; ++p) {
    for (std::size_t v = 0; v < variants.size(); ++v) {
      const double rate = measure(static_cast<int>(v), pool + offset_of(p), nullptr);
      variants[v].rates.push_back(rate);
      std::printf("variant=%s placement=%d offset_mib=%zu rate=%.4e unit=%s\n", variants[v].name.c_str(), p,
                  offset_of(p) / kMiB, rate, variants[v].unit.c_str());
    }
  }
  Variant again{"atomic.fixed1m.again", "op/s", {}};
  for (int r = 0; r < 6; ++r) {
    again.rates.push_back(measure(0, pool + offset_of(0), nullptr));
    std::printf("variant=%s placement=0 round=%d rate=%.4e unit=op/s\n", again.name.c_str(), r, again.rates.back());
  }
  variants.push_back(again);
  for (const Variant& v : variants) {
    std::vector<double> r = v.rates;
    std::sort(r.begin(), r.end());
    std::printf("summary variant=%s n=%zu min=%.4e median=%.4e max=%.4e spread=%.2f%%\n", v.name.c_str(), r.size(),
                r.front(), r[r.size() / 2], r.back(), 100.0 * (r.back() / r.front() - 1));
  }
  CHECK(cudaFree(pool));
  CHECK(cudaFree(sink));
  return 0;
}
