// SPDX-License-Identifier: Apache-2.0
// Latencies of division, reciprocal, square root and the transcendental
// approximations (the MUFU unit plus the range handling ptxas wraps around it;
// seed 000, Abdelkhalik et al. 2022, Table V: div, rcp, sqrt, rsqrt, ex2, lg2,
// sin, cos, tanh). Row format: see alu_latency.cu. None of these can be folded
// by ptxas except rcp.approx.ftz.f32, whose chain ptxas folds (rcp(rcp(x)) to
// x) unless it is guarded; no other row is guarded. Sequences of many SASS instructions run
// shorter chains (the steps column) to keep compile time down; the
// measurement's resolution is still far below one cycle.
//
// Values, chosen to stay on the fast path (normal, finite):
//   div a / x (the divisor is the chained value, or ptxas would hoist 1/a and
//   time a multiply), x alternates between a/x and x; rcp alternates x, 1/x;
//   sqrt and rsqrt converge to 1; sin and tanh decay slowly towards 0 but stay
//   far above the subnormal range within a chain; cos converges to 0.739;
//   ex2 is fed -x (x -> 2^-x converges to 0.641, where 2^x would overflow);
//   lg2 is fed back through an add of 2 (x -> log2(x) + 2 converges to 4),
//   whose latency, measured by the add.rn.f32 chain, is subtracted.
#include "latency/chain_glue.cuh"

