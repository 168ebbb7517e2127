// SPDX-License-Identifier: Apache-2.0
// numeric.scalar.cvt.*: every input of a PTX conversion on the GPU, each result compared in
// the same thread with the reference rounding (numerics/scalar_conversions.hpp, built on
// reference/scalar_round.hpp, whose host build is unit-tested against FloatFormat). One
// kernel per instruction, a grid-stride loop over all 2^32 (or 2^16) inputs; mismatches are
// counted per input class in registers and added once per thread, and the first few
// mismatching inputs are kept with both results. Value: mismatches (an invariant, max 0).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_conversions.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

using numerics::ConversionSpec;
namespace sc = ref::scalar;

constexpr int kKeptMismatches = 8;

struct ScanOut {
  unsigned long long mismatches[sc::kInputClasses];
  unsigned int kept;
  unsigned int input[kKeptMismatches], got[kKeptMismatches], want[kKeptMismatches];
};

__device__ __forceinline__ float as_float(std::uint32_t x) { return __uint_as_float(x); }

// One instruction per functor: the result bits of input x, packed as conversion_reference()
// packs them. Code the architecture lacks (below ARCH) is compiled out, the same functor
// returning a pattern no reference gives for every input (the probe skips there anyway).
#if defined(__CUDA_ARCH__)
#define GC_ARCH_AT_LEAST(ARCH) (__CUDA_ARCH__ >= ARCH)
#else
#define GC_ARCH_AT_LEAST(ARCH) 1
#endif
#define GC_CVT(NAME, ARCH, OUT_T, OUT_C, BODY)             \
  struct NAME {                                            \
    __device__ static std::uint32_t run(std::uint32_t x) { \
      OUT_T r = 0;                                         \
      if constexpr (GC_ARCH_AT_LEAST(ARCH)) {              \
        BODY;                                              \
      } else {                                             \
        (void)x;                                           \
        return 0xffffffffu;                                \
      }                                                    \
      return static_cast<std::uint32_t>(r);                \
    }                                                      \
  };
// d (16 bits) <- one f32
#define GC_F32_TO_16(NAME, ARCH, PTX) \
  GC_CVT(NAME, ARCH, unsigned short, "h", asm volatile(PTX " %0, %1;" : "=h"(r) : "f"(as_float(x))))
// d (32 bits) <- a = x, b = -x
#define GC_F32X2_TO_32(NAME, ARCH, PTX)  \
  GC_CVT(NAME, ARCH, std::uint32_t, "r", \
         asm volatile(PTX " %0, %1, %2;" \
                      : "=r"(r)          \
                      : "f"(as_float(x)), "f"(as_float(x ^ 0x80000000u))))
// d (16 bits) <- a = x, b = -x
#define GC_F32X2_TO_16(NAME, ARCH, PTX)   \
  GC_CVT(NAME, ARCH, unsigned short, "h", \
         asm volatile(PTX " %0, %1, %2;"  \
                      : "=h"(r)           \
                      : "f"(as_float(x)), "f"(as_float(x ^ 0x80000000u))))
// d (32 bits) <- two 8-bit codes in 16 bits
#define GC_8X2_TO_32(NAME, ARCH, PTX) \
  GC_CVT(NAME, ARCH, std::uint32_t, "r", asm volatile(PTX " %0, %1;" : "=r"(r) : "h"(static_cast<unsigned short>(x))))

