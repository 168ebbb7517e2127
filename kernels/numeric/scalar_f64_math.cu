// SPDX-License-Identifier: Apache-2.0
// numeric.math.f64.<fn>: CUDA's binary64 math library on math_f64_input_count() seeded inputs
// per function. The GPU evaluates f(x) only and returns every y; the host regenerates the
// inputs and decides each correctly rounded result (x87 long double first, MPFR near a
// rounding boundary: numerics/scalar_mathlib_f64.hpp), since no wider format exists on the
// GPU. Value: the largest integer ulp distance, judged against the Programming Guide's bound.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_mathlib_f64.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::MathF64;

__device__ double evaluate(MathF64 fn, double x) {
  switch (fn) {
    case MathF64::exp: return exp(x);
    case MathF64::exp2: return exp2(x);
    case MathF64::exp10: return exp10(x);
    case MathF64::expm1: return expm1(x);
    case MathF64::log: return log(x);
    case MathF64::log2: return log2(x);
    case MathF64::log10: return log10(x);
    case MathF64::log1p: return log1p(x);
    case MathF64::sin: return sin(x);
    case MathF64::cos: return cos(x);
    case MathF64::tan: return tan(x);
    case MathF64::sinpi: return sinpi(x);
    case MathF64::cospi: return cospi(x);
    case MathF64::asin: return asin(x);
    case MathF64::acos: return acos(x);
    case MathF64::atan: return atan(x);
    case MathF64::sinh: return sinh(x);
    case MathF64::cosh: return cosh(x);
    case MathF64::tanh: return tanh(x);
    case MathF64::asinh: return asinh(x);
    case MathF64::acosh: return acosh(x);
    case MathF64::atanh: return atanh(x);
    case MathF64::erf: return erf(x);
    case MathF64::erfc: return erfc(x);
    case MathF64::cbrt: return cbrt(x);
    case MathF64::rcbrt: return rcbrt(x);
    case MathF64::sqrt: return sqrt(x);
    case MathF64::rsqrt: return rsqrt(x);
    case MathF64::tgamma: return tgamma(x);
    case MathF64::normcdf: return normcdf(x);
    case MathF64::lgamma: return lgamma(x);
    case MathF64::erfinv: return erfinv(x);
    case MathF64::erfcinv: return erfcinv(x);
    case MathF64::count: break;
  }
  return __longlong_as_double(0x7ff4000000000000ll);
}

// One thread per input; the function is uniform across the grid (no divergence).
__global__ void __launch_bounds__(256)
    eval_f64_math(numerics::MathF64Spec spec, unsigned long long count, unsigned long long* out) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const double x = __longlong_as_double(static_cast<long long>(numerics::math_f64_input(spec, i)));
    out[i] = static_cast<unsigned long long>(__double_as_longlong(evaluate(spec.fn, x)));
  }
}

Measurement measure(const ProbeContext&, const std::string& id) {
  const numerics::ScalarMathF64* row = numerics::find_scalar_math_f64(id);
  if (!row) throw std::logic_error("numeric.math.f64 probe without a table row: " + id);
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned long long count = numerics::math_f64_input_count();
  DeviceBuffer<unsigned long long> out(count);
  const double ms =
      time_launches_ms([&] { eval_f64_math<<<sms * 8, 256>>>(row->spec, count, out.get()); }, 0, 1).front();
  const std::vector<unsigned long long> host = out.download();
  numerics::MathF64Scan scan = numerics::scan_math_f64(*row, std::vector<std::uint64_t>(host.begin(), host.end()));
  scan.gpu_ms = ms;
  return numerics::math_f64_measurement(*row, scan);
}

// One probe per table row, generated (probe.hpp: a loop filling the table is allowed).
template <std::size_t I>
Measurement probe_of_row(const ProbeContext& ctx) {
  return measure(ctx, numerics::scalar_math_f64()[I].id);
}
template <std::size_t... I>
std::vector<Probe> make_probes(std::index_sequence<I...>) {
  static const ProbeFn fns[] = {&probe_of_row<I>...};
  std::vector<Probe> probes;
  for (std::size_t k = 0; k < sizeof...(I); ++k) {
    const numerics::ScalarMathF64& row = numerics::scalar_math_f64()[k];
    probes.push_back(Probe{row.id, Family::numeric, numerics::math_f64_description(row), Requirements{75, 0, ""},
                           RecordHint{ExpectationKind::max}, fns[k]});
  }
  return probes;
}

const bool kRegistered =
    register_probes(make_probes(std::make_index_sequence<static_cast<std::size_t>(MathF64::count)>()));

}  // namespace
}  // namespace gpuconform::kernels
