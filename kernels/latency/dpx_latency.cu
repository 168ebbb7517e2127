// SPDX-License-Identifier: Apache-2.0
// Latencies of the Hopper DPX instructions (dynamic-programming min/max
// fusions: VIADDMNMX, VIMNMX3, VIMNMX with ReLU and 16x2 lanes). PTX has no
// DPX mnemonics: the CUDA intrinsics (__viaddmax_s32, __vimax3_s32, ...) are
// two-instruction PTX sequences that ptxas fuses into one SASS instruction on
// sm_90 (crt/device_functions.hpp), and this file writes the same sequences.
// Each probe records the SASS it ran, so an expectation can assert that the
// fusion happened (sass = ["VIADDMNMX"]); before sm_90 the sequences run as
// two instructions, so the probes require sm_90.
//
// Guards: a three-way max/min and the ReLU forms are idempotent (ptxas would
// merge consecutive steps), so those rows keep the guard, which ptxas
// implements as a select per step; its latency (selp.b32) is subtracted. The
// add-then-max rows cannot be merged and run unguarded. Values: x + a with
// a > 0 and a floor b below x, so x grows by a each step and never saturates
// within a chain. Row format: see alu_latency.cu.
#include "latency/chain_glue.cuh"

namespace gpuconform::kernels {
namespace {

#define GC_DPX_TABLE(X)                                                                                        \
  X(ViaddmaxS32, "dpx.viaddmax.s32", 90, gc_u32, "r", gc_u32, "r", 128, void,                                \
    "{.reg .s32 t; add.s32 t, %0, %1; max.s32 %0, t, %2;}", 0x12345u, 3u, 0xFFFFFFF0u)                        \
  X(ViaddminS32, "dpx.viaddmin.s32", 90, gc_u32, "r", gc_u32, "r", 128, void,                                \
    "{.reg .s32 t; add.s32 t, %0, %1; min.s32 %0, t, %2;}", 0x12345u, 3u, 0x7FFFFFF0u)                        \
  X(ViaddmaxS16x2, "dpx.viaddmax.s16x2", 90, gc_u32, "r", gc_u32, "r", 128, void,                            \
    "{.reg .b32 t; add.s16x2 t, %0, %1; max.s16x2 %0, t, %2;}", 0x01230456u, 0x00010001u, 0xFFF0FFF0u)        \
  X(ViaddmaxReluS32, "dpx.viaddmax.relu.s32", 90, gc_u32, "r", gc_u32, "r", 128, void,                       \
    "{.reg .s32 t; add.s32 t, %0, %1; max.relu.s32 %0, t, %2;}", 0x12345u, 3u, 0xFFFFFFF0u)                   \
  X(Vimax3S32, "dpx.vimax3.s32", 90, gc_u32, "r", gc_u32, "r", 128, glue::SelpB32,                           \
    "{.reg .s32 t; max.s32 t, %0, %1; @p max.s32 %0, t, %2;}", 0x12345u, 0x1234u, 0x123u)                     \
  X(Vimin3S16x2, "dpx.vimin3.s16x2", 90, gc_u32, "r", gc_u32, "r", 128, glue::SelpB32,                       \
    "{.reg .b32 t; min.s16x2 t, %0, %1; @p min.s16x2 %0, t, %2;}", 0x01230456u, 0x12341234u, 0x23452345u)    \
  X(VimaxReluS32, "dpx.vimax.relu.s32", 90, gc_u32, "r", gc_u32, "r", 128, glue::SelpB32,                    \
    "@p max.relu.s32 %0, %0, %1;", 0x12345u, 0x1234u, 1u)                                                      \
  X(VimaxS16x2, "dpx.vimax.s16x2", 90, gc_u32, "r", gc_u32, "r", 128, void, "@p max.s16x2 %0, %0, %1;",      \
    0x01230456u, 0x01000100u, 1u)                                                                              \
  X(VibmaxS32, "dpx.vibmax.s32", 90, gc_u32, "r", gc_u32, "r", 128, void,                                    \
    "{.reg .pred q; setp.ge.s32 q, %0, %1; @p selp.s32 %0, %0, %1, q;}", 0x12345u, 0x1234u, 1u)

GC_DPX_TABLE(GC_ALU_ROW_OP)

const bool kRegistered = register_probes({GC_DPX_TABLE(GC_ALU_ROW_PROBE)});

}  // namespace
}  // namespace gpuconform::kernels
