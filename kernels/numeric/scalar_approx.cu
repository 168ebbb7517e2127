// SPDX-License-Identifier: Apache-2.0
// numeric.scalar.<fn>.approx[.ftz].f32: the PTX .approx instructions over all 2^32 binary32
// inputs, each result's error against CUDA's binary64 library measured in the same GPU
// thread (numerics/scalar_approx.hpp says which inputs count and how). The maxima of every
// measure are kept as (error, input) keys with atomicMax; a second one-thread kernel
// evaluates the instruction and the reference again at the worst inputs for the notes.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_approx.hpp"
#include "gpuconform/timing.hpp"
#include "gpuconform/numerics/scalar_arith.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::ApproxFn;
using numerics::ApproxSpec;

struct ApproxOut {
  unsigned long long worst[numerics::kApproxMeasures];  // error_key << 32 | input
  unsigned long long in_domain, special, class_mismatches;
  unsigned int first_class_mismatch, first_class_got, have_first;
  float worst_result[numerics::kApproxMeasures];
  double worst_reference[numerics::kApproxMeasures];
};

#define GC_APPROX(NAME, PTX)                           \
  struct NAME {                                        \
    __device__ static float run(float x) {             \
      float r;                                         \
      asm volatile(PTX " %0, %1;" : "=f"(r) : "f"(x)); \
      return r;                                        \
    }                                                  \
  };
