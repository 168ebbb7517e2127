// SPDX-License-Identifier: Apache-2.0
// numeric.math.<fn> and numeric.math.intrinsic.<fn>: a CUDA math library binary32 function
// (or its -use_fast_math intrinsic) over all 2^32 inputs, each result compared in the same
// GPU thread with the binary64 function rounded to binary32; inputs whose binary64 value lies
// near a rounding boundary are kept and decided on the host with MPFR
// (numerics/scalar_mathlib.hpp). Value: the largest integer ulp distance from the correctly
// rounded result (or the absolute error, where the Guide states that), as the Programming
// Guide states its bounds. Each probe has an exact companion, numeric.math.<fn>.worst: the
// maximum and its input (numerics/scalar_math_worst.hpp), from the same scan.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_math_worst.hpp"
#include "gpuconform/numerics/scalar_mathlib.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"
#include "numeric/math_probe_pair.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::MathFn;

// Far more than the expected ~2^11 per function (2^32 inputs x 2^-21 of the ulp near a midpoint).
constexpr unsigned int kMaxFlagged = 1u << 20;

struct MathOut {
  unsigned long long worst_ulp, worst_real, worst_unjudged, flagged, nan_mismatches, nan_unjudged;
  unsigned int first_nan, have_first_nan, first_nan_unjudged, have_first_nan_unjudged;
};

// The function in binary32 (the library under test) and in binary64 (the reference).
__device__ float single(MathFn fn, float x) {
  switch (fn) {
    case MathFn::expf: return expf(x);
    case MathFn::exp2f: return exp2f(x);
    case MathFn::logf: return logf(x);
    case MathFn::log2f: return log2f(x);
    case MathFn::sinf: return sinf(x);
    case MathFn::cosf: return cosf(x);
    case MathFn::tanhf: return tanhf(x);
    case MathFn::sqrtf: return sqrtf(x);
    case MathFn::rsqrtf: return rsqrtf(x);
    case MathFn::erff: return erff(x);
    case MathFn::exp10f: return exp10f(x);
    case MathFn::expm1f: return expm1f(x);
    case MathFn::log10f: return log10f(x);
    case MathFn::log1pf: return log1pf(x);
    case MathFn::tanf: return tanf(x);
    case MathFn::sinpif: return sinpif(x);
    case MathFn::cospif: return cospif(x);
    case MathFn::asinf: return asinf(x);
    case MathFn::acosf: return acosf(x);
    case MathFn::atanf: return atanf(x);
    case MathFn::sinhf: return sinhf(x);
    case MathFn::coshf: return coshf(x);
    case MathFn::asinhf: return asinhf(x);
    case MathFn::acoshf: return acoshf(x);
    case MathFn::atanhf: return atanhf(x);
    case MathFn::erfcf: return erfcf(x);
    case MathFn::cbrtf: return cbrtf(x);
    case MathFn::rcbrtf: return rcbrtf(x);
    case MathFn::tgammaf: return tgammaf(x);
    case MathFn::normcdff: return normcdff(x);
    case MathFn::erfinvf: return erfinvf(x);
    case MathFn::erfcinvf: return erfcinvf(x);
    case MathFn::lgammaf: return lgammaf(x);
    case MathFn::i_expf: return __expf(x);
    case MathFn::i_exp10f: return __exp10f(x);
    case MathFn::i_logf: return __logf(x);
    case MathFn::i_log2f: return __log2f(x);
    case MathFn::i_log10f: return __log10f(x);
    case MathFn::i_sinf: return __sinf(x);
    case MathFn::i_cosf: return __cosf(x);
    case MathFn::i_tanf: return __tanf(x);
    case MathFn::i_fsqrt_rn: return __fsqrt_rn(x);
    case MathFn::i_frcp_rn: return __frcp_rn(x);
  }
  return 0;
}

