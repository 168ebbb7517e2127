// SPDX-License-Identifier: Apache-2.0
// Instruction latencies of the integer pipes: add/sub, mul, mad, sad, div/rem,
// abs/neg/min/max and select (bit manipulation, logic and shifts are in
// alu_latency_bits.cu), one dependent chain per PTX instruction and type
// (seed 000, Abdelkhalik et al. 2022, Table V). Each row is one probe: its id,
// the PTX one chain step runs, and operands that keep the chained value
// non-zero and non-trivial (a zero can take a faster path; see the notes on
// the few rows where the value settles at a fixed point or alternates).
//
// Row: X(Name, id, min cc, T, T constraint, U, U constraint, steps, glue, PTX,
//        seed, a, b) with %0 = x, %1 = a, %2 = b and @p the run-time guard.
//
// Guards (dependent_chain.cuh): rows that ptxas could merge (add, sub, neg,
// abs, min/max, logic) carry `@p`; rows it cannot merge (mul, mad, div, rem,
// the bit scans) run unguarded, because ptxas implements some guards with an
// extra select per step. Where it does so on every architecture (64-bit
// add/sub/neg/abs/mul.wide, 16-bit min, lop3), the row names the select's own
// chain as glue and its latency is subtracted. Every row was checked with
// cuobjdump on sm_80..sm_100a: the timed region holds one instruction
// sequence per step, nothing merged away.
#include "latency/chain_glue.cuh"

