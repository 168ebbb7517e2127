// SPDX-License-Identifier: Apache-2.0
// The host build of the scalar rounding header (scalar_round.hpp), which the GPU kernels of
// numeric.scalar.* compare the instructions with: against FloatFormat's encode() for every
// target format, rounding direction and overflow policy (every binary32 input whose high or
// whose low 16 bits vary over a set of boundary patterns, every f16 code, random binary32
// inputs, every special), against values the PTX ISA and IEEE 754 state, against NVIDIA's
// own host emulation of the conversions in the CUDA headers, and for the error-free
// representative of an inexact binary64 (value_with_tail).
#include "gpuconform/reference/scalar_round.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "reference_test_support.hpp"

#if __has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>) && __has_include(<cuda_fp8.h>)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#define GC_HAVE_CUDA_FP_HEADERS 1
#endif

namespace gpuconform::ref::scalar {
namespace {

using testing::Mismatches;

const Target kF32Source = target_of(kFp32, Rounding::kRNE);

std::uint32_t f32_bits(float x) {
  std::uint32_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// Binary32 inputs: every 16-bit high half with a set of low halves, every low half with a
// set of high halves (the saturation, overflow and subnormal boundaries of every target),
// and `random` more.
std::vector<std::uint32_t> boundary_inputs(long random) {
  static const std::uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x3fff,
                                       0x4000, 0x7fff, 0x8000, 0x8001, 0xbfff, 0xc000, 0xe000, 0xffff};
  static const std::uint32_t highs[] = {0x0000, 0x0001, 0x007f, 0x0080, 0x3380, 0x3300, 0x337f,
                                        0x3800, 0x387f, 0x3880,  // f16 subnormals, min normal
                                        0x3a80, 0x3b00, 0x3c00, 0x3c80, 0x3f80, 0x3f7f, 0x3f81,  // fp8 subnormals, 1.0
                                        0x43e0, 0x43e8, 0x43f0, 0x43ef, 0x43df,                  // e4m3: 448, 464, 480
                                        0x4760, 0x476f, 0x4770, 0x4771, 0x477f, 0x4780,  // e5m2 57344, f16 65504
                                        0x7f7f, 0x7f80, 0x7fc0, 0x7f81, 0x7fff};         // max, inf, NaNs
  std::vector<std::uint32_t> in;
  for (std::uint32_t sign : {0u, 0x80000000u}) {
    for (std::uint32_t hi = 0; hi < 0x8000; ++hi)
      for (std::uint32_t lo : lows) in.push_back(sign | hi << 16 | lo);
    for (std::uint32_t hi : highs)
      for (std::uint32_t lo = 0; lo < 0x10000; ++lo) in.push_back(sign | hi << 16 | lo);
  }
  std::mt19937_64 rng(testing::seed_from("scalar_round"));
  for (long i = 0; i < random; ++i) in.push_back(static_cast<std::uint32_t>(rng()));
  return in;
}

const std::vector<std::uint32_t>& inputs() {
  static const std::vector<std::uint32_t> in = boundary_inputs(testing::scaled(1 << 20));
  return in;
}

struct FormatCase {
  const FloatFormat* f;
  Overflow overflow;
};

// round_to() of a binary32 input equals FloatFormat's encode() of it, bit for bit, NaN
// payloads included (NanRule::kPayload is FloatFormat's rule).
TEST(ScalarRound, EqualsFloatFormatForEveryTargetRoundingAndOverflow) {
  const FormatCase cases[] = {
      {&kFp16, Overflow::kIeee},     {&kFp16, Overflow::kSaturate}, {&kBf16, Overflow::kIeee},
      {&kBf16, Overflow::kSaturate}, {&kTf32, Overflow::kIeee},     {&kTf32, Overflow::kSaturate},
      {&kE4M3, Overflow::kSaturate}, {&kE4M3, Overflow::kIeee},     {&kE5M2, Overflow::kSaturate},
      {&kE5M2, Overflow::kIeee},     {&kE2M1, Overflow::kSaturate}, {&kE3M2, Overflow::kIeee}};
  const Rounding roundings[] = {Rounding::kRNE, Rounding::kRZ, Rounding::kRNA, Rounding::kRU, Rounding::kRD};
  long compared = 0;
  for (const FormatCase& c : cases)
    for (Rounding r : roundings) {
      const Target t = target_of(*c.f, r, c.overflow);
      Mismatches wrong;
      for (std::uint32_t x : inputs()) {
        const std::uint64_t want = encode(*c.f, ref::decode(kFp32, x), r, c.overflow);
        const std::uint32_t got = round_to(t, decode(kF32Source, x));
        ++compared;
        if (got != want)
          wrong.add(fmt::format("{} rounding {} overflow {}: 0x{:08x} -> 0x{:x}, FloatFormat 0x{:x}", c.f->name,
                                static_cast<int>(r), static_cast<int>(c.overflow), x, got, want));
      }
      EXPECT_EQ(wrong.count, 0) << wrong.report();
    }
  EXPECT_EQ(compared, 60L * static_cast<long>(inputs().size()));
  EXPECT_GT(inputs().size(), 6'000'000u);
}

// Every f16 code, to f32 and to every narrower target: FloatFormat again.
TEST(ScalarRound, EveryF16CodeEqualsFloatFormat) {
  const Target f16 = target_of(kFp16, Rounding::kRNE);
  const FloatFormat* formats[] = {&kFp32, &kTf32, &kBf16, &kE4M3, &kE5M2, &kFp16};
  Mismatches wrong;
  for (const FloatFormat* f : formats)
    for (Rounding r : {Rounding::kRNE, Rounding::kRZ, Rounding::kRU, Rounding::kRD, Rounding::kRNA})
      for (Overflow o : {Overflow::kIeee, Overflow::kSaturate})
        for (std::uint32_t h = 0; h < 0x10000; ++h) {
          const std::uint64_t want = encode(*f, ref::decode(kFp16, h), r, o);
          const std::uint32_t got = round_to(target_of(*f, r, o), decode(f16, h));
          if (got != want)
            wrong.add(fmt::format("f16 0x{:04x} -> {}: 0x{:x}, FloatFormat 0x{:x}", h, f->name, got, want));
        }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

// decode() agrees with FloatFormat's on every class, NaN payloads and subnormals included.
TEST(ScalarRound, DecodeEqualsFloatFormat) {
  Mismatches wrong;
  for (std::uint32_t x : inputs()) {
    const Value v = decode(kF32Source, x);
    const Unpacked u = ref::decode(kFp32, x);
    if (v.cls != u.cls || v.negative != u.negative || v.sig != u.significand ||
        (u.cls == FpClass::kFinite && v.exp != u.exponent))
      wrong.add(fmt::format("0x{:08x}", x));
  }
  for (double d : std::initializer_list<double>{0.0, -0.0, 1.0, -1.5, 1e-310, -4.9e-324, HUGE_VAL, -HUGE_VAL,
                                                std::nan(""), 1e308}) {
    const Value v = decode_f64(f64_bits(d));
    const Unpacked u = unpack_double(d);
    if (v.cls != u.cls || v.negative != u.negative || v.sig != u.significand ||
        (u.cls == FpClass::kFinite && v.exp != u.exponent))
      wrong.add(fmt::format("double {}", d));
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

// What the instruction adds to the format: a canonical NaN, .relu, .ftz.
TEST(ScalarRound, CanonicalNanReluAndFtz) {
  const Target canonical = target_of(kFp16, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target relu = target_of(kE4M3, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, kF8CanonicalNan, true);
  const Target ftz = target_of(kFp16, Rounding::kRNE, Overflow::kIeee, NanRule::kPayload, 0, false, true);
  Mismatches wrong;
  for (std::uint32_t x : inputs()) {
    const Unpacked u = ref::decode(kFp32, x);
    const Value v = decode(kF32Source, x);
    const std::uint64_t f16 = encode(kFp16, u, Rounding::kRNE);
    const std::uint64_t e4m3 = encode(kE4M3, u, Rounding::kRNE, Overflow::kSaturate);
    const bool nan = u.cls == FpClass::kNaN;
    const std::uint64_t want_canonical = nan ? 0x7fff : f16;
    const std::uint64_t want_relu = nan ? 0x7f : (u.negative ? 0 : e4m3);
    // .ftz: tiny after rounding (11 bits, unbounded exponent: x * 2^16 rounded as an f16
    // normal, exact scaling) becomes a zero of its sign, else 2^-14 or the f16 result.
    std::uint64_t want_ftz = f16;
    if (u.cls == FpClass::kFinite && std::fabs(ref::to_double(kFp32, x)) < std::ldexp(1.0, -14)) {
      const double scaled = std::fabs(ref::to_double(kFp32, x)) * 65536.0;
      const std::uint64_t r =
          encode(kFp16, ref::decode(kFp64, ref::from_double(kFp64, scaled, Rounding::kRNE)), Rounding::kRNE);
      want_ftz = (u.negative ? 0x8000u : 0u) | (r >= 0x4400u ? 0x0400u : 0u);  // 4 = 2^-14 * 2^16
    }
    if (round_to(canonical, v) != want_canonical) wrong.add(fmt::format("canonical 0x{:08x}", x));
    if (round_to(relu, v) != want_relu) wrong.add(fmt::format("relu 0x{:08x}", x));
    if (round_to(ftz, v) != want_ftz) wrong.add(fmt::format("ftz 0x{:08x}", x));
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

// .ftz detects tininess after rounding (IEEE 754-2019 7.5: the value rounded to the target's
// precision with an unbounded exponent below 2^emin), not before it and not on the subnormal
// grid. Measured on H100 GPU-791fafea, CUDA 13.0, driver 580.159.04 (run record
// sm_90-0x2330-2026-11-26-scalar-gpu-791fafea.jsonl): mul.rn.ftz.f16 over all 2^32 pairs
// differed from a subnormal-grid reference on exactly the 19376 pairs whose product rounds,
// at 11 bits, below 2^-14 (before-rounding tininess would flush 40936); fma.rn.ftz.f16 162
// (before: 342), fma.rn.ftz.f32 108749 (before: 143850), fma.rm.ftz.f32 62146 (before: 81535).
TEST(ScalarRound, FtzDetectsTininessAfterRounding) {
  const Target f16_ftz =
      target_of(kFp16, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan, false, true);
  const auto at = [](std::uint64_t sig, int exp, bool negative = false) {
    return Value{FpClass::kFinite, negative, sig, exp};
  };
  // The record's pairs: 0x0413 x 0xbbda = -(2^-14 - 361 * 2^-34): on the subnormal grid
  // (2^-24) it rounds to -2^-14, at 11 bits to -(2^-14 - 2^-25): tiny, the H100 gave -0.
  EXPECT_EQ(round_to(f16_ftz, at(1043ull * 2010, -35, true)), 0x8000u);
  // 2^-14 - 256 * 2^-34 is the 11-bit midpoint: to even, 2^-14, not tiny.
  EXPECT_EQ(round_to(f16_ftz, at((std::uint64_t{1} << 20) - 256, -34)), 0x0400u);
  EXPECT_EQ(round_to(f16_ftz, at((std::uint64_t{1} << 20) - 257, -34)), 0x0000u);
  EXPECT_EQ(round_to(f16_ftz, at((std::uint64_t{1} << 20) - 512, -34)), 0x0000u);  // exactly 2^-14 - 2^-25
  // Directed: toward +inf everything above 2^-14 - 2^-25 reaches 2^-14, toward -inf nothing positive.
  const Target f16_ru =
      target_of(kFp16, Rounding::kRU, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan, false, true);
  const Target f16_rd =
      target_of(kFp16, Rounding::kRD, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan, false, true);
  EXPECT_EQ(round_to(f16_ru, at((std::uint64_t{1} << 20) - 511, -34)), 0x0400u);
  EXPECT_EQ(round_to(f16_ru, at((std::uint64_t{1} << 20) - 513, -34)), 0x0000u);
  EXPECT_EQ(round_to(f16_rd, at((std::uint64_t{1} << 20) - 1, -34, true)), 0x8400u);
  EXPECT_EQ(round_to(f16_rd, at((std::uint64_t{1} << 20) - 1, -34)), 0x0000u);
  // binary32: 2^-126 - 2^-150 (0x3f7fffff x 0x00800000 of the record) is exact at 24 bits and
  // tiny: +0 under .rn and .rp (the subnormal grid's tie and round-up would give 2^-126).
  const Target f32_rn =
      target_of(kFp32, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kF32CanonicalNan, false, true);
  const Target f32_rp =
      target_of(kFp32, Rounding::kRU, Overflow::kIeee, NanRule::kCanonical, kF32CanonicalNan, false, true);
  EXPECT_EQ(round_to(f32_rn, at((std::uint64_t{1} << 24) - 1, -150)), 0x00000000u);
  EXPECT_EQ(round_to(f32_rp, at((std::uint64_t{1} << 24) - 1, -150)), 0x00000000u);
  EXPECT_EQ(round_to(f32_rn, at((std::uint64_t{1} << 25) - 1, -151)), 0x00800000u);  // 2^-126 - 2^-151: to even
  EXPECT_EQ(round_to(f32_rp, at((std::uint64_t{1} << 25) - 1, -151)), 0x00800000u);
  EXPECT_EQ(round_to(f32_rn, at(1, -126)), 0x00800000u);  // 2^-126 itself is no tiny value
}

// cvt.rna.tf32.f32's NaN: sign and payload truncated, not made quiet (NanRule::kTruncated).
// H100 GPU-791fafea, CUDA 13.0 (sm_90-0x2330-2026-11-26-scalar-gpu-791fafea.jsonl): 0x7f815ca0,
// 0x7f815ca1 and 0x7f815ca2 -> 0x7f814000, and every one of the 16777214 NaN inputs differed
// from the canonical 0x7fffffff; the run's scalar-sass.txt shows the lowering: SEL on
// |x| >= inf between x + 0x1000 and x, then & 0xffffe000. A NaN with a payload in the low 13
// bits only becomes +-inf (read from that SASS; the record lists no such input).
TEST(ScalarRound, Tf32ConversionTruncatesNans) {
  const Target tf32 = target_of(kTf32, Rounding::kRNA, Overflow::kIeee, NanRule::kTruncated);
  const auto cvt = [&](std::uint32_t x) { return round_to(tf32, decode(kF32Source, x)); };
  EXPECT_EQ(cvt(0x7f815ca0u), 0x7f814000u);
  EXPECT_EQ(cvt(0x7f815ca1u), 0x7f814000u);
  EXPECT_EQ(cvt(0x7f815ca2u), 0x7f814000u);
  EXPECT_EQ(cvt(0x7fffffffu), 0x7fffe000u);
  EXPECT_EQ(cvt(0xffc00001u), 0xffc00000u);
  EXPECT_EQ(cvt(0x7f800001u), 0x7f800000u);
  EXPECT_EQ(cvt(0xff801fffu), 0xff800000u);
  // The SASS's integer form, on the boundary inputs.
  Mismatches wrong;
  for (std::uint32_t x : inputs()) {
    const bool special = (x & 0x7f800000u) == 0x7f800000u;
    const std::uint32_t want = (special ? x : x + 0x1000u) & 0xffffe000u;
    if (cvt(x) != want) wrong.add(fmt::format("0x{:08x}: 0x{:08x}, SASS form 0x{:08x}", x, cvt(x), want));
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

// Values the specifications state, independent of FloatFormat: IEEE 754 rounding at ties
// and overflow, OCP FP8 and PTX .satfinite at the saturation boundary, tf32 .rna ties.
TEST(ScalarRound, SpecifiedValues) {
  const auto cvt = [](const Target& t, float x) { return round_to(t, decode(kF32Source, f32_bits(x))); };
  const Target f16_rn = target_of(kFp16, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target f16_rz = target_of(kFp16, Rounding::kRZ, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target bf16_rn = target_of(kBf16, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kBf16CanonicalNan);
  const Target tf32_rna = target_of(kTf32, Rounding::kRNA, Overflow::kIeee, NanRule::kCanonical, kF32CanonicalNan);
  const Target e4m3 = target_of(kE4M3, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, kF8CanonicalNan);
  const Target e5m2 = target_of(kE5M2, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, kF8CanonicalNan);
  const Target e4m3_relu =
      target_of(kE4M3, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, kF8CanonicalNan, true);
  EXPECT_EQ(cvt(f16_rn, 65504.0f), 0x7bffu);
  EXPECT_EQ(cvt(f16_rn, 65519.99f), 0x7bffu);
  EXPECT_EQ(cvt(f16_rn, 65520.0f), 0x7c00u);  // the midpoint to 2^16 rounds to even: inf
  EXPECT_EQ(cvt(f16_rz, 1e10f), 0x7bffu);     // RZ never overflows to inf
  EXPECT_EQ(cvt(f16_rz, -INFINITY), 0xfc00u);
  EXPECT_EQ(cvt(f16_rn, std::ldexp(1.0f, -24)), 0x0001u);
  EXPECT_EQ(cvt(f16_rn, std::ldexp(1.0f, -25)), 0x0000u);  // tie to even
  EXPECT_EQ(cvt(f16_rn, -std::ldexp(1.0f, -25)), 0x8000u);
  EXPECT_EQ(cvt(f16_rn, std::ldexp(1.5f, -25)), 0x0001u);
  EXPECT_EQ(cvt(f16_rn, 1.0f + std::ldexp(1.0f, -11)), 0x3c00u);
  EXPECT_EQ(cvt(f16_rn, 1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02u);
  EXPECT_EQ(round_to(f16_rn, decode(kF32Source, 0xffc12345u)), 0x7fffu);
  EXPECT_EQ(round_to(bf16_rn, decode(kF32Source, 0x3f808000u)), 0x3f80u);
  EXPECT_EQ(round_to(bf16_rn, decode(kF32Source, 0x3f818000u)), 0x3f82u);
  EXPECT_EQ(round_to(bf16_rn, decode(kF32Source, 0x7f7fffffu)), 0x7f80u);
  EXPECT_EQ(round_to(tf32_rna, decode(kF32Source, 0x3f801000u)), 0x3f802000u);  // a tie rounds away
  EXPECT_EQ(round_to(tf32_rna, decode(kF32Source, 0x3f800fffu)), 0x3f800000u);
  EXPECT_EQ(round_to(tf32_rna, decode(kF32Source, 0xbf803000u)), 0xbf804000u);
  EXPECT_EQ(round_to(tf32_rna, decode(kF32Source, 0x7f7ff000u)), 0x7f800000u);  // to inf
  EXPECT_EQ(cvt(e4m3, 448.0f), 0x7eu);
  EXPECT_EQ(cvt(e4m3, 464.0f), 0x7eu);  // would round to 480, beyond max: saturates
  EXPECT_EQ(cvt(e4m3, 1e30f), 0x7eu);
  EXPECT_EQ(cvt(e4m3, -INFINITY), 0xfeu);
  EXPECT_EQ(cvt(e4m3, NAN), 0x7fu);
  EXPECT_EQ(cvt(e4m3, -NAN), 0x7fu);
  EXPECT_EQ(cvt(e4m3, std::ldexp(1.0f, -9)), 0x01u);  // min subnormal
  EXPECT_EQ(cvt(e4m3, std::ldexp(1.0f, -10)), 0x00u);
  EXPECT_EQ(cvt(e4m3, -std::ldexp(1.0f, -10)), 0x80u);
  EXPECT_EQ(cvt(e4m3_relu, -std::ldexp(1.0f, -10)), 0x00u);
  EXPECT_EQ(cvt(e4m3_relu, -3.0f), 0x00u);
  EXPECT_EQ(cvt(e4m3_relu, -INFINITY), 0x00u);
  EXPECT_EQ(cvt(e4m3_relu, 3.0f), 0x44u);
  EXPECT_EQ(cvt(e5m2, 57344.0f), 0x7bu);
  EXPECT_EQ(cvt(e5m2, 61440.0f), 0x7bu);
  EXPECT_EQ(cvt(e5m2, INFINITY), 0x7bu);
  EXPECT_EQ(cvt(e5m2, NAN), 0x7fu);
  EXPECT_EQ(cvt(e5m2, std::ldexp(1.0f, -16)), 0x01u);
}

// value_with_tail(s, t) rounds as s plus a small remainder of sign t: checked where the
// remainder decides (s on a binary32 grid point or midpoint) against the exact answer.
TEST(ScalarRound, ValueWithTailRoundsAsTheExactValue) {
  const Target f32_rn = target_of(kFp32, Rounding::kRNE);
  const Target f32_rz = target_of(kFp32, Rounding::kRZ);
  const Target f32_ru = target_of(kFp32, Rounding::kRU);
  const Target f32_rd = target_of(kFp32, Rounding::kRD);
  const double one = 1.0, mid = 1.0 + std::ldexp(1.0, -24), below_min_normal = std::ldexp(1.0, -126);
  // 1 + tiny: RU goes up, RZ and RD stay, RN stays.
  EXPECT_EQ(round_to(f32_ru, value_with_tail(one, +1)), 0x3f800001u);
  EXPECT_EQ(round_to(f32_rz, value_with_tail(one, +1)), 0x3f800000u);
  EXPECT_EQ(round_to(f32_rd, value_with_tail(one, +1)), 0x3f800000u);
  // 1 - tiny: RZ and RD go to the float below, RU stays.
  EXPECT_EQ(round_to(f32_rz, value_with_tail(one, -1)), 0x3f7fffffu);
  EXPECT_EQ(round_to(f32_rd, value_with_tail(one, -1)), 0x3f7fffffu);
  EXPECT_EQ(round_to(f32_ru, value_with_tail(one, -1)), 0x3f800000u);
  EXPECT_EQ(round_to(f32_rn, value_with_tail(one, -1)), 0x3f800000u);
  // A midpoint is decided by the remainder's sign under RN.
  EXPECT_EQ(round_to(f32_rn, value_with_tail(mid, 0)), 0x3f800000u);
  EXPECT_EQ(round_to(f32_rn, value_with_tail(mid, +1)), 0x3f800001u);
  EXPECT_EQ(round_to(f32_rn, value_with_tail(mid, -1)), 0x3f800000u);
  EXPECT_EQ(round_to(f32_rn, value_with_tail(-mid, -1)), 0xbf800001u);  // more negative: larger magnitude
  EXPECT_EQ(round_to(f32_rd, value_with_tail(-one, -1)), 0xbf800001u);
  EXPECT_EQ(round_to(f32_ru, value_with_tail(-one, -1)), 0xbf800000u);
  // Just below the smallest normal: RZ gives the largest subnormal.
  EXPECT_EQ(round_to(f32_rz, value_with_tail(below_min_normal, -1)), 0x007fffffu);
  // Random: s + r formed exactly in 128-bit integers against the representative.
  std::mt19937_64 rng(testing::seed_from("value_with_tail"));
  Mismatches wrong;
  for (long i = 0; i < testing::scaled(200000); ++i) {
    // s = m * 2^-52 in [1, 2) on a coarse grid near float boundaries, r = +-k * 2^-60 (< ulp/2).
    const std::uint64_t m = (std::uint64_t{1} << 52) | ((rng() & 0x7fffff) << 29) | (rng() & 3) << 27 | (rng() & 1);
    const double s = std::ldexp(static_cast<double>(m), -52);
    const int sign = (rng() & 1) ? 1 : -1;
    const std::uint64_t k = 1 + (rng() & 0x7f);
    const unsigned __int128 exact =
        (static_cast<unsigned __int128>(m) << 8) + (sign > 0 ? k : -static_cast<std::int64_t>(k));
    for (const Target& t : {f32_rn, f32_rz, f32_ru, f32_rd}) {
      // The exact value as a significand of 61 bits at exponent -60.
      const Value v{FpClass::kFinite, false, static_cast<std::uint64_t>(exact), -60};
      if (round_to(t, value_with_tail(s, sign)) != round_to(t, v))
        wrong.add(fmt::format("s={:a} tail {} k {}", s, sign, k));
    }
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

#ifdef GC_HAVE_CUDA_FP_HEADERS
// NVIDIA's host emulation of the conversions (cuda_fp16.hpp, cuda_bf16.hpp, cuda_fp8.hpp),
// written to give what the device gives, against the targets numeric.scalar.* uses.
TEST(ScalarRound, EqualsTheCudaHeadersHostEmulation) {
  const Target f16_rn = target_of(kFp16, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target f16_rz = target_of(kFp16, Rounding::kRZ, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target bf16_rn = target_of(kBf16, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kBf16CanonicalNan);
  const Target bf16_rz = target_of(kBf16, Rounding::kRZ, Overflow::kIeee, NanRule::kCanonical, kBf16CanonicalNan);
  const Target f16_rd = target_of(kFp16, Rounding::kRD, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target f16_ru = target_of(kFp16, Rounding::kRU, Overflow::kIeee, NanRule::kCanonical, kF16CanonicalNan);
  const Target bf16_rd = target_of(kBf16, Rounding::kRD, Overflow::kIeee, NanRule::kCanonical, kBf16CanonicalNan);
  const Target bf16_ru = target_of(kBf16, Rounding::kRU, Overflow::kIeee, NanRule::kCanonical, kBf16CanonicalNan);
  const Target e4m3 = target_of(kE4M3, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, kF8CanonicalNan);
  const Target e5m2 = target_of(kE5M2, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, kF8CanonicalNan);
  const Target f32_from_f16 = target_of(kFp32, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, kF32CanonicalNan);
  const Target f16 = target_of(kFp16, Rounding::kRNE);
  Mismatches wrong;
  const auto raw = [](auto h) {
    unsigned short r = 0;
    std::memcpy(&r, &h, sizeof r);
    return static_cast<std::uint32_t>(r);
  };
  for (std::uint32_t x : inputs()) {
    float f = 0;
    std::memcpy(&f, &x, sizeof f);
    const Value v = decode(kF32Source, x);
    const auto check = [&](const char* what, std::uint32_t got, std::uint32_t want) {
      if (got != want)
        wrong.add(fmt::format("{} 0x{:08x}: scalar_round 0x{:x}, CUDA header 0x{:x}", what, x, got, want));
    };
    check("f16 rn", round_to(f16_rn, v), raw(__float2half_rn(f)));
    check("f16 rz", round_to(f16_rz, v), raw(__float2half_rz(f)));
    check("bf16 rn", round_to(bf16_rn, v), raw(__float2bfloat16_rn(f)));
    check("bf16 rz", round_to(bf16_rz, v), raw(__float2bfloat16_rz(f)));
    check("f16 rd", round_to(f16_rd, v), raw(__float2half_rd(f)));
    check("f16 ru", round_to(f16_ru, v), raw(__float2half_ru(f)));
    check("bf16 rd", round_to(bf16_rd, v), raw(__float2bfloat16_rd(f)));
    check("bf16 ru", round_to(bf16_ru, v), raw(__float2bfloat16_ru(f)));
    check("e4m3", round_to(e4m3, v), __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E4M3));
    check("e5m2", round_to(e5m2, v), __nv_cvt_float_to_fp8(f, __NV_SATFINITE, __NV_E5M2));
  }
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    __half_raw hr;
    hr.x = static_cast<unsigned short>(h);
    const float f = __half2float(__half(hr));
    std::uint32_t want = 0;
    std::memcpy(&want, &f, sizeof want);
    const std::uint32_t got = round_to(f32_from_f16, decode(f16, h));
    if (got != want)
      wrong.add(fmt::format("f16 0x{:04x} -> f32: scalar_round 0x{:08x}, CUDA header 0x{:08x}", h, got, want));
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}
#endif

}  // namespace
}  // namespace gpuconform::ref::scalar
