// SPDX-License-Identifier: Apache-2.0
#include "p2p/peer_buffers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/fill.cuh"

namespace gpuconform::kernels {

PeerBuffer::PeerBuffer(int device, std::size_t bytes, std::uint64_t seed) : device_(device), bytes_(bytes) {
  DeviceScope on(device);
  GC_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
  fill_random(static_cast<std::uint64_t*>(ptr_), bytes / 8, seed);
  GC_CUDA_CHECK(cudaDeviceSynchronize());
}

PeerBuffer::~PeerBuffer() {
  if (!ptr_) return;
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(device_);
  cudaFree(ptr_);
  cudaSetDevice(previous);
}

DeviceStream::DeviceStream(int d) : device(d) {
  DeviceScope on(d);
  GC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  GC_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
}

DeviceStream::~DeviceStream() {
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(device);
  if (event) cudaEventDestroy(event);
  if (stream) cudaStreamDestroy(stream);
  cudaSetDevice(previous);
}

std::string compare_slices(const PeerBuffer& a, const PeerBuffer& b, std::size_t bytes) {
  const std::size_t slice = std::min<std::size_t>(std::size_t(1) << 20, bytes);
  std::vector<unsigned char> ha(slice), hb(slice);
  for (std::size_t offset : {std::size_t(0), (bytes / 2) & ~std::size_t(255), bytes - slice}) {
    GC_CUDA_CHECK(cudaMemcpy(ha.data(), a.get<unsigned char>() + offset, slice, cudaMemcpyDefault));
    GC_CUDA_CHECK(cudaMemcpy(hb.data(), b.get<unsigned char>() + offset, slice, cudaMemcpyDefault));
    const auto diff = std::mismatch(ha.begin(), ha.end(), hb.begin());
    if (diff.first != ha.end())
      return fmt::format("byte {} of GPU {}'s buffer is 0x{:02x}, GPU {}'s 0x{:02x}",
                         offset + (diff.first - ha.begin()), a.device(), *diff.first, b.device(), *diff.second);
  }
  return {};
}

}  // namespace gpuconform::kernels
