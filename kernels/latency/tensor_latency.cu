// SPDX-License-Identifier: Apache-2.0
// Tensor-core completion latencies: mma.sync for every shape and type of
// seed 001 (Sun et al. 2022, Table 3: f16 and tf32 and int8 shapes) that the
// architecture supports, plus bf16, int4, fp64 (m8n8k4 and Hopper's m16n8kK)
// and the legacy wmma.mma of seed 000 (Abdelkhalik et al.
// 2022, Table III). One warp, one chain, D of each instruction is C of the
// next (mma_chain.cuh). The sm_90 int4 forms are emulated by ptxas (IMMA on
// s8 plus unpacking, in a called subroutine), which the recorded SASS shows.
// fp8 (e4m3/e5m2) mma.sync is left out: on sm_90 ptxas emulates it as a
// conversion, an f16 HMMA with C = 0 and an FADD into the accumulator, so a
// dependent chain would time only the FADD (tools/device/fp8_mma_lowering.cu).
//
// Row: X(Name, id, min cc, steps, PTX, D type, D regs, D constraint, A/B type,
//        A regs, B regs, A/B constraint, D init, A bits, B bits)
// Input values (same sign, so every product adds up): f16 0.75 and 0.5
// (0x3A00, 0x3800), bf16 0.75 and 0.5 (0x3F40, 0x3F00), tf32 0.75f and 0.5f,
// s8 3 and 2,
// s4/u4 3 and 2, u8 3 and 2, f64 0.75 and 0.5; D starts at 1.
#include "latency/mma_chain.cuh"

