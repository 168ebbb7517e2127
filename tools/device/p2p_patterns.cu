// SPDX-License-Identifier: Apache-2.0
// Which copy patterns reach the NVLink peak on a node of more than two GPUs? An
// investigation tool, not a probe: on a 4-GPU H200 node (2026-11-27) every
// ordered pair alone copied at 0.81-0.83 of its link, but
// p2p.bandwidth.all_pairs_concurrent (all twelve pairs at once, copy engines)
// moved 782.7 GB/s in all, 0.409 of the summed egress, about one pair's two-way
// rate. Standalone; on the node:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/pp tools/device/p2p_patterns.cu && /tmp/pp
//
// Each pattern is a set of 1 GiB cudaMemcpyPeerAsync copies issued at once,
// every copy on its own non-blocking stream of the GPU that drives it (the
// source: push; `pull`: the destination), timed on the host from all GPUs idle
// to all GPUs idle, median of 5 after one untimed round. One line per pattern:
//   pattern=<name> copies=N gb_per_s=<all bytes / time> per_gpu_egress_gb_per_s=<max over GPUs of its sent bytes /
//   time>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.cuh"

constexpr std::size_t kBytes = std::size_t(1) << 30;

struct Copy {
  int src, dst;
};

int main() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    std::printf("needs two or more GPUs, found %d\n", n);
    return 2;
  }
  for (int a = 0; a < n; ++a) {
    CHECK(cudaSetDevice(a));
    for (int b = 0; b < n; ++b)
      if (a != b) CHECK(cudaDeviceEnablePeerAccess(b, 0));
  }
  // One source and one destination buffer per ordered pair.
  std::vector<std::vector<void*>> src(n, std::vector<void*>(n, nullptr)), dst = src;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      CHECK(cudaSetDevice(a));
      CHECK(cudaMalloc(&src[a][b], kBytes));
      CHECK(cudaMemset(src[a][b], a + 1, kBytes));
      CHECK(cudaSetDevice(b));
      CHECK(cudaMalloc(&dst[a][b], kBytes));
    }
  auto sync_all = [&] {
    for (int d = 0; d < n; ++d) {
      CHECK(cudaSetDevice(d));
      CHECK(cudaDeviceSynchronize());
    }
  };
  auto run = [&](const std::string& name, const std::vector<Copy>& copies, bool pull) {
    std::vector<cudaStream_t> streams(copies.size());
    for (std::size_t i = 0; i < copies.size(); ++i) {
      CHECK(cudaSetDevice(pull ? copies[i].dst : copies[i].src));
      CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    }
    std::vector<double> ms;
    for (int round = 0; round < 6; ++round) {
      sync_all();
      const auto t0 = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < copies.size(); ++i) {
        const Copy& c = copies[i];
        CHECK(cudaSetDevice(pull ? c.dst : c.src));
        CHECK(cudaMemcpyPeerAsync(dst[c.src][c.dst], c.dst, src[c.src][c.dst], c.src, kBytes, streams[i]));
      }
      sync_all();
      const auto t1 = std::chrono::steady_clock::now();
      if (round > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    const double t = ms[ms.size() / 2] * 1e-3;
    std::vector<int> sent(n, 0);
    for (const Copy& c : copies) ++sent[c.src];
    const int most = *std::max_element(sent.begin(), sent.end());
    std::printf("pattern=%s%s copies=%zu ms=%.3f gb_per_s=%.1f per_gpu_egress_gb_per_s=%.1f\n", name.c_str(),
                pull ? ".pull" : "", copies.size(), t * 1e3, copies.size() * kBytes / t / 1e9, most * kBytes / t / 1e9);
    for (cudaStream_t s : streams) CHECK(cudaStreamDestroy(s));
  };
  std::vector<Copy> all, ring, one_to_all, all_to_one, pairs_bi, pair01;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      if (a != b) all.push_back({a, b});
  for (int a = 0; a < n; ++a) ring.push_back({a, (a + 1) % n});
  for (int b = 1; b < n; ++b) one_to_all.push_back({0, b});
  for (int a = 1; a < n; ++a) all_to_one.push_back({a, 0});
  for (int a = 0; a + 1 < n; a += 2) {
    pairs_bi.push_back({a, a + 1});
    pairs_bi.push_back({a + 1, a});
  }
  pair01 = {{0, 1}};
  std::printf("gpus=%d bytes_per_copy=%zu\n", n, kBytes);
  run("one_pair.uni", pair01, false);
  run("one_pair.bi", {{0, 1}, {1, 0}}, false);
  run("disjoint_pairs.bi", pairs_bi, false);
  run("ring", ring, false);
  run("one_to_all", one_to_all, false);
  run("all_to_one", all_to_one, false);
  run("all_pairs", all, false);
  run("all_pairs", all, true);
  return 0;
}