GC_APPROX(Ex2, "ex2.approx.f32")
GC_APPROX(Ex2Ftz, "ex2.approx.ftz.f32")
GC_APPROX(Lg2, "lg2.approx.f32")
GC_APPROX(Lg2Ftz, "lg2.approx.ftz.f32")
GC_APPROX(Rsqrt, "rsqrt.approx.f32")
GC_APPROX(RsqrtFtz, "rsqrt.approx.ftz.f32")
GC_APPROX(Rcp, "rcp.approx.f32")
GC_APPROX(RcpFtz, "rcp.approx.ftz.f32")
GC_APPROX(Sqrt, "sqrt.approx.f32")
GC_APPROX(SqrtFtz, "sqrt.approx.ftz.f32")
GC_APPROX(Sin, "sin.approx.f32")
GC_APPROX(SinFtz, "sin.approx.ftz.f32")
GC_APPROX(Cos, "cos.approx.f32")
GC_APPROX(CosFtz, "cos.approx.ftz.f32")
GC_APPROX(Tanh, "tanh.approx.f32")
#undef GC_APPROX
#define GC_APPROX2(NAME, PTX)                                      \
  struct NAME {                                                    \
    __device__ static float run2(float a, float b) {               \
      float r;                                                     \
      asm volatile(PTX " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); \
      return r;                                                    \
    }                                                              \
  };
GC_APPROX2(DivApprox, "div.approx.f32")
GC_APPROX2(DivApproxFtz, "div.approx.ftz.f32")
GC_APPROX2(DivFull, "div.full.f32")
GC_APPROX2(DivFullFtz, "div.full.ftz.f32")
#undef GC_APPROX2

// The binary64 value of the function at x (CUDA's double library, within 2 ulps).
__device__ double reference(ApproxFn fn, double x) {
  switch (fn) {
    case ApproxFn::ex2: return exp2(x);
    case ApproxFn::lg2: return log2(x);
    case ApproxFn::rsqrt: return rsqrt(x);
    case ApproxFn::rcp: return __drcp_rn(x);
    case ApproxFn::sqrt: return __dsqrt_rn(x);
    case ApproxFn::sin: return sin(x);
    case ApproxFn::cos: return cos(x);
    case ApproxFn::tanh: return tanh(x);
    case ApproxFn::div_approx:
    case ApproxFn::div_full: break;  // two operands: scan_divide
  }
  return 0;
}

// The input the reference reads: .ftz reads a subnormal as a zero of its sign.
__device__ double reference_input(const ApproxSpec& s, std::uint32_t x) {
  if (s.ftz && (x & 0x7f800000u) == 0) x &= 0x80000000u;
  return static_cast<double>(__uint_as_float(x));
}

template <class Op>
__global__ void __launch_bounds__(256) scan_approx(ApproxSpec spec, ApproxOut* out) {
  constexpr int kM = numerics::kApproxMeasures;
  unsigned long long worst[kM] = {}, in_domain = 0, special = 0, mismatches = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (1ull << 32);
       i += stride) {
    const std::uint32_t x = static_cast<std::uint32_t>(i);
    const double xd = reference_input(spec, x);
    const double ax = fabs(xd);
    const bool finite_x = ax - ax == 0;  // false for +-inf and NaN, which always stay
    if (finite_x && ax > spec.wide_domain) continue;
    const double r = reference(spec.fn, xd);
    const float y = Op::run(__uint_as_float(x));
    const int rc = numerics::approx_value_class(r);
    if (rc != 0 && !(rc == 1 && numerics::approx_zero_is_a_value(spec))) {
      if (finite_x && ax > spec.domain) continue;
      ++special;
      if (numerics::approx_value_class(static_cast<double>(y)) != rc) {
        ++mismatches;
        if (atomicCAS(&out->have_first, 0u, 1u) == 0u) {
          out->first_class_mismatch = x;
          out->first_class_got = __float_as_uint(y);
        }
      }
      continue;
    }
    if (!numerics::approx_in_range(spec, r)) continue;
    const numerics::ApproxErrors e = numerics::approx_errors(spec, xd, y, r);
    const bool in_domain_x = !(finite_x && ax > spec.domain);
    in_domain += in_domain_x ? 1 : 0;
    for (int k = 0; k < kM; ++k) {
      if (!in_domain_x && k != numerics::kApproxAbsoluteWide) continue;
      const unsigned long long key = static_cast<unsigned long long>(numerics::error_key(e.e[k])) << 32 | x;
      worst[k] = key > worst[k] ? key : worst[k];
    }
  }
  for (int k = 0; k < kM; ++k) atomicMax(&out->worst[k], worst[k]);
  atomicAdd(&out->in_domain, in_domain);
  atomicAdd(&out->special, special);
  if (mismatches) atomicAdd(&out->class_mismatches, mismatches);
}

// The instruction and the reference again at each measure's worst input.
template <class Op>
__global__ void evaluate_worst(ApproxSpec spec, ApproxOut* out) {
  for (int k = 0; k < numerics::kApproxMeasures; ++k) {
    const std::uint32_t x = static_cast<std::uint32_t>(out->worst[k]);
    out->worst_result[k] = Op::run(__uint_as_float(x));
    out->worst_reference[k] = reference(spec.fn, reference_input(spec, x));
  }
}

// The two-operand rows (div.approx, div.full): 2^28 tuples, keys holding the tuple index.
// The reference is the binary64 quotient (within half a binary64 ulp of a / b).
__device__ void divide_operands(const ApproxSpec& spec, std::uint64_t i, float& a, float& b, double& ad, double& bd) {
  const numerics::ArithOperands o = numerics::arith_operands(numerics::ArithOp::div, i);
  a = __uint_as_float(o.a);
  b = __uint_as_float(o.b);
  ad = reference_input(spec, o.a);
  bd = reference_input(spec, o.b);
}

template <class Op>
__global__ void __launch_bounds__(256) scan_divide(ApproxSpec spec, ApproxOut* out) {
  constexpr int kM = numerics::kApproxMeasures;
  unsigned long long worst[kM] = {}, in_domain = 0, special = 0, mismatches = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < numerics::kApproxDivTuples; i += stride) {
    float a, b;
    double ad, bd;
    divide_operands(spec, i, a, b, ad, bd);
    const double ab = fabs(bd);
    // div.approx: the bound holds for |b| in [2^-126, 2^126] only.
    if (spec.fn == ApproxFn::div_approx && !(ab >= 1.1754943508222875e-38 && ab <= spec.domain)) continue;
    const double r = __ddiv_rn(ad, bd);
    const float y = Op::run2(a, b);
    const int rc = numerics::approx_value_class(r);
    if (rc != 0) {
      ++special;
      if (numerics::approx_value_class(static_cast<double>(y)) != rc) {
        ++mismatches;
        if (atomicCAS(&out->have_first, 0u, 1u) == 0u) {
          out->first_class_mismatch = static_cast<unsigned int>(i);
          out->first_class_got = __float_as_uint(y);
        }
      }
      continue;
    }
    if (!numerics::approx_in_range(spec, r)) continue;
    const numerics::ApproxErrors e = numerics::approx_errors(spec, ad, y, r);
    ++in_domain;
    for (int k = 0; k < kM; ++k) {
      const unsigned long long key = static_cast<unsigned long long>(numerics::error_key(e.e[k])) << 32 | i;
      worst[k] = key > worst[k] ? key : worst[k];
    }
  }
  for (int k = 0; k < kM; ++k) atomicMax(&out->worst[k], worst[k]);
  atomicAdd(&out->in_domain, in_domain);
  atomicAdd(&out->special, special);
  if (mismatches) atomicAdd(&out->class_mismatches, mismatches);
}

template <class Op>
__global__ void evaluate_worst_divide(ApproxSpec spec, ApproxOut* out) {
  for (int k = 0; k < numerics::kApproxMeasures; ++k) {
    float a, b;
    double ad, bd;
    divide_operands(spec, static_cast<std::uint32_t>(out->worst[k]), a, b, ad, bd);
    out->worst_result[k] = Op::run2(a, b);
    out->worst_reference[k] = __ddiv_rn(ad, bd);
  }
}

// Launches the unary or the two-operand scan, by the functor's kind.
template <class Op, class = void>
struct Scan {
  static void launch(int blocks, const ApproxSpec& spec, ApproxOut* out) {
    scan_approx<Op><<<blocks, 256>>>(spec, out);
    GC_CUDA_CHECK_LAUNCH();
    evaluate_worst<Op><<<1, 1>>>(spec, out);
  }
  static constexpr unsigned long long kCompared = 1ull << 32;
};
template <class Op>
struct Scan<Op, decltype(void(Op::run2(0.f, 0.f)))> {
  static void launch(int blocks, const ApproxSpec& spec, ApproxOut* out) {
    scan_divide<Op><<<blocks, 256>>>(spec, out);
    GC_CUDA_CHECK_LAUNCH();
    evaluate_worst_divide<Op><<<1, 1>>>(spec, out);
  }
  static constexpr unsigned long long kCompared = numerics::kApproxDivTuples;
};

template <class Op>
Measurement measure(const ProbeContext&, const char* id) {
  const numerics::ScalarApprox* row = numerics::find_scalar_approx(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar probe without a table row: ") + id);
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<ApproxOut> out(1);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(ApproxOut)));
  // One timed launch (timing.hpp): the scan, synchronised, then the worst inputs again.
  const double ms = time_launches_ms([&] { Scan<Op>::launch(sms * 8, row->spec, out.get()); }, 0, 1).front();
  const ApproxOut host = out.download()[0];
  numerics::ApproxScan scan;
  scan.compared = Scan<Op>::kCompared;
  scan.in_domain = host.in_domain;
  scan.special = host.special;
  for (int k = 0; k < numerics::kApproxMeasures; ++k) {
    scan.worst[k] = host.worst[k];
    scan.worst_result[k] = host.worst_result[k];
    scan.worst_reference[k] = host.worst_reference[k];
  }
  scan.class_mismatches = host.class_mismatches;
  scan.first_class_mismatch = host.first_class_mismatch;
  scan.first_class_got = host.first_class_got;
  scan.gpu_ms = ms;
  return numerics::approx_measurement(*row, scan);
}

