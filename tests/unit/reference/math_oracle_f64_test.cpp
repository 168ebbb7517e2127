// SPDX-License-Identifier: Apache-2.0
// The binary64 references of numeric.math.f64.{normcdf,lgamma,erfinv,erfcinv}
// (reference/math_oracle.hpp): MPFR has no erfinv, so the oracle inverts erf/erfc with a
// proven enclosure (math_oracle_inverse.cpp); normcdf is composed from erfc. Checked here
// against published constants and mpmath 1.3 (4000 bits, rounded to nearest binary64), and
// against identities that hold exactly at representable points, so that an error in the
// composition or the root cannot hide behind a single agreeing value.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <string>

#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::ref {
namespace {

std::uint64_t bits_of(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

std::uint64_t rn(const char* name, double x) {
  return math_reference(*find_math_function(name), Rounding::kRNE, {bits_of(x)}).bits;
}

// |exact - expected| <= 2^-128 |expected|: the oracle's 40 digits agree with a constant
// known to 40 digits.
bool agrees_to_40_digits(const std::string& exact, const char* expected) {
  mpfr_t a, b;
  mpfr_inits2(256, a, b, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_str(a, exact.c_str(), 10, MPFR_RNDN);
  mpfr_set_str(b, expected, 10, MPFR_RNDN);
  mpfr_sub(a, a, b, MPFR_RNDN);
  mpfr_abs(a, a, MPFR_RNDN);
  mpfr_abs(b, b, MPFR_RNDN);
  mpfr_mul_2si(b, b, -128, MPFR_RNDN);
  const bool ok = mpfr_lessequal_p(a, b);
  mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
  return ok;
}

TEST(MathOracleF64, ErfinvOfOneHalfToFortyDigits) {
  // erfinv(1/2) = 0.476936276204469873381418353643130559808969749... (the median of |N(0, 1/2)|)
  const MathResult r = math_reference(*find_math_function("erfinv"), Rounding::kRNE, {0x3fe0000000000000ull});
  EXPECT_TRUE(agrees_to_40_digits(r.exact, "0.476936276204469873381418353643130559808969749")) << r.exact;
  EXPECT_EQ(r.bits, 0x3fde861fbb24c00aull);
  EXPECT_FALSE(r.exact_is_representable);
}

TEST(MathOracleF64, InverseErrorFunctionsMatchMpmath) {
  EXPECT_EQ(rn("erfinv", 0.25), 0x3fccd70681d5ff70ull);
  EXPECT_EQ(rn("erfinv", -0.75), 0xbfea07890f6b2ba1ull);
  EXPECT_EQ(rn("erfinv", 0.9999), 0x4006022dcb01ea50ull);
  EXPECT_EQ(rn("erfinv", 1 - 0x1p-53), 0x4017744f8f74e94aull);  // 5.8635847487551676
  EXPECT_EQ(rn("erfinv", 0x1p-1074), 0x0000000000000001ull);    // 0.886 of the smallest subnormal
  EXPECT_EQ(rn("erfcinv", 0x1p-1074), 0x403b369a6244e684ull);   // 27.21329321081295
  EXPECT_EQ(rn("erfcinv", 1e-300), 0x403a359fd2c5e942ull);
  EXPECT_EQ(rn("erfcinv", 0.125), 0x3ff15b49a7c38e2full);
  EXPECT_EQ(rn("erfcinv", 2 - 0x1p-52), 0xc0173856d153f081ull);  // -5.805018683193453
}

// erfcinv(c) = erfinv(1 - c) where 1 - c is exact (c = 2^-k, k <= 53, and c in [1/2, 1]),
// and erfcinv(2 - c) = -erfcinv(c) where 2 - c is exact: the erfc-side root (small targets)
// and the erf-side root must meet.
TEST(MathOracleF64, ErfcinvIdentitiesAtRepresentablePoints) {
  for (int k = 1; k <= 53; ++k) {
    const double c = std::ldexp(1.0, -k);
    SCOPED_TRACE(k);
    EXPECT_EQ(rn("erfcinv", c), rn("erfinv", 1 - c));
    if (k <= 52) EXPECT_EQ(rn("erfcinv", 2 - c), rn("erfcinv", c) ^ 0x8000000000000000ull);
  }
  for (double c = 0.5; c < 1; c += 0.0390625 + 0x1p-40) {
    SCOPED_TRACE(c);
    EXPECT_EQ(rn("erfcinv", c), rn("erfinv", 1 - c));
    EXPECT_EQ(rn("erfinv", -c), rn("erfinv", c) ^ 0x8000000000000000ull);  // odd
  }
}

// normcdf(x) = erfc(-x / sqrt 2) / 2, recomputed here with MPFR at 400 bits (one rounding of
// -x / sqrt 2 there moves the value by 2^-390 relative); and normcdf(x) + normcdf(-x) = 1.
TEST(MathOracleF64, NormcdfIsErfcOfMinusXOverSqrt2Halved) {
  EXPECT_EQ(rn("normcdf", 0.0), 0x3fe0000000000000ull);   // 1/2 exactly
  EXPECT_EQ(rn("normcdf", -1.0), 0x3fc44ed0bb7cb20bull);  // mpmath
  EXPECT_EQ(rn("normcdf", 1.0), 0x3feaec4bd120d37dull);
  EXPECT_EQ(rn("normcdf", -10.0), 0x3b226c75e84fb10dull);
  EXPECT_EQ(rn("normcdf", -37.5), 0x00208eda98086fd1ull);  // 4.6e-308: just above the normal range
  EXPECT_EQ(rn("normcdf", 8.0), 0x3feffffffffffffaull);
  EXPECT_EQ(rn("normcdf", -38.5), 0x0000000000000000ull);  // below half the smallest subnormal
  const auto call = *find_math_function("normcdf");
  mpfr_t u, e;
  mpfr_inits2(400, u, e, static_cast<mpfr_ptr>(nullptr));
  for (double x : {-38.25, -27.0, -5.5, -0.75, 0x1p-30, 0.3, 2.5, 6.0}) {
    SCOPED_TRACE(x);
    mpfr_sqrt_ui(u, 2, MPFR_RNDN);
    mpfr_d_div(u, -x, u, MPFR_RNDN);
    mpfr_erfc(e, u, MPFR_RNDN);
    mpfr_div_2ui(e, e, 1, MPFR_RNDN);
    char buf[128];
    mpfr_snprintf(buf, sizeof buf, "%.45Re", e);
    const MathResult r = math_reference(call, Rounding::kRNE, {bits_of(x)});
    EXPECT_TRUE(agrees_to_40_digits(r.exact, buf)) << r.exact << " vs " << buf;
    EXPECT_EQ(r.bits, bits_of(mpfr_get_d(e, MPFR_RNDN)));
  }
  mpfr_clears(u, e, static_cast<mpfr_ptr>(nullptr));
  const std::string lo = math_reference(call, Rounding::kRNE, {bits_of(-0.75)}).exact;
  const std::string hi = math_reference(call, Rounding::kRNE, {bits_of(0.75)}).exact;
  mpfr_t a, b;
  mpfr_inits2(256, a, b, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_str(a, lo.c_str(), 10, MPFR_RNDN);
  mpfr_set_str(b, hi.c_str(), 10, MPFR_RNDN);
  mpfr_add(a, a, b, MPFR_RNDN);
  mpfr_sub_ui(a, a, 1, MPFR_RNDN);
  EXPECT_LT(std::fabs(mpfr_get_d(a, MPFR_RNDN)), 1e-38);  // 40 digits each
  mpfr_clears(a, b, static_cast<mpfr_ptr>(nullptr));
}

// lgamma = log|gamma|: lgamma(1/2) = log(sqrt(pi)), lgamma(-1/2) = log(2 sqrt(pi)), the
// roots 1 and 2 exactly 0, poles +inf; mpmath beside the negative root -2.4570247...
TEST(MathOracleF64, LgammaKnownValues) {
  const auto call = *find_math_function("lgamma");
  const auto exact = [&](double x) { return math_reference(call, Rounding::kRNE, {bits_of(x)}).exact; };
  EXPECT_TRUE(agrees_to_40_digits(exact(0.5), "0.5723649429247000870717136756765293558236474064576557"));
  EXPECT_TRUE(agrees_to_40_digits(exact(-0.5), "1.2655121234846453964889457971347059238988"));
  EXPECT_EQ(rn("lgamma", 1.0), 0ull);
  EXPECT_EQ(rn("lgamma", 2.0), 0ull);
  EXPECT_EQ(rn("lgamma", 3.0), 0x3fe62e42fefa39efull);  // log 2
  EXPECT_EQ(rn("lgamma", -2.5), 0xbfaccbf9f5ed0f16ull);
  EXPECT_EQ(rn("lgamma", -23.5), 0xc04a05db9da0be57ull);
  EXPECT_EQ(rn("lgamma", -2.4570247382208006), 0x3c90323b6d1fe86dull);  // 5.6e-17 next to the root
  EXPECT_EQ(rn("lgamma", -3.0), 0x7ff0000000000000ull);                 // a pole
}

}  // namespace
}  // namespace gpuconform::ref
