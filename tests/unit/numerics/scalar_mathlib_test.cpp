// SPDX-License-Identifier: Apache-2.0
// The host half of numeric.math.<fn> (numerics/scalar_mathlib.hpp): the table and its
// Programming Guide bounds, the midpoint test that flags an input for MPFR, the integer ulp
// distance, the MPFR decision of flagged inputs, and the Measurement judged against the bound.
#include "gpuconform/numerics/scalar_mathlib.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>

#include "gpuconform/reference/math_oracle.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform::numerics {
namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t x = 0;
  std::memcpy(&x, &f, sizeof x);
  return x;
}

std::uint32_t correctly_rounded(const char* fn, std::uint32_t x) {
  return static_cast<std::uint32_t>(ref::math_reference(*ref::find_math_function(fn), ref::Rounding::kRNE, {x}).bits);
}

TEST(ScalarMath, TableHoldsTheProgrammingGuideBounds) {
  std::set<std::string> ids;
  EXPECT_EQ(scalar_math().size(), 30u);
  for (const ScalarMath& r : scalar_math()) {
    EXPECT_EQ(r.id, "numeric.math." + r.name);
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_TRUE(ref::find_math_function(r.name).has_value()) << r.name << " is not in math_oracle";
    EXPECT_EQ(find_scalar_math(r.id), &r);
  }
  EXPECT_EQ(find_scalar_math("numeric.math.expf")->bound, 2);
  EXPECT_EQ(find_scalar_math("numeric.math.logf")->bound, 1);
  EXPECT_EQ(find_scalar_math("numeric.math.log2f")->bound, 1);
  EXPECT_EQ(find_scalar_math("numeric.math.sqrtf")->bound, 0);
  EXPECT_EQ(find_scalar_math("numeric.math.erff")->bound, 2);
  EXPECT_EQ(find_scalar_math("numeric.math.tanf")->bound, 4);
  EXPECT_EQ(find_scalar_math("numeric.math.acoshf")->bound, 4);
  EXPECT_EQ(find_scalar_math("numeric.math.sinpif")->bound, 1);
  EXPECT_EQ(find_scalar_math("numeric.math.tgammaf")->bound, 5);
  EXPECT_EQ(find_scalar_math("numeric.math.normcdff")->bound, 5);
  EXPECT_EQ(find_scalar_math("numeric.math.lgammaf"), nullptr);  // a bound outside an interval only
}

TEST(ScalarMath, MidpointDistance) {
  EXPECT_EQ(midpoint_distance_ulps(1.0), 0.5);                            // a binary32 value
  EXPECT_EQ(midpoint_distance_ulps(1.0 + std::ldexp(1.0, -24)), 0.0);     // half-way to the next
  EXPECT_EQ(midpoint_distance_ulps(-(1.0 + std::ldexp(1.0, -24))), 0.0);  // either sign
  EXPECT_EQ(midpoint_distance_ulps(1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -50)), std::ldexp(1.0, -27));
  EXPECT_EQ(midpoint_distance_ulps(std::ldexp(1.0, -150)), 0.0);  // half the smallest subnormal
  EXPECT_EQ(midpoint_distance_ulps(3.4028235677973366e38), 0.0);  // the overflow threshold
  EXPECT_LT(midpoint_distance_ulps(1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -52)), kMathFlagUlps);
  EXPECT_GT(midpoint_distance_ulps(1.0 + std::ldexp(1.0, -24) + std::ldexp(1.0, -40)), kMathFlagUlps);
}

TEST(ScalarMath, UlpDistance) {
  EXPECT_EQ(ulp_distance(bits_of(1.0f), bits_of(1.0f)), 0);
  EXPECT_EQ(ulp_distance(bits_of(1.0f), bits_of(std::nextafter(1.0f, 2.0f))), 1);
  EXPECT_EQ(ulp_distance(0x80000001u, 0x00000001u), 2);  // across zero
  EXPECT_EQ(ulp_distance(0x80000000u, 0x00000000u), 0);  // -0 and +0
  EXPECT_EQ(ulp_distance(0x7fc00000u, 0xffc00001u), 0);  // NaN and NaN
  EXPECT_GE(ulp_distance(0x7fc00000u, bits_of(1.0f)), 4294967296.0);
  EXPECT_EQ(ulp_distance(0x7f7fffffu, 0x7f800000u), 1);  // max and inf
}

