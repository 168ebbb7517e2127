// SPDX-License-Identifier: Apache-2.0
#pragma once
// Feedback instructions for chains whose instruction does not return its own
// operand type: a setp/testp result goes back through selp, a lg2 result
// through an add. Each glue Op is measured by its own chain and its latency
// subtracted (dependent_chain.cuh, Glue), and each is a probe in its own right.
#include "latency/dependent_chain.cuh"

namespace gpuconform::kernels {
namespace {
namespace glue {

// Glue rows that need no guard (IEEE add is never re-associated) still get
// the run-time predicate p declared by GC_CHAIN_OP; it is simply unused.
// x = q ? x : a, where q comes from b != 0 (true at run time, but not the same
// predicate as the guard, so ptxas cannot prove the select constant).
GC_CHAIN_OP(SelpB32, 75, gc_u32, "r", gc_u32, "r", 128, void,
            "{.reg .pred q; setp.ne.u32 q, %2, 0; @p selp.b32 %0, %0, %1, q;}", 0x12345u, 0x9E3779B9u, 1u)
GC_CHAIN_OP(SelpB64, 75, gc_u64, "l", gc_u64, "l", 128, void,
            "{.reg .pred q; setp.ne.u64 q, %2, 0; @p selp.b64 %0, %0, %1, q;}", 0x123456789ull,
            0x9E3779B97F4A7C15ull, 1ull)
GC_CHAIN_OP(SelpF32, 75, gc_f32, "f", gc_f32, "f", 128, void,
            "{.reg .pred q; setp.neu.f32 q, %2, 0f00000000; @p selp.f32 %0, %0, %1, q;}", 1.5f, 2.5f, 1.0f)
GC_CHAIN_OP(SelpF64, 75, gc_f64, "d", gc_f64, "d", 128, void,
            "{.reg .pred q; setp.neu.f64 q, %2, 0d0000000000000000; @p selp.f64 %0, %0, %1, q;}", 1.5, 2.5, 1.0)
GC_CHAIN_OP(AddF32, 75, gc_f32, "f", gc_f32, "f", 128, void, "add.rn.f32 %0, %0, %1;", 1.5f, 0.25f, 1.0f)

}  // namespace glue
}  // namespace
}  // namespace gpuconform::kernels
