// SPDX-License-Identifier: Apache-2.0
// Self-test fault injection, the kernels: where a context's blocks run (%smid), and the HBM
// thief that streams a large buffer on its own SMs while the probes measure (selftest_gpu.hpp).
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "gpuconform/cuda_check.hpp"
#include "selftest_gpu.hpp"

namespace gpuconform::selftest::detail {
namespace {

constexpr int kCheckThreads = 1024;                  // at most 2 blocks per SM
constexpr unsigned long long kCheckSpinNs = 20'000;  // each block stays 20 us
constexpr int kThiefThreads = 256;
constexpr unsigned long long kThiefLaunchNs = 5'000'000;  // one launch streams for 5 ms

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

__global__ void __launch_bounds__(kCheckThreads) record_sm_ids(unsigned* out, unsigned long long spin_ns) {
  if (threadIdx.x == 0) {
    const unsigned long long t0 = global_ns();
    while (global_ns() - t0 < spin_ns) {
    }
    out[blockIdx.x] = sm_id();
  }
  __syncthreads();  // the whole block stays resident while thread 0 waits
}

// Every thread reads 16-byte words of `buf` (evict-first, so L2 keeps little of it), a grid
// stride apart and wrapping around, 8 loads between looks at the clock, for `duration_ns`.
// The bytes read go to *bytes (once per thread, at the end).
__global__ void __launch_bounds__(kThiefThreads)
    stream_hbm(const uint4* __restrict__ buf, std::size_t words, unsigned long long duration_ns,
               unsigned long long* bytes, unsigned* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned long long t0 = global_ns();
  unsigned acc = 0;
  unsigned long long loads = 0;
  do {
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      const uint4 v = __ldcs(buf + i);
      acc ^= v.x ^ v.y ^ v.z ^ v.w;
      i += stride;
      if (i >= words) i -= words;
    }
    loads += 8;
  } while (global_ns() - t0 < duration_ns);
  if (acc == 0x9e3779b9u) *sink = acc;  // never (the buffer is zero): keeps the loads
  atomicAdd(bytes, loads * sizeof(uint4));
}

void check(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw std::runtime_error(fmt::format("{}: {} ({})", call, cudaGetErrorName(e), cudaGetErrorString(e)));
}

}  // namespace

std::vector<unsigned> sm_ids_of_blocks(cudaStream_t stream, int blocks) {
  unsigned* ids = nullptr;
  GC_CUDA_CHECK(cudaMalloc(&ids, sizeof(unsigned) * blocks));
  std::vector<unsigned> out(static_cast<std::size_t>(blocks));
  try {
    GC_CUDA_CHECK(cudaMemsetAsync(ids, 0xff, sizeof(unsigned) * blocks, stream));
    record_sm_ids<<<blocks, kCheckThreads, 0, stream>>>(ids, kCheckSpinNs);
    GC_CUDA_CHECK(cudaGetLastError());
    GC_CUDA_CHECK(cudaMemcpyAsync(out.data(), ids, sizeof(unsigned) * blocks, cudaMemcpyDeviceToHost, stream));
    GC_CUDA_CHECK(cudaStreamSynchronize(stream));
  } catch (...) {
    cudaFree(ids);
    throw;
  }
  GC_CUDA_CHECK(cudaFree(ids));
  return out;
}

HbmThief::HbmThief(std::function<void()> enter, int sms, std::size_t bytes) : enter_(std::move(enter)) {
  thread_ = std::thread([this, sms, bytes] { run(sms, bytes); });
  std::unique_lock<std::mutex> lock(mutex_);
  ready_cv_.wait(lock, [&] { return ready_ || !error_.empty(); });
  if (!error_.empty()) {
    const std::string why = error_;
    lock.unlock();
    thread_.join();
    throw std::runtime_error(why);
  }
}

HbmThief::~HbmThief() { stop(); }

void HbmThief::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::string HbmThief::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

double HbmThief::read_gbps() const {
  const double s = seconds_;
  return s > 0 ? static_cast<double>(bytes_read_) / s / 1e9 : 0.0;
}

void HbmThief::fail(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = why.empty() ? "the HBM thief stopped" : why;
  }
  ready_cv_.notify_all();
}

void HbmThief::run(int sms, std::size_t bytes) {
  uint4* buf = nullptr;
  unsigned* sink = nullptr;
  unsigned long long* counters = nullptr;       // device: bytes of the launch in each slot
  unsigned long long* host_counters = nullptr;  // pinned copies
  cudaStream_t stream = nullptr;
  cudaEvent_t done[2] = {nullptr, nullptr};
  bool broken = false;
  try {
    enter_();  // the thief's green context, current to this thread only
    const std::size_t words = bytes / sizeof(uint4);
    check(cudaMalloc(&buf, words * sizeof(uint4)), "cudaMalloc (HBM thief buffer)");
    check(cudaMalloc(&sink, sizeof(unsigned)), "cudaMalloc");
    check(cudaMalloc(&counters, 2 * sizeof(unsigned long long)), "cudaMalloc");
    check(cudaMallocHost(&host_counters, 2 * sizeof(unsigned long long)), "cudaMallocHost");
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    for (cudaEvent_t& e : done) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
    check(cudaMemsetAsync(buf, 0, words * sizeof(uint4), stream), "cudaMemsetAsync (HBM thief buffer)");
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_hbm, kThiefThreads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const int grid = std::max(1, per_sm) * sms;
    std::vector<unsigned> ids = sm_ids_of_blocks(stream, 4 * sms);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      sm_ids_ = std::move(ids);
    }
    const auto start = std::chrono::steady_clock::now();
    unsigned long long total = 0;
    // Two launches in flight: the next is queued while one streams, so the SMs never idle.
    for (long long k = 0; !stop_; ++k) {
      const int slot = static_cast<int>(k % 2);
      if (k >= 2) {
        check(cudaEventSynchronize(done[slot]), "cudaEventSynchronize (HBM thief)");
        total += host_counters[slot];
        bytes_read_ = total;
        seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      check(cudaMemsetAsync(counters + slot, 0, sizeof(unsigned long long), stream), "cudaMemsetAsync");
      stream_hbm<<<grid, kThiefThreads, 0, stream>>>(buf, words, kThiefLaunchNs, counters + slot, sink);
      check(cudaGetLastError(), "stream_hbm<<<>>> (HBM thief)");
      check(cudaMemcpyAsync(host_counters + slot, counters + slot, sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                            stream),
            "cudaMemcpyAsync");
      check(cudaEventRecord(done[slot], stream), "cudaEventRecord");
      if (k == 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        ready_ = true;
        ready_cv_.notify_all();
      }
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (HBM thief)");
  } catch (const std::exception& err) {
    broken = true;
    fail(err.what());
  }
  if (broken) return;  // no teardown after an error: a broken context can hang it; the process ends soon
  for (cudaEvent_t e : done) cudaEventDestroy(e);
  cudaStreamDestroy(stream);
  cudaFreeHost(host_counters);
  cudaFree(counters);
  cudaFree(sink);
  cudaFree(buf);
}

}  // namespace gpuconform::selftest::detail