// lgamma on (-24, -2), where the Guide states no binary64 bound ("larger inside -23.0001 ...
// -2.2637"): the reflection lgamma(x) = log(pi) - log|sinpi(x)| - lgamma(1 - x) from
// functions it bounds (log 1 ulp, sinpi 2, lgamma(1 - x) 4 with 1 - x > 3: outside the
// interval; 1 - x exact), so the absolute error is at most
// 2^-50 |lgamma(1 - x)| + 2^-51 |log|sinpi|| + 2^-51 + the two subtractions' roundings
// <= 2^-49 (|a| + |b| + 4); taken as 2^-48 (...), twice that. Elsewhere CUDA's lgamma with its
// stated 4 ulps, plus an absolute 2^-47 next to the roots at 1 and 2 where the value is tiny
// and a relative statement is the one most likely to fail. Integers keep lgamma's +inf.
__device__ numerics::MathRef lgamma_reference(double x) {
  if (x > -24.0 && x < -2.0 && x != floor(x)) {
    const double a = log(fabs(sinpi(x)));
    const double b = lgamma(1.0 - x);
    const double r = (1.1447298858494002 - a) - b;  // log(pi) rounded to binary64
    return {r, 0x1p-48 * (fabs(a) + fabs(b) + 4.0)};
  }
  const double r = lgamma(x);
  return {r, 0x1p-47 + fabs(r) * 0x1p-50};
}
__device__ double reference_value(MathFn fn, double x) {
  switch (fn) {
    case MathFn::expf: return exp(x);
    case MathFn::exp2f: return exp2(x);
    case MathFn::logf: return log(x);
    case MathFn::log2f: return log2(x);
    case MathFn::sinf: return sin(x);
    case MathFn::cosf: return cos(x);
    case MathFn::tanhf: return tanh(x);
    case MathFn::sqrtf: return sqrt(x);
    case MathFn::rsqrtf: return rsqrt(x);
    case MathFn::erff: return erf(x);
    case MathFn::exp10f: return exp10(x);
    case MathFn::expm1f: return expm1(x);
    case MathFn::log10f: return log10(x);
    case MathFn::log1pf: return log1p(x);
    case MathFn::tanf: return tan(x);
    case MathFn::sinpif: return sinpi(x);
    case MathFn::cospif: return cospi(x);
    case MathFn::asinf: return asin(x);
    case MathFn::acosf: return acos(x);
    case MathFn::atanf: return atan(x);
    case MathFn::sinhf: return sinh(x);
    case MathFn::coshf: return cosh(x);
    case MathFn::asinhf: return asinh(x);
    case MathFn::acoshf: return acosh(x);
    case MathFn::atanhf: return atanh(x);
    case MathFn::erfcf: return erfc(x);
    case MathFn::cbrtf: return cbrt(x);
    case MathFn::rcbrtf: return rcbrt(x);
    case MathFn::tgammaf: return tgamma(x);
    case MathFn::normcdff: return normcdf(x);
    case MathFn::erfinvf: return erfinv(x);
    case MathFn::erfcinvf: return erfcinv(x);
    case MathFn::lgammaf: return lgamma(x);
    case MathFn::i_expf: return exp(x);
    case MathFn::i_exp10f: return exp10(x);
    case MathFn::i_logf: return log(x);
    case MathFn::i_log2f: return log2(x);
    case MathFn::i_log10f: return log10(x);
    case MathFn::i_sinf: return sin(x);
    case MathFn::i_cosf: return cos(x);
    case MathFn::i_tanf: return tan(x);
    case MathFn::i_fsqrt_rn: return sqrt(x);
    case MathFn::i_frcp_rn: return 1.0 / x;  // correctly rounded in binary64: innocuous twice rounded
  }
  return 0;
}

__device__ numerics::MathRef reference(MathFn fn, double x) {
  if (fn == MathFn::lgammaf) return lgamma_reference(x);
  return {reference_value(fn, x), 0};
}

// A reference rougher than this (lgammaf next to a root) still decides the integer distance
// when the input is not flagged (f(x) and r round alike), but not the real-valued error to the
// digits the note prints: such inputs stay out of max_real_ulp_error. Flagging them all
// instead would send some 700000 inputs near lgamma's negative roots to MPFR.
constexpr double kMathRealUlps = 1.0 / (1 << 12);