GC_F32_TO_16(CvtRnF16, 700, "cvt.rn.f16.f32")
GC_F32_TO_16(CvtRzF16, 700, "cvt.rz.f16.f32")
GC_F32_TO_16(CvtRmF16, 700, "cvt.rm.f16.f32")
GC_F32_TO_16(CvtRpF16, 700, "cvt.rp.f16.f32")
GC_F32_TO_16(CvtRnBf16, 800, "cvt.rn.bf16.f32")
GC_F32_TO_16(CvtRmBf16, 900, "cvt.rm.bf16.f32")
GC_F32_TO_16(CvtRpBf16, 900, "cvt.rp.bf16.f32")
GC_F32_TO_16(CvtRzBf16, 800, "cvt.rz.bf16.f32")
GC_F32X2_TO_32(CvtRnF16x2, 800, "cvt.rn.f16x2.f32")
GC_F32X2_TO_32(CvtRnReluF16x2, 800, "cvt.rn.relu.f16x2.f32")
GC_F32X2_TO_32(CvtRnBf16x2, 800, "cvt.rn.bf16x2.f32")
GC_F32X2_TO_32(CvtRnReluBf16x2, 800, "cvt.rn.relu.bf16x2.f32")
GC_CVT(CvtRnaTf32, 800, std::uint32_t, "r", asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(as_float(x))))
GC_F32X2_TO_16(CvtE4m3x2, 890, "cvt.rn.satfinite.e4m3x2.f32")
GC_F32X2_TO_16(CvtReluE4m3x2, 890, "cvt.rn.satfinite.relu.e4m3x2.f32")
GC_F32X2_TO_16(CvtE5m2x2, 890, "cvt.rn.satfinite.e5m2x2.f32")
GC_F32X2_TO_16(CvtReluE5m2x2, 890, "cvt.rn.satfinite.relu.e5m2x2.f32")
GC_8X2_TO_32(CvtF16x2E4m3x2, 890, "cvt.rn.f16x2.e4m3x2")
GC_8X2_TO_32(CvtF16x2E5m2x2, 890, "cvt.rn.f16x2.e5m2x2")

struct CvtF32F16 {
  __device__ static std::uint32_t run(std::uint32_t x) {
    float r;
    asm volatile("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(static_cast<unsigned short>(x)));
    return __float_as_uint(r);
  }
};

#undef GC_F32_TO_16
#undef GC_F32X2_TO_32
#undef GC_F32X2_TO_16
#undef GC_8X2_TO_32
#undef GC_CVT
#undef GC_ARCH_AT_LEAST

template <class Op>
__global__ void __launch_bounds__(256) scan_conversion(ConversionSpec spec, unsigned long long count, ScanOut* out) {
  unsigned long long wrong[sc::kInputClasses] = {0, 0, 0, 0, 0};
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const std::uint32_t x = static_cast<std::uint32_t>(i);
    const std::uint32_t got = Op::run(x);
    const std::uint32_t want = numerics::conversion_reference(spec, x);
    if (got != want) {
      ++wrong[numerics::conversion_input_class(spec, x)];
      if (*static_cast<volatile unsigned int*>(&out->kept) < kKeptMismatches) {
        const unsigned int slot = atomicAdd(&out->kept, 1u);
        if (slot < kKeptMismatches) {
          out->input[slot] = x;
          out->got[slot] = got;
          out->want[slot] = want;
        }
      }
    }
  }
  for (int k = 0; k < sc::kInputClasses; ++k)
    if (wrong[k] != 0) atomicAdd(&out->mismatches[k], wrong[k]);
}

template <class Op>
Measurement measure(const ProbeContext& ctx, const char* id) {
  const numerics::ScalarConversion* c = numerics::find_scalar_conversion(id);
  if (!c) throw std::logic_error(std::string("numeric.scalar probe without a table row: ") + id);
  (void)ctx;
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<ScanOut> out(1);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(ScanOut)));
  const unsigned long long count = 1ull << c->spec.input_bits;
  const int threads = 256;
  const int blocks = static_cast<int>(
      std::min<unsigned long long>(static_cast<unsigned long long>(sms) * 8, (count + threads - 1) / threads));
  // One timed launch: events around it, synchronised and error-checked (timing.hpp).
  const double ms =
      time_launches_ms([&] { scan_conversion<Op><<<blocks, threads>>>(c->spec, count, out.get()); }, 0, 1).front();
  const ScanOut host = out.download()[0];
  numerics::ScalarScan scan;
  scan.compared = count;
  for (int k = 0; k < sc::kInputClasses; ++k) scan.mismatches_by_class[k] = host.mismatches[k];
  for (unsigned int s = 0; s < std::min<unsigned int>(host.kept, kKeptMismatches); ++s)
    scan.first.push_back({host.input[s], host.got[s], host.want[s]});
  scan.gpu_ms = ms;
  return numerics::scalar_measurement(*c, scan);
}

