// SPDX-License-Identifier: Apache-2.0
// numeric.math.<fn>: a CUDA math library binary32 function over all 2^32 inputs, each result
// compared in the same GPU thread with the binary64 function rounded to binary32; inputs
// whose binary64 value lies near a rounding boundary are kept and decided on the host with
// MPFR (numerics/scalar_mathlib.hpp). Value: the largest integer ulp distance from the
// correctly rounded result, as the Programming Guide states its bounds.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_mathlib.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::MathFn;

// Far more than the expected ~2^11 per function (2^32 inputs x 2^-21 of the ulp near a midpoint).
constexpr unsigned int kMaxFlagged = 1u << 20;

struct MathOut {
  unsigned long long worst_ulp, worst_real, flagged, nan_mismatches;
  unsigned int first_nan, have_first_nan;
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
  }
  return 0;
}
__device__ double reference(MathFn fn, double x) {
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
  }
  return 0;
}

// One kernel per function (the switch folds away): FN is the row's MathFn.
template <MathFn FN>
__global__ void __launch_bounds__(256) scan_math(MathOut* out, numerics::MathFlagged* flagged) {
  unsigned long long worst_ulp = 0, worst_real = 0, nan_mismatches = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (1ull << 32);
       i += stride) {
    const std::uint32_t x = static_cast<std::uint32_t>(i);
    const float xf = __uint_as_float(x);
    const float y = single(FN, xf);
    const double r = reference(FN, static_cast<double>(xf));
    const std::uint32_t yb = __float_as_uint(y);
    if (r != r || y != y) {  // NaN on either side: both must be NaN
      if ((r != r) != (y != y)) {
        ++nan_mismatches;
        if (atomicCAS(&out->have_first_nan, 0u, 1u) == 0u) out->first_nan = x;
      }
      continue;
    }
    const std::uint32_t cr64 = __float_as_uint(__double2float_rn(r));
    const double ar = fabs(r);
    if (ar - ar == 0) {  // finite reference: the real-valued error, and the boundary test
      const double real = fabs(static_cast<double>(y) - r) / numerics::f32_ulp_at(r);
      const unsigned long long rk = static_cast<unsigned long long>(numerics::error_key(real)) << 32 | x;
      worst_real = rk > worst_real ? rk : worst_real;
      if (ar <= 3.4028235677973366e38 && numerics::midpoint_distance_ulps(r) < numerics::kMathFlagUlps) {
        const unsigned long long slot = atomicAdd(&out->flagged, 1ull);
        if (slot < kMaxFlagged) flagged[slot] = numerics::MathFlagged{x, yb, cr64};
        continue;
      }
    }
    const unsigned long long uk =
        static_cast<unsigned long long>(numerics::error_key(numerics::ulp_distance(yb, cr64))) << 32 | x;
    worst_ulp = uk > worst_ulp ? uk : worst_ulp;
  }
  atomicMax(&out->worst_ulp, worst_ulp);
  atomicMax(&out->worst_real, worst_real);
  if (nan_mismatches) atomicAdd(&out->nan_mismatches, nan_mismatches);
}

template <MathFn FN>
__global__ void results_at(const MathOut* out, std::uint32_t* results) {
  results[0] = __float_as_uint(single(FN, __uint_as_float(static_cast<std::uint32_t>(out->worst_ulp))));
  results[1] = __float_as_uint(single(FN, __uint_as_float(static_cast<std::uint32_t>(out->worst_real))));
}

template <MathFn FN>
Measurement measure(const ProbeContext&, const char* id) {
  const numerics::ScalarMath* row = numerics::find_scalar_math(id);
  if (!row) throw std::logic_error(std::string("numeric.math probe without a table row: ") + id);
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<MathOut> out(1);
  DeviceBuffer<numerics::MathFlagged> flagged(kMaxFlagged);
  DeviceBuffer<std::uint32_t> results(2);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(MathOut)));
  // One timed launch: events around it, synchronised and error-checked (timing.hpp).
  const double ms = time_launches_ms([&] { scan_math<FN><<<sms * 8, 256>>>(out.get(), flagged.get()); }, 0, 1).front();
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
  scan.flagged_total = host.flagged;
  scan.nan_mismatches = host.nan_mismatches;
  scan.first_nan_mismatch = host.first_nan;
  const std::size_t kept = static_cast<std::size_t>(std::min<unsigned long long>(host.flagged, kMaxFlagged));
  if (kept > 0) {
    scan.flagged.resize(kept);
    GC_CUDA_CHECK(
        cudaMemcpy(scan.flagged.data(), flagged.get(), kept * sizeof(numerics::MathFlagged), cudaMemcpyDeviceToHost));
  }
  scan.gpu_ms = ms;
  return numerics::math_measurement(*row, scan, numerics::decide_flagged(*row, scan.flagged));
}

bool register_math(const char* id, ProbeFn fn) {
  const numerics::ScalarMath* row = numerics::find_scalar_math(id);
  if (!row) throw std::logic_error(std::string("numeric.math probe without a table row: ") + id);
  return Registry::instance().add(
      Probe{row->id, Family::numeric,
            row->name + " over all 2^32 binary32 inputs: the largest ulp distance from the correctly rounded result",
            Requirements{}, RecordHint{ExpectationKind::max}, fn});
}

#define GC_MATH_PROBE(FN)                                                                                   \
  Measurement FN##_probe(const ProbeContext& ctx) { return measure<MathFn::FN>(ctx, "numeric.math." #FN); } \
  const bool FN##_registered = register_math("numeric.math." #FN, &FN##_probe);

GC_MATH_PROBE(expf)
GC_MATH_PROBE(exp2f)
GC_MATH_PROBE(logf)
GC_MATH_PROBE(log2f)
GC_MATH_PROBE(sinf)
GC_MATH_PROBE(cosf)
GC_MATH_PROBE(tanhf)
GC_MATH_PROBE(sqrtf)
GC_MATH_PROBE(rsqrtf)
GC_MATH_PROBE(erff)
GC_MATH_PROBE(exp10f)
GC_MATH_PROBE(expm1f)
GC_MATH_PROBE(log10f)
GC_MATH_PROBE(log1pf)
GC_MATH_PROBE(tanf)
GC_MATH_PROBE(sinpif)
GC_MATH_PROBE(cospif)
GC_MATH_PROBE(asinf)
GC_MATH_PROBE(acosf)
GC_MATH_PROBE(atanf)
GC_MATH_PROBE(sinhf)
GC_MATH_PROBE(coshf)
GC_MATH_PROBE(asinhf)
GC_MATH_PROBE(acoshf)
GC_MATH_PROBE(atanhf)
GC_MATH_PROBE(erfcf)
GC_MATH_PROBE(cbrtf)
GC_MATH_PROBE(rcbrtf)
GC_MATH_PROBE(tgammaf)
GC_MATH_PROBE(normcdff)

#undef GC_MATH_PROBE

}  // namespace
}  // namespace gpuconform::kernels
