// SPDX-License-Identifier: Apache-2.0
// numeric.scalar.cvt.* between integers (s32 u32 s64 u64) and floats (f32 f64): every input of
// a 32-bit source, a sample of a 64-bit one, each result compared in the same GPU thread with
// the integer-only reference of numerics/scalar_int_conversions.hpp. Mismatches are counted per
// input class; the first few are kept. Value: mismatches (an invariant, max 0).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_int_conversions.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::IntConversionSpec;

constexpr int kKept = 8;

struct IntCvtOut {
  unsigned long long mismatches[5];
  unsigned int kept;
  unsigned long long input[kKept], got[kKept], want[kKept];
};

// One functor per instruction; DST/SRC are the PTX register constraints and C types.
#define GC_CVT_FUNCTOR(NAME, PTX, DT, DC, ST, SC, SRC_EXPR, OUT_EXPR) \
  struct NAME {                                                       \
    __device__ static std::uint64_t run(std::uint64_t x) {            \
      DT r;                                                           \
      const ST s = SRC_EXPR;                                          \
      asm volatile(PTX " %0, %1;" : "=" DC(r) : SC(s));               \
      return OUT_EXPR;                                                \
    }                                                                 \
  };
#define GC_F32_FROM_I32(NAME, PTX)                                                       \
  GC_CVT_FUNCTOR(NAME, PTX, float, "f", unsigned int, "r", static_cast<unsigned int>(x), \
                 static_cast<std::uint64_t>(__float_as_uint(r)))
#define GC_F32_FROM_I64(NAME, PTX)                                                                   \
  GC_CVT_FUNCTOR(NAME, PTX, float, "f", unsigned long long, "l", static_cast<unsigned long long>(x), \
                 static_cast<std::uint64_t>(__float_as_uint(r)))
#define GC_F64_FROM_I32(NAME, PTX)                                                        \
  GC_CVT_FUNCTOR(NAME, PTX, double, "d", unsigned int, "r", static_cast<unsigned int>(x), \
                 static_cast<std::uint64_t>(__double_as_longlong(r)))
#define GC_F64_FROM_I64(NAME, PTX)                                                                    \
  GC_CVT_FUNCTOR(NAME, PTX, double, "d", unsigned long long, "l", static_cast<unsigned long long>(x), \
                 static_cast<std::uint64_t>(__double_as_longlong(r)))
#define GC_I32_FROM_F32(NAME, PTX) \
  GC_CVT_FUNCTOR(NAME, PTX, unsigned int, "r", float, "f", __uint_as_float(static_cast<unsigned int>(x)), r)
#define GC_I64_FROM_F32(NAME, PTX) \
  GC_CVT_FUNCTOR(NAME, PTX, unsigned long long, "l", float, "f", __uint_as_float(static_cast<unsigned int>(x)), r)
#define GC_I32_FROM_F64(NAME, PTX) \
  GC_CVT_FUNCTOR(NAME, PTX, unsigned int, "r", double, "d", __longlong_as_double(static_cast<long long>(x)), r)
#define GC_I64_FROM_F64(NAME, PTX) \
  GC_CVT_FUNCTOR(NAME, PTX, unsigned long long, "l", double, "d", __longlong_as_double(static_cast<long long>(x)), r)

template <class Op>
__global__ void __launch_bounds__(256)
    scan_int_conversion(IntConversionSpec spec, unsigned long long count, IntCvtOut* out) {
  unsigned long long wrong[5] = {0, 0, 0, 0, 0};
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const std::uint64_t x = numerics::int_conversion_input(spec, i);
    const std::uint64_t got = Op::run(x);
    const std::uint64_t want = numerics::int_conversion_reference(spec, x);
    if (got != want) {
      ++wrong[numerics::int_conversion_class(spec, x)];
      if (*static_cast<volatile unsigned int*>(&out->kept) < kKept) {
        const unsigned int slot = atomicAdd(&out->kept, 1u);
        if (slot < kKept) {
          out->input[slot] = x;
          out->got[slot] = got;
          out->want[slot] = want;
        }
      }
    }
  }
  for (int k = 0; k < 5; ++k)
    if (wrong[k] != 0) atomicAdd(&out->mismatches[k], wrong[k]);
}

