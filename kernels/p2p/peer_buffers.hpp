// SPDX-License-Identifier: Apache-2.0
#pragma once
// Device buffers on named GPUs for the GPU-to-GPU probes: each allocation is made
// with its GPU current and freed the same way, so a probe that touches several GPUs
// never leaves the wrong one current or frees on the wrong context.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "gpuconform/cuda_check.hpp"

namespace gpuconform::kernels {

// Makes `device` current for a scope, then restores the previous one.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    GC_CUDA_CHECK(cudaGetDevice(&previous_));
    GC_CUDA_CHECK(cudaSetDevice(device));
  }
  ~DeviceScope() { cudaSetDevice(previous_); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
};

// `bytes` of memory on `device`, filled with non-zero pseudo-random words (seeded):
// a link is never timed on zeros.
class PeerBuffer {
 public:
  PeerBuffer(int device, std::size_t bytes, std::uint64_t seed);
  ~PeerBuffer();
  PeerBuffer(const PeerBuffer&) = delete;
  PeerBuffer& operator=(const PeerBuffer&) = delete;
  PeerBuffer(PeerBuffer&& o) noexcept : device_(o.device_), bytes_(o.bytes_), ptr_(o.ptr_) { o.ptr_ = nullptr; }

  int device() const { return device_; }
  std::size_t bytes() const { return bytes_; }
  template <typename T = void>
  T* get() const { return static_cast<T*>(ptr_); }

 private:
  int device_ = 0;
  std::size_t bytes_ = 0;
  void* ptr_ = nullptr;
};

// A stream and an event on `device`, for work that must run on several GPUs at once.
struct DeviceStream {
  explicit DeviceStream(int device);
  ~DeviceStream();
  DeviceStream(const DeviceStream&) = delete;
  DeviceStream& operator=(const DeviceStream&) = delete;
  int device = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t event = nullptr;  // recorded where the stream's work ends (join)
};

// Host copies of three 1 MiB slices (start, middle, end) of `a` and `b` compared:
// "" when equal, else where they differ. Both buffers hold `bytes` or more.
std::string compare_slices(const PeerBuffer& a, const PeerBuffer& b, std::size_t bytes);

}  // namespace gpuconform::kernels
