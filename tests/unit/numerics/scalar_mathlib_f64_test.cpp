// SPDX-License-Identifier: Apache-2.0
// The host reference of numeric.math.f64.<fn> (numerics/scalar_mathlib_f64.hpp): the long
// double first pass stays within each row's margin of f(x) (checked against MPFR, so an input
// it decides alone is decided right), the decider's results equal MPFR's on random and
// directed inputs, the inputs are deterministic and reach the domain, and a scan's value and
// notes come from what the GPU returned.
#include "gpuconform/numerics/scalar_mathlib_f64.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::numerics {
namespace {

double as_double(std::uint64_t x) {
  double d = 0;
  std::memcpy(&d, &x, sizeof d);
  return d;
}

std::uint64_t mpfr_cr(const ScalarMathF64& row, std::uint64_t x) {
  return ref::math_reference(*ref::find_math_function(row.name), ref::Rounding::kRNE, {x}).bits;
}

TEST(ScalarMathF64, EveryRowHasAnOracleFunctionAndABound) {
  EXPECT_EQ(scalar_math_f64().size(), static_cast<std::size_t>(MathF64::count));
  for (const ScalarMathF64& row : scalar_math_f64()) {
    EXPECT_TRUE(ref::find_math_function(row.name).has_value()) << row.name;
    EXPECT_EQ(row.id, "numeric.math.f64." + row.name);
    EXPECT_GE(row.bound, 0);
  }
  EXPECT_NE(find_scalar_math_f64("numeric.math.f64.tgamma"), nullptr);
}

TEST(ScalarMathF64, InputsAreDeterministicAndSpreadOverTheDomain) {
  const ScalarMathF64& lg = *find_scalar_math_f64("numeric.math.f64.log");
  const ScalarMathF64& ex = *find_scalar_math_f64("numeric.math.f64.exp");
  int tiny = 0, huge = 0, neg_log_domain = 0;
  for (std::uint64_t i = 0; i < 40000; ++i) {
    EXPECT_EQ(math_f64_input(lg.spec, i), math_f64_input(lg.spec, i));
    const double x = as_double(math_f64_input(lg.spec, i));
    if (i % 4 == 1) {
      neg_log_domain += x < 0;
      tiny += std::fabs(x) < 0x1p-900;
      huge += std::fabs(x) > 0x1p900;
    }
  }
  EXPECT_EQ(neg_log_domain, 0);  // log's domain draws are positive
  EXPECT_GT(tiny, 200);
  EXPECT_GT(huge, 200);
  EXPECT_NE(math_f64_input(lg.spec, 5), math_f64_input(ex.spec, 5));  // seeded per function
  EXPECT_EQ(math_f64_input(ex.spec, 3), math_f64_special(0));         // class 3 starts with the table
}

// The long double's own error against f(x) (MPFR's 40 digits, ~133 bits), in binary64 ulps at
// the correctly rounded result; and whether the decider agrees with MPFR. Empty when both hold.
std::string margin_violation(const ScalarMathF64& row, std::uint64_t xb) {
  const MathF64Decision d = decide_math_f64(row, xb);
  const std::uint64_t cr = mpfr_cr(row, xb);
  const bool both_nan = f64::is_nan_bits(cr) && f64::is_nan_bits(d.cr);
  if (!both_nan && d.cr != cr && !(as_double(d.cr) == 0 && as_double(cr) == 0))
    return fmt::format("{} x = {:#018x}: decided {:#018x}, MPFR {:#018x} (by_mpfr {})", row.name, xb, d.cr, cr,
                       d.by_mpfr);
  const ref::MathResult exact = ref::math_reference(*ref::find_math_function(row.name), ref::Rounding::kRNE, {xb});
  const double crd = as_double(cr);
  if (!std::isfinite(crd) || crd == 0 || !std::isfinite(d.exact) || exact.exact_is_representable) return "";
  mpfr_t fx, l;
  mpfr_inits2(200, fx, l, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_str(fx, exact.exact.c_str(), 10, MPFR_RNDN);
  mpfr_set_ld(l, d.exact, MPFR_RNDN);
  mpfr_sub(l, l, fx, MPFR_RNDN);
  const int e = std::ilogb(crd);
  mpfr_mul_2si(l, l, -((e < -1022 ? -1022 : e) - 52), MPFR_RNDN);  // in ulps of the result
  const double err = std::fabs(mpfr_get_d(l, MPFR_RNDN));
  mpfr_clears(fx, l, static_cast<mpfr_ptr>(nullptr));
  if (err < std::ldexp(1.0, -row.flag_log2)) return "";
  return fmt::format("{} x = {:#018x}: long double {:.21Lg} is {:.3g} ulp from f(x) = {} (margin 2^-{})", row.name, xb,
                     d.exact, err, exact.exact, row.flag_log2);
}

// The margin holds: |L - f(x)| < 2^-flag_log2 ulp wherever L is not exact, so an input the
// long double decides alone (distance >= margin) rounds as f(x) does. MPFR gives f(x) at
// 200 bits through the correctly rounded results in both directions.
TEST(ScalarMathF64, LongDoubleStaysWithinTheMarginAndDecidesLikeMpfr) {
  for (const ScalarMathF64& row : scalar_math_f64()) {
    int bad = 0;
    for (std::uint64_t i = 0; i < 1500 && bad < 3; ++i) {
      const std::string why = margin_violation(row, math_f64_input(row.spec, i * 7 + 1));
      if (!why.empty()) {
        ++bad;
        ADD_FAILURE() << why;
      }
    }
  }
}

double d(std::uint64_t b) { return as_double(b); }
std::uint64_t b(double x) {
  std::uint64_t r = 0;
  std::memcpy(&r, &x, sizeof r);
  return r;
}

// The composed first passes where they are hardest (scalar_mathlib_f64_special.cpp):
// normcdf down to its underflow (erfc's argument error amplified 2 u^2-fold), erfinv next to
// +-1 and erfcinv at tiny arguments (the erfc-side root), lgamma next to its roots at 1, 2 and
// the negative ones, and ten consecutive doubles around each.
TEST(ScalarMathF64, ComposedFirstPassesStayWithinTheMarginWhereHardest) {
  const struct {
    const char* id;
    std::vector<double> xs;
  } cases[] = {
      {"numeric.math.f64.normcdf", {-38.4, -38.25, -37.6, -30.1, -20.5, -9.75, -1.5, 0x1p-40, 3.5, 8.25, 37.0}},
      {"numeric.math.f64.erfinv", {1 - 0x1p-53, 1 - 0x1p-40, -(1 - 0x1p-30), 0.5, 0.4999999, 0x1p-1074, -0x1p-1000}},
      {"numeric.math.f64.erfcinv", {0x1p-1074, 0x1p-1022, 1e-300, 0x1p-53, 0.5, 1 + 0x1p-52, 2 - 0x1p-52, 1.5}},
      {"numeric.math.f64.lgamma",
       {1 + 0x1p-52, 1 - 0x1p-53, 2 + 0x1p-51, 2 - 0x1p-52, -2.4570247382208006, -2.7476826467274127,
        -3.1435808883499800, -3.9552942848585179, -23.0002, -24.5, -1e15 - 0.5, 0x1p-1070, 2.5e305}},
  };
  for (const auto& c : cases) {
    const ScalarMathF64& row = *find_scalar_math_f64(c.id);
    for (double x0 : c.xs)
      for (int k = -5; k < 5; ++k) {
        const std::string why = margin_violation(row, b(x0) + static_cast<std::uint64_t>(k));
        EXPECT_TRUE(why.empty()) << why;
      }
  }
}

// lgamma is judged outside [-23.0001, -2.2637] only: an error planted inside moves the note,
// not the value; one planted outside moves the value.
TEST(ScalarMathF64, LgammaIsJudgedOutsideTheGuidesInterval) {
  const ScalarMathF64& row = *find_scalar_math_f64("numeric.math.f64.lgamma");
  EXPECT_TRUE(row.has_unjudged_range());
  EXPECT_FALSE(row.judged(-3.5));
  EXPECT_FALSE(row.judged(-23.0001));
  EXPECT_TRUE(row.judged(-23.5));
  EXPECT_TRUE(row.judged(-2.25));
  EXPECT_TRUE(find_scalar_math_f64("numeric.math.f64.erfc")->judged(-3.5));
  std::vector<std::uint64_t> ys(8192);
  std::size_t inside = ys.size(), outside = ys.size();
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const std::uint64_t xb = math_f64_input(row.spec, i);
    ys[i] = decide_math_f64(row, xb).cr;
    const double y = d(ys[i]);
    if (!std::isfinite(y) || y == 0) continue;
    (row.judged(d(xb)) ? outside : inside) = i;
  }
  ASSERT_LT(inside, ys.size());
  ASSERT_LT(outside, ys.size());
  ys[inside] += 7;  // beyond the bound of 4, where the bound does not speak
  Measurement m = math_f64_measurement(row, scan_math_f64(row, ys));
  EXPECT_EQ(m.value, 0);
  ASSERT_NE(m.find_note("outside_bound"), nullptr);
  EXPECT_NE(
      m.find_note("outside_bound")->find("7 ulp at x = " + fmt::format("0x{:016x}", math_f64_input(row.spec, inside))),
      std::string::npos)
      << *m.find_note("outside_bound");
  ys[outside] += 2;
  m = math_f64_measurement(row, scan_math_f64(row, ys));
  EXPECT_EQ(m.value, 2);
  EXPECT_NE(m.find_note("bound")->find("Table 51"), std::string::npos);
  EXPECT_EQ(
      math_f64_measurement(*find_scalar_math_f64("numeric.math.f64.erf"), MathF64Scan{}).find_note("outside_bound"),
      nullptr);
}

TEST(ScalarMathF64, MidpointDistanceAndUlpDistance) {
  EXPECT_EQ(midpoint_distance_f64(1.0L), 0.5L);
  EXPECT_EQ(midpoint_distance_f64(1.0L + 0x1p-53L), 0.0L);       // a tie
  EXPECT_EQ(midpoint_distance_f64(0x1p-1075L), 0.0L);            // half the smallest subnormal
  EXPECT_EQ(midpoint_distance_f64(0x1p1024L - 0x1p970L), 0.0L);  // the overflow threshold
  EXPECT_EQ(ulp_distance_f64(0x3ff0000000000000ull, 0x3ff0000000000002ull), 2);
  EXPECT_EQ(ulp_distance_f64(0x0000000000000001ull, 0x8000000000000001ull), 2);  // across zero
  EXPECT_EQ(ulp_distance_f64(0x8000000000000000ull, 0), 0);
  EXPECT_EQ(ulp_distance_f64(0x7fefffffffffffffull, 0x7ff0000000000000ull), 1);
  EXPECT_GT(ulp_distance_f64(0x7ff8000000000000ull, 0), 1e18);
  EXPECT_EQ(ulp_distance_f64(0x7ff8000000000000ull, 0xfff8000000000001ull), 0);
}

// Hard cases: near-halfway results the long double alone cannot settle go to MPFR.
TEST(ScalarMathF64, InputsNearABoundaryAreDecidedByMpfr) {
  // exp(x) = 1 + x + ... for x = 2^-53 lies just above the midpoint 1 + 2^-53.
  const ScalarMathF64& ex = *find_scalar_math_f64("numeric.math.f64.exp");
  const MathF64Decision d = decide_math_f64(ex, 0x3ca0000000000000ull);
  EXPECT_TRUE(d.by_mpfr);
  EXPECT_EQ(d.cr, mpfr_cr(ex, 0x3ca0000000000000ull));
  EXPECT_EQ(d.cr, 0x3ff0000000000001ull);  // above the midpoint: rounds up
  // An exact case stays with the first pass.
  const ScalarMathF64& sq = *find_scalar_math_f64("numeric.math.f64.sqrt");
  EXPECT_FALSE(decide_math_f64(sq, 0x4010000000000000ull).by_mpfr);
  EXPECT_EQ(decide_math_f64(sq, 0x4010000000000000ull).cr, 0x4000000000000000ull);
}

TEST(ScalarMathF64, ScanMeasuresWhatTheGpuReturned) {
  const ScalarMathF64& row = *find_scalar_math_f64("numeric.math.f64.log2");
  std::vector<std::uint64_t> ys(4096);
  for (std::size_t i = 0; i < ys.size(); ++i) ys[i] = decide_math_f64(row, math_f64_input(row.spec, i)).cr;
  const MathF64Scan exact = scan_math_f64(row, ys);
  EXPECT_EQ(math_f64_measurement(row, exact).value, 0);
  // Three ulps off at one finite input: the value and the worst input say so.
  std::size_t k = 9;
  while (!std::isfinite(as_double(ys[k])) || as_double(ys[k]) == 0) ++k;
  ys[k] += 3;
  const MathF64Scan off = scan_math_f64(row, ys);
  const Measurement m = math_f64_measurement(row, off);
  EXPECT_EQ(m.value, 3);
  EXPECT_NE(m.find_note("worst_input")->find(fmt::format("{:016x}", math_f64_input(row.spec, k))), std::string::npos);
  // A NaN for a finite result: +inf.
  ys[k] = 0x7ff8000000000000ull;
  EXPECT_TRUE(std::isinf(math_f64_measurement(row, scan_math_f64(row, ys)).value));
}

}  // namespace
}  // namespace gpuconform::numerics
