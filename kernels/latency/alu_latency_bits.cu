// SPDX-License-Identifier: Apache-2.0
// Instruction latencies of bit manipulation, logic, shifts, permutes, dot
// products and integer compares (seed 000, Abdelkhalik et al. 2022, Table V:
// popc, clz, bfind, brev, bfe, bfi, fns, and/or/xor/not/cnot/lop3, shf, prmt,
// setp, dp4a/dp2a). Row format and guard rules: see alu_latency.cu.
#include "latency/chain_glue.cuh"

namespace gpuconform::kernels {
namespace {

// Values: popc/clz/bfind reach small fixed points (popc 1, clz 27, bfind.s32
// of -1 is -1); brev, not, xor, prmt and the rotate alternate or cycle; bfe,
// bfi, and, or keep x fixed. cnot's value alternates 0 and 1 by definition.
// dp4a/dp2a chain through their first source (x's bytes dotted with ones,
// plus 3), which ptxas cannot fold, unlike a chain through the accumulator.
// shl/shr.u32 shift by a run-time 0 (the funnel shifter has no count-dependent
// timing; any non-zero count would empty the register within 32 steps); the
// arithmetic right shift keeps a negative value at -1.
#define GC_INT_BITS(X)                                                                                         \
  X(PopcB32, "popc.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p popc.b32 %0, %0;", 0x9E3779B9u, 1u, 1u) \
  X(PopcB64, "popc.b64", 75, gc_u64, "l", gc_u64, "l", 128, void,                                            \
    "{.reg .u32 t, lo, hi; popc.b64 t, %0; mov.b64 {lo, hi}, %1; mov.b64 %0, {t, hi};}",                     \
    0x9E3779B97F4A7C15ull, 0x0000F00D00000000ull, 1ull)               \
  X(ClzB32, "clz.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p clz.b32 %0, %0;", 0x12345u, 1u, 1u)       \
  X(ClzB64, "clz.b64", 75, gc_u64, "l", gc_u64, "l", 128, void,                                              \
    "{.reg .u32 t; clz.b64 t, %0; cvt.u64.u32 %0, t;}", 0x123456789ull, 1ull, 1ull)                        \
  X(BfindS32, "bfind.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "bfind.s32 %0, %0;", 0xFFFFFFFFu, 1u, \
    1u)                                                                                                        \
  X(BfindShiftamtU32, "bfind.shiftamt.u32", 75, gc_u32, "r", gc_u32, "r", 128, void,                         \
    "bfind.shiftamt.u32 %0, %0;", 0x12345u, 1u, 1u)                                                         \
  X(BfindS64, "bfind.s64", 75, gc_u64, "l", gc_u64, "l", 32, void,                                          \
    "{.reg .u32 t; bfind.s64 t, %0; cvt.s64.s32 %0, t;}", ~0ull, 1ull, 1ull)                               \
  X(BrevB32, "brev.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p brev.b32 %0, %0;", 0x12345u, 1u, 1u)    \
  X(BrevB64, "brev.b64", 75, gc_u64, "l", gc_u64, "l", 128, void, "brev.b64 %0, %0;", 0x123456789ull,     \
    1ull, 1ull)                                                                                                \
  X(BfeU32, "bfe.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p bfe.u32 %0, %0, %1, %2;", 0x9E3779B9u,   \
    0u, 24u)                                                                                              \
  X(BfeS32, "bfe.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p bfe.s32 %0, %0, %1, %2;", 0x9E3779B9u,   \
    0u, 24u)                                                                                              \
  X(BfeU64, "bfe.u64", 75, gc_u64, "l", gc_u32, "r", 128, void, "bfe.u64 %0, %0, %1, %2;",                \
    0x9E3779B97F4A7C15ull, 0u, 40u)                                                                       \
  X(BfeS64, "bfe.s64", 75, gc_u64, "l", gc_u32, "r", 128, void, "bfe.s64 %0, %0, %1, %2;",                \
    0x9E3779B97F4A7C15ull, 0u, 40u)                                                                       \
  X(BfiB32, "bfi.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p bfi.b32 %0, %1, %0, %2, %2;",            \
    0x9E3779B9u, 0x5Au, 8u)                                                                                    \
  X(BfiB64, "bfi.b64", 75, gc_u64, "l", gc_u32, "r", 128, void,                                              \
    "{.reg .b64 f; cvt.u64.u32 f, %1; @p bfi.b64 %0, f, %0, %2, %2;}", 0x9E3779B97F4A7C15ull, 0x5Au, 8u)     \
  X(FnsB32, "fns.b32", 75, gc_u32, "r", gc_u32, "r", 32, void, "fns.b32 %0, %1, %0, 1;", 5u, 0xFFFFFFFFu, \
    1u)                                                                                                        \
  X(AndB16, "and.b16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p and.b16 %0, %0, %1;", 0xBEEF, 0xFF0F, 1) \
  X(AndB32, "and.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p and.b32 %0, %0, %1;", 0xDEADBEEFu,       \
    0xFFFF0FFFu, 1u)                                                                                           \
  X(AndB64, "and.b64", 75, gc_u64, "l", gc_u64, "l", 128, void, "@p and.b64 %0, %0, %1;",                    \
    0xDEADBEEFDEADBEEFull, 0xFFFF0FFFFFFF0FFFull, 1ull)                                                        \
  X(OrB32, "or.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p or.b32 %0, %0, %1;", 0xDEADBEEFu,          \
    0x00F000F0u, 1u)                                                                                           \
  X(XorB32, "xor.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p xor.b32 %0, %0, %1;", 0xDEADBEEFu,       \
    0x9E3779B9u, 1u)                                                                                           \
  X(XorB64, "xor.b64", 75, gc_u64, "l", gc_u64, "l", 128, void, "@p xor.b64 %0, %0, %1;",                    \
    0xDEADBEEFDEADBEEFull, 0x9E3779B97F4A7C15ull, 1ull)                                                        \
  X(NotB16, "not.b16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p not.b16 %0, %0;", 0xBEEF, 1, 1)          \
  X(NotB32, "not.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p not.b32 %0, %0;", 0xDEADBEEFu, 1u, 1u)   \
  X(NotB64, "not.b64", 75, gc_u64, "l", gc_u64, "l", 128, void, "@p not.b64 %0, %0;", 0xDEADBEEFDEADBEEFull, \
    1ull, 1ull)                                                                                                \
  X(CnotB32, "cnot.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p cnot.b32 %0, %0;", 0xDEADBEEFu, 1u, 1u) \
  X(Lop3B32, "lop3.b32", 75, gc_u32, "r", gc_u32, "r", 128, glue::SelpB32, "@p lop3.b32 %0, %0, %1, %2, 0x96;",       \
    0xDEADBEEFu, 0x9E3779B9u, 0x7F4A7C15u)                                                                     \
  X(ShlB32, "shl.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p shl.b32 %0, %0, %1;", 0xDEADBEEFu,       \
    0u, 1u)                                                                                               \
  X(ShrU32, "shr.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p shr.u32 %0, %0, %1;", 0xDEADBEEFu,       \
    0u, 1u)                                                                                               \
  X(ShrS32, "shr.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p shr.s32 %0, %0, %1;", 0xDEADBEEFu, 1u,   \
    1u)                                                                                                        \
  X(ShlB64, "shl.b64", 75, gc_u64, "l", gc_u32, "r", 128, void, "shl.b64 %0, %0, %1;",                    \
    0xDEADBEEFDEADBEEFull, 0u, 1u)                                                                        \
  X(ShrS64, "shr.s64", 75, gc_u64, "l", gc_u32, "r", 128, void, "@p shr.s64 %0, %0, %1;",                    \
    0xDEADBEEFDEADBEEFull, 1u, 1u)                                                                             \
  X(ShfLWrapB32, "shf.l.wrap.b32", 75, gc_u32, "r", gc_u32, "r", 128, void,                                  \
    "@p shf.l.wrap.b32 %0, %0, %0, %1;", 0xDEADBEEFu, 7u, 1u)                                                  \
  X(ShfRClampB32, "shf.r.clamp.b32", 75, gc_u32, "r", gc_u32, "r", 128, void,                                \
    "@p shf.r.clamp.b32 %0, %0, %2, %1;", 0xDEADBEEFu, 8u, 0x9E3779B9u)                                        \
  X(PrmtB32, "prmt.b32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p prmt.b32 %0, %0, %1, %2;",             \
    0xDEADBEEFu, 0x9E3779B9u, 0x0123u)                                                                         \
  X(Dp4aU32, "dp4a.u32.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "dp4a.u32.u32 %0, %0, %1, %2;",      \
    0x01020304u, 0x01010101u, 0x3u)                                                                            \
  X(Dp2aLoU32, "dp2a.lo.u32.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "dp2a.lo.u32.u32 %0, %0, %1, %2;", \
    0x01020304u, 0x00010001u, 0x3u)                                                                            \
  X(SetpNeS32, "setp.ne.s32", 75, gc_u32, "r", gc_u32, "r", 128, glue::SelpB32,                              \
    "{.reg .pred q; setp.ne.s32 q, %0, %1; @p selp.b32 %0, %0, %2, q;}", 0x12345u, 0x9E3779B9u, 0x2468u)      \
  X(SetpLtU64, "setp.lt.u64", 75, gc_u64, "l", gc_u64, "l", 128, glue::SelpB64,                                       \
    "{.reg .pred q; setp.lt.u64 q, %0, %1; @p selp.b64 %0, %0, %2, q;}", 0x12345ull, 0x9E3779B97F4A7C15ull,   \
    0x2468ull)


GC_INT_BITS(GC_ALU_ROW_OP)

const bool kRegistered = register_probes({GC_INT_BITS(GC_ALU_ROW_PROBE)});

}  // namespace
}  // namespace gpuconform::kernels
