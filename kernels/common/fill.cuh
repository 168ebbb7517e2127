// SPDX-License-Identifier: Apache-2.0
#pragma once
// Fills device memory with pseudo-random, non-zero words (splitmix64 of the
// index): bandwidth is never measured on zeros, which some memory paths
// compress or skip.
#include <cstddef>
#include <cstdint>

namespace gpuconform::kernels {

__device__ __forceinline__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Launch with any grid; words = bytes / 8.
void fill_random(std::uint64_t* words, std::size_t count, std::uint64_t seed);

}  // namespace gpuconform::kernels
