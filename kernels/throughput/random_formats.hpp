// SPDX-License-Identifier: Apache-2.0
#pragma once
// Random operand registers in the tensor cores' input formats, for the
// throughput probes (mma_throughput.cu, wgmma_throughput.cu, wgmma_sp_throughput.cu): random signs and
// small magnitudes, so accumulators random-walk and stay finite, never zero.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace gpuconform::kernels {

enum class Fmt { f16, bf16, tf32, e4m3, e5m2, s8, s4, f64 };

// One random register (or f64) of `fmt` elements, each with a random sign:
// magnitudes in [2^-5, 2^-4) for f16, bf16, tf32, e5m2 and f64, [2^-3, 2^-2)
// for e4m3, integers in [-7, 8] for s8 and any nibble ([-8, 7]) for s4.
inline std::uint64_t random_register(Fmt fmt, std::mt19937_64& rng) {
  const std::uint64_t r = rng(), s = rng();
  switch (fmt) {
    case Fmt::f16: {
      std::uint32_t v = 0;
      for (int h = 0; h < 2; ++h)
        v |= static_cast<std::uint32_t>(((s >> h) & 1) << 15 | 10u << 10 | ((r >> (10 * h)) & 0x3FF)) << (16 * h);
      return v;
    }
    case Fmt::bf16: {
      std::uint32_t v = 0;
      for (int h = 0; h < 2; ++h)
        v |= static_cast<std::uint32_t>(((s >> h) & 1) << 15 | 122u << 7 | ((r >> (7 * h)) & 0x7F)) << (16 * h);
      return v;
    }
    case Fmt::tf32: return static_cast<std::uint32_t>((s & 1) << 31 | 122u << 23 | (r & 0x7FE000));
    case Fmt::e4m3: {
      std::uint32_t v = 0;
      for (int b = 0; b < 4; ++b)
        v |= static_cast<std::uint32_t>(((s >> b) & 1) << 7 | 4u << 3 | ((r >> (3 * b)) & 7)) << (8 * b);
      return v;
    }
    case Fmt::e5m2: {
      std::uint32_t v = 0;
      for (int b = 0; b < 4; ++b)
        v |= static_cast<std::uint32_t>(((s >> b) & 1) << 7 | 10u << 2 | ((r >> (2 * b)) & 3)) << (8 * b);
      return v;
    }
    case Fmt::s8: {
      std::uint32_t v = 0;
      for (int b = 0; b < 4; ++b) v |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(int((r >> (4 * b)) & 15) - 7)) << (8 * b);
      return v;
    }
    case Fmt::s4: return static_cast<std::uint32_t>(r);  // every nibble pattern is a valid s4 in [-8, 7]
    case Fmt::f64: {
      const double d = std::ldexp(1.0 + static_cast<double>(r >> 11) * 0x1p-53, -5) * ((s & 1) ? -1 : 1);
      std::uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
  }
  return 1;
}

// n random 32-bit words of `fmt` elements (operand tiles copied into shared memory).
inline std::vector<unsigned> random_words(Fmt fmt, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned> v(n);
  for (auto& w : v) w = static_cast<unsigned>(random_register(fmt, rng));
  return v;
}

}  // namespace gpuconform::kernels
