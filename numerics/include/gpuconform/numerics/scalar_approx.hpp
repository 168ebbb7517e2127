// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.scalar.<fn>.approx[.ftz].f32: the PTX .approx instructions (ex2, lg2, rsqrt, rcp,
// sqrt, sin, cos, tanh) over all 2^32 binary32 inputs (kernels/numeric/scalar_approx.cu).
// Each GPU thread compares the instruction's result y with the binary64 value r of the
// function at x (CUDA's double-precision library, within 2 binary64 ulps: 2^-51 relative,
// far below any binary32 error measured here) and keeps, per input, the errors the PTX ISA
// states its bounds in (Floating Point Instructions; 9.7.3.13-22 in PTX ISA 7.6):
//   absolute  |y - r|                                   (sin, cos: 2^-20.5 on [-2pi, 2pi])
//   relative  |y - r| / |r|                             (sqrt 2^-23, rsqrt 2^-22.9, tanh 2^-11)
//   ulp       |y - r| / ulp(r), ulp(v) = 2^(max(floor(log2 |v|), -126) - 23)   (a note)
//   ulp from the correctly rounded result: the integer distance between y and r rounded to
//             binary32 (ex2 2, rcp 1, div.approx and div.full 2)
//   lg2's: absolute for x in (0.5, 2), relative outside (2^-22)
// "Ulp error" is the integer one: the PTX ISA says so for ex2 ("2 ulp from correctly rounded
// result") and leaves it undefined for rcp and div; the CUDA C++ Programming Guide states
// div.approx's bound for __fdividef ("for y in [2^-126, 2^126] the maximum ulp error is 2")
// and defines ulp error, in its Mathematical Functions appendix, as the difference in ulps
// between the returned and the correctly rounded result. The real-valued
// |y - r| / ulp(r) stays a note (max_ulp): a product a * (1/b) rounded once more exceeds 2
// there and still lies 2 binary32 steps from a / b correctly rounded (div.approx.f32 of the
// H100 GPU-791fafea scalar run, 2026-11-26: 2.075 real, 2 integer).
// .ftz (PTX ISA: "flushes subnormal inputs and results to sign-preserving zero"): subnormal
// inputs reach the reference as zeros of their sign; a zero result stands for every value
// .ftz turns into it (the zero and the subnormals of its sign) and is measured as the one of
// them nearest r, so the flush itself is no error but an approximation beyond the bound
// before it still is (rcp.approx.ftz.f32 of that run returned -0 at x = 0xfe800001, r =
// -1.1754942106924578e-38: 8388607 subnormal ulps from r as a value, 2^-23 ulp from the
// largest subnormal that flushes to it).
// The probe's value is the maximum of the row's measure over its domain (sin, cos: |x| <=
// 2pi; the maximum over |x| <= 100pi, bound 2^-14.7, is a note); the notes name the input
// that attains it, the maxima of the other measures and the GPU milliseconds. The errors
// count where r is finite and non-zero and at most binary32's largest value (ex2's measure:
// any finite r; absolute and lg2 measures: r = 0 too). Where r is exactly NaN, +-inf or 0
// (the PTX ISA's corner-case tables), y must be of that class: an input where it is not is
// a class mismatch, and any class mismatch makes the value +inf (a failure).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/reference/scalar_round.hpp"

