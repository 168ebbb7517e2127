// SPDX-License-Identifier: Apache-2.0
// numeric.math.<fn> for the two-argument functions (powf atan2f hypotf fmodf remainderf) and
// numeric.math.intrinsic.{powf,fdividef,fdiv_rn}: 2^24 deterministic operand pairs (2^30 with
// GPUCONFORM_SCALAR_LONG=1)
// (numerics/scalar_math2.hpp's classes), each result compared in the same GPU thread with the
// binary64 function rounded to binary32; pairs near a rounding boundary are decided on the
// host with MPFR. Each probe has its exact companion numeric.math.<fn>.worst.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_math2.hpp"
#include "gpuconform/numerics/scalar_math_worst.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"
#include "numeric/math_probe_pair.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::Math2Fn;

// Far more than the expected ~2^9 per row (2^30 pairs x 2^-21 of the ulp near a midpoint),
// with room for the directed classes' exact midpoints (hypot(3, 4), pow(x, 2)).
constexpr unsigned int kMaxFlagged = 1u << 20;

struct Math2Out {
  unsigned long long worst_ulp, worst_real, worst_unjudged, flagged, nan_mismatches, signed_zero, nan_unjudged;
  unsigned int first_nan, have_first_nan, first_nan_unjudged, have_first_nan_unjudged;
};

__device__ float single(Math2Fn fn, float a, float b) {
  switch (fn) {
    case Math2Fn::powf: return powf(a, b);
    case Math2Fn::atan2f: return atan2f(a, b);
    case Math2Fn::hypotf: return hypotf(a, b);
    case Math2Fn::fmodf: return fmodf(a, b);
    case Math2Fn::remainderf: return remainderf(a, b);
    case Math2Fn::i_powf: return __powf(a, b);
    case Math2Fn::i_fdividef: return __fdividef(a, b);
    case Math2Fn::i_fdiv_rn: return __fdiv_rn(a, b);
  }
  return 0;
}
// fmod and remainder of binary32 operands are exact in binary64; a / b is correctly rounded
// in binary64 and, with 53 >= 2 * 24 + 2 bits, rounds on to the correctly rounded binary32.
__device__ double reference(Math2Fn fn, double a, double b) {
  switch (fn) {
    case Math2Fn::powf:
    case Math2Fn::i_powf: return pow(a, b);
    case Math2Fn::atan2f: return atan2(a, b);
    case Math2Fn::hypotf: return hypot(a, b);
    case Math2Fn::fmodf: return fmod(a, b);
    case Math2Fn::remainderf: return remainder(a, b);
    case Math2Fn::i_fdividef:
    case Math2Fn::i_fdiv_rn: return a / b;
  }
  return 0;
}

// One kernel per row (the switches fold away). Keys: error_key << 32 | pair index.
template <Math2Fn FN>
__global__ void __launch_bounds__(256)
    scan_math2(numerics::Math2Spec spec, unsigned long long pairs, Math2Out* out, numerics::MathFlagged* flagged) {
  unsigned long long worst_ulp = 0, worst_real = 0, worst_unjudged = 0, nan_mismatches = 0, signed_zero = 0,
                     nan_unjudged = 0;
  numerics::MathSpec flush{numerics::MathFn::expf};  // the flush and distance rules of the ftz intrinsics
  flush.ftz = spec.ftz;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < pairs;
       i += stride) {
    std::uint32_t ab = 0, bb = 0;
    numerics::math2_pair(FN, i, ab, bb);
    const float a = __uint_as_float(ab), b = __uint_as_float(bb);
    const float y = single(FN, a, b);
    const float af = numerics::math_flush_input(flush, a), bf = numerics::math_flush_input(flush, b);
    double r = reference(FN, af, bf);
    // A subnormal operand of a .ftz row: the flushed or the unflushed reading, whichever is
    // nearer y (scalar_mathlib.hpp's math_reads_unflushed).
    if (__float_as_uint(af) != ab || __float_as_uint(bf) != bb) {
      const double raw = reference(FN, a, b);
      if (numerics::math_reads_unflushed(y, r, raw)) r = raw;
    }
    const std::uint32_t yb = __float_as_uint(y);
    const std::uint32_t index = static_cast<std::uint32_t>(i);
    const bool judged = numerics::math2_judged(spec, a, b);
    if (r != r || y != y) {  // outside the judged domain: counted in a note
      if ((r != r) != (y != y)) {
        if (judged) {
          ++nan_mismatches;
          if (atomicCAS(&out->have_first_nan, 0u, 1u) == 0u) out->first_nan = index;
        } else {
          ++nan_unjudged;
          if (atomicCAS(&out->have_first_nan_unjudged, 0u, 1u) == 0u) out->first_nan_unjudged = index;
        }
      }
      continue;
    }
    const std::uint32_t cr64 = __float_as_uint(__double2float_rn(r));
    const double ar = fabs(r);
    if (ar - ar == 0) {
      if (ar <= 3.4028235677973366e38 && numerics::midpoint_distance_ulps(r) < spec.flag_ulps) {
        const unsigned long long slot = atomicAdd(&out->flagged, 1ull);
        if (slot < kMaxFlagged) flagged[slot] = numerics::MathFlagged{index, yb, cr64};
        continue;
      }
      if (ar <= 3.4028235677973366e38) {  // beyond: rounds to inf, no ulp to measure in
        const double real = fabs(static_cast<double>(y) - r) / numerics::f32_ulp_at(r);
        const unsigned long long rk = static_cast<unsigned long long>(numerics::error_key(real)) << 32 | index;
        worst_real = rk > worst_real ? rk : worst_real;
      }
    }
    if ((yb & 0x7fffffffu) == 0 && (cr64 & 0x7fffffffu) == 0 && yb != cr64) ++signed_zero;
    const double d = numerics::math_distance(flush, yb, cr64);
    const unsigned long long k = static_cast<unsigned long long>(numerics::error_key(d)) << 32 | index;
    if (judged)
      worst_ulp = k > worst_ulp ? k : worst_ulp;
    else
      worst_unjudged = k > worst_unjudged ? k : worst_unjudged;
  }
  atomicMax(&out->worst_ulp, worst_ulp);
  atomicMax(&out->worst_real, worst_real);
  atomicMax(&out->worst_unjudged, worst_unjudged);
  if (nan_mismatches) atomicAdd(&out->nan_mismatches, nan_mismatches);
  if (signed_zero) atomicAdd(&out->signed_zero, signed_zero);
  if (nan_unjudged) atomicAdd(&out->nan_unjudged, nan_unjudged);
}

