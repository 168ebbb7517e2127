// SPDX-License-Identifier: Apache-2.0
// FloatFormat against the formats' specifications and against MPFR: every code of the
// 8-bit and smaller formats, fp16 and bf16 (and every tf32 code) decodes to the value MPFR
// builds from its fields and encodes back to itself.
#include "gpuconform/reference/float_format.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cfloat>
#include <cmath>

#include "gpuconform/reference/mpfr_format.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

using testing::hex;
using testing::Mismatches;

TEST(FloatFormat, LimitsMatchTheFormatSpecifications) {
  const struct {
    const FloatFormat* f;
    double max, min_subnormal;
    int width;
  } cases[] = {
      {&kFp64, DBL_MAX, std::ldexp(1.0, -1074), 64},
      {&kFp32, FLT_MAX, std::ldexp(1.0, -149), 32},
      {&kTf32, std::ldexp(2047.0, 117), std::ldexp(1.0, -136), 32},
      {&kFp16, 65504, std::ldexp(1.0, -24), 16},
      {&kBf16, std::ldexp(255.0, 120), std::ldexp(1.0, -133), 16},
      {&kE4M3, 448, std::ldexp(1.0, -9), 8},
      {&kE5M2, 57344, std::ldexp(1.0, -16), 8},
      {&kE2M1, 6, 0.5, 4},
      {&kE3M2, 28, 0.0625, 6},
      {&kE2M3, 7.5, 0.125, 6},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.f->name));
    EXPECT_EQ(to_double(*c.f, max_finite(*c.f, false)), c.max);
    EXPECT_EQ(to_double(*c.f, max_finite(*c.f, true)), -c.max);
    EXPECT_EQ(to_double(*c.f, std::uint64_t{1} << c.f->pad_bits), c.min_subnormal);
    EXPECT_EQ(c.f->width_bits(), c.width);
  }
}

// Decodes every code of f: value equal to MPFR's from the fields (sign of zero included),
// decode -> encode returns the same code, and the special codes number as the spec says.
struct CodeCensus {
  long nan = 0, inf = 0;
  Mismatches wrong;
};

CodeCensus check_every_code(const FloatFormat& f) {
  CodeCensus census;
  mpfr_t from_fields, from_decode;
  mpfr_inits2(64, from_fields, from_decode, static_cast<mpfr_ptr>(nullptr));
  const std::uint64_t codes = std::uint64_t{1} << (f.width_bits() - f.pad_bits);
  for (std::uint64_t code = 0; code < codes; ++code) {
    const std::uint64_t bits = code << f.pad_bits;
    const Unpacked u = decode(f, bits);
    mpfr::set_from_bits(from_fields, f, bits);
    bool same = false;
    switch (u.cls) {
      case FpClass::kNaN:
        ++census.nan;
        same = mpfr_nan_p(from_fields) != 0;
        break;
      case FpClass::kInf:
        ++census.inf;
        same = mpfr_inf_p(from_fields) && (mpfr_signbit(from_fields) != 0) == u.negative;
        break;
      case FpClass::kZero:
        same = mpfr_zero_p(from_fields) && (mpfr_signbit(from_fields) != 0) == u.negative;
        break;
      case FpClass::kFinite:
        mpfr_set_ui_2exp(from_decode, u.significand, u.exponent, MPFR_RNDN);
        if (u.negative) mpfr_neg(from_decode, from_decode, MPFR_RNDN);
        same = mpfr_equal_p(from_decode, from_fields) != 0;
        break;
    }
    const double d = to_double(f, bits);
    if (!std::isnan(d) && mpfr_get_d(from_fields, MPFR_RNDN) != d) same = false;
    if (!same) census.wrong.add(hex(f, bits) + ": decode differs from MPFR on the fields");
    const std::uint64_t back = encode(f, u, Rounding::kRNE);
    if (back != bits) census.wrong.add(hex(f, bits) + " re-encodes as " + hex(f, back));
  }
  mpfr_clears(from_fields, from_decode, static_cast<mpfr_ptr>(nullptr));
  return census;
}

class EveryCode : public ::testing::TestWithParam<const FloatFormat*> {};

TEST_P(EveryCode, DecodesToMpfrFieldValueAndRoundTrips) {
  const FloatFormat& f = *GetParam();
  const CodeCensus census = check_every_code(f);
  EXPECT_EQ(census.wrong.count, 0) << census.wrong.report();
  // NaN and inf codes: IEEE has 2 * (2^m - 1) NaNs and 2 infs; fn has 2 NaNs; finite-only none.
  const long ieee_nans = 2 * ((1L << f.man_bits) - 1);
  EXPECT_EQ(census.nan, f.specials == Specials::kIeee ? ieee_nans
                        : f.specials == Specials::kFn ? 2
                                                      : 0);
  EXPECT_EQ(census.inf, f.has_inf() ? 2 : 0);
}

