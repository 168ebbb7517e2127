// SPDX-License-Identifier: Apache-2.0
// The host half of numeric.math.<fn> (numerics/scalar_mathlib.hpp): the table and its
// Programming Guide bounds, the midpoint test that flags an input for MPFR, the integer ulp
// distance, the MPFR decision of flagged inputs, and the Measurement judged against the bound.
#include "gpuconform/numerics/scalar_mathlib.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
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

// The error a key (error_key << 32 | input) holds.
float key_value(std::uint64_t key) {
  float f = 0;
  const std::uint32_t b = static_cast<std::uint32_t>(key >> 32);
  std::memcpy(&f, &b, sizeof f);
  return f;
}

float bit_float(std::uint32_t b) {
  float f = 0;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

std::uint32_t correctly_rounded(const char* fn, std::uint32_t x) {
  return static_cast<std::uint32_t>(ref::math_reference(*ref::find_math_function(fn), ref::Rounding::kRNE, {x}).bits);
}

TEST(ScalarMath, TableHoldsTheProgrammingGuideBounds) {
  std::set<std::string> ids;
  EXPECT_EQ(scalar_math().size(), 33u + 13u);  // 33 library functions, 13 intrinsic rows
  for (const ScalarMath& r : scalar_math()) {
    if (r.table == "Standard Functions") {
      EXPECT_EQ(r.id, "numeric.math." + r.name);
      EXPECT_EQ(r.label, r.name);
    } else {
      EXPECT_EQ(r.id.rfind("numeric.math.intrinsic.", 0), 0u) << r.id;
      EXPECT_EQ(r.label.rfind("__", 0), 0u) << r.label;
    }
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
  EXPECT_EQ(find_scalar_math("numeric.math.erfinvf")->bound, 2);
  EXPECT_EQ(find_scalar_math("numeric.math.erfcinvf")->bound, 4);
  // lgammaf: 6 outside (-10.001, -2.264) only.
  const ScalarMath& lgamma = *find_scalar_math("numeric.math.lgammaf");
  EXPECT_EQ(lgamma.bound, 6);
  EXPECT_TRUE(math_judged(lgamma.spec, -11.0f));
  EXPECT_TRUE(math_judged(lgamma.spec, -2.0f));
  EXPECT_TRUE(math_judged(lgamma.spec, 1.0f));
  EXPECT_FALSE(math_judged(lgamma.spec, -2.5f));
  EXPECT_FALSE(math_judged(lgamma.spec, -10.0f));
  // The intrinsics in the unit their bound is stated in.
  EXPECT_EQ(find_scalar_math("numeric.math.intrinsic.logf")->unit, "ulp");
  EXPECT_EQ(find_scalar_math("numeric.math.intrinsic.logf")->bound, 3);
  EXPECT_EQ(find_scalar_math("numeric.math.intrinsic.logf.abs")->unit, "absolute error");
  EXPECT_DOUBLE_EQ(find_scalar_math("numeric.math.intrinsic.logf.abs")->bound, std::exp2(-21.41));
  EXPECT_DOUBLE_EQ(find_scalar_math("numeric.math.intrinsic.log2f.abs")->bound, std::exp2(-22));
  EXPECT_DOUBLE_EQ(find_scalar_math("numeric.math.intrinsic.log10f.abs")->bound, std::exp2(-24));
  EXPECT_DOUBLE_EQ(find_scalar_math("numeric.math.intrinsic.sinf")->bound, std::exp2(-21.41));
  EXPECT_DOUBLE_EQ(find_scalar_math("numeric.math.intrinsic.cosf")->bound, std::exp2(-21.19));
  EXPECT_EQ(find_scalar_math("numeric.math.intrinsic.expf")->unit, "ulp beyond floor(|1.173 x|)");
  EXPECT_FALSE(find_scalar_math("numeric.math.intrinsic.tanf")->judged);  // "derived from its implementation"
  EXPECT_EQ(find_scalar_math("numeric.math.intrinsic.fsqrt_rn")->bound, 0);
  EXPECT_FALSE(find_scalar_math("numeric.math.intrinsic.fsqrt_rn")->spec.ftz);  // IEEE: no flush
  EXPECT_TRUE(find_scalar_math("numeric.math.intrinsic.expf")->spec.ftz);
}

// The judged domains of the intrinsics' two-part bounds, and the allowance of __expf's.
TEST(ScalarMath, DomainsAndAllowances) {
  const MathSpec& log_ulp = find_scalar_math("numeric.math.intrinsic.log2f")->spec;
  const MathSpec& log_abs = find_scalar_math("numeric.math.intrinsic.log2f.abs")->spec;
  for (float x : {0.5f, 1.0f, 2.0f, 1.5f}) {
    EXPECT_FALSE(math_judged(log_ulp, x)) << x;
    EXPECT_TRUE(math_judged(log_abs, x)) << x;
  }
  for (float x : {0.49999997f, 2.0000002f, 1e-30f, 1e30f}) {
    EXPECT_TRUE(math_judged(log_ulp, x)) << x;
    EXPECT_FALSE(math_judged(log_abs, x)) << x;
  }
  const MathSpec& sin = find_scalar_math("numeric.math.intrinsic.sinf")->spec;
  EXPECT_TRUE(math_judged(sin, 3.14159250f));   // the largest binary32 below pi
  EXPECT_FALSE(math_judged(sin, 3.14159274f));  // binary32 pi lies above pi
  EXPECT_TRUE(math_judged(sin, -3.14159250f));
  const MathSpec& e = find_scalar_math("numeric.math.intrinsic.expf")->spec;
  EXPECT_EQ(math_allowance(e, 10.0f), 11);  // floor(11.73)
  EXPECT_EQ(math_allowance(e, -10.0f), 11);
  EXPECT_EQ(math_allowance(e, 0.5f), 0);
  EXPECT_EQ(math_excess(e, 10.0f, 13), 2);  // 13 ulps at x = 10: 2 beyond floor(|1.173 x|)
  EXPECT_EQ(math_excess(e, 10.0f, 5), 0);   // within the allowance: never negative
  EXPECT_EQ(math_allowance(find_scalar_math("numeric.math.intrinsic.exp10f")->spec, 1.0f), 2);  // floor(2.97)
  EXPECT_EQ(math_allowance(find_scalar_math("numeric.math.expf")->spec, 10.0f), 0);
}

// .ftz rows: a subnormal input reads as a zero of its sign; a zero result where the correctly
// rounded one is a subnormal of that sign is the flush, not an error; other rows are exact.
TEST(ScalarMath, FlushRules) {
  const MathSpec& fast = find_scalar_math("numeric.math.intrinsic.expf")->spec;
  const MathSpec& ieee = find_scalar_math("numeric.math.expf")->spec;
  const float sub = std::ldexp(1.0f, -140);
  EXPECT_EQ(bits_of(math_flush_input(fast, sub)), 0u);
  EXPECT_EQ(bits_of(math_flush_input(fast, -sub)), 0x80000000u);
  EXPECT_EQ(math_flush_input(ieee, sub), sub);
  EXPECT_EQ(math_flush_input(fast, 1e-30f), 1e-30f);  // normal: kept
  EXPECT_EQ(math_distance(fast, 0x00000000u, 0x00012345u), 0);
  EXPECT_EQ(math_distance(ieee, 0x00000000u, 0x00012345u), 0x12345);
  EXPECT_EQ(math_distance(fast, 0x80000000u, 0x00012345u), 0x12345);   // the wrong sign is no flush
  EXPECT_EQ(math_distance(fast, 0x00000000u, 0x00800000u), 0x800000);  // a normal result is no flush
}

// The flag widens where the reference carries an absolute error bound (lgammaf near roots).
TEST(ScalarMath, FlagWidth) {
  const MathSpec& lgamma = find_scalar_math("numeric.math.lgammaf")->spec;
  EXPECT_EQ(math_flag_ulps(lgamma, MathRef{1.5, 0}), kMathFlagUlps);
  // r = 2^-20 with E = 2^-47: 2 E / ulp(r) = 2^-46 / 2^-43 = 2^-3.
  EXPECT_EQ(math_flag_ulps(lgamma, MathRef{std::ldexp(1.0, -20), std::ldexp(1.0, -47)}), 0.125);
  EXPECT_EQ(math_flag_ulps(lgamma, MathRef{100.0, std::ldexp(1.0, -47)}), kMathFlagUlps);  // ulp 2^-17: negligible
  EXPECT_EQ(find_scalar_math("numeric.math.erfinvf")->spec.flag_ulps, std::ldexp(1.0, -20));
  EXPECT_EQ(find_scalar_math("numeric.math.erfcinvf")->spec.flag_ulps, std::ldexp(1.0, -20));
}

// MPFR decides the hard cases: erfcinvf at 0x3757c618, the input of NVIDIA's forum report
// "Larger than expected / documented error in erfcinvf()" (CUDA 8 returned 0x40456c0f, 4 ulps
// from the correctly rounded 0x40456c13, "3.95517 ulp" real); lgammaf next to its root
// -2.4570247, where the binary64 reference is least trusted.
TEST(ScalarMath, MpfrDecidesKnownHardCases) {
  const ScalarMath& erfcinv = *find_scalar_math("numeric.math.erfcinvf");
  const MathDecision d = decide_flagged(erfcinv, {{0x3757c618u, 0x40456c0fu, 0x40456c13u}});
  EXPECT_EQ(static_cast<std::uint32_t>(d.worst), 0x3757c618u);
  EXPECT_EQ(d.worst >> 32, bits_of(4.0f));
  EXPECT_EQ(d.rounding_differs, 0u);
  EXPECT_NEAR(key_value(d.worst_real), 3.95517, 5e-5);
  // lgammaf: the binary32 nearest the root, lgamma = -1.1288e-7 -> 0xb3f26792 (mpmath); the
  // GPU's binary64 reference "rounded" to the neighbour, the GPU returned 2 ulps off.
  const ScalarMath& lgamma = *find_scalar_math("numeric.math.lgammaf");
  const MathDecision l = decide_flagged(lgamma, {{0xc01d3fe5u, 0xb3f26794u, 0xb3f26793u}});
  EXPECT_EQ(l.rounding_differs, 1u);
  EXPECT_EQ(l.worst, 0u);  // -2.457 lies inside (-10.001, -2.264): not judged
  EXPECT_EQ(static_cast<std::uint32_t>(l.worst_unjudged), 0xc01d3fe5u);
  EXPECT_EQ(l.worst_unjudged >> 32, bits_of(2.0f));
  // Next to the root at 2 (judged): 1 ulp.
  const MathDecision two = decide_flagged(lgamma, {{0x40000001u, 0x33d87734u, 0x33d87733u}});
  EXPECT_EQ(two.worst >> 32, bits_of(1.0f));
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
  // The companion's model: the maximum and its input, as numeric.math.logf.worst compares it.
  ASSERT_NE(worse.find_note("model"), nullptr);
  EXPECT_EQ(*worse.find_note("model"), "param:max_at=2@x=0x40400000");
  // NaN where the function is a number: 2^32, finite, a failure whatever the bound, at its input.
  scan.nan_mismatches = 1;
  scan.first_nan_mismatch = bits_of(2.0f);
  const Measurement nan = math_measurement(row, scan, flagged);
  EXPECT_EQ(nan.value, kMathBeyondBound);
  EXPECT_EQ(judge(nan, e).outcome, Outcome::fail);
  EXPECT_NE(nan.find_note("worst_input")->find("x = 0x40000000 (2)"), std::string::npos)
      << *nan.find_note("worst_input");
  EXPECT_EQ(*nan.find_note("model"), "param:max_at=4.2949673e+09@x=0x40000000");
  scan.nan_mismatches = 0;
  // More flagged inputs than were kept: a probe defect, not a value.
  scan.flagged_total = 5;
  EXPECT_THROW(math_measurement(row, scan, flagged), std::runtime_error);
}

// An absolute row: the value is the largest |y - f(x)| on the judged range, judged against
// the Guide's 2^-21.41; the maximum outside the range is a note, not the value.
TEST(ScalarMath, AbsoluteRowsAndUnjudgedMaxima) {
  const ScalarMath& row = *find_scalar_math("numeric.math.intrinsic.sinf");
  MathScan scan;
  scan.compared = std::uint64_t{1} << 32;
  scan.worst_ulp = static_cast<std::uint64_t>(error_key(3.0e-7)) << 32 | bits_of(1.0f);
  scan.worst_ulp_result = bits_of(0.84147125f);
  scan.worst_unjudged = static_cast<std::uint64_t>(error_key(1e-3)) << 32 | bits_of(1000.0f);
  const Measurement m = math_measurement(row, scan, MathDecision{});
  EXPECT_EQ(m.unit, "absolute error");
  EXPECT_NEAR(m.value, 3.0e-7, 1e-13);
  ASSERT_NE(m.find_note("outside_bound"), nullptr);
  EXPECT_NE(m.find_note("outside_bound")->find("0x447a0000"), std::string::npos) << *m.find_note("outside_bound");
  EXPECT_EQ(m.find_note("flagged"), nullptr);  // nothing to decide for an absolute error
  Expectation e;
  e.probe_id = row.id;
  e.kind = ExpectationKind::max;
  e.max = row.bound;
  e.unit = row.unit;
  e.source = "cite:test";
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
  scan.worst_ulp = static_cast<std::uint64_t>(error_key(4.0e-7)) << 32 | bits_of(1.0f);  // above 2^-21.41
  EXPECT_EQ(judge(math_measurement(row, scan, MathDecision{}), e).outcome, Outcome::fail);
}

// The H100 records (GPU-3d4e390d): __logf(0x007fffff) returned 0xc2aeac50 (-87.3365479), not
// the -inf of the flushed reading the reference took (1020351424 ulp, max_at=inf), and every
// negative subnormal (first 0x800146e0) returned NaN where log(-0) = -inf (8388607 NaN
// mismatches, the value +inf). A subnormal input is read as the zero it flushes to or as
// itself, whichever is nearer the returned result.
TEST(ScalarMath, SubnormalInputsOfFtzRowsTakeTheNearerReading) {
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  const float returned = bit_float(0xc2aeac50u);
  EXPECT_TRUE(math_reads_unflushed(returned, -inf, std::log(static_cast<double>(bit_float(0x007fffffu)))));
  EXPECT_TRUE(math_reads_unflushed(bit_float(0x7fc00000u), -inf, nan));                      // __logf(0x800146e0) = NaN
  EXPECT_FALSE(math_reads_unflushed(-std::numeric_limits<float>::infinity(), -inf, -87.3));  // flushed: -inf
  EXPECT_FALSE(math_reads_unflushed(bit_float(0x7fc00000u), nan, nan));  // a tie: the flushed reading
  // The gap is finite: an infinity or NaN against a number is kMathBeyondBound.
  EXPECT_EQ(math_reading_gap(bit_float(0xc217b819u), -inf), kMathBeyondBound);  // __log10f(0x007fffff)
  EXPECT_EQ(math_reading_gap(bit_float(0x7fc00000u), -inf), kMathBeyondBound);
  EXPECT_EQ(math_reading_gap(-std::numeric_limits<float>::infinity(), -inf), 0);

  // The flagged-input path on the host: the record's input and result decide within the bound.
  for (const char* id :
       {"numeric.math.intrinsic.logf", "numeric.math.intrinsic.log2f", "numeric.math.intrinsic.log10f"}) {
    const ScalarMath& row = *find_scalar_math(id);
    const std::uint32_t y = std::string(id).find("log10") != std::string::npos  ? 0xc217b819u
                            : std::string(id).find("log2") != std::string::npos ? 0xc2fc0000u
                                                                                : 0xc2aeac50u;
    const std::uint32_t cr = correctly_rounded(row.name.c_str(), 0x007fffffu);  // the unflushed reading
    const MathDecision d = decide_flagged(row, {{0x007fffffu, y, cr}});
    EXPECT_LE(key_value(d.worst), row.bound) << id;
    EXPECT_EQ(d.worst_unjudged, 0u) << id;
    // A result off by 2^20 ulps from both readings is still an error, finite, named.
    const MathDecision off = decide_flagged(row, {{0x007fffffu, cr + (1u << 20), cr}});
    EXPECT_EQ(key_value(off.worst), static_cast<float>(1u << 20)) << id;
    const Measurement m = math_measurement(row, MathScan{}, off);
    EXPECT_TRUE(std::isfinite(m.value));
    EXPECT_NE(m.find_note("worst_input")->find("0x007fffff"), std::string::npos) << *m.find_note("worst_input");
  }
  // The .abs rows: 0x007fffff lies outside [0.5, 2]; its error there is finite.
  const ScalarMath& abs_row = *find_scalar_math("numeric.math.intrinsic.logf.abs");
  EXPECT_FALSE(math_judged(abs_row.spec, bit_float(0x007fffffu)));
  EXPECT_FALSE(math_judged(abs_row.spec, bit_float(0x80010b80u)));
}

// NaN mismatches where the bound does not speak are a note; the value stays the judged maximum.
TEST(ScalarMath, NanMismatchesOutsideTheDomainAreExcluded) {
  const ScalarMath& row = *find_scalar_math("numeric.math.intrinsic.logf.abs");
  MathScan scan;
  scan.compared = std::uint64_t{1} << 32;
  scan.worst_ulp = static_cast<std::uint64_t>(error_key(1.7424e-07)) << 32 | 0x3f055ff9u;
  scan.worst_ulp_result = 0xbf26ea59u;
  scan.nan_unjudged = 8388607;
  scan.first_nan_unjudged = 0x80010b80u;
  const Measurement m = math_measurement(row, scan, MathDecision{});
  EXPECT_NEAR(m.value, 1.7424e-07, 1e-12);
  EXPECT_EQ(m.find_note("violations"), nullptr);
  ASSERT_NE(m.find_note("nan_outside_bound"), nullptr);
  EXPECT_NE(m.find_note("nan_outside_bound")->find("8388607 inputs"), std::string::npos);
  EXPECT_NE(m.find_note("nan_outside_bound")->find("0x80010b80"), std::string::npos);
  // The same mismatch inside [0.5, 2] fails, finite, at its input.
  scan.nan_mismatches = 1;
  scan.first_nan_mismatch = 0x3f055ff9u;
  const Measurement bad = math_measurement(row, scan, MathDecision{});
  EXPECT_EQ(bad.value, kMathBeyondBound);
  EXPECT_GT(bad.value, row.bound);
  EXPECT_NE(bad.find_note("worst_input")->find("0x3f055ff9"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::numerics
