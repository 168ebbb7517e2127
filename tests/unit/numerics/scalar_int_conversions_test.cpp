// SPDX-License-Identifier: Apache-2.0
// The reference of numeric.scalar.cvt.* between integers and floats
// (numerics/scalar_int_conversions.hpp): integer -> float against MPFR (24 or 53 bits, the
// row's direction) and float -> integer against MPFR's rint in the row's direction, clamped,
// on every class of the sampled inputs and on the 32-bit sources' boundary patterns; the
// sampled classes reach ties and the range boundaries; a mismatch is named.
#include "gpuconform/numerics/scalar_int_conversions.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstring>

#include "mpfr_rounding.hpp"

namespace gpuconform::numerics {
namespace {

using test::mpfr_mode;

// MPFR's answer for one input of a row.
std::uint64_t mpfr_expected(const IntConversionSpec& s, std::uint64_t x) {
  const int n = int_bits(s.itype);
  const bool sgn = int_signed(s.itype);
  mpfr_t v;
  mpfr_init2(v, 128);
  std::uint64_t out = 0;
  if (s.to_float) {
    if (n == 32) x &= 0xffffffffull;
    const std::int64_t sx = n == 32 ? static_cast<std::int32_t>(x) : static_cast<std::int64_t>(x);
    if (sgn)
      mpfr_set_sj(v, sx, MPFR_RNDN);
    else
      mpfr_set_uj(v, x, MPFR_RNDN);
    if (s.ftype == FloatType::f32) {
      const float f = mpfr_get_flt(v, mpfr_mode(s.rounding));
      std::uint32_t b = 0;
      std::memcpy(&b, &f, sizeof b);
      out = b;
    } else {
      const double d = mpfr_get_d(v, mpfr_mode(s.rounding));
      std::memcpy(&out, &d, sizeof out);
    }
  } else {
    double d = 0;
    if (s.ftype == FloatType::f32) {
      float f = 0;
      const std::uint32_t b = static_cast<std::uint32_t>(x);
      std::memcpy(&f, &b, sizeof f);
      d = f;
    } else {
      std::memcpy(&d, &x, sizeof d);
    }
    if (std::isnan(d)) {
      out = s.ftype == FloatType::f32 && n == 32 ? 0 : std::uint64_t{1} << (n - 1);  // the hardware's rule
    } else {
      mpfr_set_d(v, d, MPFR_RNDN);
      mpfr_rint(v, v, mpfr_mode(s.rounding));
      mpfr_t lo, hi;
      mpfr_inits2(128, lo, hi, static_cast<mpfr_ptr>(nullptr));
      mpfr_set_si(lo, 0, MPFR_RNDN);
      if (sgn) mpfr_set_si_2exp(lo, -1, n - 1, MPFR_RNDN);
      mpfr_set_ui_2exp(hi, 1, sgn ? n - 1 : n, MPFR_RNDN);
      mpfr_sub_ui(hi, hi, 1, MPFR_RNDN);
      if (mpfr_less_p(v, lo)) mpfr_set(v, lo, MPFR_RNDN);
      if (mpfr_greater_p(v, hi)) mpfr_set(v, hi, MPFR_RNDN);
      mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
      out = sgn ? static_cast<std::uint64_t>(mpfr_get_sj(v, MPFR_RNDN)) : mpfr_get_uj(v, MPFR_RNDN);
      if (n == 32) out &= 0xffffffffull;
    }
  }
  mpfr_clear(v);
  return out;
}

TEST(ScalarIntConversions, TableCoversEveryPairAndDirection) {
  EXPECT_EQ(scalar_int_conversions().size(), 58u);
  for (const char* id :
       {"numeric.scalar.cvt.rn.f32.s32", "numeric.scalar.cvt.rp.f64.u64", "numeric.scalar.cvt.rn.f64.s32",
        "numeric.scalar.cvt.rzi.s32.f32", "numeric.scalar.cvt.rmi.u64.f64"})
    EXPECT_NE(find_scalar_int_conversion(id), nullptr) << id;
  EXPECT_EQ(find_scalar_int_conversion("numeric.scalar.cvt.rz.f64.s32"), nullptr);  // exact: .rn only
  EXPECT_EQ(int_conversion_count(find_scalar_int_conversion("numeric.scalar.cvt.rn.f32.s32")->spec),
            std::uint64_t{1} << 32);
}

TEST(ScalarIntConversions, ReferenceEqualsMpfr) {
  for (const ScalarIntConversion& row : scalar_int_conversions()) {
    int bad = 0;
    const auto check = [&](std::uint64_t x) {
      const std::uint64_t got = int_conversion_reference(row.spec, x), want = mpfr_expected(row.spec, x);
      if (got != want && bad++ < 3)
        ADD_FAILURE() << fmt::format("{} x = {:#018x}: reference {:#x}, MPFR {:#x}", row.ptx, x, got, want);
    };
    if (source_bits(row.spec) == 64) {
      for (std::uint64_t i = 0; i < 4000; ++i) check(int_conversion_input(row.spec, i));
    } else {
      // 32-bit sources: a spread over all patterns plus every pattern near the boundaries.
      for (std::uint64_t i = 0; i < 4000; ++i) check(mix64(i) & 0xffffffffull);
      for (std::uint64_t base :
           {0ull,          0x7fffffffull, 0x80000000ull, 0xffffffffull, 0x00ffffffull, 0x01000000ull, 0x4effffffull,
            0x4f000000ull, 0x4f800000ull, 0x5effffffull, 0x5f000000ull, 0x5f800000ull, 0xcf000000ull, 0xcf000001ull,
            0xdf000000ull, 0x3f000000ull, 0x3fc00000ull, 0x7f800000ull, 0xff800000ull, 0x7fc00000ull})
        for (std::uint64_t d = 0; d < 9; ++d) check((base + d - 4) & 0xffffffffull);
    }
  }
}

TEST(ScalarIntConversions, SampledClassesReachTiesAndBoundaries) {
  const IntConversionSpec to_f32{true, IntType::s64, FloatType::f32, ref::Rounding::kRNE};
  const IntConversionSpec to_s32{false, IntType::s32, FloatType::f64, ref::Rounding::kRNE};
  int ties = 0, saturated = 0, halves = 0;
  for (std::uint64_t i = 0; i < 20000; ++i) {
    const std::uint64_t x = int_conversion_input(to_f32, i);
    // A tie: .rn and .rz differ and the value sits halfway (its bits below the kept 24 are 10...0).
    const std::int64_t v = static_cast<std::int64_t>(x);
    const std::uint64_t mag = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
    if (mag >> 24) {
      const int drop = ref::scalar::detail::msb_index(mag) + 1 - 24;
      ties += (mag & ((std::uint64_t{1} << drop) - 1)) == std::uint64_t{1} << (drop - 1);
    }
    const std::uint64_t y = int_conversion_input(to_s32, i);
    const std::uint64_t r = int_conversion_reference(to_s32, y);
    saturated += r == 0x7fffffffull || r == 0x80000000ull;
    double d = 0;
    std::memcpy(&d, &y, sizeof d);
    halves += std::fabs(d - std::trunc(d)) == 0.5;
  }
  EXPECT_GT(ties, 100);
  EXPECT_GT(saturated, 500);
  EXPECT_GT(halves, 500);
}

// What the H100 GPU-3d582d4a returned for NaN inputs on 2026-11-26 (its scalar-f64 run
// record's first mismatches, when the reference still assumed 0): the PTX ISA leaves it open.
TEST(ScalarIntConversions, NanFollowsTheHardware) {
  const auto at = [](const char* id, std::uint64_t x) {
    return int_conversion_reference(find_scalar_int_conversion(id)->spec, x);
  };
  EXPECT_EQ(at("numeric.scalar.cvt.rzi.s32.f64", 0x7ff10f8c0a81a057ull), 0x80000000ull);
  EXPECT_EQ(at("numeric.scalar.cvt.rzi.u32.f64", 0x7ff10f8c0a81a057ull), 0x80000000ull);
  EXPECT_EQ(at("numeric.scalar.cvt.rni.s64.f32", 0x7f8190c0ull), 0x8000000000000000ull);
  EXPECT_EQ(at("numeric.scalar.cvt.rmi.u64.f64", 0xfff4b3e650d8553eull), 0x8000000000000000ull);
  // binary32 into 32 bits: 0 (every cvt.*.s32.f32 and .u32.f32 probe passed its NaNs)
  EXPECT_EQ(at("numeric.scalar.cvt.rni.s32.f32", 0x7fc00000ull), 0u);
  EXPECT_EQ(at("numeric.scalar.cvt.rzi.u32.f32", 0xffc00001ull), 0u);
}

TEST(ScalarIntConversions, MeasurementNamesAMismatch) {
  const ScalarIntConversion& row = *find_scalar_int_conversion("numeric.scalar.cvt.rni.s32.f32");
  IntConversionScan scan;
  scan.compared = 1ull << 32;
  scan.mismatches_by_class[ref::scalar::kClassNan] = 1;
  scan.first.push_back({0x7fc00000ull, 0x80000000ull, 0});
  const Measurement m = int_conversion_measurement(row, scan);
  EXPECT_EQ(m.value, 1);
  EXPECT_NE(m.find_note("first_mismatch")->find("0x7fc00000"), std::string::npos);
  EXPECT_NE(m.find_note("mismatches_by_class")->find("nan 1"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::numerics
