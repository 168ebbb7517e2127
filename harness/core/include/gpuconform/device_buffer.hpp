// SPDX-License-Identifier: Apache-2.0
#pragma once
// Owning device allocation (plain cudaMalloc, never managed memory) with
// checked copies, so probes cannot leak or forget an error code.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "gpuconform/cuda_check.hpp"

namespace gpuconform {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count) GC_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)));
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) { o.ptr_ = nullptr; o.count_ = 0; }

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const std::vector<T>& host) {
    GC_CUDA_CHECK(cudaMemcpy(ptr_, host.data(), std::min(host.size(), count_) * sizeof(T),
                             cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    GC_CUDA_CHECK(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }
  // Fills every byte with `byte`: used to poison outputs so an element the
  // kernel never wrote cannot pass for a result.
  void poison(int byte = 0xA5) { GC_CUDA_CHECK(cudaMemset(ptr_, byte, bytes())); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gpuconform
