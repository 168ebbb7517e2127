// SPDX-License-Identifier: Apache-2.0
// numeric.scalar.<op>.<rnd>[.ftz].f32: the binary32 arithmetic instructions on 2^28 operand
// tuples each, and the f16/bf16 add, mul (every one of the 2^32 operand pairs) and fma
// (2^28 triples), scalar and x2, every result compared in the same GPU thread with the exact reference of
// numerics/scalar_arith.hpp (binary64 plus an error-free remainder, rounded by
// reference/scalar_round.hpp). Mismatches are counted per operand class; the first few are
// kept with their operands. Value: mismatches (an invariant, max 0).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/scalar_arith.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/timing.hpp"
#include "scalar_scan.cuh"

namespace gpuconform::kernels {
namespace {

using numerics::ArithSpec;

constexpr int kKept = 8;

struct ArithOut {
  unsigned long long mismatches[numerics::kArithClasses];
  unsigned int kept;
  unsigned long long index[kKept];
  unsigned int a[kKept], b[kKept], c[kKept], got[kKept], want[kKept];
};

// One functor per instruction (scalar_scan.cuh): OP is the PTX mnemonic with its qualifiers.
#define GC_BINARY(NAME, PTX) GC_ASM_BINARY(NAME, PTX, float, "f")
#define GC_TERNARY(NAME, PTX) GC_ASM_TERNARY(NAME, PTX, float, "f")
#define GC_UNARY(NAME, PTX) GC_ASM_UNARY(NAME, PTX, float, "f")

// The 16-bit forms: one f16/bf16 in the low half of a 16-bit register, or two packed in 32
// bits (x2). Code below ARCH is compiled out, the functor returning a pattern no reference
// gives (the probe skips there anyway).
#if defined(__CUDA_ARCH__)
#define GC_ARCH_AT_LEAST(ARCH) (__CUDA_ARCH__ >= ARCH)
#else
#define GC_ARCH_AT_LEAST(ARCH) 1
#endif
#define GC_HALF(NAME, ARCH, BODY)                                                            \
  struct NAME {                                                                              \
    __device__ static std::uint32_t run(std::uint32_t a, std::uint32_t b, std::uint32_t c) { \
      if constexpr (GC_ARCH_AT_LEAST(ARCH)) {                                                \
        BODY                                                                                 \
      } else {                                                                               \
        (void)a, (void)b, (void)c;                                                           \
        return 0xffffffffu;                                                                  \
      }                                                                                      \
    }                                                                                        \
  };
#define GC_BINARY16(NAME, PTX, ARCH)                                                                \
  GC_HALF(NAME, ARCH, unsigned short r; (void)c;                                                    \
          asm volatile(PTX " %0, %1, %2;"                                                           \
                       : "=h"(r)                                                                    \
                       : "h"(static_cast<unsigned short>(a)), "h"(static_cast<unsigned short>(b))); \
          return r;)
#define GC_TERNARY16(NAME, PTX, ARCH)                                                              \
  GC_HALF(NAME, ARCH, unsigned short r;                                                            \
          asm volatile(PTX " %0, %1, %2, %3;"                                                      \
                       : "=h"(r)                                                                   \
                       : "h"(static_cast<unsigned short>(a)), "h"(static_cast<unsigned short>(b)), \
                         "h"(static_cast<unsigned short>(c)));                                     \
          return r;)
#define GC_BINARY16X2(NAME, PTX, ARCH) \
  GC_HALF(NAME, ARCH, std::uint32_t r; (void)c; asm volatile(PTX " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r;)
#define GC_TERNARY16X2(NAME, PTX, ARCH)                                        \
  GC_HALF(NAME, ARCH, std::uint32_t r; asm volatile(PTX " %0, %1, %2, %3;"     \
                                                    : "=r"(r)                  \
                                                    : "r"(a), "r"(b), "r"(c)); \
          return r;)

template <class Op>
__global__ void __launch_bounds__(256) scan_arith(ArithSpec spec, unsigned long long count, ArithOut* out) {
  unsigned long long wrong[numerics::kArithClasses] = {0, 0, 0, 0, 0};
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += stride) {
    const numerics::ArithOperands o = numerics::arith_operands(spec, i);
    const std::uint32_t got = Op::run(o.a, o.b, o.c);
    const std::uint32_t want = numerics::arith_reference_packed(spec, o.a, o.b, o.c);
    if (got != want) {
      ++wrong[numerics::arith_class(spec, i, o)];
      scalar_scan::keep_mismatch<kKept>(out, i, o, got, want);
    }
  }
  scalar_scan::add_class_counts(out, wrong);
}

template <class Op>
Measurement measure(const ProbeContext&, const char* id) {
  const numerics::ScalarArith* row = numerics::find_scalar_arith(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar probe without a table row: ") + id);
  const unsigned long long count = numerics::arith_tuple_count(row->spec);
  double ms = 0;
  const ArithOut host = scalar_scan::timed_scan<ArithOut>(
      [&](int blocks, ArithOut* out) { scan_arith<Op><<<blocks, 256>>>(row->spec, count, out); }, ms);
  numerics::ArithScan scan;
  scan.compared = count;
  for (int k = 0; k < numerics::kArithClasses; ++k) scan.mismatches_by_class[k] = host.mismatches[k];
  for (unsigned int s = 0; s < std::min<unsigned int>(host.kept, kKept); ++s)
    scan.first.push_back({host.index[s], host.a[s], host.b[s], host.c[s], host.got[s], host.want[s]});
  scan.gpu_ms = ms;
  return numerics::arith_measurement(*row, scan);
}

bool register_arith(const char* id, ProbeFn fn) {
  const numerics::ScalarArith* row = numerics::find_scalar_arith(id);
  if (!row) throw std::logic_error(std::string("numeric.scalar probe without a table row: ") + id);
  return register_probes(
      {Probe{row->id, Family::numeric,
             row->ptx + (row->spec.all_pairs ? " on all 2^32 operand pairs" : " on 2^28 operand tuples") +
                 ": mismatches against the exact result",
             Requirements{row->min_cc, 0, row->min_cc >= 90 ? "sm_90 (bf16 add and mul)" : ""}, kMaxHint, fn}});
}

// Each instruction: its functor, its probe function and its registration.
#define GC_ARITH(KIND, NAME, PTX)                                                                         \
  KIND(NAME, PTX)                                                                                         \
  Measurement NAME##_probe(const ProbeContext& ctx) { return measure<NAME>(ctx, "numeric.scalar." PTX); } \
  const bool NAME##_registered = register_arith("numeric.scalar." PTX, &NAME##_probe);
// Every rounding, with and without .ftz; SAT is "" or ".sat" (the rounded result clamped to
// [+0, 1], NaN to +0: numerics::ArithSpec::sat), TAG the functors' name suffix for it.
#define GC_ARITH_MODES_WITH(KIND, NAME, OP, TAG, SAT)       \
  GC_ARITH(KIND, NAME##Rn##TAG, OP ".rn" SAT ".f32")        \
  GC_ARITH(KIND, NAME##RnFtz##TAG, OP ".rn.ftz" SAT ".f32") \
  GC_ARITH(KIND, NAME##Rz##TAG, OP ".rz" SAT ".f32")        \
  GC_ARITH(KIND, NAME##RzFtz##TAG, OP ".rz.ftz" SAT ".f32") \
  GC_ARITH(KIND, NAME##Rm##TAG, OP ".rm" SAT ".f32")        \
  GC_ARITH(KIND, NAME##RmFtz##TAG, OP ".rm.ftz" SAT ".f32") \
  GC_ARITH(KIND, NAME##Rp##TAG, OP ".rp" SAT ".f32")        \
  GC_ARITH(KIND, NAME##RpFtz##TAG, OP ".rp.ftz" SAT ".f32")
#define GC_ARITH_MODES(KIND, NAME, OP) GC_ARITH_MODES_WITH(KIND, NAME, OP, , "")

GC_ARITH_MODES(GC_BINARY, Add, "add")
GC_ARITH_MODES(GC_BINARY, Sub, "sub")
GC_ARITH_MODES(GC_BINARY, Mul, "mul")
GC_ARITH_MODES(GC_TERNARY, Fma, "fma")
GC_ARITH_MODES(GC_BINARY, Div, "div")
GC_ARITH_MODES(GC_UNARY, Sqrt, "sqrt")
GC_ARITH_MODES(GC_UNARY, Rcp, "rcp")
// .sat where PTX has it (not on div, sqrt, rcp).
GC_ARITH_MODES_WITH(GC_BINARY, Add, "add", Sat, ".sat")
GC_ARITH_MODES_WITH(GC_BINARY, Sub, "sub", Sat, ".sat")
GC_ARITH_MODES_WITH(GC_BINARY, Mul, "mul", Sat, ".sat")
GC_ARITH_MODES_WITH(GC_TERNARY, Fma, "fma", Sat, ".sat")

// The 16-bit forms: KIND(functor, PTX, minimum __CUDA_ARCH__).
#define GC_ARITH16(KIND, NAME, PTX, ARCH)                                                                 \
  KIND(NAME, PTX, ARCH)                                                                                   \
  Measurement NAME##_probe(const ProbeContext& ctx) { return measure<NAME>(ctx, "numeric.scalar." PTX); } \
  const bool NAME##_registered = register_arith("numeric.scalar." PTX, &NAME##_probe);

GC_ARITH16(GC_BINARY16, AddF16, "add.rn.f16", 530)
GC_ARITH16(GC_BINARY16, AddFtzF16, "add.rn.ftz.f16", 530)
GC_ARITH16(GC_BINARY16X2, AddF16x2, "add.rn.f16x2", 530)
GC_ARITH16(GC_BINARY16X2, AddFtzF16x2, "add.rn.ftz.f16x2", 530)
GC_ARITH16(GC_BINARY16, AddBf16, "add.rn.bf16", 900)
GC_ARITH16(GC_BINARY16X2, AddBf16x2, "add.rn.bf16x2", 900)
GC_ARITH16(GC_BINARY16, SubF16, "sub.rn.f16", 530)
GC_ARITH16(GC_BINARY16, SubFtzF16, "sub.rn.ftz.f16", 530)
GC_ARITH16(GC_BINARY16X2, SubF16x2, "sub.rn.f16x2", 530)
GC_ARITH16(GC_BINARY16X2, SubFtzF16x2, "sub.rn.ftz.f16x2", 530)
GC_ARITH16(GC_BINARY16, SubBf16, "sub.rn.bf16", 900)
GC_ARITH16(GC_BINARY16X2, SubBf16x2, "sub.rn.bf16x2", 900)
GC_ARITH16(GC_BINARY16, MulF16, "mul.rn.f16", 530)
GC_ARITH16(GC_BINARY16, MulFtzF16, "mul.rn.ftz.f16", 530)
GC_ARITH16(GC_BINARY16X2, MulF16x2, "mul.rn.f16x2", 530)
GC_ARITH16(GC_BINARY16X2, MulFtzF16x2, "mul.rn.ftz.f16x2", 530)
GC_ARITH16(GC_BINARY16, MulBf16, "mul.rn.bf16", 900)
GC_ARITH16(GC_BINARY16X2, MulBf16x2, "mul.rn.bf16x2", 900)
GC_ARITH16(GC_TERNARY16, FmaF16, "fma.rn.f16", 530)
GC_ARITH16(GC_TERNARY16, FmaFtzF16, "fma.rn.ftz.f16", 530)
GC_ARITH16(GC_TERNARY16X2, FmaF16x2, "fma.rn.f16x2", 530)
GC_ARITH16(GC_TERNARY16X2, FmaFtzF16x2, "fma.rn.ftz.f16x2", 530)
GC_ARITH16(GC_TERNARY16, FmaBf16, "fma.rn.bf16", 800)
GC_ARITH16(GC_TERNARY16X2, FmaBf16x2, "fma.rn.bf16x2", 800)
// .sat: the result clamped to [+0, 1], NaN to +0 (f16 only; numerics::ArithSpec::sat).
GC_ARITH16(GC_BINARY16, AddSatF16, "add.rn.sat.f16", 530)
GC_ARITH16(GC_BINARY16, AddFtzSatF16, "add.rn.ftz.sat.f16", 530)
GC_ARITH16(GC_BINARY16X2, AddSatF16x2, "add.rn.sat.f16x2", 530)
GC_ARITH16(GC_BINARY16X2, AddFtzSatF16x2, "add.rn.ftz.sat.f16x2", 530)
GC_ARITH16(GC_BINARY16, SubSatF16, "sub.rn.sat.f16", 530)
GC_ARITH16(GC_BINARY16, SubFtzSatF16, "sub.rn.ftz.sat.f16", 530)
GC_ARITH16(GC_BINARY16X2, SubSatF16x2, "sub.rn.sat.f16x2", 530)
GC_ARITH16(GC_BINARY16X2, SubFtzSatF16x2, "sub.rn.ftz.sat.f16x2", 530)
GC_ARITH16(GC_BINARY16, MulSatF16, "mul.rn.sat.f16", 530)
GC_ARITH16(GC_BINARY16, MulFtzSatF16, "mul.rn.ftz.sat.f16", 530)
GC_ARITH16(GC_BINARY16X2, MulSatF16x2, "mul.rn.sat.f16x2", 530)
GC_ARITH16(GC_BINARY16X2, MulFtzSatF16x2, "mul.rn.ftz.sat.f16x2", 530)
GC_ARITH16(GC_TERNARY16, FmaSatF16, "fma.rn.sat.f16", 530)
GC_ARITH16(GC_TERNARY16, FmaFtzSatF16, "fma.rn.ftz.sat.f16", 530)
GC_ARITH16(GC_TERNARY16X2, FmaSatF16x2, "fma.rn.sat.f16x2", 530)
GC_ARITH16(GC_TERNARY16X2, FmaFtzSatF16x2, "fma.rn.ftz.sat.f16x2", 530)

#undef GC_ARITH16
#undef GC_BINARY16
#undef GC_TERNARY16
#undef GC_BINARY16X2
#undef GC_TERNARY16X2
#undef GC_HALF
#undef GC_ARCH_AT_LEAST
#undef GC_ARITH_MODES
#undef GC_ARITH_MODES_WITH
#undef GC_ARITH
#undef GC_BINARY
#undef GC_TERNARY
#undef GC_UNARY

}  // namespace
}  // namespace gpuconform::kernels
