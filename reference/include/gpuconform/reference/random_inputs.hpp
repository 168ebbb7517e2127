// SPDX-License-Identifier: Apache-2.0
// Random MMA operands drawn directly as bit patterns of their formats (no conversion
// loss), by class: the `class` field of vector files (docs/vector-files.md). The unit tests and the
// GPU numeric probes draw from the same generator, so a CPU failure replays on the GPU.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {

// xoshiro256** (Blackman & Vigna), seeded by splitmix64: fast, and the same stream on
// every platform and standard library (the generator below uses no std distributions), so
// a seed printed by a failing test reproduces its inputs anywhere.
class Rng {
 public:
  using result_type = std::uint64_t;
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) {
      seed += 0x9e3779b97f4a7c15ull;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      word = z ^ (z >> 31);
    }
  }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

enum class InputClass : std::uint8_t {
  kNormal,     // normals with exponents in [-4, 4]: the common case
  kWide,       // any finite code, uniformly: exponent spread, subnormals and zeros
  kSubnormal,  // subnormals and the lowest normal binades: products near e_zero
  kCancel,     // pairwise cancelling products plus a C of the same size
  kSpecial,    // normal, with 1 in 8 entries replaced by ±0, ±inf, NaN, ±max, min subnormal
};

std::string_view to_string(InputClass c);
const std::vector<InputClass>& all_input_classes();

// One operand code of f in class c (tf32: the ignored low register bits are random too).
// Both engines give reproducible streams; Rng is about 3x cheaper per call.
std::uint64_t draw_value(const FloatFormat& f, InputClass c, Rng& rng);
std::uint64_t draw_value(const FloatFormat& f, InputClass c, std::mt19937_64& rng);

// Fills A (M x K row-major), B (K x N column-major) and C (M x N row-major) for model m.
// Resizes the vectors; reuse them across calls to avoid allocation.
void draw_mma(const TensorCoreModel& m, InputClass c, int M, int N, int K, Rng& rng,
              std::vector<std::uint64_t>& A, std::vector<std::uint64_t>& B,
              std::vector<std::uint64_t>& C);
void draw_mma(const TensorCoreModel& m, InputClass c, int M, int N, int K, std::mt19937_64& rng,
              std::vector<std::uint64_t>& A, std::vector<std::uint64_t>& B,
              std::vector<std::uint64_t>& C);

}  // namespace gpuconform::ref
