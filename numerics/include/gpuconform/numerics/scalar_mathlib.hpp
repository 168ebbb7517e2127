// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.math.<fn>: the CUDA math library's binary32 univariate functions (expf, exp2f,
// logf, log2f, sinf, cosf, tanhf, sqrtf, rsqrtf, erff) over all 2^32 inputs
// (kernels/numeric/scalar_mathlib.cu), measured as the CUDA C++ Programming Guide states its
// bounds: the integer distance in ulps between the returned result and the correctly rounded
// one (round to nearest even), the real-valued error |y - f(x)| / ulp(f(x)) beside it.
//
// The correctly rounded result comes from a binary64 reference on the GPU (CUDA's double
// library: within 1 to 10 binary64 ulps by the Programming Guide's table, at most 2^-24.6
// binary32 ulps) rounded to binary32, which is
// f(x) correctly rounded unless f(x) lies within that distance of a binary32 rounding
// boundary (a midpoint of two binary32 values). The GPU flags every input whose binary64
// reference lies within kMathFlagUlps of a midpoint (over 6 times that margin, 32 times for the functions whose
// binary64 version is within 2 ulps) and keeps it with the returned result; the host decides those with MPFR
// (reference/math_oracle.hpp), so every reported distance is exact.
#include <cstdint>
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
  normcdff
};

// Inputs within this many binary32 ulps of a rounding boundary are decided by MPFR.
inline constexpr double kMathFlagUlps = 1.0 / (1 << 22);

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

// The integer ulp distance between binary32 results (NaN against NaN: 0; NaN against a
// number: 2^32, beyond any bound).
GC_SCALAR_HD double ulp_distance(std::uint32_t y, std::uint32_t cr) {
  const bool yn = (y & 0x7fffffffu) > 0x7f800000u, cn = (cr & 0x7fffffffu) > 0x7f800000u;
  if (yn || cn) return yn && cn ? 0.0 : 4294967296.0;
  const std::int64_t d = ordered_f32(y) - ordered_f32(cr);
  return static_cast<double>(d < 0 ? -d : d);
}

// One row of the table (numerics/src/scalar_mathlib.cpp).
struct ScalarMath {
  std::string id;    // "numeric.math.expf"
  std::string name;  // "expf" (also the math_oracle name)
  MathFn fn;
  double bound;  // the Programming Guide's maximum ulp error
  std::string bound_text;
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
  std::uint64_t worst_ulp = 0;   // integer distance, over the inputs the GPU decided
  std::uint64_t worst_real = 0;  // real-valued error, over every input with a finite reference
  std::uint32_t worst_ulp_result = 0, worst_real_result = 0;
  std::vector<MathFlagged> flagged;  // decided on the host
  std::uint64_t flagged_total = 0;   // flagged on the GPU (more than kept: the probe fails)
  std::uint64_t nan_mismatches = 0;  // NaN where f(x) is a number, or a number where it is NaN
  std::uint32_t first_nan_mismatch = 0;
  double gpu_ms = 0;
};

// The flagged inputs decided with MPFR: the largest integer distance among them, as a key
// (error_key << 32 | x) with the GPU's result, and how many the binary64 reference would
// have rounded otherwise than MPFR.
struct MathDecision {
  std::uint64_t worst = 0;
  std::uint32_t worst_result = 0;
  std::uint64_t rounding_differs = 0;
};
MathDecision decide_flagged(const ScalarMath& row, const std::vector<MathFlagged>& flagged);

// value = the largest integer ulp distance (unit "ulp"); notes: function, bound, worst_input
// (x, result, the correctly rounded result), max_real_ulp_error, flagged (how many, decided by
// MPFR, how many the binary64 reference had rounded otherwise), gpu_ms. Throws when the GPU
// flagged more inputs than it kept (a probe defect, not a measurement).
Measurement math_measurement(const ScalarMath& row, const MathScan& scan, const MathDecision& decided);

}  // namespace gpuconform::numerics