template <Math2Fn FN>
__device__ std::uint32_t result_of(unsigned long long key) {
  std::uint32_t a = 0, b = 0;
  numerics::math2_pair(FN, static_cast<std::uint32_t>(key), a, b);
  return __float_as_uint(single(FN, __uint_as_float(a), __uint_as_float(b)));
}
template <Math2Fn FN>
__global__ void results_at(const Math2Out* out, std::uint32_t* results) {
  results[0] = result_of<FN>(out->worst_ulp);
  results[1] = result_of<FN>(out->worst_real);
  results[2] = result_of<FN>(out->worst_unjudged);
}

template <Math2Fn FN>
Measurement measure(const ProbeContext& ctx, const char* id) {
  const numerics::ScalarMath2* row = numerics::find_scalar_math2(id);
  if (!row) throw std::logic_error(std::string("numeric.math probe without a table row: ") + id);
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<Math2Out> out(1);
  DeviceBuffer<numerics::MathFlagged> flagged(kMaxFlagged);
  DeviceBuffer<std::uint32_t> results(3);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(Math2Out)));
  const std::uint64_t pairs = numerics::math2_pair_count();
  const double ms =
      time_launches_ms([&] { scan_math2<FN><<<sms * 8, 256>>>(row->spec, pairs, out.get(), flagged.get()); }, 0, 1)
          .front();
  results_at<FN><<<1, 1>>>(out.get(), results.get());
  GC_CUDA_CHECK_LAUNCH();
  const Math2Out host = out.download()[0];
  const std::vector<std::uint32_t> at = results.download();
  numerics::MathScan scan;
  scan.compared = pairs;
  scan.worst_ulp = host.worst_ulp;
  scan.worst_real = host.worst_real;
  scan.worst_unjudged = host.worst_unjudged;
  scan.worst_ulp_result = at[0];
  scan.worst_real_result = at[1];
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
  Measurement m =
      numerics::math2_measurement(*row, scan, numerics::decide_flagged2(*row, scan.flagged), host.signed_zero);
  numerics::stash_for_worst(id, ctx.device.index, m);
  return m;
}

// The maximum of a sample is an exact value of that sample only: the companion judges the
// full one (GPUCONFORM_SCALAR_LONG=1), and skips on the standard sample.
template <Math2Fn FN>
Measurement measure_worst(const ProbeContext& ctx, const char* id) {
  if (numerics::math2_pair_count() < numerics::kMath2Pairs)
    throw ProbeSkipped(std::string(id) +
                       ": the measured maximum and its pair are judged on the full 2^30-pair sample; this run has "
                       "the standard 2^24 (set GPUCONFORM_SCALAR_LONG=1, as tools/device/scalar_math_batch.sh does "
                       "for --level long)");
  std::optional<Measurement> m = numerics::take_for_worst(id, ctx.device.index);
  if (!m) {
    measure<FN>(ProbeContext{ctx.device, nullptr, ctx.quick}, id);
    m = numerics::take_for_worst(id, ctx.device.index);
  }
  return numerics::worst_measurement(*m, ctx.expectation);
}

bool register_math2(const char* id, ProbeFn fn, ProbeFn worst) {
  const numerics::ScalarMath2* row = numerics::find_scalar_math2(id);
  if (!row) throw std::logic_error(std::string("numeric.math probe without a table row: ") + id);
  return register_math_pair(row->id, row->label, row->judged,
                            row->label +
                                " on 2^24 deterministic binary32 pairs (2^30 with GPUCONFORM_SCALAR_LONG=1; "
                                "directed and hashed classes): "
                                "the largest ulp distance from the correctly rounded result",
                            "pair", fn, worst);
}

#define GC_MATH2_PROBE(FN, ID)                                                                    \
  Measurement FN##_probe(const ProbeContext& ctx) { return measure<Math2Fn::FN>(ctx, ID); }       \
  Measurement FN##_worst(const ProbeContext& ctx) { return measure_worst<Math2Fn::FN>(ctx, ID); } \
  const bool FN##_registered = register_math2(ID, &FN##_probe, &FN##_worst);

GC_MATH2_PROBE(powf, "numeric.math.powf")
GC_MATH2_PROBE(atan2f, "numeric.math.atan2f")
GC_MATH2_PROBE(hypotf, "numeric.math.hypotf")
GC_MATH2_PROBE(fmodf, "numeric.math.fmodf")
GC_MATH2_PROBE(remainderf, "numeric.math.remainderf")
GC_MATH2_PROBE(i_powf, "numeric.math.intrinsic.powf")
GC_MATH2_PROBE(i_fdividef, "numeric.math.intrinsic.fdividef")
GC_MATH2_PROBE(i_fdiv_rn, "numeric.math.intrinsic.fdiv_rn")

#undef GC_MATH2_PROBE

}  // namespace
}  // namespace gpuconform::kernels
