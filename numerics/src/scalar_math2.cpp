// SPDX-License-Identifier: Apache-2.0
// The host half of the two-argument math probes (scalar_math2.hpp): the table and its
// Programming Guide bounds, the MPFR decision of flagged pairs, the Measurement.
#include "gpuconform/numerics/scalar_math2.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "gpuconform/numerics/scalar_math_worst.hpp"
#include "gpuconform/reference/math_oracle.hpp"

namespace gpuconform::numerics {
namespace {

std::vector<ScalarMath2> make_table() {
  const char* std_table = "Standard Functions";
  const char* intrinsic = "Intrinsic Functions";
  std::vector<ScalarMath2> t = {
      {"numeric.math.powf", "powf", "powf", {Math2Fn::powf}, true, 4, "4 (full range)", std_table},
      {"numeric.math.atan2f", "atan2f", "atan2f", {Math2Fn::atan2f}, true, 3, "3 (full range)", std_table},
      {"numeric.math.hypotf", "hypotf", "hypotf", {Math2Fn::hypotf}, true, 3, "3 (full range)", std_table},
      {"numeric.math.fmodf", "fmodf", "fmodf", {Math2Fn::fmodf}, true, 0, "0 (full range)", std_table},
      {"numeric.math.remainderf",
       "remainderf",
       "remainderf",
       {Math2Fn::remainderf},
       true,
       0,
       "0 (full range)",
       std_table},
      {"numeric.math.intrinsic.powf",
       "powf",
       "__powf",
       {Math2Fn::i_powf, true, 0, kMathNoLimit, true},
       false,
       0,
       "Derived from its implementation as exp2f(y * __log2f(x))",
       intrinsic},
      {"numeric.math.intrinsic.fdividef",
       "divf",
       "__fdividef",
       {Math2Fn::i_fdividef, false, std::ldexp(1.0, -126), std::ldexp(1.0, 126)},
       true,
       2,
       "For |y| in [2^-126, 2^126], the maximum ulp error is 2",
       intrinsic},
      {"numeric.math.intrinsic.fdiv_rn",
       "divf",
       "__fdiv_rn",
       {Math2Fn::i_fdiv_rn},
       true,
       0,
       "IEEE-compliant",
       intrinsic},
  };
  return t;
}

float as_float(std::uint32_t x) { return math2_float(x); }
std::string f32_text(std::uint32_t x) { return fmt::format("0x{:08x} ({:.9g})", x, as_float(x)); }

double error_of(std::uint64_t key) { return static_cast<double>(as_float(static_cast<std::uint32_t>(key >> 32))); }
std::uint64_t key_of(double error, std::uint32_t i) { return static_cast<std::uint64_t>(error_key(error)) << 32 | i; }

// The pair as the reference reads it: __powf's subnormal operands flushed (the Math API), or
// not where the returned y is nearer that reading (math_reads_unflushed, as on the GPU).
std::vector<std::uint64_t> operands(const ScalarMath2& row, std::uint32_t index, bool flushed) {
  std::uint32_t a = 0, b = 0;
  math2_pair(row.spec.fn, index, a, b);
  MathSpec flush{MathFn::expf};
  flush.ftz = row.spec.ftz && flushed;
  return {f32_bits_of(math_flush_input(flush, as_float(a))), f32_bits_of(math_flush_input(flush, as_float(b)))};
}

ref::MathResult reference_read(const ScalarMath2& row, std::uint32_t index, bool flushed) {
  thread_local std::string name;
  thread_local ref::MathCall call;
  if (name != row.name) {
    const std::optional<ref::MathCall> c = ref::find_math_function(row.name);
    if (!c) throw std::logic_error("math_oracle has no " + row.name);
    call = *c;
    name = row.name;
  }
  return ref::math_reference(call, ref::Rounding::kRNE, operands(row, index, flushed));
}

ref::MathResult reference_at(const ScalarMath2& row, std::uint32_t index, std::uint32_t y) {
  ref::MathResult flushed = reference_read(row, index, true);
  if (operands(row, index, true) == operands(row, index, false)) return flushed;
  ref::MathResult raw = reference_read(row, index, false);
  const double fv = std::strtod(flushed.exact.c_str(), nullptr), rv = std::strtod(raw.exact.c_str(), nullptr);
  return math_reads_unflushed(as_float(y), fv, rv) ? raw : flushed;
}

MathDecision decide_range(const ScalarMath2& row, const MathFlagged* begin, const MathFlagged* end) {
  MathDecision d;
  MathSpec distance_spec{MathFn::expf};
  distance_spec.ftz = row.spec.ftz;
  for (const MathFlagged* f = begin; f != end; ++f) {
    const ref::MathResult exact = reference_at(row, f->x, f->y);
    const std::uint32_t cr = static_cast<std::uint32_t>(exact.bits);
    if (cr != f->cr64) ++d.rounding_differs;
    std::uint32_t a = 0, b = 0;
    math2_pair(row.spec.fn, f->x, a, b);
    const bool judged = math2_judged(row.spec, as_float(a), as_float(b));
    const std::uint64_t k = key_of(math_distance(distance_spec, f->y, cr), f->x);
    std::uint64_t& worst = judged ? d.worst : d.worst_unjudged;
    std::uint32_t& result = judged ? d.worst_result : d.worst_unjudged_result;
    if (k > worst) {
      worst = k;
      result = f->y;
    }
    const double v = std::strtod(exact.exact.c_str(), nullptr), yv = as_float(f->y);
    if (std::isfinite(v) && std::isfinite(yv) && std::fabs(v) <= 3.4028235677973366e38) {
      const std::uint64_t rk = key_of(std::fabs(yv - v) / f32_ulp_at(v), f->x);
      if (rk > d.worst_real) {
        d.worst_real = rk;
        d.worst_real_result = f->y;
      }
    }
  }
  return d;
}

std::string pair_text(const ScalarMath2& row, std::uint32_t index) {
  std::uint32_t a = 0, b = 0;
  math2_pair(row.spec.fn, index, a, b);
  return fmt::format("({}, {}) (pair {})", f32_text(a), f32_text(b), index);
}

std::string input_note(const ScalarMath2& row, std::uint64_t key, std::uint32_t y) {
  const std::uint32_t index = static_cast<std::uint32_t>(key);
  const ref::MathResult cr = reference_at(row, index, y);
  return fmt::format("{:.0f} ulp at {}: returned {}, correctly rounded {} (exact {})", error_of(key),
                     pair_text(row, index), f32_text(y), f32_text(static_cast<std::uint32_t>(cr.bits)), cr.exact);
}

}  // namespace

std::uint64_t math2_pair_count() {
  const char* v = std::getenv("GPUCONFORM_SCALAR_LONG");
  return v && std::string_view(v) == "1" ? kMath2Pairs : kMath2StandardPairs;
}

const std::vector<ScalarMath2>& scalar_math2() {
  static const std::vector<ScalarMath2> table = make_table();
  return table;
}

const ScalarMath2* find_scalar_math2(std::string_view id) {
  for (const ScalarMath2& r : scalar_math2())
    if (r.id == id) return &r;
  return nullptr;
}

MathDecision decide_flagged2(const ScalarMath2& row, const std::vector<MathFlagged>& flagged) {
  return decide_on_every_core(flagged,
                              [&row](const MathFlagged* b, const MathFlagged* e) { return decide_range(row, b, e); });
}

Measurement math2_measurement(const ScalarMath2& row, const MathScan& scan, const MathDecision& decided,
                              std::uint64_t signed_zero_differences) {
  if (scan.flagged_total > scan.flagged.size())
    throw std::runtime_error(
        fmt::format("{}: {} pairs lie near a rounding boundary but only {} were kept (probe defect)", row.id,
                    scan.flagged_total, scan.flagged.size()));
  const bool from_flagged = decided.worst > scan.worst_ulp;
  const std::uint64_t worst = from_flagged ? decided.worst : scan.worst_ulp;
  // A NaN mismatch on the judged domain: kMathBeyondBound, finite and over any bound, at its pair.
  const bool nan_judged = scan.nan_mismatches > 0;
  const std::uint32_t index = nan_judged ? scan.first_nan_mismatch : static_cast<std::uint32_t>(worst);
  Measurement m;
  m.unit = "ulp";
  m.compared = scan.compared;
  m.value = nan_judged ? kMathBeyondBound : error_of(worst);
  m.note("function", row.label);
  m.note("bound", fmt::format("CUDA C++ Programming Guide, Mathematical Functions, {}: {}(x, y) {}{}", row.table,
                              row.label, row.bound_text, row.judged ? "" : " (no number: recorded, not judged)"));
  m.note("pairs",
         fmt::format("{} deterministic pairs (numerics/scalar_math2.hpp: {} directed, the rest hashed from "
                     "seed 0x{:x} into eight classes){}",
                     scan.compared, kMath2Specials * kMath2Specials, kMath2Seed,
                     scan.compared < kMath2Pairs ? "; the standard sample: 2^30 with GPUCONFORM_SCALAR_LONG=1" : ""));
  m.note("worst_input", nan_judged
                            ? fmt::format("{} returns NaN where f is a number or a number where it is NaN (f = {})",
                                          pair_text(row, index), reference_read(row, index, true).exact)
                            : input_note(row, worst, from_flagged ? decided.worst_result : scan.worst_ulp_result));
  const bool real_flagged = decided.worst_real > scan.worst_real;
  const std::uint64_t real = real_flagged ? decided.worst_real : scan.worst_real;
  m.note("max_real_ulp_error",
         fmt::format("{:.4g} ulp at {} (returned {})", error_of(real), pair_text(row, static_cast<std::uint32_t>(real)),
                     f32_text(real_flagged ? decided.worst_real_result : scan.worst_real_result)));
  m.note("flagged", fmt::format("{} pairs within 2^{:.0f} ulp of a rounding boundary in binary64, decided by MPFR; {} "
                                "of them round otherwise than the binary64 reference",
                                scan.flagged.size(), std::log2(row.spec.flag_ulps), decided.rounding_differs));
  const std::string outside = row.spec.a_positive
                                  ? std::string("x not finite and > 0, or y not finite")
                                  : fmt::format("|y| outside [{:g}, {:g}]", row.spec.b_lo, row.spec.b_hi);
  if (row.spec.a_positive || row.spec.b_lo > 0 || row.spec.b_hi < kMathNoLimit) {
    const bool un_flagged = decided.worst_unjudged > scan.worst_unjudged;
    const std::uint64_t un = un_flagged ? decided.worst_unjudged : scan.worst_unjudged;
    m.note("outside_bound",
           fmt::format("where the bound does not speak ({}): {}", outside,
                       input_note(row, un, un_flagged ? decided.worst_unjudged_result : scan.worst_unjudged_result)));
  }
  if (scan.nan_unjudged > 0)
    m.note("nan_outside_bound",
           fmt::format("{} pairs where the bound does not speak ({}) return NaN where f is a number or a number "
                       "where it is NaN (excluded, not judged); first {}",
                       scan.nan_unjudged, outside, pair_text(row, scan.first_nan_unjudged)));
  m.note("signed_zero", fmt::format("{} results are a zero of the other sign than the correctly rounded zero "
                                    "(0 ulps apart: counted, not judged)",
                                    signed_zero_differences));
  if (scan.nan_mismatches > 0) {
    const std::string why = fmt::format("{} pairs return NaN where f is a number or a number where it is NaN; first {}",
                                        scan.nan_mismatches, pair_text(row, scan.first_nan_mismatch));
    m.note("nan_mismatches", why + " (the value is 2^32, beyond any bound)");
    m.note("violations", why);
  }
  m.note("gpu_ms", fmt::format("{:.2f}", scan.gpu_ms));
  std::uint32_t a = 0, b = 0;
  math2_pair(row.spec.fn, index, a, b);
  m.note("model", worst_model(m.value, fmt::format("x=0x{:08x},y=0x{:08x}", a, b)));  // of this sample
  return m;
}

}  // namespace gpuconform::numerics
