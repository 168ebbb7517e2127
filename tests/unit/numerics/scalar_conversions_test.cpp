// SPDX-License-Identifier: Apache-2.0
// The host half of numeric.scalar.cvt.* (numerics/scalar_conversions.hpp): the table, the
// reference each GPU thread computes (against FloatFormat, lane packing included), the
// class totals, and the Measurement a scan becomes, judged against the invariant entry
// (max 0): zero mismatches pass, one fails with the mismatching input in the reason.
#include "gpuconform/numerics/scalar_conversions.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <set>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform::numerics {
namespace {

namespace sc = ref::scalar;

const ref::FloatFormat& format_of(const sc::Target& t) {
  for (const ref::FloatFormat* f : {&ref::kFp32, &ref::kTf32, &ref::kFp16, &ref::kBf16, &ref::kE4M3, &ref::kE5M2})
    if (f->exp_bits == t.exp_bits && f->man_bits == t.man_bits && f->pad_bits == t.pad_bits) return *f;
  ADD_FAILURE() << "no FloatFormat with e" << t.exp_bits << "m" << t.man_bits;
  return ref::kFp32;
}

// The expected result of one lane from FloatFormat and the row's rules (NaN, relu).
std::uint32_t lane_from_float_format(const ScalarConversion& c, std::uint32_t code) {
  const ref::FloatFormat& in = format_of(c.spec.source);
  const ref::FloatFormat& out = format_of(c.spec.target);
  const ref::Unpacked u = ref::decode(in, code);
  if (u.cls == ref::FpClass::kNaN && c.spec.target.nan == sc::NanRule::kTruncated)
    return code & ~((1u << c.spec.target.pad_bits) - 1);  // tf32: the register's bits truncated
  if (u.cls == ref::FpClass::kNaN) return c.spec.target.canonical_nan;
  if (c.spec.target.relu && u.negative) return 0;
  return static_cast<std::uint32_t>(ref::encode(out, u, c.spec.target.rounding, c.spec.target.overflow));
}

std::vector<std::uint32_t> sample_inputs(int bits) {
  std::vector<std::uint32_t> in;
  if (bits == 16) {
    for (std::uint32_t x = 0; x < 0x10000; ++x) in.push_back(x);
    return in;
  }
  for (std::uint32_t hi = 0; hi < 0x10000; ++hi)
    for (std::uint32_t lo : {0x0000u, 0x0001u, 0x0fffu, 0x1000u, 0x1001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu})
      in.push_back(hi << 16 | lo);
  std::mt19937 rng(22);
  for (int i = 0; i < 1 << 20; ++i) in.push_back(static_cast<std::uint32_t>(rng()));
  return in;
}

TEST(ScalarConversions, TableRowsAreProbeIdsOfTheirInstruction) {
  std::set<std::string> ids;
  ASSERT_GE(scalar_conversions().size(), 9u);
  for (const ScalarConversion& c : scalar_conversions()) {
    EXPECT_EQ(c.id, "numeric.scalar." + c.ptx);
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    for (char ch : c.id)
      EXPECT_TRUE(std::islower(static_cast<unsigned char>(ch)) || std::isdigit(ch) || ch == '.') << c.id;
    EXPECT_TRUE(c.spec.input_bits == 32 || c.spec.input_bits == 16) << c.id;
    EXPECT_TRUE(c.spec.lanes == 1 || c.spec.lanes == 2) << c.id;
    EXPECT_LE(c.spec.target.width_bits() * c.spec.lanes, 32) << c.id;
    EXPECT_EQ(find_scalar_conversion(c.id), &c);
    EXPECT_FALSE(c.semantics.empty()) << c.id;
  }
  // The instructions the issue names (issue 22 item 1) are all there.
  for (const char* id :
       {"numeric.scalar.cvt.rn.f16.f32", "numeric.scalar.cvt.rz.f16.f32", "numeric.scalar.cvt.rn.bf16.f32",
        "numeric.scalar.cvt.rz.bf16.f32", "numeric.scalar.cvt.rna.tf32.f32",
        "numeric.scalar.cvt.rn.satfinite.e4m3x2.f32", "numeric.scalar.cvt.rn.satfinite.relu.e4m3x2.f32",
        "numeric.scalar.cvt.rn.satfinite.e5m2x2.f32", "numeric.scalar.cvt.rn.satfinite.relu.e5m2x2.f32",
        "numeric.scalar.cvt.f32.f16"})
    EXPECT_NE(find_scalar_conversion(id), nullptr) << id;
  EXPECT_EQ(find_scalar_conversion("numeric.scalar.cvt.rm.e4m3x2.f32"), nullptr);
}

// conversion_reference() packs each lane's FloatFormat result: a (= x) in the upper lane,
// b (= -x) in the lower one; two FP8 codes upper byte -> upper half.
TEST(ScalarConversions, ReferenceEqualsFloatFormatLaneByLane) {
  for (const ScalarConversion& c : scalar_conversions()) {
    SCOPED_TRACE(c.id);
    long wrong = 0;
    std::string first;
    const int width = c.spec.target.width_bits();
    for (std::uint32_t x : sample_inputs(c.spec.input_bits)) {
      std::uint32_t want = 0;
      if (c.spec.lanes == 1) {
        want = lane_from_float_format(c, x);
      } else if (c.spec.input_bits == 32) {
        want = lane_from_float_format(c, x) << width | lane_from_float_format(c, x ^ 0x80000000u);
      } else {
        want = lane_from_float_format(c, x >> 8) << width | lane_from_float_format(c, x & 0xff);
      }
      const std::uint32_t got = conversion_reference(c.spec, x);
      if (got != want && wrong++ == 0) first = fmt::format("0x{:08x}: 0x{:x} against 0x{:x}", x, got, want);
    }
    EXPECT_EQ(wrong, 0) << first;
  }
}

TEST(ScalarConversions, ClassTotalsCountEveryInputOnce) {
  for (const ScalarConversion& c : scalar_conversions()) {
    const auto totals = class_totals(c.spec);
    std::uint64_t sum = 0;
    for (std::uint64_t n : totals) sum += n;
    EXPECT_EQ(sum, std::uint64_t{1} << c.spec.input_bits) << c.id;
  }
  const auto f32 = class_totals(find_scalar_conversion("numeric.scalar.cvt.rn.f16.f32")->spec);
  EXPECT_EQ(f32[sc::kClassZero], 2u);
  EXPECT_EQ(f32[sc::kClassSubnormal], 2u * ((1u << 23) - 1));
  EXPECT_EQ(f32[sc::kClassInf], 2u);
  EXPECT_EQ(f32[sc::kClassNan], 2u * ((1u << 23) - 1));
  // e4m3 pairs, counted by the upper code: 2 NaN codes x 256 lower codes, no inf.
  const auto e4m3 = class_totals(find_scalar_conversion("numeric.scalar.cvt.rn.f16x2.e4m3x2")->spec);
  EXPECT_EQ(e4m3[sc::kClassNan], 512u);
  EXPECT_EQ(e4m3[sc::kClassInf], 0u);
  EXPECT_EQ(e4m3[sc::kClassSubnormal], 14u * 256);
  // The same counts the class function gives input by input (every f16 code).
  const ConversionSpec& f16 = find_scalar_conversion("numeric.scalar.cvt.f32.f16")->spec;
  std::array<std::uint64_t, sc::kInputClasses> counted{};
  for (std::uint32_t x = 0; x < 0x10000; ++x) ++counted[conversion_input_class(f16, x)];
  EXPECT_EQ(counted, class_totals(f16));
}

TEST(ScalarConversions, DescribesInputsWithTheirValues) {
  const ScalarConversion& f16 = *find_scalar_conversion("numeric.scalar.cvt.rn.f16.f32");
  EXPECT_EQ(describe_input(f16.spec, 0x3f800000u), "0x3f800000 (1)");
  EXPECT_EQ(describe_input(f16.spec, 0xff800000u), "0xff800000 (-inf)");
  EXPECT_EQ(describe_input(f16.spec, 0x7fc00001u), "0x7fc00001 (nan)");
  EXPECT_EQ(describe_input(f16.spec, 0x80000000u), "0x80000000 (-0)");
  const ScalarConversion& e4m3 = *find_scalar_conversion("numeric.scalar.cvt.rn.satfinite.e4m3x2.f32");
  EXPECT_EQ(describe_input(e4m3.spec, 0x43e80000u), "{a = 0x43e80000 (464), b = 0xc3e80000 (-464)}");
  const ScalarConversion& pair = *find_scalar_conversion("numeric.scalar.cvt.rn.f16x2.e4m3x2");
  EXPECT_EQ(describe_input(pair.spec, 0x7f01u), "{0x7f (nan), 0x01 (0.001953125)}");
}

Expectation invariant_entry(const std::string& id) {
  Expectation e;
  e.probe_id = id;
  e.kind = ExpectationKind::max;
  e.max = 0;
  e.unit = "mismatches";
  e.source = "cite:test";
  return e;
}

TEST(ScalarConversions, ZeroMismatchesPassAndOneFailsNamingTheInput) {
  const ScalarConversion& c = *find_scalar_conversion("numeric.scalar.cvt.rn.satfinite.e4m3x2.f32");
  ScalarScan clean;
  clean.compared = std::uint64_t{1} << 32;
  clean.gpu_ms = 12.5;
  const Measurement ok = scalar_measurement(c, clean);
  EXPECT_EQ(ok.value, 0);
  EXPECT_EQ(ok.unit, "mismatches");
  EXPECT_EQ(ok.compared, std::uint64_t{1} << 32);
  EXPECT_EQ(ok.find_note("violations"), nullptr);
  ASSERT_NE(ok.find_note("mismatches_by_class"), nullptr);
  EXPECT_EQ(*ok.find_note("mismatches_by_class"),
            "zero 0/2, subnormal 0/16777214, normal 0/4261412864, inf 0/2, nan 0/16777214");
  EXPECT_EQ(judge(ok, invariant_entry(c.id)).outcome, Outcome::pass);

  // The GPU saturating 464 to NaN (0x7f) instead of 448 (0x7e), say: one input, both lanes.
  ScalarScan bad = clean;
  const std::uint32_t x = 0x43e80000u;
  const std::uint32_t want = conversion_reference(c.spec, x);
  EXPECT_EQ(want, 0x7efeu);
  bad.first.push_back({0x7f800000u, 0x7efeu, 0x7efeu ^ 1});  // kept out of order: sorted by input
  bad.first.push_back({x, 0x7ffeu, want});
  bad.mismatches_by_class[sc::kClassNormal] = 1;
  bad.mismatches_by_class[sc::kClassInf] = 1;
  const Measurement m = scalar_measurement(c, bad);
  EXPECT_EQ(m.value, 2);
  ASSERT_NE(m.find_note("first_mismatch"), nullptr);
  EXPECT_EQ(
      *m.find_note("first_mismatch"),
      "cvt.rn.satfinite.e4m3x2.f32 {a = 0x43e80000 (464), b = 0xc3e80000 (-464)} -> gpu 0x7ffe, reference 0x7efe");
  const Verdict v = judge(m, invariant_entry(c.id));
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("2 of 4294967296 inputs differ"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("a = 0x43e80000 (464)"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("normal 1/4261412864"), std::string::npos) << v.reason;
}

// A wrong instruction simulated on the CPU (round toward zero where the row says nearest)
// is found by the scan's own comparison, counted in the right classes.
TEST(ScalarConversions, ASimulatedWrongInstructionIsCaught) {
  const ScalarConversion& c = *find_scalar_conversion("numeric.scalar.cvt.rn.bf16.f32");
  ConversionSpec wrong_spec = c.spec;
  wrong_spec.target.rounding = ref::Rounding::kRZ;
  ScalarScan scan;
  for (std::uint32_t x : sample_inputs(32)) {
    ++scan.compared;
    const std::uint32_t got = conversion_reference(wrong_spec, x), want = conversion_reference(c.spec, x);
    if (got == want) continue;
    ++scan.mismatches_by_class[conversion_input_class(c.spec, x)];
    if (scan.first.size() < 8) scan.first.push_back({x, got, want});
  }
  const Measurement m = scalar_measurement(c, scan);
  EXPECT_GT(m.value, 100000);
  EXPECT_EQ(scan.mismatches_by_class[sc::kClassNan], 0u);
  EXPECT_EQ(scan.mismatches_by_class[sc::kClassZero], 0u);
  EXPECT_GT(scan.mismatches_by_class[sc::kClassSubnormal], 0u);  // bf16 keeps f32's exponent range
  EXPECT_EQ(judge(m, invariant_entry(c.id)).outcome, Outcome::fail);
}

}  // namespace
}  // namespace gpuconform::numerics
