// SPDX-License-Identifier: Apache-2.0
// The host half of the two-argument math probes (numerics/scalar_math2.hpp): the table, the
// deterministic pairs (the same on every run, so a recorded worst pair stays reproducible),
// their directed and hashed classes, the MPFR decision of flagged pairs and the Measurement.
#include "gpuconform/numerics/scalar_math2.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <cstring>
#include <set>

#include "gpuconform/reference/math_oracle.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform::numerics {
namespace {

float f(std::uint32_t b) { return math2_float(b); }
std::uint64_t index_of(int a, int b) { return static_cast<std::uint64_t>(a) * kMath2Specials + b; }

TEST(ScalarMath2, TableHoldsTheProgrammingGuideBounds) {
  EXPECT_EQ(scalar_math2().size(), 8u);
  std::set<std::string> ids;
  for (const ScalarMath2& r : scalar_math2()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(find_scalar_math2(r.id), &r);
    ASSERT_TRUE(ref::find_math_function(r.name)) << r.name;
    EXPECT_EQ(ref::find_math_function(r.name)->arity(), 2) << r.name;
  }
  EXPECT_EQ(find_scalar_math2("numeric.math.powf")->bound, 4);
  EXPECT_EQ(find_scalar_math2("numeric.math.atan2f")->bound, 3);
  EXPECT_EQ(find_scalar_math2("numeric.math.hypotf")->bound, 3);
  EXPECT_EQ(find_scalar_math2("numeric.math.fmodf")->bound, 0);
  EXPECT_EQ(find_scalar_math2("numeric.math.remainderf")->bound, 0);
  EXPECT_EQ(find_scalar_math2("numeric.math.intrinsic.fdividef")->bound, 2);
  EXPECT_EQ(find_scalar_math2("numeric.math.intrinsic.fdiv_rn")->bound, 0);
  EXPECT_FALSE(find_scalar_math2("numeric.math.intrinsic.powf")->judged);
  EXPECT_TRUE(find_scalar_math2("numeric.math.intrinsic.powf")->spec.ftz);
  // __fdividef's bound speaks for |y| in [2^-126, 2^126] only.
  const Math2Spec& div = find_scalar_math2("numeric.math.intrinsic.fdividef")->spec;
  EXPECT_TRUE(math2_judged(div, 1.0f, 1.0f));
  EXPECT_TRUE(math2_judged(div, 1.0f, -std::ldexp(1.0f, 126)));
  EXPECT_TRUE(math2_judged(div, 1.0f, std::ldexp(1.0f, -126)));
  EXPECT_FALSE(math2_judged(div, 1.0f, std::ldexp(1.0f, 127)));
  EXPECT_FALSE(math2_judged(div, 1.0f, std::ldexp(1.0f, -127)));
  EXPECT_FALSE(math2_judged(div, 1.0f, 0.0f));
  EXPECT_TRUE(math2_judged(find_scalar_math2("numeric.math.powf")->spec, 1.0f, 0.0f));
}

// The family's long switch (the probe cannot see the run level): 2^24 pairs, 2^30 with it.
TEST(ScalarMath2, SampleSizeFollowsTheLongSwitch) {
  const char* before = std::getenv("GPUCONFORM_SCALAR_LONG");
  const std::string saved = before ? before : "";
  unsetenv("GPUCONFORM_SCALAR_LONG");
  EXPECT_EQ(math2_pair_count(), std::uint64_t{1} << 24);
  setenv("GPUCONFORM_SCALAR_LONG", "1", 1);
  EXPECT_EQ(math2_pair_count(), std::uint64_t{1} << 30);
  setenv("GPUCONFORM_SCALAR_LONG", "0", 1);
  EXPECT_EQ(math2_pair_count(), std::uint64_t{1} << 24);
  if (before)
    setenv("GPUCONFORM_SCALAR_LONG", saved.c_str(), 1);
  else
    unsetenv("GPUCONFORM_SCALAR_LONG");
}

TEST(ScalarMath2, DirectedPairsComeFirst) {
  std::uint32_t a = 1, b = 1;
  math2_pair(Math2Fn::powf, 0, a, b);
  EXPECT_EQ(a, 0u);  // (+0, +0)
  EXPECT_EQ(b, 0u);
  math2_pair(Math2Fn::powf, index_of(17, 19), a, b);
  EXPECT_EQ(f(a), 2.0f);
  EXPECT_EQ(f(b), 3.0f);
  // Every directed value against every other: signed zeros, infinities, NaN, subnormals.
  std::set<std::uint32_t> firsts;
  for (std::uint64_t i = 0; i < kMath2Specials * kMath2Specials; ++i) {
    math2_pair(Math2Fn::fmodf, i, a, b);
    firsts.insert(a);
  }
  EXPECT_EQ(firsts.size(), static_cast<std::size_t>(kMath2Specials));
  for (std::uint32_t v : {0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u, 0x7f7fffffu})
    EXPECT_TRUE(firsts.count(v)) << std::hex << v;
}

TEST(ScalarMath2, PairsAreDeterministicAndPerFunction) {
  std::uint32_t a1 = 0, b1 = 0, a2 = 0, b2 = 0;
  int differ = 0;
  for (std::uint64_t i = 5000; i < 6000; ++i) {
    math2_pair(Math2Fn::atan2f, i, a1, b1);
    math2_pair(Math2Fn::atan2f, i, a2, b2);
    EXPECT_EQ(a1, a2);
    EXPECT_EQ(b1, b2);
    math2_pair(Math2Fn::hypotf, i, a2, b2);
    differ += a1 != a2 || b1 != b2;
  }
  EXPECT_GT(differ, 990);  // each row its own stream
  // Pinned: the recorded worst pairs (expectations' .worst entries) name pairs by value, and
  // a changed sampler would silently measure other pairs. Change these only with the entries.
  math2_pair(Math2Fn::powf, 5000, a1, b1);
  math2_pair(Math2Fn::fmodf, (std::uint64_t{1} << 30) - 1, a2, b2);
  EXPECT_EQ(a1, 0xea00e420u);
  EXPECT_EQ(b1, 0x685dd811u);
  EXPECT_EQ(a2, 0xd2bfd71cu);
  EXPECT_EQ(b2, 0xff60f3b1u);
}

// The hashed classes reach what each function needs; each class is 1/8 of the pairs.
TEST(ScalarMath2, ClassesCoverTheHardCases) {
  const std::uint64_t first = kMath2Specials * kMath2Specials, n = 1 << 16;
  int near_one = 0, integer_y = 0, subnormal = 0, nan_or_inf = 0, quotient = 0, huge_ratio = 0;
  std::uint32_t a = 0, b = 0;
  for (std::uint64_t i = first; i < first + n; ++i) {
    math2_pair(Math2Fn::powf, i, a, b);
    near_one += std::fabs(f(a) - 1.0f) <= std::ldexp(1.0f, -7) && std::fabs(f(b)) >= 1024.0f;
    integer_y += f(b) == std::floor(f(b)) && std::fabs(f(b)) <= 4096.0f;
    subnormal += (a & 0x7f800000u) == 0 || (b & 0x7f800000u) == 0;
    nan_or_inf += (a & 0x7f800000u) == 0x7f800000u || (b & 0x7f800000u) == 0x7f800000u;
    math2_pair(Math2Fn::remainderf, i, a, b);
    const double q = static_cast<double>(f(a)) / f(b);
    const double frac2 = 2 * q - std::floor(2 * q);  // integer or half-integer quotients
    quotient += std::isfinite(q) && std::fabs(q) >= 1 && (frac2 < 1e-6 || frac2 > 1 - 1e-6);
    math2_pair(Math2Fn::atan2f, i, a, b);
    const int ea = static_cast<int>(a >> 23 & 0xff), eb = static_cast<int>(b >> 23 & 0xff);
    huge_ratio += std::abs(ea - eb) >= 100;
  }
  EXPECT_GT(near_one, static_cast<int>(n / 10));    // class 4 of powf (1/8)
  EXPECT_GT(integer_y, static_cast<int>(n / 10));   // class 5
  EXPECT_GT(subnormal, static_cast<int>(n / 10));   // class 3
  EXPECT_GT(nan_or_inf, 0);                         // class 0's NaN and infinity patterns
  EXPECT_GT(quotient, static_cast<int>(n / 16));    // class 4 of fmodf/remainderf
  EXPECT_GT(huge_ratio, static_cast<int>(n / 10));  // class 2
}

TEST(ScalarMath2, FlaggedPairsAreDecidedByMpfr) {
  // powf(2, 3) = 8 exactly: a GPU result one ulp above is 1 ulp; __fdiv_rn(1, 3) to nearest.
  const ScalarMath2& pow = *find_scalar_math2("numeric.math.powf");
  const std::uint32_t i23 = static_cast<std::uint32_t>(index_of(17, 19));
  const MathDecision d = decide_flagged2(pow, {{i23, 0x41000001u, 0x41000000u}});
  EXPECT_EQ(static_cast<std::uint32_t>(d.worst), i23);
  EXPECT_EQ(d.worst >> 32, 0x3f800000u);  // error_key(1)
  EXPECT_EQ(d.rounding_differs, 0u);
  const ScalarMath2& div = *find_scalar_math2("numeric.math.intrinsic.fdiv_rn");
  const std::uint32_t i13 = static_cast<std::uint32_t>(index_of(11, 19));  // (1, 3)
  const MathDecision q = decide_flagged2(div, {{i13, 0x3eaaaaabu, 0x3eaaaaaau}});
  EXPECT_EQ(q.worst >> 32, 0u);  // 1/3 rounds to 0x3eaaaaab: the GPU was right
  EXPECT_EQ(q.rounding_differs, 1u);
  // __fdividef(1, 2^127 * 1.5): outside [2^-126, 2^126]: the unjudged maximum.
  const ScalarMath2& fast = *find_scalar_math2("numeric.math.intrinsic.fdividef");
  const std::uint32_t ibig = static_cast<std::uint32_t>(index_of(11, 31));
  const MathDecision u = decide_flagged2(fast, {{ibig, 0x00000000u, 0x00000000u}});
  EXPECT_EQ(u.worst, 0u);
  EXPECT_EQ(static_cast<std::uint32_t>(u.worst_unjudged), ibig);
}

TEST(ScalarMath2, MeasurementNamesThePair) {
  const ScalarMath2& row = *find_scalar_math2("numeric.math.hypotf");
  MathScan scan;
  scan.compared = kMath2Pairs;
  const std::uint32_t i = static_cast<std::uint32_t>(index_of(17, 19));  // (2, 3)
  scan.worst_ulp = static_cast<std::uint64_t>(error_key(1)) << 32 | i;
  scan.worst_ulp_result = 0x4066c2b5u;
  const Measurement m = math2_measurement(row, scan, MathDecision{}, 3);
  EXPECT_EQ(m.value, 1);
  EXPECT_EQ(m.unit, "ulp");
  EXPECT_EQ(*m.find_note("model"), "param:max_at=1@x=0x40000000,y=0x40400000");
  EXPECT_NE(m.find_note("signed_zero")->find("3 results"), std::string::npos);
  EXPECT_NE(m.find_note("worst_input")->find("(0x40000000 (2), 0x40400000 (3))"), std::string::npos)
      << *m.find_note("worst_input");
  Expectation e;
  e.probe_id = row.id;
  e.kind = ExpectationKind::max;
  e.max = row.bound;
  e.unit = "ulp";
  e.source = "cite:test";
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
  scan.nan_mismatches = 1;
  scan.first_nan_mismatch = i;
  const Measurement nan = math2_measurement(row, scan, MathDecision{}, 0);
  EXPECT_EQ(nan.value, kMathBeyondBound);  // finite, over any bound, at its pair
  EXPECT_EQ(judge(nan, e).outcome, Outcome::fail);
  EXPECT_NE(nan.find_note("worst_input")->find("(0x40000000 (2), 0x40400000 (3))"), std::string::npos);
  scan.flagged_total = 2;  // more flagged than kept: a probe defect
  EXPECT_THROW(math2_measurement(row, scan, MathDecision{}, 0), std::runtime_error);
}

float key_value(std::uint64_t key) {
  float f = 0;
  const std::uint32_t k = static_cast<std::uint32_t>(key >> 32);
  std::memcpy(&f, &k, sizeof f);
  return f;
}
float bf(std::uint32_t b) { return math2_float(b); }

// The H100 records (GPU-3d4e390d): __fdividef's 6 NaN mismatches, first (-inf, 0x7f7fffff),
// lie where |y| > 2^126 (the Guide: 0, or NaN for an infinite x); __powf's (-0, -16777215)
// returned +inf for pow's -inf and (-1.03798269e+20, -3.73716351e-39) NaN: x <= 0 is outside
// what exp2f(y * __log2f(x)) speaks for. Excluded, counted; inside the domain still judged.
TEST(ScalarMath2, IntrinsicDomainsExcludeTheRecordedPairs) {
  const Math2Spec& div = find_scalar_math2("numeric.math.intrinsic.fdividef")->spec;
  EXPECT_FALSE(math2_judged(div, bf(0xff800000u), bf(0x7f7fffffu)));
  EXPECT_FALSE(math2_judged(div, bf(0x7f7efaf6u), bf(0x7e822f1eu)));
  EXPECT_TRUE(math2_judged(div, bf(0x4258d000u), bf(0xbd6af000u)));
  EXPECT_TRUE(math2_judged(div, bf(0xff800000u), bf(0x40000000u)));  // inf / 2: judged
  const Math2Spec& pw = find_scalar_math2("numeric.math.intrinsic.powf")->spec;
  EXPECT_FALSE(math2_judged(pw, bf(0x80000000u), bf(0xcb7fffffu)));
  EXPECT_FALSE(math2_judged(pw, bf(0xe0b40fb1u), bf(0x8028b1b1u)));
  EXPECT_FALSE(math2_judged(pw, bf(0x7f800000u), bf(0x00000000u)));  // inf^0: 0 * inf in the formula
  EXPECT_FALSE(math2_judged(pw, bf(0x3f800000u), bf(0x7fc00000u)));  // 1^NaN
  EXPECT_TRUE(math2_judged(pw, bf(0x0065e669u), bf(0x2696e03bu)));
  EXPECT_TRUE(math2_judged(pw, bf(0x40000000u), bf(0xc3160000u)));
  const Math2Spec& std_pow = find_scalar_math2("numeric.math.powf")->spec;
  EXPECT_TRUE(math2_judged(std_pow, bf(0x80000000u), bf(0xcb7fffffu)));  // powf itself: every pair
  // Excluded NaN mismatches: a note, the value the judged maximum.
  const ScalarMath2& row = *find_scalar_math2("numeric.math.intrinsic.fdividef");
  MathScan scan;
  scan.compared = kMath2StandardPairs;
  scan.worst_ulp = static_cast<std::uint64_t>(error_key(2)) << 32 | 16776815u;
  scan.worst_ulp_result = 0xc46c4006u;
  scan.nan_unjudged = 6;
  scan.first_nan_unjudged = static_cast<std::uint32_t>(index_of(3, 9));  // (-inf, 0x7f7fffff): pair 105
  const Measurement m = math2_measurement(row, scan, MathDecision{}, 0);
  EXPECT_EQ(m.value, 2);
  EXPECT_EQ(m.find_note("violations"), nullptr);
  ASSERT_NE(m.find_note("nan_outside_bound"), nullptr);
  EXPECT_NE(m.find_note("nan_outside_bound")->find("(0xff800000 (-inf), 0x7f7fffff (3.40282347e+38)) (pair 105)"),
            std::string::npos)
      << *m.find_note("nan_outside_bound");
  EXPECT_EQ(*m.find_note("model"), "param:max_at=2@x=0x4258d000,y=0xbd6af000");
}

// __powf at pair 1073741694, (0x0065e669, 0x2696e03b): 1 returned, pow of the flushed x is 0
// (max_real_ulp_error inf): the subnormal is read as itself where that is nearer the result.
TEST(ScalarMath2, SubnormalOperandsOfPowfTakeTheNearerReading) {
  const ScalarMath2& row = *find_scalar_math2("numeric.math.intrinsic.powf");
  std::uint32_t a = 0, b = 0;
  math2_pair(row.spec.fn, 1073741694u, a, b);
  ASSERT_EQ(a, 0x0065e669u);
  ASSERT_EQ(b, 0x2696e03bu);
  const MathDecision d = decide_flagged2(row, {{1073741694u, 0x3f800000u, 0x3f800000u}});
  EXPECT_EQ(static_cast<std::uint32_t>(d.worst), 1073741694u);
  EXPECT_EQ(d.worst >> 32, 0u);  // pow(x, y) rounds to 1
  EXPECT_TRUE(std::isfinite(key_value(d.worst_real)));
  EXPECT_LT(key_value(d.worst_real), 1.0f);
  // A result far from both readings still counts.
  const MathDecision off = decide_flagged2(row, {{1073741694u, 0x3f000000u, 0x3f800000u}});
  EXPECT_EQ(off.worst >> 32, error_key(static_cast<double>(0x3f800000u - 0x3f000000u)));
}

}  // namespace
}  // namespace gpuconform::numerics
