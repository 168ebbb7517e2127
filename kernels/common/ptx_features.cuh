// SPDX-License-Identifier: Apache-2.0
#pragma once
// Instructions newer than the oldest toolkit the suite is built with. The toolkit comparison
// (issue 22 item 6, docs/toolkit-upgrade.md) builds the suite with CUDA 12.4 too, whose ptxas
// takes PTX ISA 8.4 and rejects what came later; a kernel using such an instruction compiles
// it out with `if constexpr (ptx_built(Ptx))`, and its probe registers with
// Requirements::build_gap = ptx_build_gap(Ptx), unsupported on every GPU, saying why.
//
// GC_PTX_ISA: the PTX ISA of the nvcc compiling this file, x10 (8.4 -> 84), from
// __CUDACC_VER_MAJOR__/__CUDACC_VER_MINOR__ (defined in the host and the device passes alike),
// per the PTX ISA release notes' version table: CUDA 11.x -> 7.x, 12.0..12.4 -> 8.0..8.4,
// 12.5 and 12.6 -> 8.5, 12.8 -> 8.7, 12.9 -> 8.8, 13.0 -> 9.0. Defining
// GPUCONFORM_ASSUME_PTX_ISA (e.g. cmake -DCMAKE_CUDA_FLAGS=-DGPUCONFORM_ASSUME_PTX_ISA=84)
// makes a newer nvcc compile as an older one must: the guarded build, checked without the old
// toolkit (gpuconform list then marks the guarded probes unsupported).
#include <string>

#include "common/ptx_requirements.hpp"

#if defined(GPUCONFORM_ASSUME_PTX_ISA)
#define GC_PTX_ISA GPUCONFORM_ASSUME_PTX_ISA
#elif !defined(__CUDACC_VER_MAJOR__)
#error "ptx_features.cuh is for files nvcc compiles (__CUDACC_VER_MAJOR__ names the toolkit)"
#elif __CUDACC_VER_MAJOR__ >= 13
#define GC_PTX_ISA 90
#elif __CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 9
#define GC_PTX_ISA 88
#elif __CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8
#define GC_PTX_ISA 87
#elif __CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 5
#define GC_PTX_ISA 85
#elif __CUDACC_VER_MAJOR__ == 12
#define GC_PTX_ISA (80 + __CUDACC_VER_MINOR__)
#else
#define GC_PTX_ISA (70 + __CUDACC_VER_MINOR__)
#endif

namespace gpuconform::kernels {

inline constexpr int kPtxIsa = GC_PTX_ISA;

// Whether this build's toolkit assembles `ptx`: the `if constexpr` guard of its asm.
constexpr bool ptx_built(const char* ptx) { return ptx_isa_needed(ptx) <= kPtxIsa; }

// "" when this build assembles `ptx`, else why its probe cannot run (Requirements::build_gap):
// "built with CUDA 12.4 (PTX ISA 8.4); mma.sp::ordered_metadata needs PTX ISA 8.5 / CUDA 12.5
// or newer".
inline std::string ptx_build_gap(const char* ptx) {
  const int needed = ptx_isa_needed(ptx);
  if (needed <= kPtxIsa) return {};
  const auto isa = [](int v) { return std::to_string(v / 10) + "." + std::to_string(v % 10); };
  std::string built = "built with CUDA " + std::to_string(__CUDACC_VER_MAJOR__) + "." +
                      std::to_string(__CUDACC_VER_MINOR__) + " (PTX ISA " + isa(kPtxIsa);
#if defined(GPUCONFORM_ASSUME_PTX_ISA)
  built += ", as GPUCONFORM_ASSUME_PTX_ISA says";
#endif
  const bool sparse = needed == kPtxMmaSpOrderedMetadata;
  return built + "); " +
         (sparse ? "mma.sp::ordered_metadata" : "mma.sync m16n8k32 with e4m3/e5m2 inputs and an f16 accumulator") +
         " needs PTX ISA " + isa(needed) + " / CUDA " + (sparse ? "12.5" : "12.8") + " or newer";
}

}  // namespace gpuconform::kernels
