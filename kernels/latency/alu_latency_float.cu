// SPDX-License-Identifier: Apache-2.0
// Instruction latencies of the floating-point pipes: add, mul, fma/mad, min/
// max, abs/neg, copysign, testp and setp for f16, f16x2, bf16, bf16x2, f32 and
// f64 (seed 000, Abdelkhalik et al. 2022, Table V, and the bf16 forms PTX
// added since). Row format: see alu_latency.cu.
//
// Guards: IEEE arithmetic is never re-associated by ptxas, so those rows run
// unguarded (a guard would make ptxas add a select per step). abs, neg and
// copysign are idempotent bit operations that ptxas would fold, so they keep
// the guard; ptxas then implements abs/neg as a select with an operand
// modifier, and copysign as LOP3 plus a select whose latency (selp.b32) is
// subtracted.
//
// Values: x*a + b with a just under 1 stays bounded and normal; add grows by a
// small step; mul shrinks by a factor just under 1, staying normal for every
// step of the chain.
#include "latency/chain_glue.cuh"

namespace gpuconform::kernels {
namespace {

#define GC_FLOAT_ARITH(X)                                                                                      \
  X(AddF16, "add.rn.f16", 75, gc_u16, "h", gc_u16, "h", 128, void, "add.rn.f16 %0, %0, %1;", 0x3E00, 0x3400, \
    0x3C00)                                                                                                    \
  X(AddF16x2, "add.rn.f16x2", 75, gc_u32, "r", gc_u32, "r", 128, void, "add.rn.f16x2 %0, %0, %1;",           \
    0x3E003D00u, 0x34003400u, 0x3C003C00u)                                                                     \
  X(AddBf16, "add.rn.bf16", 90, gc_u16, "h", gc_u16, "h", 128, void, "add.rn.bf16 %0, %0, %1;", 0x3FC0,      \
    0x3E80, 0x3F80)                                                                                            \
  X(AddBf16x2, "add.rn.bf16x2", 90, gc_u32, "r", gc_u32, "r", 128, void, "add.rn.bf16x2 %0, %0, %1;",        \
    0x3FC03FA0u, 0x3E803E80u, 0x3F803F80u)                                                                     \
  X(AddF64, "add.rn.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "add.rn.f64 %0, %0, %1;", 1.5, 0.25, 1.0) \
  X(SubF32, "sub.rn.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "sub.rn.f32 %0, %0, %1;", 1.5f, 0.25f,    \
    1.0f)                                                                                                      \
  X(MulF16, "mul.rn.f16", 75, gc_u16, "h", gc_u16, "h", 128, void, "mul.rn.f16 %0, %0, %1;", 0x3E00, 0x3BFF, \
    0x3C00)                                                                                                    \
  X(MulF16x2, "mul.rn.f16x2", 75, gc_u32, "r", gc_u32, "r", 128, void, "mul.rn.f16x2 %0, %0, %1;",           \
    0x3E003D00u, 0x3BFF3BFFu, 0x3C003C00u)                                                                     \
  X(MulBf16x2, "mul.rn.bf16x2", 90, gc_u32, "r", gc_u32, "r", 128, void, "mul.rn.bf16x2 %0, %0, %1;",        \
    0x3FC03FA0u, 0x3F7F3F7Fu, 0x3F803F80u)                                                                     \
  X(MulF32, "mul.rn.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "mul.rn.f32 %0, %0, %1;", 1.5f, 0.999f,   \
    1.0f)                                                                                                      \
  X(MulF64, "mul.rn.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "mul.rn.f64 %0, %0, %1;", 1.5, 0.999, 1.0) \
  X(FmaF16, "fma.rn.f16", 75, gc_u16, "h", gc_u16, "h", 128, void, "fma.rn.f16 %0, %0, %1, %2;", 0x3E00,     \
    0x3BFF, 0x3400)                                                                                            \
  X(FmaF16x2, "fma.rn.f16x2", 75, gc_u32, "r", gc_u32, "r", 128, void, "fma.rn.f16x2 %0, %0, %1, %2;",       \
    0x3E003D00u, 0x3BFF3BFFu, 0x34003400u)                                                                     \
  X(FmaReluF16x2, "fma.rn.relu.f16x2", 80, gc_u32, "r", gc_u32, "r", 128, void,                              \
    "fma.rn.relu.f16x2 %0, %0, %1, %2;", 0x3E003D00u, 0x3BFF3BFFu, 0x34003400u)                              \
  X(FmaBf16, "fma.rn.bf16", 80, gc_u16, "h", gc_u16, "h", 128, void, "fma.rn.bf16 %0, %0, %1, %2;", 0x3FC0,  \
    0x3F7F, 0x3E80)                                                                                            \
  X(FmaBf16x2, "fma.rn.bf16x2", 80, gc_u32, "r", gc_u32, "r", 128, void, "fma.rn.bf16x2 %0, %0, %1, %2;",    \
    0x3FC03FA0u, 0x3F7F3F7Fu, 0x3E803E80u)                                                                     \
  X(FmaF32, "fma.rn.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "fma.rn.f32 %0, %0, %1, %2;", 1.5f,       \
    0.999f, 0.25f)                                                                                             \
  X(FmaFtzF32, "fma.rn.ftz.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "fma.rn.ftz.f32 %0, %0, %1, %2;",  \
    1.5f, 0.999f, 0.25f)                                                                                       \
  X(MadF32, "mad.rn.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "mad.rn.f32 %0, %0, %1, %2;", 1.5f,       \
    0.999f, 0.25f)                                                                                             \
  X(FmaF64, "fma.rn.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "fma.rn.f64 %0, %0, %1, %2;", 1.5, 0.999, \
    0.25)                                                                                                      \
  X(MadF64, "mad.rn.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "mad.rn.f64 %0, %0, %1, %2;", 1.5, 0.999, \
    0.25)

// min/max settle at min(x, a). The f16 and bf16 min/max would be merged by
// ptxas into one three-way VHMNMX per two steps, so those rows alternate min
// and max (ids `minmax.*`: one step = one min plus one max). abs, neg and
// copysign as explained above.
#define GC_FLOAT_OTHER(X)                                                                                      \
  X(MinF16, "minmax.f16", 80, gc_u16, "h", gc_u16, "h", 128, void, "min.f16 %0, %0, %1; max.f16 %0, %0, %2;", 0x3E00, 0x3D00,       \
    0x3C00)                                                                                                    \
  X(MinF16x2, "minmax.f16x2", 80, gc_u32, "r", gc_u32, "r", 128, void, "min.f16x2 %0, %0, %1; max.f16x2 %0, %0, %2;", 0x3E003D00u,    \
    0x3D003E00u, 0x3C003C00u)                                                                                  \
  X(MinBf16x2, "minmax.bf16x2", 80, gc_u32, "r", gc_u32, "r", 128, void, "min.bf16x2 %0, %0, %1; max.bf16x2 %0, %0, %2;",              \
    0x3FC03FA0u, 0x3FA03FC0u, 0x3F803F80u)                                                                     \
  X(MinF32, "min.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "@p min.f32 %0, %0, %1;", 1.5f, 1.25f, 1.0f)    \
  X(MinNanF32, "min.nan.f32", 80, gc_f32, "f", gc_f32, "f", 128, glue::SelpF32, "@p min.NaN.f32 %0, %0, %1;", 1.5f,      \
    1.25f, 1.0f)                                                                                               \
  X(MaxF32, "max.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "@p max.f32 %0, %0, %1;", 1.25f, 1.5f, 1.0f)    \
  X(MinF64, "min.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "min.f64 %0, %0, %1;", 1.5, 1.25, 1.0)       \
  X(MaxF64, "max.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "max.f64 %0, %0, %1;", 1.25, 1.5, 1.0)       \
  X(AbsF32, "abs.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "@p abs.f32 %0, %0;", -1.5f, 1.0f, 1.0f)     \
  X(AbsFtzF32, "abs.ftz.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "@p abs.ftz.f32 %0, %0;", -1.5f,      \
    1.0f, 1.0f)                                                                                                \
  X(AbsF64, "abs.f64", 75, gc_f64, "d", gc_f64, "d", 128, glue::SelpF64, "@p abs.f64 %0, %0;", -1.5, 1.0, 1.0)        \
  X(NegF32, "neg.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "@p neg.f32 %0, %0;", -1.5f, 1.0f, 1.0f)     \
  X(NegF64, "neg.f64", 75, gc_f64, "d", gc_f64, "d", 128, glue::SelpF64, "@p neg.f64 %0, %0;", -1.5, 1.0, 1.0)        \
  X(CopysignF32, "copysign.f32", 75, gc_f32, "f", gc_f32, "f", 128, glue::SelpB32,                           \
    "@p copysign.f32 %0, %1, %0;", 1.5f, -1.0f, 1.0f)                                                          \
  X(CopysignF64, "copysign.f64", 75, gc_f64, "d", gc_f64, "d", 128, glue::SelpB32,                           \
    "@p copysign.f64 %0, %1, %0;", 1.5, -1.0, 1.0)                                                             \
  X(TestpNormalF32, "testp.normal.f32", 75, gc_f32, "f", gc_f32, "f", 128, glue::SelpF32,                    \
    "{.reg .pred q; testp.normal.f32 q, %0; selp.f32 %0, %1, %2, q;}", 1.5f, 1.25f, 2.5f)                    \
  X(TestpSubnormalF32, "testp.subnormal.f32", 75, gc_f32, "f", gc_f32, "f", 128, glue::SelpF32,              \
    "{.reg .pred q; testp.subnormal.f32 q, %0; selp.f32 %0, %1, %2, q;}", 1.5f, 1.25f, 2.5f)                 \
  X(TestpNormalF64, "testp.normal.f64", 75, gc_f64, "d", gc_f64, "d", 128, glue::SelpF64,                    \
    "{.reg .pred q; testp.normal.f64 q, %0; selp.f64 %0, %1, %2, q;}", 1.5, 1.25, 2.5)                       \
  X(TestpSubnormalF64, "testp.subnormal.f64", 75, gc_f64, "d", gc_f64, "d", 128, glue::SelpF64,              \
    "{.reg .pred q; testp.subnormal.f64 q, %0; selp.f64 %0, %1, %2, q;}", 1.5, 1.25, 2.5)                    \
  X(SetpLtF32, "setp.lt.f32", 75, gc_f32, "f", gc_f32, "f", 128, glue::SelpF32,                              \
    "{.reg .pred q; setp.lt.f32 q, %0, %1; selp.f32 %0, %0, %2, q;}", 1.5f, 2.5f, 1.25f)                     \
  X(SetpLtF64, "setp.lt.f64", 75, gc_f64, "d", gc_f64, "d", 128, glue::SelpF64,                              \
    "{.reg .pred q; setp.lt.f64 q, %0, %1; selp.f64 %0, %0, %2, q;}", 1.5, 2.5, 1.25)

#define GC_FLOAT_TABLE(X) GC_FLOAT_ARITH(X) GC_FLOAT_OTHER(X)

GC_FLOAT_TABLE(GC_ALU_ROW_OP)

}  // namespace

// testp.normal.f64 reads 18.0 to 20.8 cycles across the SMs, after the 3.9 of
// its select (dependent_chain.cuh).
template <>
struct times_each_sm<TestpNormalF64> : std::true_type {};

namespace {

const bool kRegistered = register_probes({
    GC_FLOAT_TABLE(GC_ALU_ROW_PROBE)
    GC_ALU_PROBE(glue::AddF32, "add.rn.f32", 75)
    GC_ALU_PROBE(glue::SelpF32, "selp.f32", 75)
    GC_ALU_PROBE(glue::SelpF64, "selp.f64", 75)
});

}  // namespace
}  // namespace gpuconform::kernels