// One kernel per function (the switch folds away): FN is the row's MathFn.
template <MathFn FN>
__global__ void __launch_bounds__(256)
    scan_math(numerics::MathSpec spec, MathOut* out, numerics::MathFlagged* flagged) {
  unsigned long long worst_ulp = 0, worst_real = 0, worst_unjudged = 0, nan_mismatches = 0, nan_unjudged = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (1ull << 32);
       i += stride) {
    const std::uint32_t x = static_cast<std::uint32_t>(i);
    const float xf = __uint_as_float(x);
    const float y = single(FN, xf);
    const float xr = numerics::math_flush_input(spec, xf);
    numerics::MathRef ref = reference(FN, static_cast<double>(xr));
    if (__float_as_uint(xr) != x) {  // a subnormal of a .ftz row: the reading nearer y (scalar_mathlib.hpp)
      const numerics::MathRef raw = reference(FN, static_cast<double>(xf));
      if (numerics::math_reads_unflushed(y, ref.r, raw.r)) ref = raw;
    }
    const double r = ref.r;
    const std::uint32_t yb = __float_as_uint(y);
    const bool judged = numerics::math_judged(spec, xf);
    if (r != r || y != y) {  // NaN on either side: both must be NaN (outside the domain: a note)
      if ((r != r) != (y != y)) {
        if (judged) {
          ++nan_mismatches;
          if (atomicCAS(&out->have_first_nan, 0u, 1u) == 0u) out->first_nan = x;
        } else {
          ++nan_unjudged;
          if (atomicCAS(&out->have_first_nan_unjudged, 0u, 1u) == 0u) out->first_nan_unjudged = x;
        }
      }
      continue;
    }
    if (spec.measure == numerics::MathMeasure::absolute) {  // |y - f(x)|; equal infinities: 0; finite
      const double err = numerics::math_reading_gap(y, r);
      const unsigned long long k = static_cast<unsigned long long>(numerics::error_key(err)) << 32 | x;
      if (judged)
        worst_ulp = k > worst_ulp ? k : worst_ulp;
      else
        worst_unjudged = k > worst_unjudged ? k : worst_unjudged;
      continue;
    }
    const std::uint32_t cr64 = __float_as_uint(__double2float_rn(r));
    const double ar = fabs(r);
    if (ar - ar == 0) {  // finite reference: the boundary test, then the real-valued error
      const double flag = numerics::math_flag_ulps(spec, ref);
      if (ar <= 3.4028235677973366e38 && numerics::midpoint_distance_ulps(r) < flag) {
        const unsigned long long slot = atomicAdd(&out->flagged, 1ull);
        if (slot < kMaxFlagged) flagged[slot] = numerics::MathFlagged{x, yb, cr64};
        continue;
      }
      if (flag <= kMathRealUlps && ar <= 3.4028235677973366e38) {  // beyond: rounds to inf, no ulp
        const double real = fabs(static_cast<double>(y) - r) / numerics::f32_ulp_at(r);
        const unsigned long long rk = static_cast<unsigned long long>(numerics::error_key(real)) << 32 | x;
        worst_real = rk > worst_real ? rk : worst_real;
      }
    }
    const double d = numerics::math_excess(spec, xf, numerics::math_distance(spec, yb, cr64));
    const unsigned long long uk = static_cast<unsigned long long>(numerics::error_key(d)) << 32 | x;
    if (judged)
      worst_ulp = uk > worst_ulp ? uk : worst_ulp;
    else
      worst_unjudged = uk > worst_unjudged ? uk : worst_unjudged;
  }
  atomicMax(&out->worst_ulp, worst_ulp);
  atomicMax(&out->worst_real, worst_real);
  atomicMax(&out->worst_unjudged, worst_unjudged);
  if (nan_mismatches) atomicAdd(&out->nan_mismatches, nan_mismatches);
  if (nan_unjudged) atomicAdd(&out->nan_unjudged, nan_unjudged);
}

template <MathFn FN>
__global__ void results_at(const MathOut* out, std::uint32_t* results) {
  results[0] = __float_as_uint(single(FN, __uint_as_float(static_cast<std::uint32_t>(out->worst_ulp))));
  results[1] = __float_as_uint(single(FN, __uint_as_float(static_cast<std::uint32_t>(out->worst_real))));
  results[2] = __float_as_uint(single(FN, __uint_as_float(static_cast<std::uint32_t>(out->worst_unjudged))));
}

