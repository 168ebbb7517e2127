// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.math.<fn>: the CUDA math library's binary32 univariate functions and the
// -use_fast_math intrinsics (numeric.math.intrinsic.<fn>: __expf, __logf, ...) over all 2^32
// inputs (kernels/numeric/scalar_mathlib.cu), measured as the CUDA C++ Programming Guide
// states its bounds: the integer distance in ulps between the returned result and the
// correctly rounded one (round to nearest even), the real-valued error |y - f(x)| / ulp(f(x))
// beside it; or, where the Guide states an absolute error on a range (__logf on [0.5, 2],
// __sinf on [-pi, pi]), the largest |y - f(x)| there. A row's bound may hold on part of the
// range only (lgammaf outside (-10.001, -2.264)): the value is the maximum where it holds,
// the maximum elsewhere a note. A bound that grows with x (__expf: 2 + floor(|1.173 x|)) is
// met by subtracting the growth: the value is the distance minus floor(|1.173 x|).
//
// The correctly rounded result comes from a binary64 reference on the GPU (CUDA's double
// library: within 1 to 10 binary64 ulps by the Programming Guide's table, at most 2^-24.6
// binary32 ulps) rounded to binary32, which is
// f(x) correctly rounded unless f(x) lies within that distance of a binary32 rounding
// boundary (a midpoint of two binary32 values). The GPU flags every input whose binary64
// reference lies within kMathFlagUlps of a midpoint (over 6 times that margin, 32 times for the functions whose
// binary64 version is within 2 ulps) and keeps it with the returned result; the host decides those with MPFR
// (reference/math_oracle.hpp), so every reported distance is exact. Where the binary64
// reference is not trusted to that margin the flag widens (math_flag_ulps):
//   erfinvf, erfcinvf  2^-20 everywhere: the Guide's own binary32 bound for erfcinvf was
//                      reported too small near 0 (NVIDIA forum, "Larger than expected /
//                      documented error in erfcinvf()"), so its binary64 sibling gets 4 times
//                      the usual margin (a few thousand more MPFR roots, host threads);
//   lgammaf            near its roots the value is small and CUDA's lgamma is accurate in
//                      absolute, not relative, terms; on (-24, -2), where the Guide states no
//                      binary64 bound ("larger inside" (-23.0001, -2.2637)), the reference is
//                      the reflection log(pi) - log|sinpi(x)| - lgamma(1 - x) from functions
//                      with stated bounds, with the absolute error bound E it carries
//                      (lgamma_reference); the flag is then 2 E / ulp(r), which next to a
//                      root reaches 1/2 and flags every input (a few thousand per function).
//                      Where the flag exceeds 2^-12 an unflagged input's integer distance is
//                      still exact but its real-valued error is not printed to 4 digits: such
//                      inputs stay out of max_real_ulp_error (the flagged ones are in it).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/scalar_approx.hpp"  // f32_ulp_at, error_key, ordered_f32, f32_bits_of

