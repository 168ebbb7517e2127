// SPDX-License-Identifier: Apache-2.0
// The tensor-core throughput probes time random operands, never zeros: every
// element random_register draws is non-zero and has the promised magnitude.
#include <gtest/gtest.h>

#include <cmath>

#include "throughput/random_formats.hpp"

namespace gpuconform::kernels {
namespace {

TEST(RandomFormats, FloatElementsAreNonZeroWithSmallExponents) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const auto f16 = static_cast<std::uint32_t>(random_register(Fmt::f16, rng));
    for (int h = 0; h < 2; ++h) EXPECT_EQ((f16 >> (16 * h + 10)) & 0x1F, 10u);  // 2^-5
    const auto bf16 = static_cast<std::uint32_t>(random_register(Fmt::bf16, rng));
    for (int h = 0; h < 2; ++h) EXPECT_EQ((bf16 >> (16 * h + 7)) & 0xFF, 122u);
    const auto tf32 = static_cast<std::uint32_t>(random_register(Fmt::tf32, rng));
    EXPECT_EQ((tf32 >> 23) & 0xFF, 122u);
    EXPECT_EQ(tf32 & 0x1FFF, 0u) << "tf32 keeps its low 13 bits clear";
    const auto e4m3 = static_cast<std::uint32_t>(random_register(Fmt::e4m3, rng));
    for (int b = 0; b < 4; ++b) EXPECT_EQ((e4m3 >> (8 * b + 3)) & 0xF, 4u);
    const auto e5m2 = static_cast<std::uint32_t>(random_register(Fmt::e5m2, rng));
    for (int b = 0; b < 4; ++b) EXPECT_EQ((e5m2 >> (8 * b + 2)) & 0x1F, 10u);
    double d;
    const std::uint64_t bits = random_register(Fmt::f64, rng);
    std::memcpy(&d, &bits, 8);
    EXPECT_GE(std::fabs(d), 0x1p-5);
    EXPECT_LT(std::fabs(d), 0x1p-4);
  }
}

TEST(RandomFormats, IntegerRegistersVary) {
  std::mt19937_64 rng(2);
  int zero_registers = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto s8 = static_cast<std::uint32_t>(random_register(Fmt::s8, rng));
    for (int b = 0; b < 4; ++b) {
      const int v = static_cast<std::int8_t>(s8 >> (8 * b));
      EXPECT_GE(v, -7);
      EXPECT_LE(v, 8);
    }
    zero_registers += s8 == 0;
  }
  EXPECT_EQ(zero_registers, 0);
}

}  // namespace
}  // namespace gpuconform::kernels