template <MathFn FN>
Measurement measure(const ProbeContext& ctx, const char* id) {
  const numerics::ScalarMath* row = numerics::find_scalar_math(id);
  if (!row) throw std::logic_error(std::string("numeric.math probe without a table row: ") + id);
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<MathOut> out(1);
  DeviceBuffer<numerics::MathFlagged> flagged(kMaxFlagged);
  DeviceBuffer<std::uint32_t> results(3);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(MathOut)));
  // One timed launch: events around it, synchronised and error-checked (timing.hpp).
  const double ms =
      time_launches_ms([&] { scan_math<FN><<<sms * 8, 256>>>(row->spec, out.get(), flagged.get()); }, 0, 1).front();
  results_at<FN><<<1, 1>>>(out.get(), results.get());
  GC_CUDA_CHECK_LAUNCH();
  const MathOut host = out.download()[0];
  const std::vector<std::uint32_t> at = results.download();
  numerics::MathScan scan;
  scan.compared = 1ull << 32;
  scan.worst_ulp = host.worst_ulp;
  scan.worst_real = host.worst_real;
  scan.worst_ulp_result = at[0];
  scan.worst_real_result = at[1];
  scan.worst_unjudged = host.worst_unjudged;
  scan.worst_unjudged_result = at[2];
  scan.flagged_total = host.flagged;
  scan.nan_mismatches = host.nan_mismatches;
  scan.first_nan_mismatch = host.first_nan;
  scan.nan_unjudged = host.nan_unjudged;
  scan.first_nan_unjudged = host.first_nan_unjudged;
  const std::size_t kept = static_cast<std::size_t>(std::min<unsigned long long>(host.flagged, kMaxFlagged));
  if (kept > 0) {
    scan.flagged.resize(kept);
    GC_CUDA_CHECK(
        cudaMemcpy(scan.flagged.data(), flagged.get(), kept * sizeof(numerics::MathFlagged), cudaMemcpyDeviceToHost));
  }
  scan.gpu_ms = ms;
  Measurement m = numerics::math_measurement(*row, scan, numerics::decide_flagged(*row, scan.flagged));
  numerics::stash_for_worst(id, ctx.device.index, m);
  return m;
}

// numeric.math.<fn>.worst: the maximum and its input of the scan the primary just ran, or of
// its own scan when run alone (scalar_math_worst.hpp).
template <MathFn FN>
Measurement measure_worst(const ProbeContext& ctx, const char* id) {
  std::optional<Measurement> m = numerics::take_for_worst(id, ctx.device.index);
  if (!m) {
    measure<FN>(ProbeContext{ctx.device, nullptr, ctx.quick}, id);
    m = numerics::take_for_worst(id, ctx.device.index);
  }
  return numerics::worst_measurement(*m, ctx.expectation);
}

bool register_math(const char* id, ProbeFn fn, ProbeFn worst) {
  const numerics::ScalarMath* row = numerics::find_scalar_math(id);
  if (!row) throw std::logic_error(std::string("numeric.math probe without a table row: ") + id);
  const std::string what =
      row->spec.measure == numerics::MathMeasure::absolute
          ? row->label + " over every binary32 input: the largest absolute error on the range its bound states"
          : row->label + " over all 2^32 binary32 inputs: the largest ulp distance from the correctly rounded result";
  return register_math_pair(row->id, row->label, row->judged, what, "input", fn, worst);
}

#define GC_MATH_PROBE(FN, ID)                                                                    \
  Measurement FN##_probe(const ProbeContext& ctx) { return measure<MathFn::FN>(ctx, ID); }       \
  Measurement FN##_worst(const ProbeContext& ctx) { return measure_worst<MathFn::FN>(ctx, ID); } \
  const bool FN##_registered = register_math(ID, &FN##_probe, &FN##_worst);