namespace gpuconform::numerics {

enum class MathFn : std::uint8_t {
  expf,
  exp2f,
  logf,
  log2f,
  sinf,
  cosf,
  tanhf,
  sqrtf,
  rsqrtf,
  erff,
  exp10f,
  expm1f,
  log10f,
  log1pf,
  tanf,
  sinpif,
  cospif,
  asinf,
  acosf,
  atanf,
  sinhf,
  coshf,
  asinhf,
  acoshf,
  atanhf,
  erfcf,
  cbrtf,
  rcbrtf,
  tgammaf,
  normcdff,
  erfinvf,
  erfcinvf,
  lgammaf,
  // the -use_fast_math intrinsics (Programming Guide, Intrinsic Functions)
  i_expf,
  i_exp10f,
  i_logf,
  i_log2f,
  i_log10f,
  i_sinf,
  i_cosf,
  i_tanf,
  i_fsqrt_rn,
  i_frcp_rn
};

// Inputs within this many binary32 ulps of a rounding boundary are decided by MPFR.
inline constexpr double kMathFlagUlps = 1.0 / (1 << 22);
inline constexpr double kMathNoLimit = 1e300;  // a domain end that is no end

enum class MathMeasure : std::uint8_t {
  ulp,       // integer distance from the correctly rounded result (minus the allowance)
  absolute,  // |y - f(x)|, f(x) from the binary64 reference
};

// What a GPU thread needs of a row (passed by value to the kernel).
struct MathSpec {
  MathFn fn;
  MathMeasure measure = MathMeasure::ulp;
  // The judged domain: x in [lo, hi] (judge_inside) or outside it; the default is every x.
  double lo = -kMathNoLimit, hi = kMathNoLimit;
  bool judge_inside = true;
  // The bound grows by floor(|allowance_slope * x|) ulps (__expf 1.173, __exp10f 2.97).
  double allowance_slope = 0;
  double flag_ulps = kMathFlagUlps;
  // The intrinsics: "most input and output values around denormal range are flushed to
  // sign preserving 0.0" (CUDA Math API, __expf and its siblings): the reference reads a
  // subnormal x as a zero of its sign, and a zero result stands for the subnormals of its sign.
  bool ftz = false;
};

// x as the reference reads it (math_flush_input) and the row's distance of y from cr.
GC_SCALAR_HD float math_flush_input(const MathSpec& s, float x) {
  if (!s.ftz || x != x) return x;
  const float a = x < 0 ? -x : x;
  return a < 1.17549435e-38f ? x * 0.0f : x;  // keeps the sign of zero
}

// A finite value beyond any bound: NaN against a number (ulp_distance), an infinity against a
// finite value (an absolute error), a NaN mismatch on the judged domain (the measured value,
// which must be finite: the worst_input note names the input).
inline constexpr double kMathBeyondBound = 4294967296.0;

// How far y lies from a reading r of the reference: 0 where both are NaN or equal (infinities
// included), kMathBeyondBound where one is NaN or infinite and the other not.
GC_SCALAR_HD double math_reading_gap(float y, double r) {
  const double yd = static_cast<double>(y);
  if (yd != yd || r != r) return (yd != yd) == (r != r) ? 0.0 : kMathBeyondBound;
  if (yd == r) return 0.0;
  const double d = yd > r ? yd - r : r - yd;
  return d <= kMathBeyondBound ? d : kMathBeyondBound;
}

// A subnormal input of a .ftz row has two readings: the zero of its sign the Math API says
// the intrinsic flushes it to (math_flush_input), and the input itself, which sm_90's __logf
// reads (0x007fffff: -87.34, not -inf). The reference takes the reading nearer the returned
// y, the flushed one on a tie: a subnormal input never counts as an error for the flush rule
// the intrinsic chose, and an error of the reading it chose still counts.
GC_SCALAR_HD bool math_reads_unflushed(float y, double flushed, double unflushed) {
  return math_reading_gap(y, unflushed) < math_reading_gap(y, flushed);
}

// Whether the row's bound speaks about x (NaN inputs: always, they are class checks).
GC_SCALAR_HD bool math_judged(const MathSpec& s, float x) {
  if (x != x) return true;
  const bool inside = static_cast<double>(x) >= s.lo && static_cast<double>(x) <= s.hi;
  return inside == s.judge_inside;
}

// The ulps the bound grows by at x: floor(|slope * x|), evaluated as the Guide writes it.
GC_SCALAR_HD double math_allowance(const MathSpec& s, float x) {
  if (s.allowance_slope == 0 || x != x) return 0;
  const double a = s.allowance_slope * static_cast<double>(x);
#if defined(__CUDA_ARCH__)
  return floor(a < 0 ? -a : a);
#else
  return __builtin_floor(a < 0 ? -a : a);
#endif
}

// The distance judged: the integer distance minus the allowance, never below 0.
GC_SCALAR_HD double math_excess(const MathSpec& s, float x, double distance) {
  const double e = distance - math_allowance(s, x);
  return e > 0 ? e : 0;
}

// A binary64 reference value and a bound on its absolute error beyond the relative one
// kMathFlagUlps covers (0: the Guide's relative bound holds).
struct MathRef {
  double r;
  double abs_err;
};

// The distance in binary32 ulps between the binary64 r and the nearest binary32 midpoint
// (half-way between two neighbouring binary32 values, the overflow threshold included).
GC_SCALAR_HD double midpoint_distance_ulps(double r) {
  const double a = r < 0 ? -r : r;
  const double u = f32_ulp_at(a);
  const double q = a / u;  // exact: u is a power of 2
#if defined(__CUDA_ARCH__)
  const double frac = q - floor(q);
#else
  const double frac = q - __builtin_floor(q);
#endif
  const double d = frac - 0.5;
  return d < 0 ? -d : d;
}

// The flag width at reference r: the row's, or 2 abs_err / ulp(r) where that is larger (the
// factor 2: f(x) may lie in the binade below r, where the ulp is half).
GC_SCALAR_HD double math_flag_ulps(const MathSpec& s, const MathRef& ref) {
  if (ref.abs_err == 0) return s.flag_ulps;
  const double w = 2 * ref.abs_err / f32_ulp_at(ref.r);
  return w > s.flag_ulps ? w : s.flag_ulps;
}

// The integer ulp distance between binary32 results (NaN against NaN: 0; NaN against a
// number: 2^32, beyond any bound).
GC_SCALAR_HD double ulp_distance(std::uint32_t y, std::uint32_t cr) {
  const bool yn = (y & 0x7fffffffu) > 0x7f800000u, cn = (cr & 0x7fffffffu) > 0x7f800000u;
  if (yn || cn) return yn && cn ? 0.0 : 4294967296.0;
  const std::int64_t d = ordered_f32(y) - ordered_f32(cr);
  return static_cast<double>(d < 0 ? -d : d);
}

// The row's distance: the integer one, a flushed result (a zero where the correctly rounded
// result is a subnormal or zero of the same sign) at 0 for .ftz rows.
GC_SCALAR_HD double math_distance(const MathSpec& s, std::uint32_t y, std::uint32_t cr) {
  if (s.ftz && (y & 0x7fffffffu) == 0 && (cr & 0x7f800000u) == 0 && (y >> 31) == (cr >> 31)) return 0;
  return ulp_distance(y, cr);
}

// One row of the table (numerics/src/scalar_mathlib.cpp).
struct ScalarMath {
  std::string id;     // "numeric.math.expf", "numeric.math.intrinsic.logf.abs"
  std::string name;   // the math_oracle name of f: "expf", "logf"
  std::string label;  // what the GPU calls: "expf", "__logf"
  MathSpec spec;
  bool judged = true;      // false: the Guide states no number (__tanf): recorded, not judged
  double bound = 0;        // the Programming Guide's bound, in `unit`
  std::string unit;        // "ulp", "absolute error", "ulp beyond floor(|1.173 x|)"
  std::string bound_text;  // the Guide's words, for the note and the entry's citation
  std::string table;       // "Standard Functions" or "Intrinsic Functions"
};

const std::vector<ScalarMath>& scalar_math();
const ScalarMath* find_scalar_math(std::string_view id);

// An input the GPU could not decide: x, the returned result, and the binary64 reference
// rounded to binary32 (what the GPU would have taken as correctly rounded).
struct MathFlagged {
  std::uint32_t x, y, cr64;
};

// What one scan found. Keys: error_key(error) << 32 | x, the largest wins.
struct MathScan {
  std::uint64_t compared = 0;
  std::uint64_t worst_ulp = 0;       // the row's measure (math_excess or absolute), judged inputs the GPU decided
  std::uint64_t worst_real = 0;      // real-valued ulp error, over the unflagged inputs with a finite reference
  std::uint64_t worst_unjudged = 0;  // the row's measure outside the judged domain
  std::uint32_t worst_ulp_result = 0, worst_real_result = 0, worst_unjudged_result = 0;
  std::vector<MathFlagged> flagged;  // decided on the host
  std::uint64_t flagged_total = 0;   // flagged on the GPU (more than kept: the probe fails)
  std::uint64_t nan_mismatches = 0;  // NaN where f(x) is a number, or a number where it is NaN (judged inputs)
  std::uint32_t first_nan_mismatch = 0;
  std::uint64_t nan_unjudged = 0;  // the same outside the judged domain: counted in a note, not judged
  std::uint32_t first_nan_unjudged = 0;
  double gpu_ms = 0;
};

// The flagged inputs decided with MPFR: the largest integer distance among them, as a key
// (error_key << 32 | x) with the GPU's result, and how many the binary64 reference would
// have rounded otherwise than MPFR.
// The flagged inputs are decided on the host's cores (MPFR is thread-safe), in chunks.
struct MathDecision {
  std::uint64_t worst = 0;  // judged inputs, math_excess
  std::uint32_t worst_result = 0;
  std::uint64_t worst_unjudged = 0;  // outside the judged domain
  std::uint32_t worst_unjudged_result = 0;
  std::uint64_t worst_real = 0;  // real-valued ulp error against MPFR's exact value
  std::uint32_t worst_real_result = 0;
  std::uint64_t rounding_differs = 0;
};
MathDecision decide_flagged(const ScalarMath& row, const std::vector<MathFlagged>& flagged);

// The chunked decision both tables (one- and two-argument) share: `decide_range` decides one
// chunk; the chunks run on every core (one thread where the MPFR build is not thread-safe) and
// their worst keys and counts merge into one MathDecision.
using MathRangeDecider = std::function<MathDecision(const MathFlagged* begin, const MathFlagged* end)>;
MathDecision decide_on_every_core(const std::vector<MathFlagged>& flagged, const MathRangeDecider& decide_range);

// value = the largest integer ulp distance (unit "ulp"; minus the allowance where the bound
// grows with x) or absolute error over the judged domain; notes: function, bound,
// worst_input (x, result, the correctly rounded result), max_real_ulp_error, flagged (how
// many, decided by MPFR, how many the binary64 reference had rounded otherwise), outside_bound
// (the maximum where the bound does not speak), gpu_ms, and `model`: the maximum with its
// input as numeric.math.<fn>.worst compares it (scalar_math_worst.hpp). Throws when the GPU
// flagged more inputs than it kept (a probe defect, not a measurement).
Measurement math_measurement(const ScalarMath& row, const MathScan& scan, const MathDecision& decided);

}  // namespace gpuconform::numerics