TEST(ScalarMath, FlaggedInputsAreDecidedByMpfr) {
  const ScalarMath& row = *find_scalar_math("numeric.math.expf");
  const std::uint32_t x1 = bits_of(1.0f), x2 = bits_of(-3.5f);
  const std::uint32_t cr1 = correctly_rounded("expf", x1), cr2 = correctly_rounded("expf", x2);
  EXPECT_EQ(cr1, 0x402df854u);  // e
  // The GPU returned cr1 + 3 at x1 and took cr2 + 1 for the correctly rounded result at x2.
  const MathDecision d = decide_flagged(row, {{x1, cr1 + 3, cr1}, {x2, cr2, cr2 + 1}});
  EXPECT_EQ(static_cast<std::uint32_t>(d.worst), x1);
  EXPECT_EQ(d.worst >> 32, bits_of(3.0f));
  EXPECT_EQ(d.worst_result, cr1 + 3);
  EXPECT_EQ(d.rounding_differs, 1u);
}

TEST(ScalarMath, MeasurementIsTheLargestDistanceJudgedAgainstTheBound) {
  const ScalarMath& row = *find_scalar_math("numeric.math.logf");
  const std::uint32_t x = bits_of(10.0f), cr = correctly_rounded("logf", x);
  MathScan scan;
  scan.compared = std::uint64_t{1} << 32;
  scan.worst_ulp = static_cast<std::uint64_t>(error_key(1)) << 32 | x;
  scan.worst_ulp_result = cr + 1;
  scan.worst_real = static_cast<std::uint64_t>(error_key(0.87)) << 32 | x;
  scan.worst_real_result = cr + 1;
  Expectation e;
  e.probe_id = row.id;
  e.kind = ExpectationKind::max;
  e.max = row.bound;
  e.unit = "ulp";
  e.source = "cite:test";
  const Measurement ok = math_measurement(row, scan, MathDecision{});
  EXPECT_EQ(ok.value, 1);
  EXPECT_EQ(ok.unit, "ulp");
  ASSERT_NE(ok.find_note("worst_input"), nullptr);
  EXPECT_NE(ok.find_note("worst_input")->find(fmt::format("correctly rounded 0x{:08x}", cr)), std::string::npos)
      << *ok.find_note("worst_input");
  EXPECT_EQ(judge(ok, e).outcome, Outcome::pass);
  // A flagged input decided at 2 ulps wins over the GPU's 1 and fails the bound of 1.
  MathDecision flagged;
  flagged.worst = static_cast<std::uint64_t>(error_key(2)) << 32 | bits_of(3.0f);
  flagged.worst_result = 0x3f8c9f54u;
  scan.flagged = {{bits_of(3.0f), 0x3f8c9f54u, 0x3f8c9f54u}};
  scan.flagged_total = 1;
  const Measurement worse = math_measurement(row, scan, flagged);
  EXPECT_EQ(worse.value, 2);
  EXPECT_EQ(judge(worse, e).outcome, Outcome::fail);
  EXPECT_NE(worse.find_note("worst_input")->find("x = 0x40400000 (3)"), std::string::npos);
  // NaN where the function is a number: +inf, a failure whatever the bound.
  scan.nan_mismatches = 1;
  scan.first_nan_mismatch = bits_of(2.0f);
  EXPECT_TRUE(std::isinf(math_measurement(row, scan, flagged).value));
  // More flagged inputs than were kept: a probe defect, not a value.
  scan.flagged_total = 5;
  EXPECT_THROW(math_measurement(row, scan, flagged), std::runtime_error);
}

}  // namespace
}  // namespace gpuconform::numerics
