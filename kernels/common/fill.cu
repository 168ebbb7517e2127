// SPDX-License-Identifier: Apache-2.0
#include "common/fill.cuh"
#include "gpuconform/cuda_check.hpp"

namespace gpuconform::kernels {
namespace {
__global__ void fill_random_kernel(std::uint64_t* words, std::size_t count, std::uint64_t seed) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count; i += stride)
    words[i] = splitmix64(seed ^ i) | 1u;  // | 1: never a zero word
}
}  // namespace

void fill_random(std::uint64_t* words, std::size_t count, std::uint64_t seed) {
  fill_random_kernel<<<1024, 256>>>(words, count, seed);
  GC_CUDA_CHECK_LAUNCH();
}

}  // namespace gpuconform::kernels
