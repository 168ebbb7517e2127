// SPDX-License-Identifier: Apache-2.0
// mma.sp (2:4 structured-sparse A; tf32 1:2) variants: one table row each, golden vectors only
// (no numeric probe until the H100 files say which model they follow). A row names the variant
// (vector-file name, `mmasp_<shape>_<D>_<A/B>_sel<N>`), the PTX, the register signature, the
// sparsity selector and the compute capability. The vector file holds A dense with its zeros;
// run_mma (mma_kernel.cuh) compresses it and builds the metadata (sparse_a.hpp).
//
// ::ordered_metadata: the form whose metadata index pairs are ascending (sparse_a.hpp's
// nibble_of); nvcc 13 accepts it for sm_80..sm_90a, while plain mma.sp draws a ptxas advisory.
// Selectors per the PTX ISA "Sparse matrix storage": m16n8k32 16-bit and 8-bit and m16n8k16 tf32
// take 0 or 1 (a thread pair holds the metadata), m16n8k64 8-bit takes only 0 (all four threads).
#include "common/ptx_features.cuh"
#include "numeric/mma_kernel.cuh"
#include "numeric/mma_probes.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::kernels {
namespace {

using namespace mma;

// exec() bodies by register signature; "n" passes the selector as the immediate PTX wants.
// D holds C on entry and is both the C and the D operand.
#define GC_EXEC_SP_F32(Ptx, Sel)                                                                  \
  template <class F>                                                                              \
  __device__ static void exec(F& r) {                                                             \
    float d[4] = {__uint_as_float(r.d[0]), __uint_as_float(r.d[1]), __uint_as_float(r.d[2]),       \
                  __uint_as_float(r.d[3])};                                                       \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, %13;"      \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                 \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1]),  \
                   "r"(r.b[2]), "r"(r.b[3]), "r"(r.e), "n"(Sel));                                 \
    for (int i = 0; i < 4; ++i) r.d[i] = __float_as_uint(d[i]);                                  \
  }

#define GC_EXEC_SP_F16(Ptx, Sel)                                                                  \
  template <class F>                                                                              \
  __device__ static void exec(F& r) {                                                             \
    asm volatile(Ptx " {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%0,%1}, %10, %11;"                    \
                 : "+r"(r.d[0]), "+r"(r.d[1])                                                     \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1]),  \
                   "r"(r.b[2]), "r"(r.b[3]), "r"(r.e), "n"(Sel));                                 \
  }

#define GC_EXEC_SP_S32(Ptx, Sel)                                                                  \
  template <class F>                                                                              \
  __device__ static void exec(F& r) {                                                             \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, %13;"      \
                 : "+r"(r.d[0]), "+r"(r.d[1]), "+r"(r.d[2]), "+r"(r.d[3])                         \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1]),  \
                   "r"(r.b[2]), "r"(r.b[3]), "r"(r.e), "n"(Sel));                                 \
  }

// m16n8k32 8-bit: A (16 x 16 kept) and B (32 x 8) in two registers each.
#define GC_EXEC_SP_S32_A2(Ptx, Sel)                                                               \
  template <class F>                                                                              \
  __device__ static void exec(F& r) {                                                             \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, %9;"                      \
                 : "+r"(r.d[0]), "+r"(r.d[1]), "+r"(r.d[2]), "+r"(r.d[3])                         \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.b[0]), "r"(r.b[1]), "r"(r.e), "n"(Sel));       \
  }

#define GC_SP(shape_types) "mma.sp::ordered_metadata.sync.aligned." shape_types

// Name, PTX, exec signature, sparsity selector, min compute capability.
#define GC_MMA_SP_TABLE(X)                                                                                  \
  X(mmasp_m16n8k32_f32_f16_sel0, GC_SP("m16n8k32.row.col.f32.f16.f16.f32"), F32, 0, 80)                       \
  X(mmasp_m16n8k32_f32_f16_sel1, GC_SP("m16n8k32.row.col.f32.f16.f16.f32"), F32, 1, 80)                       \
  X(mmasp_m16n8k32_f16_f16_sel0, GC_SP("m16n8k32.row.col.f16.f16.f16.f16"), F16, 0, 80)                       \
  X(mmasp_m16n8k32_f32_bf16_sel0, GC_SP("m16n8k32.row.col.f32.bf16.bf16.f32"), F32, 0, 80)                    \
  X(mmasp_m16n8k32_f32_bf16_sel1, GC_SP("m16n8k32.row.col.f32.bf16.bf16.f32"), F32, 1, 80)                    \
  X(mmasp_m16n8k16_f32_tf32_sel0, GC_SP("m16n8k16.row.col.f32.tf32.tf32.f32"), F32, 0, 80)                    \
  X(mmasp_m16n8k16_f32_tf32_sel1, GC_SP("m16n8k16.row.col.f32.tf32.tf32.f32"), F32, 1, 80)                    \
  X(mmasp_m16n8k64_f32_e4m3_sel0, GC_SP("m16n8k64.row.col.f32.e4m3.e4m3.f32"), F32, 0, 89)                    \
  X(mmasp_m16n8k64_f32_e5m2_sel0, GC_SP("m16n8k64.row.col.f32.e5m2.e5m2.f32"), F32, 0, 89)                    \
  X(mmasp_m16n8k32_s32_s8_sel0, GC_SP("m16n8k32.row.col.s32.s8.s8.s32"), S32_A2, 0, 80)                      \
  X(mmasp_m16n8k32_s32_s8_sel1, GC_SP("m16n8k32.row.col.s32.s8.s8.s32"), S32_A2, 1, 80)                      \
  X(mmasp_m16n8k64_s32_s8_sel0, GC_SP("m16n8k64.row.col.s32.s8.s8.s32"), S32, 0, 80)

// Name##Asm holds the asm; Name runs it only where this build's toolkit assembles it
// (common/ptx_features.cuh: CUDA 12.4 has no ::ordered_metadata), else the probe is
// unsupported (build_gap) and the variant reports no code, so nothing launches the trap.
#define GC_MMA_SP_VARIANT(Name, Ptx, Exec, Sel, MinCc)                                                     \
  struct Name##Asm {                                                                                       \
    GC_EXEC_SP_##Exec(Ptx, Sel)                                                                            \
  };                                                                                                       \
  struct Name {                                                                                            \
    static constexpr const char* kName = #Name;                                                            \
    static constexpr Fragments kFragments = Fragments::kSyncM16N8;                                         \
    static constexpr bool kARegisters = true;                                                              \
    static constexpr bool kNeedsSm90a = false;                                                             \
    static constexpr int kMinArch = MinCc * 10;                                                            \
    static constexpr int kSelector = Sel;                                                                  \
    GC_MMA_GUARDED_EXEC(Name, Ptx)                                                                         \
  };                                                                                                       \
  const bool Name##_registered =                                                                           \
      register_mma_variant(#Name, Ptx, numeric_probe_id(#Name), MinCc, false, &run_mma<Name>,              \
                           ptx_built(Ptx) ? &mma_has_code<Name> : &mma_not_built, fragment_counts<Name>(), \
                           &fragment_position<Name>) &&                                                    \
      register_mma_probe(#Name, Requirements{MinCc, 0, "", ptx_build_gap(Ptx)}, &measure_checked_probe<Name>, false);

GC_MMA_SP_TABLE(GC_MMA_SP_VARIANT)

}  // namespace
}  // namespace gpuconform::kernels
