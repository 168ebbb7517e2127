// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <cuda_runtime.h>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/sampling.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform {
namespace {

struct EventPair {
  cudaEvent_t start = nullptr, stop = nullptr;
  EventPair() {
    GC_CUDA_CHECK(cudaEventCreate(&start));
    GC_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~EventPair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// out[0] = clock64 cycles elapsed, out[1] = globaltimer ns elapsed.
__global__ void clock_ratio_kernel(unsigned long long spin_ns, long long* out) {
  const unsigned long long t0 = global_ns();
  const long long c0 = clock64();
  unsigned long long t1 = t0;
  while (t1 - t0 < spin_ns) t1 = global_ns();
  const long long c1 = clock64();
  out[0] = c1 - c0;
  out[1] = static_cast<long long>(t1 - t0);
}

}  // namespace

std::vector<double> time_launches_ms(const std::function<void()>& launch, int warmup, int repeats) {
  for (int i = 0; i < warmup; ++i) launch();
  GC_CUDA_CHECK_LAUNCH();
  EventPair events;
  std::vector<double> ms;
  ms.reserve(repeats);
  for (int i = 0; i < repeats; ++i) {
    GC_CUDA_CHECK(cudaEventRecord(events.start));
    launch();
    GC_CUDA_CHECK(cudaEventRecord(events.stop));
    GC_CUDA_CHECK(cudaEventSynchronize(events.stop));
    GC_CUDA_CHECK(cudaGetLastError());
    float elapsed = 0;
    GC_CUDA_CHECK(cudaEventElapsedTime(&elapsed, events.start, events.stop));
    ms.push_back(elapsed);
  }
  return ms;
}

int calibrate_trips(const std::function<void(int)>& run, double target_ms, int start_trips, int max_trips) {
  const long long first = std::max(1, start_trips), cap = std::max<long long>(first, max_trips);
  run(static_cast<int>(first));  // the first launch loads the module: never timed
  GC_CUDA_CHECK_LAUNCH();
  long long trips = first;
  for (;;) {
    const auto ms = time_launches_ms([&] { run(static_cast<int>(trips)); }, 0, 2);
    const double t = *std::min_element(ms.begin(), ms.end());
    // A quarter of the target is long enough that a launch's fixed cost no
    // longer inflates the per-trip time; below it, grow (up to 16x a step).
    if (t >= target_ms / 4 || trips >= cap) {
      const double scaled = std::ceil(static_cast<double>(trips) * target_ms / std::max(t, 1e-6) * 1.05);
      return static_cast<int>(std::clamp(scaled, static_cast<double>(first), static_cast<double>(cap)));
    }
    const double grow = t > 0 ? std::clamp(std::floor(target_ms / 4 / t), 2.0, 16.0) : 16.0;
    trips = std::min<long long>(cap, static_cast<long long>(static_cast<double>(trips) * grow));
  }
}

double measure_sm_clock_mhz(double spin_us) {
  DeviceBuffer<long long> out(2);
  clock_ratio_kernel<<<1, 1>>>(static_cast<unsigned long long>(spin_us * 1000), out.get());
  GC_CUDA_CHECK_LAUNCH();
  const auto r = out.download();
  if (r[1] <= 0) throw std::runtime_error("%globaltimer did not advance while measuring the SM clock");
  return static_cast<double>(r[0]) / static_cast<double>(r[1]) * 1000.0;
}

}  // namespace gpuconform
