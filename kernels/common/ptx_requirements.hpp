// SPDX-License-Identifier: Apache-2.0
#pragma once
// Which PTX ISA an instruction string needs beyond the oldest toolkit the suite builds with
// (CUDA 12.4, PTX ISA 8.4), for the guards of common/ptx_features.cuh. Plain constexpr C++
// (no CUDA), so the CPU unit tests check it (tests/unit/kernels/ptx_requirements_test.cpp).
// The versions: nvcc 12.4's ptxas rejects both (tools/device/toolkit_compare_batch.sh's
// build, reproduced with the staged 12.4 toolkit); LLVM's NVVM dialect documents ordered
// metadata as "PTX ISA 8.5+, sm_90+", and CUTLASS (cute/arch/mma_sm89.hpp) enables the FP8
// f32-accumulator mma.sync from CUDA 12.4 and the f16-accumulator one from CUDA 12.8.

namespace gpuconform::kernels {

// mma.sp::ordered_metadata, the sparse form whose metadata index pairs are ascending: PTX ISA
// 8.5 (CUDA 12.5). The suite writes every mma.sp in this form (nvcc 13 draws an advisory for
// the plain one on sm_90), its FP8 rows included.
inline constexpr int kPtxMmaSpOrderedMetadata = 85;
// mma.sync m16n8k32 with e4m3/e5m2 inputs and an f16 accumulator (.f16.e4m3.e4m3.f16): PTX
// ISA 8.7 (CUDA 12.8). The f32 accumulator form is older (CUDA 12.4 assembles it).
inline constexpr int kPtxMmaFp8F16Accumulator = 87;

constexpr bool ptx_contains(const char* text, const char* word) {
  for (; *text; ++text) {
    int i = 0;
    while (word[i] && text[i] == word[i]) ++i;
    if (!word[i]) return true;
  }
  return false;
}

// The PTX ISA an instruction string needs beyond the oldest toolkit the suite builds with
// (CUDA 12.4, PTX ISA 8.4): read from the instruction itself, so a guard cannot drift from
// the asm it guards. 0: nothing newer.
constexpr int ptx_isa_needed(const char* ptx) {
  if (ptx_contains(ptx, "mma.sp::ordered_metadata")) return kPtxMmaSpOrderedMetadata;
  if (ptx_contains(ptx, "mma.sync") && (ptx_contains(ptx, ".f16.e4m3.") || ptx_contains(ptx, ".f16.e5m2.")))
    return kPtxMmaFp8F16Accumulator;
  return 0;
}

}  // namespace gpuconform::kernels
