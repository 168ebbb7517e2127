// SPDX-License-Identifier: Apache-2.0
// Does spreading the L2 probes' footprint over more pages take the placement
// out of their rate? An investigation tool, not a probe (issue 19): with one
// repeated byte (no power limit, l2_power_variants.cu) throughput.l2.read still
// read 10.82, 11.13 and 11.34 TB/s in three runs of one healthy H200
// (GPU-83a03207, 2026-11-27), and four buffers of one process read 11.07-11.74
// TB/s on another, each buffer the same in both rounds: the rate is fixed per
// allocation, as the global atomics' was. A quarter of the L2 is 7-8 pages of
// 2 MiB; if the pages' physical addresses set which L2 slices or partition
// serve them, so few pages rarely split evenly. Standalone; on the GPU node:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/l2s tools/device/l2_spread_variants.cu && /tmp/l2s
//
// (a few seconds; 8 x 2 x the L2 of device memory). The kernel is the suite's
// resident l2.read / l2.write shape (1024-thread blocks, 4 x 4 B .cg accesses
// in flight per thread, one 16 KiB chunk per block and step, a ring of chunks
// making a quarter of the L2); variant strideS places chunk k at chunk k x S of
// the buffer, so the same footprint spans S times as many pages (stride1 = the
// suite today); rotS also shifts it by (page mod S) chunks (slot() in l2_resident.cuh
// says why). Eight separate allocations are the
// placements; each variant is measured in every placement (median of 7 ~3 ms launches after 2 untimed), twice (rounds),
// so that the spread over placements can be told from launch noise. One machine-parsable line per measurement, then a
// summary per variant:
//
//   variant=<read|write>.<stride|rot><S> placement=<p> round=<r> tbs=<TB/s>
//   summary variant= n= min= median= max= spread=<max/min - 1> round_diff_max=<largest |r1/r2 - 1|>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "l2_resident.cuh"

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, resident<false>, kThreads, 0));
  const int grid = per_sm * prop.multiProcessorCount;
  const unsigned chunks = static_cast<unsigned>(prop.l2CacheSize / 4 / (kChunkFloats * 4));
  struct Layout {
    unsigned stride;
    bool rotate;
  };
  const Layout layouts[] = {{1, false}, {2, false}, {8, false}, {4, true}, {8, true}, {16, true}};
  const unsigned max_stride = 16;
  const std::size_t buffer_bytes = (std::size_t(chunks) + 1) * max_stride * kChunkFloats * 4;  // + rot's shift
  constexpr int kPlacements = 8;
  std::vector<float*> buffers(kPlacements);
  for (float*& b : buffers) {
    CHECK(cudaMalloc(&b, buffer_bytes));
    CHECK(cudaMemset(b, 0x3F, buffer_bytes));
  }
  float* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(float)));
  std::printf("device name=\"%s\" sms=%d l2_mib=%.1f grid=%d footprint_mib=%.2f buffer_mib=%.0f placements=%d\n",
              prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0, grid,
              chunks * kChunkFloats * 4 / 1048576.0, buffer_bytes / 1048576.0, kPlacements);
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto median_ms = [&](auto launch) {
    std::vector<float> ms;
    for (int i = 0; i < 9; ++i) {
      CHECK(cudaEventRecord(e0));
      launch();
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float t = 0;
      CHECK(cudaEventElapsedTime(&t, e0, e1));
      if (i >= 2) ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    return static_cast<double>(ms[ms.size() / 2]);
  };
  for (int write = 0; write <= 1; ++write) {
    for (const Layout& l : layouts) {
      auto run = [&](float* a, unsigned groups) {
        if (write)
          resident<true><<<grid, kThreads>>>(a, chunks, l.stride, l.rotate, groups, sink);
        else
          resident<false><<<grid, kThreads>>>(a, chunks, l.stride, l.rotate, groups, sink);
      };
      unsigned groups = 200;
      const double ms0 = median_ms([&] { run(buffers[0], groups); });
      groups = std::max(1u, static_cast<unsigned>(groups * 3.0 / ms0));
      const double bytes = double(groups) * grid * kChunkFloats * 4;
      const std::string name =
          std::string(write ? "write" : "read") + (l.rotate ? ".rot" : ".stride") + std::to_string(l.stride);
      std::vector<double> r1, r2;
      for (int round = 1; round <= 2; ++round)
        for (int p = 0; p < kPlacements; ++p) {
          const double tbs = bytes / (median_ms([&] { run(buffers[p], groups); }) * 1e-3) / 1e12;
          (round == 1 ? r1 : r2).push_back(tbs);
          std::printf("variant=%s placement=%d round=%d tbs=%.4f\n", name.c_str(), p, round, tbs);
        }
      std::vector<double> all = r1;
      all.insert(all.end(), r2.begin(), r2.end());
      std::sort(all.begin(), all.end());
      double diff = 0;
      for (int p = 0; p < kPlacements; ++p) diff = std::max(diff, std::fabs(r1[p] / r2[p] - 1));
      std::printf("summary variant=%s n=%zu min=%.4f median=%.4f max=%.4f spread=%.2f%% round_diff_max=%.2f%%\n",
                  name.c_str(), all.size(), all.front(), all[all.size() / 2], all.back(),
                  100 * (all.back() / all.front() - 1), 100 * diff);
      std::fflush(stdout);
    }
  }
  return 0;
}