// One probe per table row (numerics/src/scalar_conversions.cpp); registering a row the
// table lacks throws at start-up (registration_test: every row has a probe).
bool register_conversion(const char* id, ProbeFn fn) {
  const numerics::ScalarConversion* c = numerics::find_scalar_conversion(id);
  if (!c) throw std::logic_error(std::string("numeric.scalar probe without a table row: ") + id);
  const std::string inputs = c->spec.input_bits == 32 ? "all 2^32 binary32 inputs" : "all 2^16 inputs";
  return register_probes(
      {Probe{c->id, Family::numeric, c->ptx + " over " + inputs + ": mismatches against the reference rounding",
             Requirements{c->min_cc, 0,
                          c->min_cc >= 90   ? "sm_90 (cvt.rm/rp.bf16)"
                          : c->min_cc >= 89 ? "sm_89 (FP8 conversions)"
                                            : ""},
             kMaxHint, fn}});
}

#define GC_SCALAR_CVT(OP, ID)                                                      \
  Measurement OP##_probe(const ProbeContext& ctx) { return measure<OP>(ctx, ID); } \
  const bool OP##_registered = register_conversion(ID, &OP##_probe);

GC_SCALAR_CVT(CvtRnF16, "numeric.scalar.cvt.rn.f16.f32")
GC_SCALAR_CVT(CvtRzF16, "numeric.scalar.cvt.rz.f16.f32")
GC_SCALAR_CVT(CvtRmF16, "numeric.scalar.cvt.rm.f16.f32")
GC_SCALAR_CVT(CvtRpF16, "numeric.scalar.cvt.rp.f16.f32")
GC_SCALAR_CVT(CvtRnBf16, "numeric.scalar.cvt.rn.bf16.f32")
GC_SCALAR_CVT(CvtRmBf16, "numeric.scalar.cvt.rm.bf16.f32")
GC_SCALAR_CVT(CvtRpBf16, "numeric.scalar.cvt.rp.bf16.f32")
GC_SCALAR_CVT(CvtRzBf16, "numeric.scalar.cvt.rz.bf16.f32")
GC_SCALAR_CVT(CvtRnaTf32, "numeric.scalar.cvt.rna.tf32.f32")
GC_SCALAR_CVT(CvtE4m3x2, "numeric.scalar.cvt.rn.satfinite.e4m3x2.f32")
GC_SCALAR_CVT(CvtReluE4m3x2, "numeric.scalar.cvt.rn.satfinite.relu.e4m3x2.f32")
GC_SCALAR_CVT(CvtE5m2x2, "numeric.scalar.cvt.rn.satfinite.e5m2x2.f32")
GC_SCALAR_CVT(CvtReluE5m2x2, "numeric.scalar.cvt.rn.satfinite.relu.e5m2x2.f32")
GC_SCALAR_CVT(CvtRnF16x2, "numeric.scalar.cvt.rn.f16x2.f32")
GC_SCALAR_CVT(CvtRnReluF16x2, "numeric.scalar.cvt.rn.relu.f16x2.f32")
GC_SCALAR_CVT(CvtRnBf16x2, "numeric.scalar.cvt.rn.bf16x2.f32")
GC_SCALAR_CVT(CvtRnReluBf16x2, "numeric.scalar.cvt.rn.relu.bf16x2.f32")
GC_SCALAR_CVT(CvtF32F16, "numeric.scalar.cvt.f32.f16")
GC_SCALAR_CVT(CvtF16x2E4m3x2, "numeric.scalar.cvt.rn.f16x2.e4m3x2")
GC_SCALAR_CVT(CvtF16x2E5m2x2, "numeric.scalar.cvt.rn.f16x2.e5m2x2")

#undef GC_SCALAR_CVT

}  // namespace
}  // namespace gpuconform::kernels
