// Which way of streaming device memory gets closest to the peak on this GPU?
// An investigation tool, not a probe: compiled and run on the GPU node
// (`nvcc -O3 -arch=native -o /tmp/sv tools/device/stream_variants.cu && /tmp/sv`)
// to choose the method of kernels/throughput/stream_throughput.cu. It times
// reads of a buffer of a given size with 16-byte loads, varying the loads in
// flight per thread (4, 8, 16), the threads per SM, the cache operator and the
// order (grid-stride vs one contiguous chunk per block), and prints GB/s.
// Buffers of 8 x L2 measure HBM; buffers of a fraction of the L2 measure L2.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e = (x);                                                           \
    if (e != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                 \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

template <int U, bool Chunked, bool Cg>
__global__ void read_kernel(const float4* a, size_t count, int passes, float* sink) {
  float acc = 0;
  const size_t threads = size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    size_t start, step, end;
    if (Chunked) {
      const size_t per_block = (count + gridDim.x - 1) / gridDim.x;
      start = blockIdx.x * per_block + threadIdx.x;
      end = min(count, (blockIdx.x + 1) * per_block);
      step = blockDim.x;
    } else {
      start = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
      end = count;
      step = threads;
    }
    for (size_t i = start; i < end; i += U * step) {
      float4 v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const size_t j = i + u * step;
        if (j < end) {
          if (Cg)
            asm volatile("ld.global.cg.v4.f32 {%0,%1,%2,%3}, [%4];"
                         : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(a + j));
          else
            asm volatile("ld.global.cs.v4.f32 {%0,%1,%2,%3}, [%4];"
                         : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w) : "l"(a + j));
        } else {
          v[u] = make_float4(0, 0, 0, 0);
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u) acc += (v[u].x + v[u].y) + (v[u].z + v[u].w);
    }
  }
  if (acc == 1234.5f) *sink = acc;
}

template <int U, bool Chunked, bool Cg>
double time_read(const float4* a, size_t bytes, int passes, int threads, int blocks_per_sm, int sms, float* sink) {
  const size_t count = bytes / 16;
  const int grid = blocks_per_sm * sms;
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  read_kernel<U, Chunked, Cg><<<grid, threads>>>(a, count, passes, sink);
  CHECK(cudaDeviceSynchronize());
  float best = 1e30f;
  for (int r = 0; r < 7; ++r) {
    CHECK(cudaEventRecord(e0));
    read_kernel<U, Chunked, Cg><<<grid, threads>>>(a, count, passes, sink);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (ms < best) best = ms;
  }
  return double(bytes) * passes / (best * 1e-3) / 1e9;
}

template <int U, bool Chunked, bool Cg>
void row(const char* what, const float4* a, size_t bytes, int passes, int sms, float* sink, double peak) {
  for (int threads : {256, 512, 1024}) {
    for (int bps : {1, 2, 4}) {
      if (threads * bps > 2048) continue;
      const double gbs = time_read<U, Chunked, Cg>(a, bytes, passes, threads, bps, sms, sink);
      std::printf("%-5s %-8s unroll %2d %-7s %4d thr x %d blk/SM: %8.1f GB/s", what, Cg ? "cg" : "cs", U,
                  Chunked ? "chunked" : "stride", threads, bps, gbs);
      if (peak > 0) std::printf("  = %.4f of peak", gbs / peak);
      std::printf("\n");
    }
  }
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  int mem_khz = 0, bus_bits = 0;
  CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  const double peak = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  std::printf("%s, %d SMs, L2 %d MiB, HBM peak %.1f GB/s (2 x %d MHz x %d B)\n", p.name, p.multiProcessorCount,
              p.l2CacheSize >> 20, peak, mem_khz / 1000, bus_bits / 8);
  const size_t hbm_bytes = std::max<size_t>(size_t(4) << 30, 8 * size_t(p.l2CacheSize));
  float4* a;
  float* sink;
  CHECK(cudaMalloc(&a, hbm_bytes));
  CHECK(cudaMalloc(&sink, 4));
  CHECK(cudaMemset(a, 0x3c, hbm_bytes));
  const int sms = p.multiProcessorCount;
  // Footprint: 1/4, 1/2 and all of the buffer, for the two grids in question.
  for (size_t div : {4, 2, 1}) {
    const size_t b = hbm_bytes / div;
    for (int rep = 0; rep < 2; ++rep) {
      const double g512 = time_read<4, false, false>(a, b, 1, 512, 4, sms, sink);
      const double g1024 = time_read<4, false, false>(a, b, 1, 1024, 2, sms, sink);
      std::printf("hbm-size %5zu MiB: 512 x 4 %.4f, 1024 x 2 %.4f of peak\n", b >> 20, g512 / peak, g1024 / peak);
    }
  }
  row<4, false, false>("hbm", a, hbm_bytes, 1, sms, sink, peak);
  row<8, false, false>("hbm", a, hbm_bytes, 1, sms, sink, peak);
  row<16, false, false>("hbm", a, hbm_bytes, 1, sms, sink, peak);
  row<4, true, false>("hbm", a, hbm_bytes, 1, sms, sink, peak);
  row<8, true, false>("hbm", a, hbm_bytes, 1, sms, sink, peak);
  for (int frac : {8, 4, 2}) {
    const size_t l2_bytes = size_t(p.l2CacheSize) / frac;
    const int passes = std::max(4, int(2e10 / double(l2_bytes)));
    std::printf("-- L2 footprint 1/%d of L2 (%zu MiB), %d passes\n", frac, l2_bytes >> 20, passes);
    row<4, false, true>("l2", a, l2_bytes, passes, sms, sink, 0);
    row<8, false, true>("l2", a, l2_bytes, passes, sms, sink, 0);
    row<4, true, true>("l2", a, l2_bytes, passes, sms, sink, 0);
  }
  return 0;
}
