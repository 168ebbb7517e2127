// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_approx.hpp"

#include "gpuconform/numerics/scalar_arith.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace gpuconform::numerics {
namespace {

const char* const kMeasureNames[kApproxMeasures] = {"absolute",         "relative",       "ulp",
                                                    "ulp_from_rounded", "lg2_abs_or_rel", "absolute_100pi"};
// Units: the ulp rows (ex2, rcp, div) count from the correctly rounded result
// (scalar_approx.hpp says why), lg2's error is absolute in (0.5, 2) and relative outside.
const char* const kMeasureUnits[kApproxMeasures] = {"absolute error", "relative error", "ulp", "ulp",
                                                    "abs/rel error",  "absolute error"};

// Each row in the measure the PTX ISA states its bound in, and the bound (sections of PTX ISA
// 7.6: 9.7.3.13 rcp, .15 sqrt, .16 rsqrt, .18 sin, .19 cos, .20 lg2, .21 ex2, .22 tanh).
std::vector<ScalarApprox> make_table() {
  const float inf = std::numeric_limits<float>::infinity();
  const float two_pi = 6.28318548f;      // binary32 2pi rounded up: [-2pi, 2pi] whole
  const float hundred_pi = 314.159271f;  // binary32 100pi rounded up
  const struct {
    const char* name;
    ApproxFn fn;
    int measure;
    float domain, wide;
    bool has_ftz;
    const char* section;
    const char* bound;
    double bound_value;
  } rows[] = {
      {"ex2", ApproxFn::ex2, kApproxUlpFromRounded, inf, inf, true, "9.7.3.21",
       "the maximum ulp error is 2 ulp from correctly rounded result across the full range of inputs", 2},
      {"lg2", ApproxFn::lg2, kApproxLg2, inf, inf, true, "9.7.3.20",
       "the maximum absolute error is 2^-22 when the input operand is in the range (0.5, 2); for positive finite "
       "inputs outside of this interval, maximum relative error is 2^-22",
       std::ldexp(1.0, -22)},
      {"rsqrt", ApproxFn::rsqrt, kApproxRelative, inf, inf, true, "9.7.3.16",
       "the maximum relative error for rsqrt.f32 over the entire positive finite floating-point range is 2^-22.9",
       std::exp2(-22.9)},
      {"rcp", ApproxFn::rcp, kApproxUlpFromRounded, inf, inf, true, "9.7.3.13",
       "the maximum ulp error is 1 across the full range of inputs", 1},
      {"sqrt", ApproxFn::sqrt, kApproxRelative, inf, inf, true, "9.7.3.15",
       "the maximum relative error over the entire positive finite floating-point range is 2^-23",
       std::ldexp(1.0, -23)},
      {"sin", ApproxFn::sin, kApproxAbsolute, two_pi, hundred_pi, true, "9.7.3.18",
       "the maximum absolute error is 2^-20.5 over [-2pi .. 2pi] and 2^-14.7 over [-100pi .. +100pi]",
       std::exp2(-20.5)},
      {"cos", ApproxFn::cos, kApproxAbsolute, two_pi, hundred_pi, true, "9.7.3.19",
       "the maximum absolute error is 2^-20.5 over [-2pi .. 2pi] and 2^-14.7 over [-100pi .. +100pi]",
       std::exp2(-20.5)},
      {"tanh", ApproxFn::tanh, kApproxRelative, inf, inf, false, "9.7.3.22",
       "the maximum relative error over the entire floating point range is 2^-11", std::ldexp(1.0, -11)},
      {"div", ApproxFn::div_approx, kApproxUlpFromRounded, std::ldexp(1.0f, 126), inf, true, "9.7.3.8",
       "div.approx.f32 implements a fast approximation to divide, computed as d = a * (1/b); for |b| in "
       "[2^-126, 2^126], the maximum ulp error is 2",
       2},
      {"div", ApproxFn::div_full, kApproxUlpFromRounded, inf, inf, true, "9.7.3.8",
       "div.full.f32 implements a relatively fast, full-range approximation that scales operands to achieve better "
       "accuracy; the maximum ulp error is 2 across the full range of inputs",
       2},
  };
  std::vector<ScalarApprox> t;
  for (const auto& r : rows)
    for (bool ftz : {false, true}) {
      if (ftz && !r.has_ftz) continue;
      const std::string ptx =
          fmt::format("{}.{}{}.f32", r.name, r.fn == ApproxFn::div_full ? "full" : "approx", ftz ? ".ftz" : "");
      t.push_back(ScalarApprox{"numeric.scalar." + ptx, ptx, ApproxSpec{r.fn, r.measure, r.domain, r.wide, ftz}, 75,
                               kMeasureUnits[r.measure],
                               fmt::format("PTX ISA, Floating Point Instructions: {} (section {} in PTX ISA 7.6): {}",
                                           r.name, r.section, r.bound),
                               r.bound_value});
    }
  return t;
}

std::string f32_text(float f) {
  std::uint32_t x = 0;
  std::memcpy(&x, &f, sizeof x);
  return fmt::format("0x{:08x} ({:.9g})", x, f);
}

double error_of(std::uint64_t key) {
  float f = 0;
  const std::uint32_t bits = static_cast<std::uint32_t>(key >> 32);
  std::memcpy(&f, &bits, sizeof f);
  return static_cast<double>(f);
}

float input_of(std::uint64_t key) {
  float f = 0;
  const std::uint32_t bits = static_cast<std::uint32_t>(key);
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

std::string approx_div_operands(std::uint64_t i) {
  const ArithOperands o = arith_operands(ArithOp::div, i);
  float a = 0, b = 0;
  std::memcpy(&a, &o.a, sizeof a);
  std::memcpy(&b, &o.b, sizeof b);
  return fmt::format("a = {}, b = {}", f32_text(a), f32_text(b));
}

const std::vector<ScalarApprox>& scalar_approx() {
  static const std::vector<ScalarApprox> table = make_table();
  return table;
}

const ScalarApprox* find_scalar_approx(std::string_view id) {
  for (const ScalarApprox& r : scalar_approx())
    if (r.id == id) return &r;
  return nullptr;
}

Measurement approx_measurement(const ScalarApprox& row, const ApproxScan& scan) {
  Measurement m;
  m.unit = row.metric_text;
  m.compared = scan.compared;
  const int k = row.spec.measure;
  m.value = scan.class_mismatches > 0 ? std::numeric_limits<double>::infinity() : error_of(scan.worst[k]);
  m.note("instruction", row.ptx);
  m.note("bound", row.bound);
  m.note("reference", "CUDA's binary64 library (within 2 binary64 ulps)" +
                          std::string(row.spec.ftz ? "; .ftz: subnormal inputs read as zeros of their sign, a zero "
                                                     "result measured as the value nearest the reference that .ftz "
                                                     "flushes to it (the zero or a subnormal of its sign)"
                                                   : ""));
  if (k == kApproxUlpFromRounded)
    m.note("ulp",
           "the integer distance from the correctly rounded result (CUDA C++ Programming Guide, "
           "Mathematical Functions: the difference in ulps between the returned and the correctly rounded "
           "result); the real-valued |y - r| / ulp(r) is max_ulp");
  const bool binary = approx_binary(row.spec.fn);
  const std::string where =
      binary                        ? (std::isinf(row.spec.domain)
                                           ? std::string("every operand tuple (numerics/scalar_arith.hpp, div)")
                                           : fmt::format("the operand tuples with 2^-126 <= |b| <= {:.9g}", row.spec.domain))
      : std::isinf(row.spec.domain) ? std::string("every input")
                                    : fmt::format("|x| <= {:.9g}", row.spec.domain);
  m.note("domain", fmt::format("{} with a finite reference: {} of {} inputs measured; {} more with an exact NaN, "
                               "+-inf or 0 result (class checked)",
                               where, scan.in_domain, scan.compared, scan.special));
  const auto text = [&](int i) {
    const std::string at = binary ? fmt::format("tuple {}: {}", static_cast<std::uint32_t>(scan.worst[i]),
                                                approx_div_operands(static_cast<std::uint32_t>(scan.worst[i])))
                                  : "x = " + f32_text(input_of(scan.worst[i]));
    return fmt::format("{:.6g} at {} (gpu {}, reference {:.17g})", error_of(scan.worst[i]), at,
                       f32_text(scan.worst_result[i]), scan.worst_reference[i]);
  };
  m.note("worst_input", text(k));
  for (int i = 0; i < kApproxMeasures; ++i) {
    if (i == kApproxLg2 && row.spec.fn != ApproxFn::lg2) continue;
    if (i == kApproxAbsoluteWide && std::isinf(row.spec.wide_domain)) continue;
    m.note(fmt::format("max_{}", kMeasureNames[i]), text(i));
  }
  if (scan.class_mismatches == 0) {
    m.note("class_mismatches", "0: every exact NaN, +-inf and 0 result is of that class on the GPU too");
  } else {
    const std::string first = fmt::format(
        "{} inputs give a result of another class (NaN, +-inf, 0) than the "
        "reference's; first {}0x{:08x} -> gpu 0x{:08x}",
        scan.class_mismatches, binary ? "tuple " : "", scan.first_class_mismatch, scan.first_class_got);
    m.note("class_mismatches", first + " (the value is +inf)");
    m.note("violations", first);
  }
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  return m;
}

}  // namespace gpuconform::numerics