namespace gpuconform::kernels {
namespace {

#define GC_MMA_SYNC_TABLE(X)                                                                                    \
  X(MmaK8F16F16, "mma_sync.m16n8k8.f16.f16", 75, 64, "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16",       \
    gc_u32, 2, "r", gc_u32, 2, 1, "r", 0x3C003C00u, 0x3A003A00u, 0x38003800u)                                   \
  X(MmaK8F32F16, "mma_sync.m16n8k8.f32.f16", 75, 64, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32",       \
    gc_f32, 4, "f", gc_u32, 2, 1, "r", 1.0f, 0x3A003A00u, 0x38003800u)                                          \
  X(MmaK16F16F16, "mma_sync.m16n8k16.f16.f16", 80, 64, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",    \
    gc_u32, 2, "r", gc_u32, 4, 2, "r", 0x3C003C00u, 0x3A003A00u, 0x38003800u)                                   \
  X(MmaK16F32F16, "mma_sync.m16n8k16.f32.f16", 80, 64, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",    \
    gc_f32, 4, "f", gc_u32, 4, 2, "r", 1.0f, 0x3A003A00u, 0x38003800u)                                          \
  X(MmaK8F32Bf16, "mma_sync.m16n8k8.f32.bf16", 80, 64, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32",   \
    gc_f32, 4, "f", gc_u32, 2, 1, "r", 1.0f, 0x3F403F40u, 0x3F003F00u)                                          \
  X(MmaK16F32Bf16, "mma_sync.m16n8k16.f32.bf16", 80, 64,                                                        \
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", gc_f32, 4, "f", gc_u32, 4, 2, "r", 1.0f,             \
    0x3F403F40u, 0x3F003F00u)                                                                                   \
  X(MmaK4F32Tf32, "mma_sync.m16n8k4.f32.tf32", 80, 64, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",   \
    gc_f32, 4, "f", gc_u32, 2, 1, "r", 1.0f, 0x3F400000u, 0x3F000000u)                                          \
  X(MmaK8F32Tf32, "mma_sync.m16n8k8.f32.tf32", 80, 64, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",   \
    gc_f32, 4, "f", gc_u32, 4, 2, "r", 1.0f, 0x3F400000u, 0x3F000000u)                                          \
  X(MmaM8K16S8, "mma_sync.m8n8k16.s32.s8", 75, 64, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", gc_u32, 2, \
    "r", gc_u32, 1, 1, "r", 1u, 0x03030303u, 0x02020202u)                                                       \
  X(MmaK16S8, "mma_sync.m16n8k16.s32.s8", 80, 64, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", gc_u32, 4, \
    "r", gc_u32, 2, 1, "r", 1u, 0x03030303u, 0x02020202u)                                                       \
  X(MmaK32S8, "mma_sync.m16n8k32.s32.s8", 80, 64, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", gc_u32, 4, \
    "r", gc_u32, 4, 2, "r", 1u, 0x03030303u, 0x02020202u)                                                       \
  X(MmaM8K32S4, "mma_sync.m8n8k32.s32.s4", 75, 16, "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", gc_u32, 2, \
    "r", gc_u32, 1, 1, "r", 1u, 0x33333333u, 0x22222222u)                                                       \
  X(MmaK32S4, "mma_sync.m16n8k32.s32.s4", 80, 16, "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32", gc_u32, 4, \
    "r", gc_u32, 2, 1, "r", 1u, 0x33333333u, 0x22222222u)                                                       \
  X(MmaK64S4, "mma_sync.m16n8k64.s32.s4", 80, 16, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", gc_u32, 4, \
    "r", gc_u32, 4, 2, "r", 1u, 0x33333333u, 0x22222222u)                                                       \
  X(MmaM8K4F64, "mma_sync.m8n8k4.f64.f64", 80, 64, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", gc_f64,   \
    2, "d", gc_f64, 1, 1, "d", 1.0, 0.75, 0.5)                                                                  \
  X(MmaK4F64, "mma_sync.m16n8k4.f64.f64", 90, 64, "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64", gc_f64,   \
    4, "d", gc_f64, 2, 1, "d", 1.0, 0.75, 0.5)                                                                  \
  X(MmaK8F64, "mma_sync.m16n8k8.f64.f64", 90, 64, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", gc_f64,   \
    4, "d", gc_f64, 4, 2, "d", 1.0, 0.75, 0.5)                                                                  \
  X(MmaK16F64, "mma_sync.m16n8k16.f64.f64", 90, 32, "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64",        \
    gc_f64, 4, "d", gc_f64, 8, 4, "d", 1.0, 0.75, 0.5)

// Legacy wmma (seed 000, Table III): fragment registers per the PTX ISA
// (f16 A/B: 8 x f16x2; bf16 and tf32 A/B: 4 x b32; u8: 2; f64 and u4: 1).
#define GC_WMMA_TABLE(X)                                                                                        \
  X(WmmaF16F16, "wmma.m16n16k16.f16.f16", 75, 32, "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16", gc_u32, 4, \
    "r", gc_u32, 8, 8, "r", 0x3C003C00u, 0x3A003A00u, 0x38003800u)                                              \
  X(WmmaF32F16, "wmma.m16n16k16.f32.f16", 75, 32, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", gc_f32, 8, \
    "f", gc_u32, 8, 8, "r", 1.0f, 0x3A003A00u, 0x38003800u)                                                     \
  X(WmmaF32Bf16, "wmma.m16n16k16.f32.bf16", 80, 32,                                                             \
    "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32", gc_f32, 8, "f", gc_u32, 4, 4, "r", 1.0f,       \
    0x3F403F40u, 0x3F003F00u)                                                                                   \
  X(WmmaF32Tf32, "wmma.m16n16k8.f32.tf32", 80, 32, "wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32",  \
    gc_f32, 8, "f", gc_u32, 4, 4, "r", 1.0f, 0x3F400000u, 0x3F000000u)                                          \
  X(WmmaF64, "wmma.m8n8k4.f64.f64", 80, 32, "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64", gc_f64, 2,  \
    "d", gc_f64, 1, 1, "d", 1.0, 0.75, 0.5)                                                                     \
  X(WmmaU8, "wmma.m16n16k16.s32.u8", 75, 32, "wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32", gc_u32,   \
    8, "r", gc_u32, 2, 2, "r", 1u, 0x03030303u, 0x02020202u)                                                    \
  X(WmmaU4, "wmma.m8n8k32.s32.u4", 75, 16, "wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32", gc_u32, 2,    \
    "r", gc_u32, 1, 1, "r", 1u, 0x33333333u, 0x22222222u)

#define GC_TENSOR_OP(Name, Id, MinCC, Len, Ptx, DT, ND, DC, AT, NA, NB, AC, Dv, Av, Bv) \
  GC_MMA_OP(Name, MinCC, Len, Ptx, DT, ND, DC, AT, NA, NB, AC, Dv, Av, Bv)
#define GC_TENSOR_PROBE(Name, Id, MinCC, Len, Ptx, DT, ND, DC, AT, NA, NB, AC, Dv, Av, Bv)                     \
  Probe{"latency." Id, Family::latency,                                                                         \
        "completion latency of `" Ptx "`: one warp, D of each instruction is C of the next", {MinCC},          \
        kDeterministicLatency, &measure_chain_latency<Name>},

GC_MMA_SYNC_TABLE(GC_TENSOR_OP)
GC_WMMA_TABLE(GC_TENSOR_OP)

const bool kRegistered = register_probes({GC_MMA_SYNC_TABLE(GC_TENSOR_PROBE) GC_WMMA_TABLE(GC_TENSOR_PROBE)});

}  // namespace
}  // namespace gpuconform::kernels
