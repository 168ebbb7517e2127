// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_conversions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuconform/numerics/scalar_report.hpp"

namespace gpuconform::numerics {
namespace {

using ref::Overflow;
using ref::Rounding;
using ref::scalar::NanRule;
using ref::scalar::Target;
using ref::scalar::target_of;

constexpr Target kF32In = target_of(ref::kFp32, Rounding::kRNE);
constexpr Target kF16In = target_of(ref::kFp16, Rounding::kRNE);
constexpr Target kE4M3In = target_of(ref::kE4M3, Rounding::kRNE);
constexpr Target kE5M2In = target_of(ref::kE5M2, Rounding::kRNE);

constexpr Target f16(Rounding r, bool relu = false) {
  return target_of(ref::kFp16, r, Overflow::kIeee, NanRule::kCanonical, ref::scalar::kF16CanonicalNan, relu);
}
constexpr Target bf16(Rounding r, bool relu = false) {
  return target_of(ref::kBf16, r, Overflow::kIeee, NanRule::kCanonical, ref::scalar::kBf16CanonicalNan, relu);
}
constexpr Target fp8(const ref::FloatFormat& f, bool relu) {
  return target_of(f, Rounding::kRNE, Overflow::kSaturate, NanRule::kCanonical, ref::scalar::kF8CanonicalNan, relu);
}

const char* const kF16Nan =
    "any NaN gives the canonical 0x7fff (CUDA 13.0 cuda_fp16.hpp __internal_float2half, the host emulation of "
    "cvt.rn.f16.f32)";
const char* const kBf16Nan = "any NaN gives the canonical 0x7fff (CUDA 13.0 cuda_bf16.hpp __internal_float2bfloat16)";
const char* const kF8Nan =
    "satfinite: |x| beyond MAX_NORM (448 for e4m3, 57344 for e5m2) and +-inf give +-MAX_NORM; any NaN gives 0x7f "
    "(CUDA 13.0 cuda_fp8.hpp __nv_cvt_float_to_fp8 makes the NaN canonical first)";
const char* const kRelu = "; .relu: a negative result (and -0) gives +0, a NaN the canonical NaN";

std::vector<ScalarConversion> make_table() {
  std::vector<ScalarConversion> t;
  const auto add = [&](std::string ptx, Target source, Target target, int input_bits, int lanes, int min_cc,
                       std::string semantics) {
    t.push_back(ScalarConversion{"numeric.scalar." + ptx, ptx, ConversionSpec{source, target, input_bits, lanes},
                                 min_cc, std::move(semantics)});
  };
  add("cvt.rn.f16.f32", kF32In, f16(Rounding::kRNE), 32, 1, 75,
      fmt::format("IEEE 754 binary16, round to nearest even, overflow to +-inf; {}", kF16Nan));
  add("cvt.rz.f16.f32", kF32In, f16(Rounding::kRZ), 32, 1, 75,
      fmt::format("IEEE 754 binary16, round toward zero, finite overflow to +-65504; {}", kF16Nan));
  add("cvt.rm.f16.f32", kF32In, f16(Rounding::kRD), 32, 1, 75,
      fmt::format("IEEE 754 binary16, round toward -inf (overflow: -inf below, +65504 above); {}", kF16Nan));
  add("cvt.rp.f16.f32", kF32In, f16(Rounding::kRU), 32, 1, 75,
      fmt::format("IEEE 754 binary16, round toward +inf (overflow: +inf above, -65504 below); {}", kF16Nan));
  add("cvt.rn.bf16.f32", kF32In, bf16(Rounding::kRNE), 32, 1, 80,
      fmt::format("bfloat16 (e8m7), round to nearest even, subnormals kept; {}", kBf16Nan));
  add("cvt.rz.bf16.f32", kF32In, bf16(Rounding::kRZ), 32, 1, 80,
      fmt::format("bfloat16 (e8m7), round toward zero, subnormals kept; {}", kBf16Nan));
  add("cvt.rm.bf16.f32", kF32In, bf16(Rounding::kRD), 32, 1, 90,
      fmt::format("bfloat16 (e8m7), round toward -inf, subnormals kept (sm_90: cuda_bf16.hpp __float2bfloat16_rd "
                  "issues it from sm_90 on); {}",
                  kBf16Nan));
  add("cvt.rp.bf16.f32", kF32In, bf16(Rounding::kRU), 32, 1, 90,
      fmt::format("bfloat16 (e8m7), round toward +inf, subnormals kept (sm_90 on, as cvt.rm); {}", kBf16Nan));
  add("cvt.rna.tf32.f32", kF32In, target_of(ref::kTf32, Rounding::kRNA, Overflow::kIeee, NanRule::kTruncated), 32, 1,
      80,
      "tf32 (e8m10 in the top 19 bits, the low 13 bits 0), round to nearest with ties away from zero, overflow to "
      "+-inf; a NaN keeps its sign and its payload's top 10 bits, not made quiet (x & 0xffffe000: ptxas lowers the "
      "conversion for sm_90 to integer operations, SEL on |x| >= inf; a NaN whose payload lies in the low 13 bits "
      "only gives +-inf)");
  add("cvt.rn.satfinite.e4m3x2.f32", kF32In, fp8(ref::kE4M3, false), 32, 2, 89,
      fmt::format("OCP e4m3, round to nearest even, subnormals kept; {}; a -> upper byte", kF8Nan));
  add("cvt.rn.satfinite.relu.e4m3x2.f32", kF32In, fp8(ref::kE4M3, true), 32, 2, 89,
      fmt::format("OCP e4m3, round to nearest even; {}{}", kF8Nan, kRelu));
  add("cvt.rn.satfinite.e5m2x2.f32", kF32In, fp8(ref::kE5M2, false), 32, 2, 89,
      fmt::format("OCP e5m2, round to nearest even, subnormals kept; {}; a -> upper byte", kF8Nan));
  add("cvt.rn.satfinite.relu.e5m2x2.f32", kF32In, fp8(ref::kE5M2, true), 32, 2, 89,
      fmt::format("OCP e5m2, round to nearest even; {}{}", kF8Nan, kRelu));
  add("cvt.rn.f16x2.f32", kF32In, f16(Rounding::kRNE), 32, 2, 80,
      fmt::format("two binary16 results, round to nearest even; {}; a -> upper half", kF16Nan));
  add("cvt.rn.relu.f16x2.f32", kF32In, f16(Rounding::kRNE, true), 32, 2, 80,
      fmt::format("two binary16 results, round to nearest even{}", kRelu));
  add("cvt.rn.bf16x2.f32", kF32In, bf16(Rounding::kRNE), 32, 2, 80,
      fmt::format("two bfloat16 results, round to nearest even; {}; a -> upper half", kBf16Nan));
  add("cvt.rn.relu.bf16x2.f32", kF32In, bf16(Rounding::kRNE, true), 32, 2, 80,
      fmt::format("two bfloat16 results, round to nearest even{}", kRelu));
  add("cvt.f32.f16", kF16In,
      target_of(ref::kFp32, Rounding::kRNE, Overflow::kIeee, NanRule::kCanonical, ref::scalar::kF32CanonicalNan), 16, 1,
      75,
      "exact (every binary16 value is a binary32); any NaN gives 0x7fffffff (CUDA 13.0 cuda_fp16.hpp "
      "__internal_half2float, the host emulation of cvt.f32.f16)");
  add("cvt.rn.f16x2.e4m3x2", kE4M3In, f16(Rounding::kRNE), 16, 2, 89,
      "exact (every e4m3 value is a binary16); NaN (S.1111.111) gives 0x7fff (CUDA 13.0 cuda_fp8.hpp "
      "__nv_cvt_fp8_to_halfraw); upper byte -> upper half");
  add("cvt.rn.f16x2.e5m2x2", kE5M2In, f16(Rounding::kRNE), 16, 2, 89,
      "exact (e5m2 is the top byte of a binary16); any NaN gives 0x7fff (CUDA 13.0 cuda_fp8.hpp "
      "__nv_cvt_fp8_to_halfraw); upper byte -> upper half");
  return t;
}

const char* const kClassNames[ref::scalar::kInputClasses] = {"zero", "subnormal", "normal", "inf", "nan"};

double value_of(const ref::scalar::Value& v) { return std::ldexp(static_cast<double>(v.sig), v.exp); }

}  // namespace

const char* const kCvtCitation =
    "cite:PTX ISA, Data Movement and Conversion Instructions: cvt, its semantics and "
    "table of floating-point rounding modifiers (.rn nearest even, .rz toward zero, .rm toward -inf, .rp toward +inf, "
    ".rna nearest ties away; .satfinite: "
    "NaN stays NaN, beyond MAX_NORM gives +-MAX_NORM; .relu: negative results clamp to 0) "
    "docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt; the rounding is "
    "IEEE 754-2019 4.3 and 7.4";

const std::vector<ScalarConversion>& scalar_conversions() {
  static const std::vector<ScalarConversion> table = make_table();
  return table;
}

const ScalarConversion* find_scalar_conversion(std::string_view id) {
  return scalar_report::find_row(scalar_conversions(), id);
}

std::uint64_t ScalarScan::mismatches() const { return scalar_report::total(mismatches_by_class); }

std::array<std::uint64_t, ref::scalar::kInputClasses> class_totals(const ConversionSpec& s) {
  const Target& f = s.source;
  const int lane_bits = s.lanes == 2 && s.input_bits == 16 ? 8 : s.input_bits;
  const std::uint64_t codes = std::uint64_t{1} << lane_bits;
  const std::uint64_t repeat = (std::uint64_t{1} << s.input_bits) / codes;
  const std::uint64_t man = std::uint64_t{1} << f.man_bits;
  std::array<std::uint64_t, ref::scalar::kInputClasses> n{};
  n[ref::scalar::kClassZero] = 2;
  n[ref::scalar::kClassSubnormal] = 2 * (man - 1);
  n[ref::scalar::kClassInf] = f.specials == ref::Specials::kIeee ? 2 : 0;
  n[ref::scalar::kClassNan] = f.specials == ref::Specials::kIeee ? 2 * (man - 1)
                              : f.specials == ref::Specials::kFn ? 2
                                                                 : 0;
  n[ref::scalar::kClassNormal] = codes - n[0] - n[1] - n[3] - n[4];
  for (std::uint64_t& x : n) x *= repeat;
  return n;
}

std::string describe_input(const ConversionSpec& s, std::uint32_t x) {
  const auto one = [&](std::uint32_t code, int digits) {
    const ref::scalar::Value v = ref::scalar::decode(s.source, code);
    std::string value;
    switch (v.cls) {
      case ref::FpClass::kZero: value = v.negative ? "-0" : "+0"; break;
      case ref::FpClass::kInf: value = v.negative ? "-inf" : "+inf"; break;
      case ref::FpClass::kNaN: value = v.negative ? "-nan" : "nan"; break;
      case ref::FpClass::kFinite: value = fmt::format("{:.9g}", v.negative ? -value_of(v) : value_of(v)); break;
    }
    return fmt::format("0x{:0{}x} ({})", code, digits, value);
  };
  if (s.lanes == 2 && s.input_bits == 16) return fmt::format("{{{}, {}}}", one(x >> 8, 2), one(x & 0xff, 2));
  if (s.lanes == 2) return fmt::format("{{a = {}, b = {}}}", one(x, 8), one(x ^ 0x80000000u, 8));
  return one(x, s.input_bits / 4);
}

Measurement scalar_measurement(const ScalarConversion& c, const ScalarScan& scan) {
  Measurement m = scalar_report::mismatch_measurement(scan.mismatches(), scan.compared, c.ptx);
  m.note("reference", "scalar_round.hpp: " + c.semantics);
  m.note("inputs",
         fmt::format("all {} {} (2^{}){}", scan.compared,
                     c.spec.input_bits == 32 ? "binary32 patterns"
                     : c.spec.lanes == 2     ? "pairs of 8-bit codes"
                                             : "16-bit codes",
                     c.spec.input_bits, c.spec.lanes == 2 && c.spec.input_bits == 32 ? ", a = x and b = -x" : ""));
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  const auto totals = class_totals(c.spec);
  std::string by_class;
  for (int k = 0; k < ref::scalar::kInputClasses; ++k)
    by_class += fmt::format("{}{} {}/{}", k ? ", " : "", kClassNames[k], scan.mismatches_by_class[k], totals[k]);
  m.note("mismatches_by_class", by_class);
  std::vector<ScalarMismatch> first = scan.first;
  std::sort(first.begin(), first.end(),
            [](const ScalarMismatch& a, const ScalarMismatch& b) { return a.input < b.input; });
  const int digits = (c.spec.target.width_bits() * c.spec.lanes + 3) / 4;
  std::vector<std::string> texts;
  for (const ScalarMismatch& x : first)
    texts.push_back(fmt::format("{} {} -> gpu 0x{:0{}x}, reference 0x{:0{}x}", c.ptx, describe_input(c.spec, x.input),
                                x.got, digits, x.want, digits));
  scalar_report::note_mismatches(m, texts);
  scalar_report::note_violations(m, scan.mismatches(), scan.compared, "inputs differ from the reference", by_class);
  return m;
}

}  // namespace gpuconform::numerics