GC_MATH_PROBE(expf, "numeric.math.expf")
GC_MATH_PROBE(exp2f, "numeric.math.exp2f")
GC_MATH_PROBE(logf, "numeric.math.logf")
GC_MATH_PROBE(log2f, "numeric.math.log2f")
GC_MATH_PROBE(sinf, "numeric.math.sinf")
GC_MATH_PROBE(cosf, "numeric.math.cosf")
GC_MATH_PROBE(tanhf, "numeric.math.tanhf")
GC_MATH_PROBE(sqrtf, "numeric.math.sqrtf")
GC_MATH_PROBE(rsqrtf, "numeric.math.rsqrtf")
GC_MATH_PROBE(erff, "numeric.math.erff")
GC_MATH_PROBE(exp10f, "numeric.math.exp10f")
GC_MATH_PROBE(expm1f, "numeric.math.expm1f")
GC_MATH_PROBE(log10f, "numeric.math.log10f")
GC_MATH_PROBE(log1pf, "numeric.math.log1pf")
GC_MATH_PROBE(tanf, "numeric.math.tanf")
GC_MATH_PROBE(sinpif, "numeric.math.sinpif")
GC_MATH_PROBE(cospif, "numeric.math.cospif")
GC_MATH_PROBE(asinf, "numeric.math.asinf")
GC_MATH_PROBE(acosf, "numeric.math.acosf")
GC_MATH_PROBE(atanf, "numeric.math.atanf")
GC_MATH_PROBE(sinhf, "numeric.math.sinhf")
GC_MATH_PROBE(coshf, "numeric.math.coshf")
GC_MATH_PROBE(asinhf, "numeric.math.asinhf")
GC_MATH_PROBE(acoshf, "numeric.math.acoshf")
GC_MATH_PROBE(atanhf, "numeric.math.atanhf")
GC_MATH_PROBE(erfcf, "numeric.math.erfcf")
GC_MATH_PROBE(cbrtf, "numeric.math.cbrtf")
GC_MATH_PROBE(rcbrtf, "numeric.math.rcbrtf")
GC_MATH_PROBE(tgammaf, "numeric.math.tgammaf")
GC_MATH_PROBE(normcdff, "numeric.math.normcdff")
GC_MATH_PROBE(erfinvf, "numeric.math.erfinvf")
GC_MATH_PROBE(erfcinvf, "numeric.math.erfcinvf")
GC_MATH_PROBE(lgammaf, "numeric.math.lgammaf")
GC_MATH_PROBE(i_expf, "numeric.math.intrinsic.expf")
GC_MATH_PROBE(i_exp10f, "numeric.math.intrinsic.exp10f")
GC_MATH_PROBE(i_logf, "numeric.math.intrinsic.logf")
GC_MATH_PROBE(i_log2f, "numeric.math.intrinsic.log2f")
GC_MATH_PROBE(i_log10f, "numeric.math.intrinsic.log10f")
GC_MATH_PROBE(i_sinf, "numeric.math.intrinsic.sinf")
GC_MATH_PROBE(i_cosf, "numeric.math.intrinsic.cosf")
GC_MATH_PROBE(i_tanf, "numeric.math.intrinsic.tanf")
GC_MATH_PROBE(i_fsqrt_rn, "numeric.math.intrinsic.fsqrt_rn")
GC_MATH_PROBE(i_frcp_rn, "numeric.math.intrinsic.frcp_rn")
// The absolute halves of the logarithms: the same function, another row (its own scan).
Measurement i_logf_abs_probe(const ProbeContext& ctx) {
  return measure<MathFn::i_logf>(ctx, "numeric.math.intrinsic.logf.abs");
}
Measurement i_logf_abs_worst(const ProbeContext& ctx) {
  return measure_worst<MathFn::i_logf>(ctx, "numeric.math.intrinsic.logf.abs");
}
const bool i_logf_abs_registered =
    register_math("numeric.math.intrinsic.logf.abs", &i_logf_abs_probe, &i_logf_abs_worst);
Measurement i_log2f_abs_probe(const ProbeContext& ctx) {
  return measure<MathFn::i_log2f>(ctx, "numeric.math.intrinsic.log2f.abs");
}
Measurement i_log2f_abs_worst(const ProbeContext& ctx) {
  return measure_worst<MathFn::i_log2f>(ctx, "numeric.math.intrinsic.log2f.abs");
}
const bool i_log2f_abs_registered =
    register_math("numeric.math.intrinsic.log2f.abs", &i_log2f_abs_probe, &i_log2f_abs_worst);
Measurement i_log10f_abs_probe(const ProbeContext& ctx) {
  return measure<MathFn::i_log10f>(ctx, "numeric.math.intrinsic.log10f.abs");
}
Measurement i_log10f_abs_worst(const ProbeContext& ctx) {
  return measure_worst<MathFn::i_log10f>(ctx, "numeric.math.intrinsic.log10f.abs");
}
const bool i_log10f_abs_registered =
    register_math("numeric.math.intrinsic.log10f.abs", &i_log10f_abs_probe, &i_log10f_abs_worst);

#undef GC_MATH_PROBE

}  // namespace
}  // namespace gpuconform::kernels
