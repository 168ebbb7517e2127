// SPDX-License-Identifier: Apache-2.0
// Latencies of conversions (seed 000, Abdelkhalik et al. 2022, Table V:
// cvt; plus the formats PTX added since: bf16, tf32, fp8). A conversion that
// changes the register type cannot feed itself, so those rows time a round
// trip (A -> B -> A) and their ids end in `.roundtrip`: the two directions
// cannot be separated without a third instruction of known latency. Rounding
// conversions within one type (cvt.rni, cvt.rna.tf32) chain directly. Row
// format: see alu_latency.cu.
//
// Values are exactly representable in every format of their row (1.5 in
// f16/bf16/e4m3/e5m2, integers in f32), so each round trip returns its input:
// the chain keeps a fixed, non-zero value and ptxas cannot know that.
#include "latency/chain_glue.cuh"

namespace gpuconform::kernels {
namespace {

#define GC_CONVERT_TABLE(X)                                                                                    \
  X(CvtF16F32, "cvt.f16.f32.roundtrip", 75, gc_f32, "f", gc_f32, "f", 128, void,                             \
    "{.reg .b16 h; cvt.rn.f16.f32 h, %0; cvt.f32.f16 %0, h;}", 1.5f, 1.0f, 1.0f)                              \
  X(CvtBf16F32, "cvt.bf16.f32.roundtrip", 90, gc_f32, "f", gc_f32, "f", 128, void,                           \
    "{.reg .b16 h; cvt.rn.bf16.f32 h, %0; cvt.f32.bf16 %0, h;}", 1.5f, 1.0f, 1.0f)                            \
  X(CvtF16x2F32, "cvt.f16x2.f32.roundtrip", 80, gc_f32, "f", gc_f32, "f", 128, void,                         \
    "{.reg .b32 h; .reg .b16 lo, hi; cvt.rn.f16x2.f32 h, %0, %1; mov.b32 {lo, hi}, h; cvt.f32.f16 %0, hi;}",  \
    1.5f, 1.25f, 1.0f)                                                                                         \
  X(CvtBf16x2F32, "cvt.bf16x2.f32.roundtrip", 90, gc_f32, "f", gc_f32, "f", 128, void,                       \
    "{.reg .b32 h; .reg .b16 lo, hi; cvt.rn.bf16x2.f32 h, %0, %1; mov.b32 {lo, hi}, h; cvt.f32.bf16 %0, hi;}", \
    1.5f, 1.25f, 1.0f)                                                                                         \
  X(CvtRnaTf32F32, "cvt.rna.tf32.f32", 80, gc_u32, "r", gc_u32, "r", 128, void, "cvt.rna.tf32.f32 %0, %0;",  \
    0x3FC01234u, 1u, 1u)                                                                                       \
  X(CvtE4m3x2F16x2, "cvt.e4m3x2.f16x2.roundtrip", 89, gc_u32, "r", gc_u32, "r", 128, void,                   \
    "{.reg .b16 e; cvt.rn.satfinite.e4m3x2.f16x2 e, %0; cvt.rn.f16x2.e4m3x2 %0, e;}", 0x3E003C00u, 1u, 1u)   \
  X(CvtE5m2x2F16x2, "cvt.e5m2x2.f16x2.roundtrip", 89, gc_u32, "r", gc_u32, "r", 128, void,                   \
    "{.reg .b16 e; cvt.rn.satfinite.e5m2x2.f16x2 e, %0; cvt.rn.f16x2.e5m2x2 %0, e;}", 0x3E003C00u, 1u, 1u)   \
  X(CvtE4m3x2F32, "cvt.e4m3x2.f32.roundtrip", 89, gc_f32, "f", gc_f32, "f", 128, void,                       \
    "{.reg .b16 e; .reg .b32 h; .reg .b16 lo, hi; cvt.rn.satfinite.e4m3x2.f32 e, %0, %1; "                    \
    "cvt.rn.f16x2.e4m3x2 h, e; mov.b32 {lo, hi}, h; cvt.f32.f16 %0, hi;}",                                    \
    1.5f, 1.25f, 1.0f)                                                                                         \
  X(CvtS32F32, "cvt.s32.f32.roundtrip", 75, gc_f32, "f", gc_f32, "f", 128, void,                             \
    "{.reg .s32 i; cvt.rzi.s32.f32 i, %0; cvt.rn.f32.s32 %0, i;}", 12345.0f, 1.0f, 1.0f)                      \
  X(CvtU64F64, "cvt.u64.f64.roundtrip", 75, gc_f64, "d", gc_f64, "d", 128, void,                             \
    "{.reg .u64 i; cvt.rzi.u64.f64 i, %0; cvt.rn.f64.u64 %0, i;}", 12345.0, 1.0, 1.0)                         \
  X(CvtF64F32, "cvt.f64.f32.roundtrip", 75, gc_f32, "f", gc_f32, "f", 128, void,                             \
    "{.reg .f64 d; cvt.f64.f32 d, %0; cvt.rn.f32.f64 %0, d;}", 1.5f, 1.0f, 1.0f)                              \
  X(CvtRniF32, "cvt.rni.f32.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "cvt.rni.f32.f32 %0, %0;",        \
    1234.5f, 1.0f, 1.0f)                                                                                       \
  X(CvtRziF64, "cvt.rzi.f64.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "cvt.rzi.f64.f64 %0, %0;",        \
    1234.5, 1.0, 1.0)                                                                                          \
  X(CvtS32S16, "cvt.s32.s16", 75, gc_u32, "r", gc_u32, "r", 128, void,                                       \
    "{.reg .s16 h; cvt.u16.u32 h, %0; @p cvt.s32.s16 %0, h;}", 0xF234u, 1u, 1u)

GC_CONVERT_TABLE(GC_ALU_ROW_OP)

const bool kRegistered = register_probes({GC_CONVERT_TABLE(GC_ALU_ROW_PROBE)});

}  // namespace
}  // namespace gpuconform::kernels