template <class Op>
Measurement measure(const ProbeContext&, const char* id) {
  const numerics::ScalarIntConversion* row = numerics::find_scalar_int_conversion(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar.cvt probe without a table row: ") + id);
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<IntCvtOut> out(1);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(IntCvtOut)));
  const unsigned long long count = numerics::int_conversion_count(row->spec);
  const double ms =
      time_launches_ms([&] { scan_int_conversion<Op><<<sms * 8, 256>>>(row->spec, count, out.get()); }, 0, 1).front();
  const IntCvtOut host = out.download()[0];
  numerics::IntConversionScan scan;
  scan.compared = count;
  for (int k = 0; k < 5; ++k) scan.mismatches_by_class[k] = host.mismatches[k];
  for (unsigned int s = 0; s < std::min<unsigned int>(host.kept, kKept); ++s)
    scan.first.push_back({host.input[s], host.got[s], host.want[s]});
  scan.gpu_ms = ms;
  return numerics::int_conversion_measurement(*row, scan);
}

bool register_cvt(const char* id, ProbeFn fn) {
  const numerics::ScalarIntConversion* row = numerics::find_scalar_int_conversion(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar.cvt probe without a table row: ") + id);
  const bool all = numerics::source_bits(row->spec) == 32;
  return register_probes(
      {Probe{row->id, Family::numeric,
             row->ptx + (all ? " on all 2^32 inputs" : " on 2^24 sampled inputs (2^28 with GPUCONFORM_SCALAR_LONG=1)") +
                 ": mismatches against the exact result",
             Requirements{75, 0, ""}, RecordHint{ExpectationKind::max}, fn}});
}

#define GC_INT_CVT(KIND, NAME, PTX)                                                                       \
  KIND(NAME, PTX)                                                                                         \
  Measurement NAME##_probe(const ProbeContext& ctx) { return measure<NAME>(ctx, "numeric.scalar." PTX); } \
  const bool NAME##_registered = register_cvt("numeric.scalar." PTX, &NAME##_probe);
// Integer -> float: every direction (binary64 from 32 bits at .rn only: it is exact).
#define GC_TO_FLOAT(KIND, NAME, DST, SRC)           \
  GC_INT_CVT(KIND, NAME##Rn, "cvt.rn." DST "." SRC) \
  GC_INT_CVT(KIND, NAME##Rz, "cvt.rz." DST "." SRC) \
  GC_INT_CVT(KIND, NAME##Rm, "cvt.rm." DST "." SRC) \
  GC_INT_CVT(KIND, NAME##Rp, "cvt.rp." DST "." SRC)
#define GC_TO_INT(KIND, NAME, DST, SRC)               \
  GC_INT_CVT(KIND, NAME##Rni, "cvt.rni." DST "." SRC) \
  GC_INT_CVT(KIND, NAME##Rzi, "cvt.rzi." DST "." SRC) \
  GC_INT_CVT(KIND, NAME##Rmi, "cvt.rmi." DST "." SRC) \
  GC_INT_CVT(KIND, NAME##Rpi, "cvt.rpi." DST "." SRC)

GC_TO_FLOAT(GC_F32_FROM_I32, F32S32, "f32", "s32")
GC_TO_FLOAT(GC_F32_FROM_I32, F32U32, "f32", "u32")
GC_TO_FLOAT(GC_F32_FROM_I64, F32S64, "f32", "s64")
GC_TO_FLOAT(GC_F32_FROM_I64, F32U64, "f32", "u64")
GC_INT_CVT(GC_F64_FROM_I32, F64S32Rn, "cvt.rn.f64.s32")
GC_INT_CVT(GC_F64_FROM_I32, F64U32Rn, "cvt.rn.f64.u32")
GC_TO_FLOAT(GC_F64_FROM_I64, F64S64, "f64", "s64")
GC_TO_FLOAT(GC_F64_FROM_I64, F64U64, "f64", "u64")
GC_TO_INT(GC_I32_FROM_F32, S32F32, "s32", "f32")
GC_TO_INT(GC_I32_FROM_F32, U32F32, "u32", "f32")
GC_TO_INT(GC_I64_FROM_F32, S64F32, "s64", "f32")
GC_TO_INT(GC_I64_FROM_F32, U64F32, "u64", "f32")
GC_TO_INT(GC_I32_FROM_F64, S32F64, "s32", "f64")
GC_TO_INT(GC_I32_FROM_F64, U32F64, "u32", "f64")
GC_TO_INT(GC_I64_FROM_F64, S64F64, "s64", "f64")
GC_TO_INT(GC_I64_FROM_F64, U64F64, "u64", "f64")

#undef GC_TO_INT
#undef GC_TO_FLOAT
#undef GC_INT_CVT
#undef GC_I64_FROM_F64
#undef GC_I32_FROM_F64
#undef GC_I64_FROM_F32
#undef GC_I32_FROM_F32
#undef GC_F64_FROM_I64
#undef GC_F64_FROM_I32
#undef GC_F32_FROM_I64
#undef GC_F32_FROM_I32
#undef GC_CVT_FUNCTOR

}  // namespace
}  // namespace gpuconform::kernels