namespace gpuconform::kernels {
namespace {

#define GC_SFU_TABLE(X)                                                                                        \
  X(DivRnF32, "div.rn.f32", 75, gc_f32, "f", gc_f32, "f", 64, void, "div.rn.f32 %0, %1, %0;", 1.5f, 1.5f, \
    1.0f)                                                                                                      \
  X(DivFullF32, "div.full.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "div.full.f32 %0, %1, %0;", 1.5f,   \
    1.5f, 1.0f)                                                                                             \
  X(DivApproxF32, "div.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "div.approx.f32 %0, %1, %0;",   \
    1.25f, 1.5f, 1.0f)                                                                                       \
  X(DivRnF64, "div.rn.f64", 75, gc_f64, "d", gc_f64, "d", 32, void, "div.rn.f64 %0, %1, %0;", 1.5, 1.5,   \
    1.0)                                                                                                       \
  X(RcpRnF32, "rcp.rn.f32", 75, gc_f32, "f", gc_f32, "f", 64, void, "rcp.rn.f32 %0, %0;", 1.5f, 1.0f, 1.0f)  \
  X(RcpApproxF32, "rcp.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "rcp.approx.f32 %0, %0;", 1.5f, \
    1.0f, 1.0f)                                                                                                \
  X(RcpApproxFtzF32, "rcp.approx.ftz.f32", 75, gc_f32, "f", gc_f32, "f", 128, void,                          \
    "@p rcp.approx.ftz.f32 %0, %0;", 1.5f, 1.0f, 1.0f)                                                            \
  X(RcpRnF64, "rcp.rn.f64", 75, gc_f64, "d", gc_f64, "d", 32, void, "rcp.rn.f64 %0, %0;", 1.5, 1.0, 1.0)     \
  X(RcpApproxFtzF64, "rcp.approx.ftz.f64", 75, gc_f64, "d", gc_f64, "d", 128, void,                          \
    "rcp.approx.ftz.f64 %0, %0;", 1.5, 1.0, 1.0)                                                               \
  X(SqrtRnF32, "sqrt.rn.f32", 75, gc_f32, "f", gc_f32, "f", 64, void, "sqrt.rn.f32 %0, %0;", 1.5f, 1.0f,     \
    1.0f)                                                                                                      \
  X(SqrtApproxF32, "sqrt.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "sqrt.approx.f32 %0, %0;",    \
    1.5f, 1.0f, 1.0f)                                                                                          \
  X(SqrtRnF64, "sqrt.rn.f64", 75, gc_f64, "d", gc_f64, "d", 32, void, "sqrt.rn.f64 %0, %0;", 1.5, 1.0, 1.0)  \
  X(RsqrtApproxF32, "rsqrt.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "rsqrt.approx.f32 %0, %0;", \
    1.5f, 1.0f, 1.0f)                                                                                          \
  X(RsqrtApproxF64, "rsqrt.approx.f64", 75, gc_f64, "d", gc_f64, "d", 128, void, "rsqrt.approx.f64 %0, %0;", \
    1.5, 1.0, 1.0)                                                                                             \
  X(Ex2ApproxF32, "ex2.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void,                                 \
    "{.reg .f32 t; neg.f32 t, %0; ex2.approx.f32 %0, t;}", 0.5f, 1.0f, 1.0f)                                  \
  X(Ex2ApproxFtzF32, "ex2.approx.ftz.f32", 75, gc_f32, "f", gc_f32, "f", 128, void,                          \
    "{.reg .f32 t; neg.f32 t, %0; ex2.approx.ftz.f32 %0, t;}", 0.5f, 1.0f, 1.0f)                              \
  X(Ex2ApproxF16, "ex2.approx.f16", 75, gc_u16, "h", gc_u16, "h", 128, void,                                 \
    "{.reg .b16 t; neg.f16 t, %0; ex2.approx.f16 %0, t;}", 0x3800, 0x3C00, 0x3C00)                            \
  X(Ex2ApproxF16x2, "ex2.approx.f16x2", 75, gc_u32, "r", gc_u32, "r", 128, void,                             \
    "{.reg .b32 t; neg.f16x2 t, %0; ex2.approx.f16x2 %0, t;}", 0x38003800u, 0x3C003C00u, 0x3C003C00u)        \
  X(Ex2ApproxFtzBf16x2, "ex2.approx.ftz.bf16x2", 90, gc_u32, "r", gc_u32, "r", 128, void,                    \
    "{.reg .b32 t; neg.bf16x2 t, %0; ex2.approx.ftz.bf16x2 %0, t;}", 0x3F003F00u, 0x3F803F80u, 0x3F803F80u)  \
  X(Lg2ApproxF32, "lg2.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, glue::AddF32,                         \
    "lg2.approx.f32 %0, %0; add.rn.f32 %0, %0, %1;", 3.0f, 2.0f, 1.0f)                                        \
  X(Lg2ApproxFtzF32, "lg2.approx.ftz.f32", 75, gc_f32, "f", gc_f32, "f", 128, glue::AddF32,                  \
    "lg2.approx.ftz.f32 %0, %0; add.rn.f32 %0, %0, %1;", 3.0f, 2.0f, 1.0f)                                    \
  X(SinApproxF32, "sin.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "sin.approx.f32 %0, %0;", 1.0f, \
    1.0f, 1.0f)                                                                                                \
  X(CosApproxF32, "cos.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "cos.approx.f32 %0, %0;", 1.0f, \
    1.0f, 1.0f)                                                                                                \
  X(TanhApproxF32, "tanh.approx.f32", 75, gc_f32, "f", gc_f32, "f", 128, void, "tanh.approx.f32 %0, %0;",    \
    1.0f, 1.0f, 1.0f)                                                                                          \
  X(TanhApproxF16, "tanh.approx.f16", 75, gc_u16, "h", gc_u16, "h", 128, void, "tanh.approx.f16 %0, %0;",    \
    0x3C00, 0x3C00, 0x3C00)                                                                                    \
  X(TanhApproxF16x2, "tanh.approx.f16x2", 75, gc_u32, "r", gc_u32, "r", 128, void,                           \
    "tanh.approx.f16x2 %0, %0;", 0x3C003800u, 0x3C003C00u, 0x3C003C00u)                                        \
  X(TanhApproxBf16x2, "tanh.approx.bf16x2", 90, gc_u32, "r", gc_u32, "r", 128, void,                         \
    "tanh.approx.bf16x2 %0, %0;", 0x3F803F00u, 0x3F803F80u, 0x3F803F80u)

GC_SFU_TABLE(GC_ALU_ROW_OP)

const bool kRegistered = register_probes({GC_SFU_TABLE(GC_ALU_ROW_PROBE)});

}  // namespace
}  // namespace gpuconform::kernels
