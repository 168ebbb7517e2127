// SPDX-License-Identifier: Apache-2.0
// gpu_spinner: keeps one GPU busy for N seconds, as the "other process" that
// gpuconform's state watch must notice (throughput/latency failures measured
// while it runs become warnings naming it).
//
//   nvcc -O2 -arch=sm_90 -o gpu_spinner tools/device/gpu_spinner.cu
//   ./gpu_spinner 120 [device] &    # prints its pid, exits by itself after 120 s
//   build/bin/gpuconform run --filter 'throughput.*'
//
// Bounded by construction: each kernel spins for at most kSliceMs of
// %globaltimer time (and a hard iteration cap), and the host relaunches
// kernels until the deadline, so the GPU is never held by a kernel that does
// not finish. SIGINT/SIGTERM end it at the next slice.
#include <cuda_runtime.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr unsigned long long kSliceMs = 50;
constexpr unsigned long long kMaxIterations = 1ull << 26;  // a stopped %globaltimer cannot hang the GPU
volatile std::sig_atomic_t interrupted = 0;

__device__ unsigned long long global_time_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Dependent FMAs until the slice is over; the result is stored so the
// compiler keeps the work.
__global__ void spin(unsigned long long slice_ns, float* sink) {
  const unsigned long long end = global_time_ns() + slice_ns;
  float a = threadIdx.x * 1e-3f, b = 1.0001f;
  for (unsigned long long i = 0; i < kMaxIterations; ++i) {
#pragma unroll
    for (int k = 0; k < 64; ++k) a = fmaf(a, b, 1e-7f);
    if ((i & 15) == 0 && global_time_ns() > end) break;
  }
  if (a == 12345.0f) sink[blockIdx.x] = a;  // practically never true; keeps `a` live
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "gpu_spinner: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 60.0;
  const int device = argc > 2 ? std::atoi(argv[2]) : 0;
  if (seconds <= 0) {
    std::fprintf(stderr, "usage: gpu_spinner SECONDS [DEVICE]\n");
    return 2;
  }
  std::signal(SIGINT, [](int) { interrupted = 1; });
  std::signal(SIGTERM, [](int) { interrupted = 1; });

  cudaDeviceProp prop{};
  if (!check(cudaSetDevice(device), "cudaSetDevice") || !check(cudaGetDeviceProperties(&prop, device), "properties"))
    return 1;
  float* sink = nullptr;
  const int blocks = prop.multiProcessorCount * 4;  // every SM busy
  if (!check(cudaMalloc(&sink, blocks * sizeof(float)), "cudaMalloc")) return 1;

  std::printf("gpu_spinner: pid %d spinning on GPU %d (%s) for %.0f s\n", static_cast<int>(getpid()), device,
              prop.name, seconds);
  std::fflush(stdout);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  unsigned long long slices = 0;
  while (!interrupted && std::chrono::steady_clock::now() < deadline) {
    spin<<<blocks, 256>>>(kSliceMs * 1000000ull, sink);
    if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "kernel")) return 1;
    ++slices;
  }
  cudaFree(sink);
  std::printf("gpu_spinner: pid %d done after %llu slices\n", static_cast<int>(getpid()), slices);
  return 0;
}
