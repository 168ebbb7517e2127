// SPDX-License-Identifier: Apache-2.0
// encode() (shifts and a sticky bit) against mpfr::round_to_format() (MPFR integer
// rounding) on 10^6 random values per conversion and rounding mode: fp32 -> fp16, bf16,
// tf32, e4m3, e5m2 and fp64 -> fp32. Values are drawn where the target is interesting:
// across its whole range with subnormals and overflow, and on exact ties.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/reference/mpfr_format.hpp"
#include "gpuconform/reference/random_inputs.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

using testing::hex;
using testing::Mismatches;

struct Conversion {
  const FloatFormat* from;
  const FloatFormat* to;
};

constexpr Rounding kModes[] = {Rounding::kRNE, Rounding::kRZ, Rounding::kRNA, Rounding::kRU,
                               Rounding::kRD};

// A source code near the target's range: exponent in [target emin - man - 3, emax + 2],
// random mantissa; a quarter are exact ties or one ulp off a tie at the target's precision;
// one in 64 is any code at all (inf, NaN, huge, tiny).
std::uint64_t draw_source(const Conversion& c, Rng& rng) {
  const FloatFormat& s = *c.from;
  const FloatFormat& t = *c.to;
  const std::uint64_t pick = rng();
  const std::uint64_t width_mask = (s.width_bits() == 64) ? ~0ull : (1ull << s.width_bits()) - 1;
  if (pick % 64 == 0) return rng() & width_mask;
  const int lo = t.emin() - t.man_bits - 3, hi = t.emax() + 2;
  const int e = lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
  std::uint64_t mantissa = rng() & s.man_mask();
  if (pick % 4 == 1) {
    // Tie at the target precision (normal range): a half bit and nothing below it, +-1.
    const int cut = s.man_bits - t.man_bits;
    if (cut > 0) {
      mantissa = (mantissa >> cut << cut) | (1ull << (cut - 1));
      mantissa += (pick >> 8) % 3 - 1;
      mantissa &= s.man_mask();
    }
  }
  const std::uint64_t sign = (pick >> 16) & 1 ? s.sign_bit() : 0;
  // Below the source's normal range: its subnormals; above: its top binade.
  const int clamped = e < s.emin() ? s.emin() - 1 : (e > s.emax() ? s.emax() : e);
  const std::uint64_t field = static_cast<std::uint64_t>(clamped + s.bias);
  return sign | (field << s.man_bits) | mantissa;
}

class RoundingVsMpfr : public ::testing::TestWithParam<Conversion> {};

TEST_P(RoundingVsMpfr, EveryModeAgreesOnAMillionValues) {
  const Conversion c = GetParam();
  Rng rng(0x5eed0000u + static_cast<unsigned>(c.to->width_bits()) * 31 + c.from->man_bits);
  mpfr_t x;
  mpfr_init2(x, 64);
  Mismatches wrong;
  const long n = testing::scaled(1'000'000);
  for (long i = 0; i < n; ++i) {
    const std::uint64_t bits = draw_source(c, rng);
    const Unpacked u = decode(*c.from, bits);
    mpfr::set_from_bits(x, *c.from, bits);
    // Every mode; the overflow policy rotates so saturation and inf are covered too.
    const Overflow policy = static_cast<Overflow>(i % 3);
    for (Rounding r : kModes) {
      const std::uint64_t fast = encode(*c.to, u, r, policy);
      const std::uint64_t oracle = mpfr::round_to_format(*c.to, x, r, policy);
      // MPFR has no NaN payloads: a NaN input only has to give a NaN (or, finite-only, max).
      const bool same = u.cls == FpClass::kNaN
                            ? decode(*c.to, fast).cls == decode(*c.to, oracle).cls
                            : fast == oracle;
      if (!same)
        wrong.add(fmt::format("{} {} mode {} policy {}: encode {} mpfr {}", c.from->name,
                              hex(*c.from, bits), static_cast<int>(r), static_cast<int>(policy),
                              hex(*c.to, fast), hex(*c.to, oracle)));
    }
  }
  mpfr_clear(x);
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

INSTANTIATE_TEST_SUITE_P(Conversions, RoundingVsMpfr,
                         ::testing::Values(Conversion{&kFp32, &kFp16}, Conversion{&kFp32, &kBf16},
                                           Conversion{&kFp32, &kTf32}, Conversion{&kFp32, &kE4M3},
                                           Conversion{&kFp32, &kE5M2}, Conversion{&kFp64, &kFp32}),
                         [](const auto& info) {
                           return std::string(info.param.from->name) + "_to_" +
                                  std::string(info.param.to->name);
                         });

TEST(Rounding, TiesAndDirectionsOnKnownValues) {
  const double tie = 1 + std::ldexp(1.0, -11);  // halfway between two fp16 neighbours of 1
  EXPECT_EQ(from_double(kFp16, tie, Rounding::kRNE), 0x3C00u);  // RNE: to even
  EXPECT_EQ(from_double(kFp16, tie, Rounding::kRNA), 0x3C01u);  // RNA: away
  EXPECT_EQ(from_double(kFp16, -tie, Rounding::kRNA), 0xBC01u);
  EXPECT_EQ(from_double(kFp16, -tie, Rounding::kRU), 0xBC00u);                   // RU: toward +inf
  EXPECT_EQ(from_double(kFp16, -tie, Rounding::kRD), 0xBC01u);                   // RD: toward -inf
  EXPECT_EQ(from_double(kFp16, std::ldexp(1.0, -25), Rounding::kRNE), 0x0000u);  // tie to 0
  EXPECT_EQ(from_double(kFp16, std::ldexp(3.0, -26), Rounding::kRNE), 0x0001u);
  EXPECT_EQ(from_double(kFp16, std::ldexp(1.0, -30), Rounding::kRU), 0x0001u);
  EXPECT_EQ(from_double(kFp16, -std::ldexp(1.0, -30), Rounding::kRZ), 0x8000u);  // -0 kept
}

}  // namespace
}  // namespace gpuconform::ref
