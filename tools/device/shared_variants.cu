// SPDX-License-Identifier: Apache-2.0
// Which shape of an all-SM shared-memory load loop reaches 128 B/clk/SM on
// this GPU? An investigation tool, not a probe: compiled and run on the GPU
// node (`nvcc -O3 -std=c++17 -arch=sm_90a -o /tmp/shv tools/device/shared_variants.cu
// && /tmp/shv`) to choose the shape of kernels/throughput/onchip_throughput.cu.
// Every variant runs one wave of blocks on all SMs; each thread reads
// conflict-free 16- or 8-byte columns of a window of slots that moves every
// trip. A launch is timed from the first block's loop start to the last
// block's loop end (%globaltimer), as the suite's time_by_stamps; the SM clock
// is block 0's clock64 against %globaltimer. Prints one line per variant:
// `variant=... threads=... blocks_per_sm=... frac=...` (fraction of 128 B/clk/SM).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "cuda_check.cuh"

__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// out: [0] min start ns, [1] max end ns, [2] block 0 cycles, [3] block 0 ns.
template <int Threads, int Slots, int Window, int Width, bool Add>
__global__ void __launch_bounds__(Threads) shared_loop(int trips, unsigned* sink, unsigned long long* out) {
  extern __shared__ uint4 smem[];
  const unsigned t = threadIdx.x;
  unsigned* words = reinterpret_cast<unsigned*>(smem);
  for (int i = t; i < Slots * Threads * Width / 4; i += Threads) words[i] = i * 2654435761u + 1;
  __syncthreads();
  constexpr unsigned slot_bytes = Threads * Width;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + t * Width;
  unsigned a0 = t, a1 = 1, a2 = 2, a3 = 3;
  const unsigned long long t0 = gtime();
  const long long c0 = clock64();
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    const unsigned addr = base + (static_cast<unsigned>(trip) % (Slots - Window + 1)) * slot_bytes;
    unsigned v[Window][Width / 4];
#pragma unroll
    for (int k = 0; k < Window; ++k) {
      if constexpr (Width == 16)
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(v[k][0]), "=r"(v[k][1]), "=r"(v[k][2]), "=r"(v[k][3]) : "r"(addr + k * slot_bytes));
      else
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v[k][0]), "=r"(v[k][1]) : "r"(addr + k * slot_bytes));
    }
#pragma unroll
    for (int k = 0; k < Window; ++k) {
      if constexpr (Width == 16) {
        if (Add) { a0 += v[k][0]; a1 += v[k][1]; a2 += v[k][2]; a3 += v[k][3]; }
        else { a0 ^= v[k][0] ^ v[k][1]; a1 ^= v[k][2] ^ v[k][3]; }
      } else {
        if (Add) { a0 += v[k][0]; a1 += v[k][1]; }
        else { a0 ^= v[k][0] ^ v[k][1]; }
      }
    }
  }
  __syncthreads();
  const unsigned long long t1 = gtime();
  const long long c1 = clock64();
  if (t == 0) {
    atomicMin(&out[0], t0);
    atomicMax(&out[1], t1);
    if (blockIdx.x == 0) {
      out[2] = static_cast<unsigned long long>(c1 - c0);
      out[3] = t1 - t0;
    }
  }
  sink[blockIdx.x * Threads + t] = a0 + a1 + a2 + a3;
}

template <int Threads, int Slots, int Window, int Width, bool Add>
void run(const char* name, int sms, unsigned* sink, unsigned long long* out) {
  auto k = shared_loop<Threads, Slots, Window, Width, Add>;
  const int smem = Slots * Threads * Width;
  CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, Threads, smem));
  if (per_sm < 1) {
    std::printf("variant=%s skipped (does not fit)\n", name);
    return;
  }
  const int grid = per_sm * sms;
  std::vector<double> fracs;
  int trips = 256;
  for (int rep = 0; rep < 12; ++rep) {
    unsigned long long init[4] = {~0ull, 0, 0, 0};
    CHECK(cudaMemcpy(out, init, sizeof init, cudaMemcpyHostToDevice));
    k<<<grid, Threads, smem>>>(trips, sink, out);
    CHECK(cudaDeviceSynchronize());
    unsigned long long r[4];
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    const double span_ns = double(r[1] - r[0]);
    if (span_ns < 4e6) {  // grow to >= 4 ms loops
      trips = int(trips * std::max(2.0, 5e6 / std::max(span_ns, 1.0)));
      --rep;
      continue;
    }
    const double ghz = double(r[2]) / double(r[3]);
    const double bytes = double(grid) * Threads * double(trips) * Window * Width;
    if (rep >= 2) fracs.push_back(bytes / span_ns / (128.0 * sms * ghz));
  }
  std::sort(fracs.begin(), fracs.end());
  std::printf("variant=%s threads=%d blocks_per_sm=%d slots=%d window=%d width=%d consumer=%s trips=%d "
              "frac_median=%.4f frac_best=%.4f\n",
              name, Threads, per_sm, Slots, Window, Width, Add ? "add" : "xor", trips, fracs[fracs.size() / 2],
              fracs.back());
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  const int sms = p.multiProcessorCount;
  std::printf("device name=\"%s\" sms=%d\n", p.name, sms);
  unsigned* sink;
  unsigned long long* out;
  CHECK(cudaMalloc(&sink, size_t(sms) * 2048 * 4));
  CHECK(cudaMalloc(&out, 4 * sizeof(unsigned long long)));
  for (int pass = 0; pass < 2; ++pass) {
    run<256, 16, 8, 16, false>("suite.256x16s.w8.b128.xor", sms, sink, out);
    run<256, 16, 8, 16, true>("256x16s.w8.b128.add", sms, sink, out);
    run<256, 16, 8, 8, false>("256x16s.w8.b64.xor", sms, sink, out);
    run<256, 16, 8, 8, true>("256x16s.w8.b64.add", sms, sink, out);
    run<1024, 8, 4, 16, false>("1024x8s.w4.b128.xor", sms, sink, out);
    run<1024, 8, 4, 16, true>("1024x8s.w4.b128.add", sms, sink, out);
    run<512, 12, 8, 16, true>("512x12s.w8.b128.add", sms, sink, out);
    run<1024, 12, 8, 8, true>("1024x12s.w8.b64.add", sms, sink, out);
    run<128, 16, 8, 16, true>("128x16s.w8.b128.add", sms, sink, out);
  }
  return 0;
}