namespace gpuconform::kernels {
namespace {

// Values: add/sub grow by a; mul/mad use odd factors, so the product of odd
// numbers never reaches zero; mul.hi multiplies by 2^n - 1, which decrements
// x; division divides by 1 (unsigned) or -1 (signed, the value alternates
// sign), and rem keeps x below the divisor, a fixed point of x % a.
#define GC_INT_ARITH(X)                                                                                        \
  X(AddU16, "add.u16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p add.u16 %0, %0, %1;", 0x1234, 0x0101, 1) \
  X(AddU32, "add.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p add.u32 %0, %0, %1;", 0x12345u,         \
    0x9E3779B9u, 1u)                                                                                           \
  X(AddU64, "add.u64", 75, gc_u64, "l", gc_u64, "l", 128, glue::SelpB64, "@p add.u64 %0, %0, %1;", 0x123456789ull,    \
    0x9E3779B97F4A7C15ull, 1ull)                                                                               \
  X(AddSatS32, "add.sat.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "add.sat.s32 %0, %0, %1;",          \
    0x12345u, 0x10001u, 1u)                                                                                    \
  X(AddcU32, "addc.u32", 75, gc_u32, "r", gc_u32, "r", 128, void,                                              \
    "add.cc.u32 %0, %0, %1; addc.u32 %0, %0, %2;", 0x12345u, 0x9E3779B9u, 0x7F4A7C15u)                   \
  X(SubS32, "sub.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p sub.s32 %0, %0, %1;", 0x12345u,         \
    0x9E3779B9u, 1u)                                                                                           \
  X(SubS64, "sub.s64", 75, gc_u64, "l", gc_u64, "l", 128, glue::SelpB64, "@p sub.s64 %0, %0, %1;", 0x123456789ull,    \
    0x9E3779B97F4A7C15ull, 1ull)                                                                               \
  X(MulLoU16, "mul.lo.u16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p mul.lo.u16 %0, %0, %1;", 0x1235,    \
    0x0F0F, 1)                                                                                                 \
  X(MulLoU32, "mul.lo.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mul.lo.u32 %0, %0, %1;", 0x12345u,  \
    0x9E3779B9u, 1u)                                                                                           \
  X(MulLoU64, "mul.lo.u64", 75, gc_u64, "l", gc_u64, "l", 128, void, "mul.lo.u64 %0, %0, %1;",            \
    0x123456789ull, 0x9E3779B97F4A7C15ull, 1ull)                                                               \
  X(MulHiU32, "mul.hi.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mul.hi.u32 %0, %0, %1;",            \
    0x9E3779B9u, 0xFFFFFFFFu, 1u)                                                                              \
  X(MulHiU64, "mul.hi.u64", 75, gc_u64, "l", gc_u64, "l", 128, void, "mul.hi.u64 %0, %0, %1;",            \
    0x9E3779B97F4A7C15ull, ~0ull, 1ull)                                                                        \
  X(MulWideU16, "mul.wide.u16", 75, gc_u32, "r", gc_u16, "h", 128, void,                                      \
    "{.reg .u16 t; cvt.u16.u32 t, %0; @p mul.wide.u16 %0, t, %1;}", 0x1235u, 0x0F0F, 1)                       \
  X(MulWideU32, "mul.wide.u32", 75, gc_u64, "l", gc_u32, "r", 128, glue::SelpB64,                            \
    "{.reg .u32 t; cvt.u32.u64 t, %0; @p mul.wide.u32 %0, t, %1;}", 0x12345ull, 0x9E3779B9u, 1u)              \
  X(Mul24LoU32, "mul24.lo.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mul24.lo.u32 %0, %0, %1;",      \
    0x12345u, 0x779B9u, 1u)                                                                                    \
  X(Mul24HiU32, "mul24.hi.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mul24.hi.u32 %0, %0, %1;",      \
    0x9E3779B9u, 0xFFFFFFu, 1u)                                                                                \
  X(MadLoU16, "mad.lo.u16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p mad.lo.u16 %0, %0, %1, %2;", 0x1235, \
    0x0F0F, 0x0101)                                                                                            \
  X(MadLoU32, "mad.lo.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mad.lo.u32 %0, %0, %1, %2;",        \
    0x12345u, 0x9E3779B9u, 0x7F4A7C15u)                                                                        \
  X(MadLoU64, "mad.lo.u64", 75, gc_u64, "l", gc_u64, "l", 128, void, "mad.lo.u64 %0, %0, %1, %2;",        \
    0x123456789ull, 0x9E3779B97F4A7C15ull, 0x7F4A7C15ull)                                                      \
  X(MadHiU32, "mad.hi.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mad.hi.u32 %0, %0, %1, %2;",        \
    0x9E3779B9u, 0xFFFFFFFFu, 0x12345u)                                                                        \
  X(MadWideU32, "mad.wide.u32", 75, gc_u64, "l", gc_u32, "r", 128, void,                                      \
    "{.reg .u32 t; cvt.u32.u64 t, %0; mad.wide.u32 %0, t, %1, %0;}", 0x12345ull, 0x9E3779B9u, 1u)          \
  X(Mad24LoU32, "mad24.lo.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mad24.lo.u32 %0, %0, %1, %2;",  \
    0x12345u, 0x779B9u, 0x2468u)                                                                               \
  X(Mad24HiU32, "mad24.hi.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p mad24.hi.u32 %0, %0, %1, %2;",  \
    0x9E3779B9u, 0xFFFFFFu, 0x12345u)                                                                          \
  X(SadU16, "sad.u16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p sad.u16 %0, %0, %1, %2;", 0x1234, 0x0F0F, \
    0x0101)                                                                                                    \
  X(SadU32, "sad.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p sad.u32 %0, %0, %1, %2;", 0x12345u,      \
    0x9E3779B9u, 0x101u)                                                                                       \
  X(SadS32, "sad.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p sad.s32 %0, %0, %1, %2;", 0x12345u,      \
    0x9E3779B9u, 0x101u)                                                                                       \
  X(SadU64, "sad.u64", 75, gc_u64, "l", gc_u64, "l", 128, void, "sad.u64 %0, %0, %1, %2;", 0x123456789ull, \
    0x9E3779B97F4A7C15ull, 0x101ull)                                                                           \
  X(DivU16, "div.u16", 75, gc_u16, "h", gc_u16, "h", 32, void, "div.u16 %0, %0, %1;", 0x1234, 1, 1)       \
  X(RemU16, "rem.u16", 75, gc_u16, "h", gc_u16, "h", 32, void, "rem.u16 %0, %0, %1;", 0x1234, 0x7FF1, 1)  \
  X(DivU32, "div.u32", 75, gc_u32, "r", gc_u32, "r", 32, void, "div.u32 %0, %0, %1;", 0x12345u, 1u, 1u)   \
  X(DivS32, "div.s32", 75, gc_u32, "r", gc_u32, "r", 32, void, "div.s32 %0, %0, %1;", 0x12345u,           \
    0xFFFFFFFFu, 1u)                                                                                           \
  X(RemU32, "rem.u32", 75, gc_u32, "r", gc_u32, "r", 32, void, "rem.u32 %0, %0, %1;", 0x12345u,           \
    0x9E3779B9u, 1u)                                                                                           \
  X(RemS32, "rem.s32", 75, gc_u32, "r", gc_u32, "r", 32, void, "rem.s32 %0, %0, %1;", 0x12345u,           \
    0x7FFFFFF1u, 1u)                                                                                           \
  X(DivU64, "div.u64", 75, gc_u64, "l", gc_u64, "l", 16, void, "div.u64 %0, %0, %1;",                     \
    0x9E3779B97F4A7C15ull, 1ull, 1ull)                                                                         \
  X(DivS64, "div.s64", 75, gc_u64, "l", gc_u64, "l", 16, void, "div.s64 %0, %0, %1;",                     \
    0x1E3779B97F4A7C15ull, ~0ull, 1ull)                                                                        \
  X(RemU64, "rem.u64", 75, gc_u64, "l", gc_u64, "l", 16, void, "rem.u64 %0, %0, %1;",                     \
    0x123456789ABCDull, 0x9E3779B97F4A7C15ull, 1ull)

// Values: abs reaches |x| after one step; neg alternates the sign; min/max
// settle at min(x, a) / max(x, a).
#define GC_INT_MINMAX(X)                                                                                       \
  X(AbsS16, "abs.s16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p abs.s16 %0, %0;", 0xF234, 1, 1)          \
  X(AbsS32, "abs.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p abs.s32 %0, %0;", 0xF2345678u, 1u, 1u)   \
  X(AbsS64, "abs.s64", 75, gc_u64, "l", gc_u64, "l", 128, glue::SelpB64, "@p abs.s64 %0, %0;", 0xF23456789ull, 1ull,  \
    1ull)                                                                                                      \
  X(NegS16, "neg.s16", 75, gc_u16, "h", gc_u16, "h", 128, void, "@p neg.s16 %0, %0;", 0x1234, 1, 1)          \
  X(NegS32, "neg.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p neg.s32 %0, %0;", 0x12345u, 1u, 1u)      \
  X(NegS64, "neg.s64", 75, gc_u64, "l", gc_u64, "l", 128, glue::SelpB64, "@p neg.s64 %0, %0;", 0x123456789ull, 1ull,  \
    1ull)                                                                                                      \
  X(MinU16, "min.u16", 75, gc_u16, "h", gc_u16, "h", 128, glue::SelpB32, "@p min.u16 %0, %0, %1;", 0x1234, 0x0F0F, 1) \
  X(MinS16, "min.s16", 75, gc_u16, "h", gc_u16, "h", 128, glue::SelpB32, "@p min.s16 %0, %0, %1;", 0x1234, 0x0F0F, 1) \
  X(MinU32, "min.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p min.u32 %0, %0, %1;", 0x12345u,          \
    0x9E3779B9u, 1u)                                                                                           \
  X(MinS32, "min.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p min.s32 %0, %0, %1;", 0x12345u,          \
    0x0E3779B9u, 1u)                                                                                           \
  X(MinU64, "min.u64", 75, gc_u64, "l", gc_u64, "l", 128, void, "@p min.u64 %0, %0, %1;", 0x123456789ull,    \
    0x9E3779B97F4A7C15ull, 1ull)                                                                               \
  X(MinS64, "min.s64", 75, gc_u64, "l", gc_u64, "l", 128, void, "@p min.s64 %0, %0, %1;", 0x123456789ull,    \
    0x1E3779B97F4A7C15ull, 1ull)                                                                               \
  X(MaxU32, "max.u32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p max.u32 %0, %0, %1;", 0x9E3779B9u,       \
    0x12345u, 1u)                                                                                              \
  X(MaxS32, "max.s32", 75, gc_u32, "r", gc_u32, "r", 128, void, "@p max.s32 %0, %0, %1;", 0x0E3779B9u,       \
    0x12345u, 1u)                                                                                              \
  X(MaxS64, "max.s64", 75, gc_u64, "l", gc_u64, "l", 128, void, "@p max.s64 %0, %0, %1;",                    \
    0x1E3779B97F4A7C15ull, 0x123456789ull, 1ull)

#define GC_INT_TABLE(X) GC_INT_ARITH(X) GC_INT_MINMAX(X)

GC_INT_TABLE(GC_ALU_ROW_OP)

}  // namespace

// sad.u64 reads 22.0 to 27.5 cycles across the SMs (dependent_chain.cuh).
template <>
struct times_each_sm<SadU64> : std::true_type {};

namespace {

const bool kRegistered = register_probes({
    GC_INT_TABLE(GC_ALU_ROW_PROBE)
    GC_ALU_PROBE(glue::SelpB32, "selp.b32", 75)
    GC_ALU_PROBE(glue::SelpB64, "selp.b64", 75)
});

}  // namespace
}  // namespace gpuconform::kernels
