// SPDX-License-Identifier: Apache-2.0
// The block-FMA model of NVIDIA tensor cores (docs/numerics.md §2, after MMA-Sim's
// t_fdpa and Khattak & Mikaitis' Generic_BFMA_TC): per block of L products, exact products,
// alignment to the largest exponent with truncation to F fraction bits, one exact sum and
// one rounding. The parameters are data: one TensorCoreModel per architecture x
// instruction x format, listed with citations in models.cpp.
//
// Two implementations share only this header: dot() (integer arithmetic, fast, used by
// tests and tools) and dot_mpfr() (MPFR, written apart, the check on dot()).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/float_format.hpp"

namespace gpuconform::ref {

struct TensorCoreModel {
  std::string id;           // "<arch>.<instruction>.<d type>.<a/b type>": sm_90.wgmma.f32.e4m3
  std::string arch;         // sm_80, sm_86, sm_89, sm_90, sm_100, ...
  std::string instruction;  // mma_sync, wmma, wgmma, tcgen05
  std::string citation;     // numerics.md section and source keys ([M], [K], ...)

  FloatFormat a_format;
  FloatFormat b_format;
  FloatFormat acc_format;    // C and D registers (fp32 or fp16)
  FloatFormat round_format;  // grid of every block's result: acc_format, or kE8M13
  Rounding rounding;         // RZ (fp32 and e8m13 results) or RNE (fp16 results)

  int block_size;     // L: products fused per block; longer K chains blocks in ascending k
  int fraction_bits;  // F: bits kept below the block's largest exponent
  int e_zero;         // exponent given to zero terms; also a floor on the block exponent
  // tf32 operands arrive as fp32 registers. true: the low 13 bits are ignored (all
  // measured hardware). false: each register is first rounded RNE to tf32 (a hypothesis,
  // for probes that show the difference).
  bool tf32_truncation;
  std::uint64_t canonical_nan;  // every NaN result: 0x7FFFFFFF (f32) or 0x7FFF (f16)
  std::vector<int> k_shapes;    // K of each shape this row serves: m16n8k8 + m16n8k16 -> {8, 16}
  // sm_90 mma.sync FP8 as nvcc 13.0 lowers it (no native FP8 mma.sync; SASS:
  // F2FP.F16.E4M3|E5M2.UNPACK_B, then two HMMA.16816.F32|F16 and an add of C): inputs
  // widened exactly to f16; the k32 products in two chained blocks of this row's L/F/
  // rounding starting from +0, the first holding every k with k % 4 < 2 (the register
  // pairs the unpack feeds the first HMMA); then C added by one IEEE RNE add in the
  // accumulator format (fp32 or fp16), whose NaN is the canonical one. Reproduces every
  // output of the H100 golden vectors, f32 and f16 D (expectations/golden/sm_90).
  bool fp8_via_hmma_pair = false;
  // Edge rules. The defaults are what every measured path does (numerics.md §1 and the
  // sm_90 golden vectors); the alternatives exist so that `vectors infer` can test them.
  bool subnormal_inputs = true;   // false: subnormal A, B and C read as zero (sign kept)
  bool subnormal_outputs = true;  // false: a block result below the normal range becomes zero
  // false: a zero result is +0, whether an exact zero sum or an underflow (H100 golden
  // vectors). true: IEEE 754 signs: an underflow keeps its sign, a sum of only -0 is -0.
  bool ieee_zero_sign = false;
  Overflow overflow = Overflow::kInfinity;  // finite results beyond the format: inf or max

  int max_k() const;
};

// "L=16 F=25 RZ fp32 e_zero=-133": the parameters on one line, for messages.
std::string describe(const TensorCoreModel& m);

const std::vector<TensorCoreModel>& models();
const TensorCoreModel* find_model(std::string_view id);  // nullptr if unknown
std::vector<std::string> model_ids();

// The model for a vector-file variant (docs/vector-files.md) on an architecture:
// default_model("sm_90", "mma_m16n8k16_f32_bf16") is sm_90.mma_sync.f32.bf16. Accepts
// "sm_90a"-style names. nullptr when no row fits, including a shape whose K the row lacks.
const TensorCoreModel* default_model(std::string_view arch, std::string_view variant);

// D = A*B + C on raw bit patterns. A: M x K row-major, B: K x N column-major (element
// (k,j) at j*K+k), C and D: M x N row-major. Each element is the bit pattern of its format
// in the low bits of a uint64_t (tf32: the whole fp32 register).
void mma(const TensorCoreModel& m, int M, int N, int K, const std::uint64_t* A,
         const std::uint64_t* B, const std::uint64_t* C, std::uint64_t* D);

// One output element: sum_k a[k]*b[k] + c (the building block of mma()).
std::uint64_t dot(const TensorCoreModel& m, int K, const std::uint64_t* a, const std::uint64_t* b,
                  std::uint64_t c);

// The same function computed with MPFR, independently of dot().
std::uint64_t dot_mpfr(const TensorCoreModel& m, int K, const std::uint64_t* a,
                       const std::uint64_t* b, std::uint64_t c);

}  // namespace gpuconform::ref
