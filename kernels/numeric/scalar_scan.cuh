// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the numeric.scalar arithmetic scans (scalar_arith.cu for binary32, scalar_f64_arith.cu
// for binary64) share: the one-instruction functors, keeping the first mismatches, adding the
// per-class counts, and the one timed launch. Each scan keeps its own kernel loop and output
// struct (its reference and NaN bookkeeping differ); these pieces are the same for both.
#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels::scalar_scan {

// The register type of an instruction and the bit pattern it is compared as.
template <class F>
struct AsmWord;
template <>
struct AsmWord<float> {
  using type = std::uint32_t;
  __device__ static float in(type x) { return __uint_as_float(x); }
  __device__ static type out(float r) { return __float_as_uint(r); }
};
template <>
struct AsmWord<double> {
  using type = std::uint64_t;
  __device__ static double in(type x) { return __longlong_as_double(static_cast<long long>(x)); }
  __device__ static type out(double r) { return static_cast<std::uint64_t>(__double_as_longlong(r)); }
};

// One functor per instruction: PTX is the mnemonic with its qualifiers, F the register's C
// type and C its inline-PTX constraint ("f" or "d"); run() takes and returns bit patterns.
#define GC_ASM_BINARY(NAME, PTX, F, C)                                        \
  struct NAME {                                                               \
    using W = ::gpuconform::kernels::scalar_scan::AsmWord<F>;                 \
    __device__ static W::type run(W::type a, W::type b, W::type) {            \
      F r;                                                                    \
      asm volatile(PTX " %0, %1, %2;" : "=" C(r) : C(W::in(a)), C(W::in(b))); \
      return W::out(r);                                                       \
    }                                                                         \
  };
#define GC_ASM_TERNARY(NAME, PTX, F, C)                                                        \
  struct NAME {                                                                                \
    using W = ::gpuconform::kernels::scalar_scan::AsmWord<F>;                                  \
    __device__ static W::type run(W::type a, W::type b, W::type c) {                           \
      F r;                                                                                     \
      asm volatile(PTX " %0, %1, %2, %3;" : "=" C(r) : C(W::in(a)), C(W::in(b)), C(W::in(c))); \
      return W::out(r);                                                                        \
    }                                                                                          \
  };
#define GC_ASM_UNARY(NAME, PTX, F, C)                            \
  struct NAME {                                                  \
    using W = ::gpuconform::kernels::scalar_scan::AsmWord<F>;    \
    __device__ static W::type run(W::type a, W::type, W::type) { \
      F r;                                                       \
      asm volatile(PTX " %0, %1;" : "=" C(r) : C(W::in(a)));     \
      return W::out(r);                                          \
    }                                                            \
  };

// Records mismatch i (operands o, the GPU's and the reference's result) in the first free
// of Out's Kept slots; the volatile read skips the atomic once every slot is taken.
template <int Kept, class Out, class Operands, class Word>
__device__ void keep_mismatch(Out* out, unsigned long long i, const Operands& o, Word got, Word want) {
  if (*static_cast<volatile unsigned int*>(&out->kept) < Kept) {
    const unsigned int slot = atomicAdd(&out->kept, 1u);
    if (slot < Kept) {
      out->index[slot] = i;
      out->a[slot] = o.a;
      out->b[slot] = o.b;
      out->c[slot] = o.c;
      out->got[slot] = got;
      out->want[slot] = want;
    }
  }
}

// Adds a thread's per-class mismatch counts to Out (only the nonzero ones: fewer atomics).
template <int Classes, class Out>
__device__ void add_class_counts(Out* out, const unsigned long long (&wrong)[Classes]) {
  for (int k = 0; k < Classes; ++k)
    if (wrong[k] != 0) atomicAdd(&out->mismatches[k], wrong[k]);
}

// Zeroes an Out on the device, runs launch(blocks, out) once, timed (events around it,
// synchronised and error-checked: timing.hpp), with 8 blocks per SM; returns the Out and
// sets ms.
template <class Out, class Launch>
Out timed_scan(Launch launch, double& ms) {
  int sms = 0, device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<Out> out(1);
  GC_CUDA_CHECK(cudaMemset(out.get(), 0, sizeof(Out)));
  ms = time_launches_ms([&] { launch(sms * 8, out.get()); }, 0, 1).front();
  return out.download()[0];
}

}  // namespace gpuconform::kernels::scalar_scan
