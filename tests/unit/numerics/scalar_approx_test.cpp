// SPDX-License-Identifier: Apache-2.0
// The host half of numeric.scalar.<fn>.approx[.ftz].f32 (numerics/scalar_approx.hpp): the
// table (each row in the measure and bound its PTX ISA section states), the binary32 ulp, the
// classes an input's reference is checked in, the orderable error keys the GPU keeps maxima
// with, every measure on a simulated approximation whose error is known, and the
// Measurement: the row's measure, the worst input, a class mismatch as +inf.
#include "gpuconform/numerics/scalar_approx.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "gpuconform/verdict.hpp"

namespace gpuconform::numerics {
namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t x = 0;
  std::memcpy(&x, &f, sizeof x);
  return x;
}
float float_of(std::uint32_t x) {
  float f = 0;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

TEST(ScalarApprox, TableStatesEachRowsPtxBound) {
  std::set<std::string> ids;
  EXPECT_EQ(scalar_approx().size(), 19u);
  for (const ScalarApprox& r : scalar_approx()) {
    EXPECT_EQ(r.id, "numeric.scalar." + r.ptx);
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(r.spec.ftz, r.ptx.find(".ftz") != std::string::npos) << r.id;
    EXPECT_EQ(find_scalar_approx(r.id), &r);
    EXPECT_EQ(r.bound.rfind("PTX ISA, Floating Point Instructions: ", 0), 0u) << r.bound;
    EXPECT_GT(r.bound_value, 0) << r.id;
    EXPECT_GE(r.spec.wide_domain, r.spec.domain) << r.id;
  }
  const auto row = [](const char* id) { return *find_scalar_approx(id); };
  EXPECT_EQ(row("numeric.scalar.rcp.approx.f32").metric_text, "ulp");
  // Ulp bounds count from the correctly rounded result (the Programming Guide's definition).
  for (const char* id : {"numeric.scalar.rcp.approx.f32", "numeric.scalar.rcp.approx.ftz.f32",
                         "numeric.scalar.div.approx.f32", "numeric.scalar.div.full.ftz.f32"})
    EXPECT_EQ(row(id).spec.measure, kApproxUlpFromRounded) << id;
  EXPECT_EQ(row("numeric.scalar.rcp.approx.f32").bound_value, 1);
  EXPECT_EQ(row("numeric.scalar.ex2.approx.ftz.f32").spec.measure, kApproxUlpFromRounded);
  EXPECT_EQ(row("numeric.scalar.ex2.approx.ftz.f32").bound_value, 2);
  EXPECT_EQ(row("numeric.scalar.sqrt.approx.f32").bound_value, std::ldexp(1.0, -23));
  EXPECT_EQ(row("numeric.scalar.rsqrt.approx.f32").bound_value, std::exp2(-22.9));
  EXPECT_EQ(row("numeric.scalar.lg2.approx.f32").spec.measure, kApproxLg2);
  EXPECT_EQ(row("numeric.scalar.tanh.approx.f32").bound_value, std::ldexp(1.0, -11));
  EXPECT_EQ(row("numeric.scalar.sin.approx.f32").metric_text, "absolute error");
  EXPECT_EQ(row("numeric.scalar.cos.approx.ftz.f32").bound_value, std::exp2(-20.5));
  EXPECT_GE(static_cast<double>(row("numeric.scalar.cos.approx.f32").spec.domain), 2 * M_PI);
  EXPECT_LT(static_cast<double>(row("numeric.scalar.cos.approx.f32").spec.domain), 2 * M_PI + 1e-6);
  EXPECT_GE(static_cast<double>(row("numeric.scalar.sin.approx.f32").spec.wide_domain), 100 * M_PI);
  EXPECT_TRUE(std::isinf(row("numeric.scalar.ex2.approx.f32").spec.domain));
  EXPECT_EQ(find_scalar_approx("numeric.scalar.tanh.approx.ftz.f32"), nullptr);
  // div: two operands, in ulps, bound 2; div.approx's bound holds for |b| up to 2^126 only.
  EXPECT_TRUE(approx_binary(row("numeric.scalar.div.approx.f32").spec.fn));
  EXPECT_EQ(row("numeric.scalar.div.approx.ftz.f32").spec.domain, std::ldexp(1.0f, 126));
  EXPECT_TRUE(std::isinf(row("numeric.scalar.div.full.f32").spec.domain));
  EXPECT_EQ(row("numeric.scalar.div.full.ftz.f32").bound_value, 2);
  EXPECT_EQ(row("numeric.scalar.div.full.f32").metric_text, "ulp");
  EXPECT_FALSE(approx_binary(row("numeric.scalar.rcp.approx.f32").spec.fn));
  EXPECT_EQ(approx_div_operands(0).rfind("a = 0x", 0), 0u);
}

TEST(ScalarApprox, UlpIsTheBinary32Spacing) {
  EXPECT_EQ(f32_ulp_at(1.0), std::ldexp(1.0, -23));
  EXPECT_EQ(f32_ulp_at(1.9999), std::ldexp(1.0, -23));
  EXPECT_EQ(f32_ulp_at(-2.0), std::ldexp(1.0, -22));
  EXPECT_EQ(f32_ulp_at(0.75), std::ldexp(1.0, -24));
  EXPECT_EQ(f32_ulp_at(std::ldexp(1.0, -126)), std::ldexp(1.0, -149));
  EXPECT_EQ(f32_ulp_at(std::ldexp(1.0, -140)), std::ldexp(1.0, -149));  // subnormal range
  EXPECT_EQ(f32_ulp_at(1e-320), std::ldexp(1.0, -149));                 // binary64 subnormal
  EXPECT_EQ(f32_ulp_at(3.0e38), std::ldexp(1.0, 104));
  for (std::uint32_t x = 0x00800000u; x < 0x7f000000u; x += 0x00123457u) {
    const float v = float_of(x);
    EXPECT_EQ(f32_ulp_at(v), static_cast<double>(std::nextafter(v, INFINITY)) - v) << std::hex << x;
  }
}

TEST(ScalarApprox, ClassesAndRange) {
  EXPECT_EQ(approx_value_class(1.5), 0);
  EXPECT_EQ(approx_value_class(0.0), 1);
  EXPECT_EQ(approx_value_class(-0.0), 1);
  EXPECT_EQ(approx_value_class(INFINITY), 2);
  EXPECT_EQ(approx_value_class(-INFINITY), 3);
  EXPECT_EQ(approx_value_class(std::nan("")), 4);
  const ApproxSpec rel{ApproxFn::sqrt, kApproxRelative, INFINITY, INFINITY, false};
  const ApproxSpec ex2{ApproxFn::ex2, kApproxUlpFromRounded, INFINITY, INFINITY, false};
  const ApproxSpec lg2{ApproxFn::lg2, kApproxLg2, INFINITY, INFINITY, false};
  EXPECT_TRUE(approx_in_range(rel, 1.0));
  EXPECT_TRUE(approx_in_range(rel, std::ldexp(1.0, -140)));
  EXPECT_FALSE(approx_in_range(rel, 3.5e38));  // beyond binary32
  EXPECT_TRUE(approx_in_range(ex2, 3.5e38));   // rounds to inf: ex2 must give inf
  EXPECT_FALSE(approx_zero_is_a_value(rel));
  EXPECT_TRUE(approx_zero_is_a_value(lg2));  // lg2(1) = 0: an absolute error
}

TEST(ScalarApprox, ErrorKeysOrderAsTheErrorsAndNeverUnderstate) {
  std::uint32_t last_key = 0;
  for (double e :
       std::initializer_list<double>{0.0, 1e-30, 2.5e-8, 0.5, 0.99999999, 1.0, 1.0000001, 2.0, 1e30, HUGE_VAL}) {
    const std::uint32_t k = error_key(e);
    EXPECT_GE(static_cast<double>(float_of(k)), e) << e;
    EXPECT_GE(k, last_key) << e;  // never decreasing (binary32 resolution: equal errors may share a key)
    last_key = k;
  }
  EXPECT_EQ(error_key(1.0), bits_of(1.0f));
  EXPECT_EQ(error_key(1.0 + 1e-12), bits_of(1.0f) + 1);  // rounded up, never down
  EXPECT_GT(error_key(2.0), error_key(1.0000002));
}

// A simulated approximation with a known error: exp2 rounded to binary32, then k ulps up.
TEST(ScalarApprox, MeasuresOfASimulatedApproximation) {
  const ApproxSpec spec{ApproxFn::ex2, kApproxUlpFromRounded, INFINITY, INFINITY, false};
  for (std::uint32_t k : {0u, 1u, 3u}) {
    double worst[kApproxMeasures] = {};
    for (float x = -10.0f; x < 10.0f; x += 0.0137f) {
      const double r = std::exp2(static_cast<double>(x));
      const float y = float_of(bits_of(static_cast<float>(r)) + k);
      const ApproxErrors e = approx_errors(spec, x, y, r);
      for (int i = 0; i < kApproxMeasures; ++i) worst[i] = std::max(worst[i], e.e[i]);
      EXPECT_EQ(e.e[kApproxUlpFromRounded], k) << x;
      EXPECT_EQ(e.e[kApproxAbsoluteWide], e.e[kApproxAbsolute]);
    }
    // k ulps above the correctly rounded result: between k - 1/2 and 2k + 1/2 ulps of r (at a
    // power of 2 the ulp above is twice the one below).
    EXPECT_LE(worst[kApproxUlp], 2.0 * k + 0.5) << k;
    EXPECT_GE(worst[kApproxUlp], k - 0.5) << k;
    EXPECT_LE(worst[kApproxRelative], (k + 0.5) * std::ldexp(1.0, -23) * (1 + std::ldexp(1.0, -20))) << k;
  }
  // Integer distances across zero and to NaN; .ftz flushes a subnormal correctly rounded result.
  EXPECT_EQ(approx_errors(spec, 0, float_of(0x80000001u), float_of(0x00000001u)).e[kApproxUlpFromRounded], 2);
  EXPECT_TRUE(std::isinf(approx_errors(spec, 0, std::nanf(""), 1.0).e[kApproxUlpFromRounded]));
  const ApproxSpec ftz{ApproxFn::ex2, kApproxUlpFromRounded, INFINITY, INFINITY, true};
  EXPECT_EQ(approx_errors(ftz, -130, 0.0f, std::exp2(-130.0)).e[kApproxUlpFromRounded], 0);
  EXPECT_EQ(approx_errors(ftz, -126, 0.0f, std::exp2(-126.0)).e[kApproxUlpFromRounded], 1);  // largest subnormal
  EXPECT_EQ(approx_errors(ftz, -126, -0.0f, std::exp2(-126.0)).e[kApproxUlpFromRounded], 1u << 23);  // wrong sign
  EXPECT_EQ(approx_errors(ftz, -120, 0.0f, std::exp2(-120.0)).e[kApproxUlpFromRounded], (1u << 23) * 6 + 1);
  EXPECT_EQ(approx_errors(ftz, 0, float_of(0x00800000u), float_of(0x007fffffu)).e[kApproxUlpFromRounded], 1);
  EXPECT_EQ(approx_errors(spec, -130, 0.0f, std::exp2(-130.0)).e[kApproxUlpFromRounded], 1u << 19);
  // lg2's measure: absolute inside (0.5, 2), relative outside.
  const ApproxSpec lg2{ApproxFn::lg2, kApproxLg2, INFINITY, INFINITY, false};
  EXPECT_EQ(approx_errors(lg2, 1.5, 0.5f, 0.25).e[kApproxLg2], 0.25);  // absolute
  EXPECT_EQ(approx_errors(lg2, 4.0, 3.0f, 2.0).e[kApproxLg2], 0.5);    // relative
}

// The H100 GPU-791fafea (CUDA 13.0, driver 580.159.04) results that failed the earlier
// measures, from its run record sm_90-0x2330-2026-11-26-scalar-gpu-791fafea.jsonl.
TEST(ScalarApprox, MeasuresOfTheH100Record) {
  const auto spec = [](const char* id) { return find_scalar_approx(id)->spec; };
  const auto quotient = [](std::uint32_t a, std::uint32_t b) {
    return static_cast<double>(float_of(a)) / static_cast<double>(float_of(b));
  };
  // div.approx.f32 and div.full.f32, a = 0x00744b7a, b = 0xa6ecfe75 -> 0x98fb3e11: 2.075
  // binary32 ulps from a / b as a value, 2 steps from a / b correctly rounded (0x98fb3e13).
  const double q = quotient(0x00744b7au, 0xa6ecfe75u);
  EXPECT_EQ(static_cast<float>(q), float_of(0x98fb3e13u));
  for (const char* id : {"numeric.scalar.div.approx.f32", "numeric.scalar.div.full.f32"}) {
    const ApproxErrors e = approx_errors(spec(id), float_of(0x00744b7au), float_of(0x98fb3e11u), q);
    EXPECT_EQ(e.e[kApproxUlpFromRounded], 2) << id;
    EXPECT_GT(e.e[kApproxUlp], 2.07) << id;
    EXPECT_LT(e.e[kApproxUlp], 2.08) << id;
    EXPECT_LE(e.e[spec(id).measure], find_scalar_approx(id)->bound_value) << id;
  }
  // .ftz: a = 0x00800000, b = 0x3f800001 -> +0 (a / b = 2^-126 - 2^-149 + 2^-172, below the
  // smallest normal): the flush of a subnormal approximation, no error; 8388607 ulps before.
  const double tiny = quotient(0x00800000u, 0x3f800001u);
  for (const char* id : {"numeric.scalar.div.approx.ftz.f32", "numeric.scalar.div.full.ftz.f32"}) {
    const ApproxErrors e = approx_errors(spec(id), float_of(0x00800000u), 0.0f, tiny);
    EXPECT_EQ(e.e[kApproxUlpFromRounded], 0) << id;
    EXPECT_LT(e.e[kApproxUlp], 1e-6) << id;
  }
  EXPECT_GT(approx_errors(spec("numeric.scalar.div.approx.f32"), 0, 0.0f, tiny).e[kApproxUlp], 8388606);
  // rcp.approx.ftz.f32, x = 0xfe800001 -> -0 (reference -1.1754942106924578e-38).
  const double r = 1.0 / static_cast<double>(float_of(0xfe800001u));
  EXPECT_EQ(r, -1.1754942106924578e-38);
  const ApproxErrors e = approx_errors(spec("numeric.scalar.rcp.approx.ftz.f32"), r, -0.0f, r);
  EXPECT_EQ(e.e[kApproxUlpFromRounded], 0);
  EXPECT_LT(e.e[kApproxUlp], 1e-6);
  EXPECT_EQ(approx_measured_result(spec("numeric.scalar.rcp.approx.ftz.f32"), -0.0f, r), float_of(0x807fffffu));
  EXPECT_EQ(approx_measured_result(spec("numeric.scalar.rcp.approx.f32"), -0.0f, r), -0.0f);  // no .ftz: as is
}

TEST(ScalarApprox, MeasurementTakesTheRowsMeasureAndFailsOnAClassMismatch) {
  const ScalarApprox& row = *find_scalar_approx("numeric.scalar.rcp.approx.f32");
  ApproxScan scan;
  scan.compared = std::uint64_t{1} << 32;
  scan.in_domain = 4000000000u;
  scan.special = 1000;
  const float x = 1.5f;
  for (int i = 0; i < kApproxMeasures; ++i)
    scan.worst[i] = static_cast<std::uint64_t>(error_key(1e-9 * (i + 1))) << 32 | bits_of(x);
  scan.worst[kApproxUlpFromRounded] = static_cast<std::uint64_t>(error_key(1)) << 32 | bits_of(x);
  scan.worst_result[kApproxUlpFromRounded] = 0.666666627f;
  scan.worst_reference[kApproxUlpFromRounded] = 2.0 / 3.0;
  const Measurement m = approx_measurement(row, scan);
  EXPECT_EQ(m.unit, "ulp");
  EXPECT_EQ(m.value, 1);
  ASSERT_NE(m.find_note("worst_input"), nullptr);
  EXPECT_EQ(m.find_note("worst_input")->rfind("1 at x = 0x3fc00000 (1.5) (gpu 0x3f2aaaaa", 0), 0u)
      << *m.find_note("worst_input");
  ASSERT_NE(m.find_note("ulp"), nullptr);
  ASSERT_NE(m.find_note("bound"), nullptr);
  EXPECT_EQ(m.find_note("max_lg2_abs_or_rel"), nullptr);  // lg2's measure only on lg2
  EXPECT_EQ(m.find_note("max_absolute_100pi"), nullptr);  // sin and cos only
  Expectation e;
  e.probe_id = row.id;
  e.kind = ExpectationKind::max;
  e.max = row.bound_value;
  e.unit = "ulp";
  e.source = "cite:test";
  EXPECT_EQ(judge(m, e).outcome, Outcome::pass);
  e.max = 0.5;
  EXPECT_EQ(judge(m, e).outcome, Outcome::fail);
  scan.class_mismatches = 2;
  scan.first_class_mismatch = 0x00000000u;
  scan.first_class_got = 0x7f7fffffu;
  const Measurement bad = approx_measurement(row, scan);
  EXPECT_TRUE(std::isinf(bad.value));
  e.max = row.bound_value;
  EXPECT_EQ(judge(bad, e).outcome, Outcome::fail);
  ASSERT_NE(bad.find_note("violations"), nullptr);
  EXPECT_NE(bad.find_note("violations")->find("0x00000000 -> gpu 0x7f7fffff"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform::numerics