namespace gpuconform::numerics {

enum class ApproxFn : std::uint8_t { ex2, lg2, rsqrt, rcp, sqrt, sin, cos, tanh, div_approx, div_full };

// div.approx and div.full take two operands: 2^28 tuples of numerics/scalar_arith.hpp's
// arith_operands(ArithOp::div, i) (its boundary, ties, specials and subnormal classes
// included) instead of all 2^32 inputs; their keys hold the tuple index, not the input.
GC_SCALAR_HD bool approx_binary(ApproxFn fn) { return fn == ApproxFn::div_approx || fn == ApproxFn::div_full; }
inline constexpr std::uint64_t kApproxDivTuples = std::uint64_t{1} << 28;
// The measures an input's error is kept in (ApproxScan::worst is indexed by them).
enum ApproxMeasure : int {
  kApproxAbsolute,
  kApproxRelative,
  kApproxUlp,
  kApproxUlpFromRounded,
  kApproxLg2,           // absolute in (0.5, 2), relative outside
  kApproxAbsoluteWide,  // absolute over the wide domain (sin, cos: |x| <= 100pi)
  kApproxMeasures
};

// What a GPU thread needs (passed by value to the kernel).
struct ApproxSpec {
  ApproxFn fn;
  int measure;        // the ApproxMeasure the row is judged in
  float domain;       // |x| above it: outside the value's maxima (sin, cos: 2pi); inf: none
  float wide_domain;  // |x| above it: not looked at (sin, cos: 100pi); inf: none
  bool ftz;           // .ftz: subnormal inputs read as zeros of their sign
};

// The spacing of binary32 at |v| (v finite): 2^(floor(log2 |v|) - 23), 2^-149 below 2^-126.
GC_SCALAR_HD double f32_ulp_at(double v) {
  const std::uint64_t b = ref::scalar::f64_bits(v);
  int e = static_cast<int>((b >> 52) & 0x7ff) - 1023;  // floor(log2 |v|) for normal binary64
  if (((b >> 52) & 0x7ff) == 0) e = -1023;             // binary64 subnormal or zero: far below -126
  if (e < -126) e = -126;
  // 2^(e - 23) as binary64 bits (e - 23 >= -149, well inside binary64's normal range)
  const std::uint64_t bits = static_cast<std::uint64_t>(e - 23 + 1023) << 52;
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(bits));
#else
  double r = 0;
  std::memcpy(&r, &bits, sizeof r);
  return r;
#endif
}

// The class of an exact value (a binary64 reference, or a binary32 result widened):
// 0 finite non-zero, 1 zero, 2 +inf, 3 -inf, 4 NaN.
GC_SCALAR_HD int approx_value_class(double v) {
  if (v != v) return 4;
  if (v == 0) return 1;
  if (v - v != 0) return v > 0 ? 2 : 3;
  return 0;
}

// Whether an exact zero reference is a value to measure (absolute and lg2 measures) rather
// than a class to check.
GC_SCALAR_HD bool approx_zero_is_a_value(const ApproxSpec& s) {
  return s.measure == kApproxAbsolute || s.measure == kApproxLg2;
}

// Whether the errors of an input with the finite reference r count: ex2's any r, the others
// r up to binary32's largest finite value.
GC_SCALAR_HD bool approx_in_range(const ApproxSpec& s, double r) {
  const double a = r < 0 ? -r : r;
  return s.fn == ApproxFn::ex2 || a <= 3.4028234663852886e38;
}