INSTANTIATE_TEST_SUITE_P(Formats, EveryCode,
                         ::testing::Values(&kE4M3, &kE5M2, &kE2M1, &kE3M2, &kE2M3, &kFp16, &kBf16,
                                           &kTf32),
                         [](const auto& info) { return std::string(info.param->name); });

TEST(FloatFormat, Tf32ReadsOnlyTheTop19BitsOfItsRegister) {
  // 0x3F7FFFFF as tf32 is 1 - 2^-11: the 13 low bits are not part of the value.
  EXPECT_EQ(to_double(kTf32, 0x3F7FFFFF), 1 - std::ldexp(1.0, -11));
  // Rounding the fp32 value to tf32 instead gives 1.0 (RNE) or keeps 1 - 2^-11 (RZ).
  const Unpacked x = decode(kFp32, 0x3F7FFFFF);
  EXPECT_EQ(encode(kTf32, x, Rounding::kRNE), 0x3F800000u);
  EXPECT_EQ(encode(kTf32, x, Rounding::kRZ), 0x3F7FE000u);
}

TEST(FloatFormat, OverflowFollowsTheFormatAndPolicy) {
  // e4m3: 464 is the tie between 448 (1.110) and the NaN code's 480: even -> 448.
  EXPECT_EQ(from_double(kE4M3, 464, Rounding::kRNE), 0x7Eu);
  EXPECT_EQ(from_double(kE4M3, 470, Rounding::kRNE), 0x7Fu);  // overflow: NaN, no inf
  EXPECT_EQ(from_double(kE4M3, 470, Rounding::kRNE, Overflow::kSaturate), 0x7Eu);
  EXPECT_EQ(from_double(kE4M3, 1e6, Rounding::kRZ), 0x7Eu);  // RZ never leaves the range
  EXPECT_EQ(from_double(kE4M3, -INFINITY, Rounding::kRNE, Overflow::kSaturate), 0xFEu);
  // e5m2: 61440 ties 57344 and 65536: even -> 65536 = inf; saturating gives 57344.
  EXPECT_EQ(from_double(kE5M2, 61440, Rounding::kRNE), 0x7Cu);
  EXPECT_EQ(from_double(kE5M2, 61440, Rounding::kRNE, Overflow::kSaturate), 0x7Bu);
  // fp16 IEEE directions: RD of a large positive value is max finite, of a negative -inf.
  EXPECT_EQ(from_double(kFp16, 1e6, Rounding::kRD), 0x7BFFu);
  EXPECT_EQ(from_double(kFp16, -1e6, Rounding::kRD), 0xFC00u);
  EXPECT_EQ(from_double(kFp16, 65519.99, Rounding::kRNE), 0x7BFFu);
  EXPECT_EQ(from_double(kFp16, 65520, Rounding::kRNE), 0x7C00u);
  // The tensor-core policy: inf even under RZ.
  EXPECT_EQ(from_double(kFp16, 70000, Rounding::kRZ, Overflow::kInfinity), 0x7C00u);
  // Finite-only e2m1: overflow and NaN become max (PTX cvt: NaN -> +MAX_NORM).
  EXPECT_EQ(from_double(kE2M1, 7.5, Rounding::kRNE), 0x7u);
  EXPECT_EQ(from_double(kE2M1, NAN, Rounding::kRNE), 0x7u);
}

TEST(FloatFormat, SubnormalFlagFlushesBothWays) {
  FloatFormat f = kFp16;
  f.subnormals = false;
  EXPECT_EQ(decode(f, 0x0001).cls, FpClass::kZero);
  EXPECT_EQ(from_double(f, std::ldexp(1.0, -20), Rounding::kRNE), 0x0000u);
  EXPECT_EQ(from_double(f, -std::ldexp(1.0, -20), Rounding::kRNE), 0x8000u);
  EXPECT_EQ(from_double(f, std::ldexp(1.0, -14), Rounding::kRNE), 0x0400u);  // min normal stays
}

TEST(FloatFormat, FindsFormatsByName) {
  EXPECT_EQ(find_format("e4m3"), &kE4M3);
  EXPECT_EQ(find_format("tf32"), &kTf32);
  EXPECT_EQ(find_format("fp8"), nullptr);
}

}  // namespace
}  // namespace gpuconform::ref
