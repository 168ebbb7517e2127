// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/scalar_mathlib.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::numerics {
namespace {

std::vector<ScalarMath> make_table() {
  const struct {
    const char* name;
    MathFn fn;
    double bound;
    const char* text;
  } rows[] = {
      {"expf", MathFn::expf, 2, "2 (full range)"},
      {"exp2f", MathFn::exp2f, 2, "2 (full range)"},
      {"logf", MathFn::logf, 1, "1 (full range)"},
      {"log2f", MathFn::log2f, 1, "1 (full range)"},
      {"sinf", MathFn::sinf, 2, "2 (full range)"},
      {"cosf", MathFn::cosf, 2, "2 (full range)"},
      {"tanhf", MathFn::tanhf, 2, "2 (full range)"},
      {"sqrtf", MathFn::sqrtf, 0, "0 when compiled with -prec-sqrt=true"},
      {"rsqrtf", MathFn::rsqrtf, 2, "2 (full range)"},
      {"erff", MathFn::erff, 2, "2 (full range)"},
      {"exp10f", MathFn::exp10f, 2, "2 (full range)"},
      {"expm1f", MathFn::expm1f, 1, "1 (full range)"},
      {"log10f", MathFn::log10f, 2, "2 (full range)"},
      {"log1pf", MathFn::log1pf, 1, "1 (full range)"},
      {"tanf", MathFn::tanf, 4, "4 (full range)"},
      {"sinpif", MathFn::sinpif, 1, "1 (full range)"},
      {"cospif", MathFn::cospif, 1, "1 (full range)"},
      {"asinf", MathFn::asinf, 2, "2 (full range)"},
      {"acosf", MathFn::acosf, 2, "2 (full range)"},
      {"atanf", MathFn::atanf, 2, "2 (full range)"},
      {"sinhf", MathFn::sinhf, 3, "3 (full range)"},
      {"coshf", MathFn::coshf, 2, "2 (full range)"},
      {"asinhf", MathFn::asinhf, 3, "3 (full range)"},
      {"acoshf", MathFn::acoshf, 4, "4 (full range)"},
      {"atanhf", MathFn::atanhf, 3, "3 (full range)"},
      {"erfcf", MathFn::erfcf, 4, "4 (full range)"},
      {"cbrtf", MathFn::cbrtf, 1, "1 (full range)"},
      {"rcbrtf", MathFn::rcbrtf, 1, "1 (full range)"},
      {"tgammaf", MathFn::tgammaf, 5, "5 (full range)"},
      {"normcdff", MathFn::normcdff, 5, "5 (full range)"},
  };
  std::vector<ScalarMath> t;
  for (const auto& r : rows)
    t.push_back(ScalarMath{std::string("numeric.math.") + r.name, r.name, r.fn, r.bound, r.text});
  return t;
}

float as_float(std::uint32_t x) {
  float f = 0;
  std::memcpy(&f, &x, sizeof f);
  return f;
}

std::string f32_text(std::uint32_t x) { return fmt::format("0x{:08x} ({:.9g})", x, as_float(x)); }

const ref::MathCall& call_of(const ScalarMath& row) {
  static thread_local std::string cached_name;
  static thread_local ref::MathCall cached;
  if (cached_name != row.name) {
    const std::optional<ref::MathCall> c = ref::find_math_function(row.name);
    if (!c) throw std::logic_error("math_oracle has no " + row.name);
    cached = *c;
    cached_name = row.name;
  }
  return cached;
}

std::uint32_t correctly_rounded(const ScalarMath& row, std::uint32_t x) {
  return static_cast<std::uint32_t>(ref::math_reference(call_of(row), ref::Rounding::kRNE, {x}).bits);
}

}  // namespace

const std::vector<ScalarMath>& scalar_math() {
  static const std::vector<ScalarMath> table = make_table();
  return table;
}

const ScalarMath* find_scalar_math(std::string_view id) {
  for (const ScalarMath& r : scalar_math())
    if (r.id == id) return &r;
  return nullptr;
}

MathDecision decide_flagged(const ScalarMath& row, const std::vector<MathFlagged>& flagged) {
  MathDecision d;
  for (const MathFlagged& f : flagged) {
    const std::uint32_t cr = correctly_rounded(row, f.x);
    if (cr != f.cr64) ++d.rounding_differs;
    const std::uint64_t key = static_cast<std::uint64_t>(error_key(ulp_distance(f.y, cr))) << 32 | f.x;
    if (key > d.worst) {
      d.worst = key;
      d.worst_result = f.y;
    }
  }
  return d;
}

Measurement math_measurement(const ScalarMath& row, const MathScan& scan, const MathDecision& decided) {
  if (scan.flagged_total > scan.flagged.size())
    throw std::runtime_error(
        fmt::format("{}: {} inputs lie near a rounding boundary but only {} were kept (probe defect)", row.id,
                    scan.flagged_total, scan.flagged.size()));
  const auto error_of = [](std::uint64_t key) {
    float f = 0;
    const std::uint32_t bits = static_cast<std::uint32_t>(key >> 32);
    std::memcpy(&f, &bits, sizeof f);
    return static_cast<double>(f);
  };
  const bool from_flagged = decided.worst > scan.worst_ulp;
  const std::uint64_t worst = from_flagged ? decided.worst : scan.worst_ulp;
  const std::uint32_t x = static_cast<std::uint32_t>(worst);
  const std::uint32_t y = from_flagged ? decided.worst_result : scan.worst_ulp_result;
  Measurement m;
  m.unit = "ulp";
  m.compared = scan.compared;
  m.value = scan.nan_mismatches > 0 ? std::numeric_limits<double>::infinity() : error_of(worst);
  m.note("function", row.name);
  m.note("bound", fmt::format("CUDA C++ Programming Guide, Mathematical Functions, Standard Functions: {} {}", row.name,
                              row.bound_text));
  const ref::MathResult cr = ref::math_reference(call_of(row), ref::Rounding::kRNE, {x});
  m.note("worst_input",
         fmt::format("{:.0f} ulp at x = {}: returned {}, correctly rounded {} (exact {})", error_of(worst), f32_text(x),
                     f32_text(y), f32_text(static_cast<std::uint32_t>(cr.bits)), cr.exact));
  m.note("max_real_ulp_error",
         fmt::format("{:.4g} ulp at x = {} (returned {})", error_of(scan.worst_real),
                     f32_text(static_cast<std::uint32_t>(scan.worst_real)), f32_text(scan.worst_real_result)));
  m.note("flagged", fmt::format("{} inputs within 2^-22 ulp of a rounding boundary in binary64, decided by MPFR; "
                                "{} of them round otherwise than the binary64 reference",
                                scan.flagged.size(), decided.rounding_differs));
  if (scan.nan_mismatches > 0) {
    const std::string why = fmt::format(
        "{} inputs return NaN where f(x) is a number or a number where it is NaN; "
        "first x = {}",
        scan.nan_mismatches, f32_text(scan.first_nan_mismatch));
    m.note("nan_mismatches", why + " (the value is +inf)");
    m.note("violations", why);
  }
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  return m;
}

}  // namespace gpuconform::numerics
