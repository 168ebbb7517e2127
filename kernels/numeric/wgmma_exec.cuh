// SPDX-License-Identifier: Apache-2.0
#pragma once
// The exec() bodies of the wgmma variant tables (wgmma.cu: dense; wgmma_sp.cu: 2:4 sparse
// wgmma.mma_async.sp), one generic form for every accumulator width: the rows differ only in
// the PTX, the accumulator registers, the operand text between the accumulators and scale-d,
// and the immediates. Macros, because asm needs its template and operand lists as literals.

// One asm from fence to wait: the accumulator registers are written asynchronously, so no
// compiler-inserted copy may touch them before wgmma.wait_group returns. scale-d = 1 (D =
// A*B + D, D holding C); the immediates after it are the row's (scale-a/b, transposes).
#define GC_WGMMA_OPEN(ScaleOperand) \
  "{\n.reg .pred p;\nsetp.ne.b32 p, %" ScaleOperand ", 0;\nwgmma.fence.sync.aligned;\n"
#define GC_WGMMA_CLOSE ";\nwgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n}\n"

// Register lists "%0,...,%N-1" of the accumulators (string literals: asm needs them so).
#define GC_WG_REGS2 "%0,%1"
#define GC_WG_REGS4 "%0,%1,%2,%3"
#define GC_WG_REGS8 "%0,%1,%2,%3,%4,%5,%6,%7"
#define GC_WG_REGS16 \
  GC_WG_REGS8        \
  ",%8,%9,%10,%11,%12,%13,%14,%15"
#define GC_WG_REGS32 \
  GC_WG_REGS16       \
  ",%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31"
#define GC_WG_REGS64                                                 \
  GC_WG_REGS32                                                       \
  ",%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47" \
  ",%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63"
#define GC_WG_REGS128                                                            \
  GC_WG_REGS64                                                                   \
  ",%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79"             \
  ",%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95"             \
  ",%96,%97,%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,%111" \
  ",%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,%124,%125,%126,%127"
#define GC_WG_D2(o) "+r"(r.d[o]), "+r"(r.d[o + 1])
#define GC_WG_D4(o) GC_WG_D2(o), GC_WG_D2(o + 2)
#define GC_WG_D8(o) GC_WG_D4(o), GC_WG_D4(o + 4)
#define GC_WG_D16(o) GC_WG_D8(o), GC_WG_D8(o + 8)
#define GC_WG_D32(o) GC_WG_D16(o), GC_WG_D16(o + 16)
#define GC_WG_D64(o) GC_WG_D32(o), GC_WG_D32(o + 32)
#define GC_WG_D128(o) GC_WG_D64(o), GC_WG_D64(o + 64)
// f32 accumulators travel as "f" (the PTX type of the wgmma .f32 D operand), from a float copy.
#define GC_WG_F4(o) "+f"(d[o]), "+f"(d[o + 1]), "+f"(d[o + 2]), "+f"(d[o + 3])
#define GC_WG_F8(o) GC_WG_F4(o), GC_WG_F4(o + 4)
#define GC_WG_F16(o) GC_WG_F8(o), GC_WG_F8(o + 8)
#define GC_WG_F32(o) GC_WG_F16(o), GC_WG_F16(o + 16)
#define GC_WG_F64(o) GC_WG_F32(o), GC_WG_F32(o + 32)
#define GC_WG_F128(o) GC_WG_F64(o), GC_WG_F64(o + 64)

// The generic bodies. `Operands`: the PTX text between the accumulators and scale-d (A's
// descriptor or registers, B's descriptor, and for .sp the metadata register and the
// selector); `IS`: scale-d's operand number; the inputs come last (variadic, since they hold
// commas) in operand order.
// Integer and f16 accumulators: bit patterns in the fragment's 32-bit words.
#define GC_EXEC_WG_OPS_BITS(Ptx, Regs, Operands, IS, Imm, ...)                                       \
  template <class F>                                                                                 \
  __device__ static void exec(F& r) {                                                                \
    asm volatile(GC_WGMMA_OPEN(IS) Ptx " {" GC_WG_REGS##Regs "}, " Operands ", p" Imm GC_WGMMA_CLOSE \
                 : GC_WG_D##Regs(0)                                                                  \
                 : __VA_ARGS__                                                                       \
                 : "memory");                                                                        \
  }

#define GC_EXEC_WG_OPS_F32(Ptx, Regs, Operands, IS, Imm, ...)                                        \
  template <class F>                                                                                 \
  __device__ static void exec(F& r) {                                                                \
    float d[Regs];                                                                                   \
    for (int i = 0; i < Regs; ++i) d[i] = __uint_as_float(r.d[i]);                                   \
    asm volatile(GC_WGMMA_OPEN(IS) Ptx " {" GC_WG_REGS##Regs "}, " Operands ", p" Imm GC_WGMMA_CLOSE \
                 : GC_WG_F##Regs(0)                                                                  \
                 : __VA_ARGS__                                                                       \
                 : "memory");                                                                        \
    for (int i = 0; i < Regs; ++i) r.d[i] = __float_as_uint(d[i]);                                   \
  }

// Dense wgmma: A's operand text, then B's descriptor (operand IB).
#define GC_EXEC_WG_WIDE_BITS(Ptx, Regs, AText, IB, IS, Imm, ...) \
  GC_EXEC_WG_OPS_BITS(Ptx, Regs, AText ", %" IB, IS, Imm, __VA_ARGS__)
#define GC_EXEC_WG_WIDE_F32(Ptx, Regs, AText, IB, IS, Imm, ...) \
  GC_EXEC_WG_OPS_F32(Ptx, Regs, AText ", %" IB, IS, Imm, __VA_ARGS__)

// The inputs after the accumulators: A by descriptor or in four registers, then B's
// descriptor, (.sp) the metadata register, and scale-d.
#define GC_WG_IN_SHARED "l"(r.desc_a), "l"(r.desc_b), "r"(1)
#define GC_WG_IN_REGISTERS "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "l"(r.desc_b), "r"(1)
#define GC_WG_IN_SP_SHARED "l"(r.desc_a), "l"(r.desc_b), "r"(r.e), "r"(1)
#define GC_WG_IN_SP_REGISTERS "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "l"(r.desc_b), "r"(r.e), "r"(1)