// A non-negative error as an orderable 32-bit key (binary32 bits of a non-negative value
// are ordered as the values are), rounded up so that the key never understates it.
GC_SCALAR_HD std::uint32_t error_key(double err) {
  float f = static_cast<float>(err);
  if (static_cast<double>(f) < err) {
#if defined(__CUDA_ARCH__)
    f = __uint_as_float(__float_as_uint(f) + 1);
#else
    std::uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    ++u;
    std::memcpy(&f, &u, sizeof f);
#endif
  }
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

// A binary32 bit pattern as an integer that orders as the values do (-0 and +0 both 0).
GC_SCALAR_HD std::int64_t ordered_f32(std::uint32_t b) {
  return (b & 0x80000000u) ? -static_cast<std::int64_t>(b & 0x7fffffffu) : static_cast<std::int64_t>(b);
}

GC_SCALAR_HD std::uint32_t f32_bits_of(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

// Every measure of result y at input x (the value the reference read) against r (finite).
struct ApproxErrors {
  double e[kApproxMeasures];
};
// The value a result y is measured as: y itself, or under .ftz for a zero y the binary32
// nearest r among the values that flush to it (the zero, the subnormals of its sign).
GC_SCALAR_HD float approx_measured_result(const ApproxSpec& s, float y, double r) {
  const std::uint32_t yb = f32_bits_of(y);
  if (!s.ftz || (yb & 0x7fffffffu) != 0 || r == 0 || (r < 0) != ((yb >> 31) != 0)) return y;
  const std::uint32_t nearest = f32_bits_of(static_cast<float>(r)) & 0x7fffffffu;  // r rounded to nearest
  const std::uint32_t flushed = nearest < 0x007fffffu ? nearest : 0x007fffffu;     // at most the largest subnormal
  const std::uint32_t b = (yb & 0x80000000u) | flushed;
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float v = 0;
  std::memcpy(&v, &b, sizeof v);
  return v;
#endif
}

GC_SCALAR_HD ApproxErrors approx_errors(const ApproxSpec& s, double x, float y_returned, double r) {
  ApproxErrors out{};
  const float y = approx_measured_result(s, y_returned, r);
  const double d = static_cast<double>(y) - r;
  const double a = d < 0 ? -d : d;
  const double m = r < 0 ? -r : r;
  constexpr std::uint64_t kInfBits = 0x7ff0000000000000ull;
#if defined(__CUDA_ARCH__)
  const double inf = __longlong_as_double(static_cast<long long>(kInfBits));
#else
  double inf = 0;
  std::memcpy(&inf, &kInfBits, sizeof inf);
#endif
  out.e[kApproxAbsolute] = a;
  out.e[kApproxRelative] = m > 0 ? a / m : (a == 0 ? 0 : inf);
  out.e[kApproxUlp] = a / f32_ulp_at(r);
  // r rounded to nearest binary32 (an r of binary64 within 2 ulps of f(x): this is f(x)
  // correctly rounded unless f(x) lies within 2^-51 relative of a binary32 midpoint).
  const std::uint32_t crb = f32_bits_of(static_cast<float>(r));
  const std::uint32_t yb = f32_bits_of(y);
  const bool y_nan = (yb & 0x7fffffffu) > 0x7f800000u;
  const std::int64_t dist = ordered_f32(yb) - ordered_f32(crb);
  out.e[kApproxUlpFromRounded] = y_nan ? inf : static_cast<double>(dist < 0 ? -dist : dist);
  const double ax = x < 0 ? -x : x;
  out.e[kApproxLg2] = ax > 0.5 && ax < 2 ? out.e[kApproxAbsolute] : out.e[kApproxRelative];
  out.e[kApproxAbsoluteWide] = a;
  return out;
}

// One row of the table (numerics/src/scalar_approx.cpp).
struct ScalarApprox {
  std::string id;   // "numeric.scalar.ex2.approx.f32"
  std::string ptx;  // "ex2.approx.f32"
  ApproxSpec spec;
  int min_cc = 75;          // tanh: sm_75
  std::string metric_text;  // the Measurement's unit: "ulp", "relative error", "absolute error", ...
  std::string bound;        // the PTX ISA's bound in words, with its section
  double bound_value = 0;   // the same as a number in the row's unit (the entry's max)
};

const std::vector<ScalarApprox>& scalar_approx();
const ScalarApprox* find_scalar_approx(std::string_view id);

// What one scan found: per measure the maximum with the input that attains it (key =
// error_key << 32 | input, the largest key wins), the inputs measured, and the class mismatches.
struct ApproxScan {
  std::uint64_t compared = 0;   // inputs (all 2^32)
  std::uint64_t in_domain = 0;  // inputs whose errors count toward the value
  std::uint64_t special = 0;    // inputs whose reference is exactly NaN, +-inf or 0 (class checked)
  std::uint64_t worst[kApproxMeasures] = {};
  float worst_result[kApproxMeasures] = {};
  double worst_reference[kApproxMeasures] = {};
  std::uint64_t class_mismatches = 0;  // exact NaN, +-inf, 0 references with another class of y
  std::uint32_t first_class_mismatch = 0, first_class_got = 0;
  double gpu_ms = 0;
};

// "a = 0x3f800000 (1), b = 0x40400000 (3)": the operands of tuple i of a two-operand row.
std::string approx_div_operands(std::uint64_t i);

// value = the row's measure maximum (unit = metric_text; +inf with a class mismatch),
// compared = 2^32; notes: instruction, bound, reference, domain, worst_input, every measure's
// maximum with its input, class_mismatches (and the first, also as "violations"), gpu_ms.
Measurement approx_measurement(const ScalarApprox& row, const ApproxScan& scan);

}  // namespace gpuconform::numerics