bool register_approx(const char* id, ProbeFn fn) {
  const numerics::ScalarApprox* row = numerics::find_scalar_approx(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar probe without a table row: ") + id);
  return register_probes({Probe{
      row->id, Family::numeric,
      row->ptx + " over all 2^32 binary32 inputs: the largest " + row->metric_text + " against the binary64 function",
      Requirements{row->min_cc}, kMaxHint, fn}});
}

#define GC_APPROX_PROBE(OP, PTX)                                                                      \
  Measurement OP##_probe(const ProbeContext& ctx) { return measure<OP>(ctx, "numeric.scalar." PTX); } \
  const bool OP##_registered = register_approx("numeric.scalar." PTX, &OP##_probe);

GC_APPROX_PROBE(Ex2, "ex2.approx.f32")
GC_APPROX_PROBE(Ex2Ftz, "ex2.approx.ftz.f32")
GC_APPROX_PROBE(Lg2, "lg2.approx.f32")
GC_APPROX_PROBE(Lg2Ftz, "lg2.approx.ftz.f32")
GC_APPROX_PROBE(Rsqrt, "rsqrt.approx.f32")
GC_APPROX_PROBE(RsqrtFtz, "rsqrt.approx.ftz.f32")
GC_APPROX_PROBE(Rcp, "rcp.approx.f32")
GC_APPROX_PROBE(RcpFtz, "rcp.approx.ftz.f32")
GC_APPROX_PROBE(Sqrt, "sqrt.approx.f32")
GC_APPROX_PROBE(SqrtFtz, "sqrt.approx.ftz.f32")
GC_APPROX_PROBE(Sin, "sin.approx.f32")
GC_APPROX_PROBE(SinFtz, "sin.approx.ftz.f32")
GC_APPROX_PROBE(Cos, "cos.approx.f32")
GC_APPROX_PROBE(CosFtz, "cos.approx.ftz.f32")
GC_APPROX_PROBE(Tanh, "tanh.approx.f32")
GC_APPROX_PROBE(DivApprox, "div.approx.f32")
GC_APPROX_PROBE(DivApproxFtz, "div.approx.ftz.f32")
GC_APPROX_PROBE(DivFull, "div.full.f32")
GC_APPROX_PROBE(DivFullFtz, "div.full.ftz.f32")

#undef GC_APPROX_PROBE

}  // namespace
}  // namespace gpuconform::kernels
