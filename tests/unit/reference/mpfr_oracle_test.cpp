// SPDX-License-Identifier: Apache-2.0
// The MPFR IEEE oracle against this machine's own IEEE 754 arithmetic (SSE and glibc's
// correctly rounded fma/fmaf), which supports RN, RZ, RU and RD through fesetround. RNA,
// which x86 lacks, is checked on ties whose answer is known.
#include "gpuconform/reference/mpfr_oracle.hpp"

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>

#include "gpuconform/reference/random_inputs.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

using testing::Mismatches;

template <class T>
using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;

template <class T>
T from_bits(std::uint64_t b) {
  const Bits<T> narrow = static_cast<Bits<T>>(b);
  T x;
  std::memcpy(&x, &narrow, sizeof x);
  return x;
}

template <class T>
std::uint64_t to_bits(T x) {
  Bits<T> b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// The host's result; volatile keeps the compiler from folding it in the default mode.
template <class T>
[[gnu::noinline]] T host(IeeeOp op, T a, T b, T c) {
  volatile T x = a, y = b, z = c;
  switch (op) {
    case IeeeOp::kAdd:
      return x + y;
    case IeeeOp::kSub:
      return x - y;
    case IeeeOp::kMul:
      return x * y;
    case IeeeOp::kDiv:
      return x / y;
    case IeeeOp::kSqrt:
      return std::sqrt(static_cast<T>(x));
    case IeeeOp::kFma:
      return std::fma(static_cast<T>(x), static_cast<T>(y), static_cast<T>(z));
  }
  return 0;
}

// Operands with interesting interactions: any code, moderate values, near-subnormal
// values, and partners that nearly cancel (b ~ -a; for fma c ~ -a*b).
template <class T>
void draw(const FloatFormat& f, Rng& rng, std::uint64_t& a, std::uint64_t& b, std::uint64_t& c) {
  const std::uint64_t mask = f.width_bits() == 64 ? ~0ull : (1ull << f.width_bits()) - 1;
  auto with_exp = [&](int e) {
    const std::uint64_t field = static_cast<std::uint64_t>(e + f.bias);
    return (rng() & f.sign_bit()) | (field << f.man_bits) | (rng() & f.man_mask());
  };
  const int kind = static_cast<int>(rng() % 4);
  if (kind == 0) {
    a = rng() & mask, b = rng() & mask, c = rng() & mask;
  } else if (kind == 1) {
    a = with_exp(static_cast<int>(rng() % 21) - 10);
    b = with_exp(static_cast<int>(rng() % 21) - 10);
    c = with_exp(static_cast<int>(rng() % 41) - 20);
  } else if (kind == 2) {
    a = with_exp(f.emin() + static_cast<int>(rng() % 8));
    b = with_exp(static_cast<int>(rng() % 9) - 8);
    c = rng() & (f.man_mask() | f.sign_bit());  // subnormal or zero
  } else {
    a = with_exp(static_cast<int>(rng() % 9) - 4);
    b = (a ^ f.sign_bit()) + (rng() % 5) - 2;                             // b ~ -a
    c = to_bits(-(from_bits<T>(a) * from_bits<T>(b))) + (rng() % 5) - 2;  // c ~ -a*b
  }
}

template <class T>
Mismatches compare(const FloatFormat& f, IeeeOp op, long n) {
  Mismatches wrong;
  Rng rng(1000 + static_cast<unsigned>(op) * 7 + sizeof(T));
  const struct {
    Rounding r;
    int host_mode;
  } modes[] = {{Rounding::kRNE, FE_TONEAREST},
               {Rounding::kRZ, FE_TOWARDZERO},
               {Rounding::kRU, FE_UPWARD},
               {Rounding::kRD, FE_DOWNWARD}};
  for (const auto& mode : modes) {
    for (long i = 0; i < n; ++i) {
      std::uint64_t a, b, c;
      draw<T>(f, rng, a, b, c);
      std::fesetround(mode.host_mode);
      const T h = host<T>(op, from_bits<T>(a), from_bits<T>(b), from_bits<T>(c));
      std::fesetround(FE_TONEAREST);
      const std::uint64_t oracle = ieee_op(f, op, mode.r, a, b, c);
      const bool same = std::isnan(h) ? std::isnan(from_bits<T>(oracle)) : to_bits(h) == oracle;
      if (!same)
        wrong.add(fmt::format("{}.{} a={:#x} b={:#x} c={:#x}: host {:#x} oracle {:#x}",
                              to_string(op), to_string(mode.r), a, b, c, to_bits(h), oracle));
    }
  }
  return wrong;
}

class OracleVsHost : public ::testing::TestWithParam<IeeeOp> {};

TEST_P(OracleVsHost, Fp32AgreesInFourRoundingModes) {
  const Mismatches wrong = compare<float>(kFp32, GetParam(), testing::scaled(100'000));
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

TEST_P(OracleVsHost, Fp64AgreesInFourRoundingModes) {
  const Mismatches wrong = compare<double>(kFp64, GetParam(), testing::scaled(100'000));
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

INSTANTIATE_TEST_SUITE_P(Ops, OracleVsHost,
                         ::testing::Values(IeeeOp::kAdd, IeeeOp::kSub, IeeeOp::kMul, IeeeOp::kDiv,
                                           IeeeOp::kSqrt, IeeeOp::kFma),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(MpfrOracle, RoundsTiesAwayForRna) {
  // 1 + 2^-24 is the fp32 tie between 1 and 1 + 2^-23.
  EXPECT_EQ(ieee_op(kFp32, IeeeOp::kAdd, Rounding::kRNA, 0x3F800000, 0x33800000), 0x3F800001u);
  EXPECT_EQ(ieee_op(kFp32, IeeeOp::kAdd, Rounding::kRNE, 0x3F800000, 0x33800000), 0x3F800000u);
  EXPECT_EQ(ieee_op(kFp32, IeeeOp::kSub, Rounding::kRNA, 0xBF800000, 0x33800000), 0xBF800001u);
  // fp64: 1 + 2^-53.
  EXPECT_EQ(ieee_op(kFp64, IeeeOp::kAdd, Rounding::kRNA, 0x3FF0000000000000, 0x3CA0000000000000),
            0x3FF0000000000001u);
}

TEST(MpfrOracle, ExactZeroSumSignFollowsTheRoundingDirection) {
  EXPECT_EQ(ieee_op(kFp32, IeeeOp::kSub, Rounding::kRNE, 0x3F800000, 0x3F800000), 0x00000000u);
  EXPECT_EQ(ieee_op(kFp32, IeeeOp::kSub, Rounding::kRD, 0x3F800000, 0x3F800000), 0x80000000u);
}

}  // namespace
}  // namespace gpuconform::ref
