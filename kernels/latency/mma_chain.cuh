// SPDX-License-Identifier: Apache-2.0
#pragma once
// The tensor-core chain Op: one warp runs a chain of mma.sync (or wmma.mma)
// in which each instruction's D fragment is the next one's C, so each waits
// for its predecessor's result: cycles per step = completion latency (seed
// 001, Sun et al. 2022, Section 4: ILP = 1, one warp). A and B stay in
// registers, with fixed non-zero values of the input format chosen so that
// the accumulator grows slowly and stays finite over every chain.
#include "latency/dependent_chain.cuh"

namespace gpuconform::kernels {

template <class E, int N>
struct Frag {
  E r[N];
  static Frag filled(E v) {
    Frag f;
    for (E& e : f.r) e = v;
    return f;
  }
};

template <class E, int NA, int NB>
struct FragAB {
  E a[NA];
  E b[NB];
  static FragAB filled(E va, E vb) {
    FragAB f;
    for (E& e : f.a) e = va;
    for (E& e : f.b) e = vb;
    return f;
  }
};

// Operand lists {D}, {A}, {B}, {C = D} per fragment size (ND, NA, NB).
#define GC_MMA_ASM_2_2_1(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1}, {%2,%3}, {%4}, {%0,%1};" : "+" DC(x.r[0]), "+" DC(x.r[1]) : AC(a.a[0]), AC(a.a[1]), AC(a.b[0]))
#define GC_MMA_ASM_4_2_1(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]) : AC(a.a[0]), AC(a.a[1]), AC(a.b[0]))
#define GC_MMA_ASM_2_4_2(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};" : "+" DC(x.r[0]), "+" DC(x.r[1]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.b[0]), AC(a.b[1]))
#define GC_MMA_ASM_4_4_2(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.b[0]), AC(a.b[1]))
#define GC_MMA_ASM_2_1_1(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%0,%1};" : "+" DC(x.r[0]), "+" DC(x.r[1]) : AC(a.a[0]), AC(a.b[0]))
#define GC_MMA_ASM_4_8_4(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.a[4]), AC(a.a[5]), AC(a.a[6]), AC(a.a[7]), AC(a.b[0]), AC(a.b[1]), AC(a.b[2]), AC(a.b[3]))
#define GC_MMA_ASM_4_8_8(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19}, {%0,%1,%2,%3};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.a[4]), AC(a.a[5]), AC(a.a[6]), AC(a.a[7]), AC(a.b[0]), AC(a.b[1]), AC(a.b[2]), AC(a.b[3]), AC(a.b[4]), AC(a.b[5]), AC(a.b[6]), AC(a.b[7]))
#define GC_MMA_ASM_8_8_8(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11,%12,%13,%14,%15}, {%16,%17,%18,%19,%20,%21,%22,%23}, {%0,%1,%2,%3,%4,%5,%6,%7};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]), "+" DC(x.r[4]), "+" DC(x.r[5]), "+" DC(x.r[6]), "+" DC(x.r[7]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.a[4]), AC(a.a[5]), AC(a.a[6]), AC(a.a[7]), AC(a.b[0]), AC(a.b[1]), AC(a.b[2]), AC(a.b[3]), AC(a.b[4]), AC(a.b[5]), AC(a.b[6]), AC(a.b[7]))
#define GC_MMA_ASM_8_4_4(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3,%4,%5,%6,%7};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]), "+" DC(x.r[4]), "+" DC(x.r[5]), "+" DC(x.r[6]), "+" DC(x.r[7]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.b[0]), AC(a.b[1]), AC(a.b[2]), AC(a.b[3]))
#define GC_MMA_ASM_8_2_2(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%0,%1,%2,%3,%4,%5,%6,%7};" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]), "+" DC(x.r[4]), "+" DC(x.r[5]), "+" DC(x.r[6]), "+" DC(x.r[7]) : AC(a.a[0]), AC(a.a[1]), AC(a.b[0]), AC(a.b[1]))

// One mma/wmma shape and type: D has ND registers of DT (constraint DC), A
// and B have NA and NB registers of AT (constraint AC).
#define GC_MMA_OP(Name, MinCC, Len, Ptx, DT, ND, DC, AT, NA, NB, AC, Dv, Av, Bv)                        \
  struct Name {                                                                                      \
    using T = ::gpuconform::kernels::Frag<DT, ND>;                                                   \
    using U = ::gpuconform::kernels::FragAB<AT, NA, NB>;                                             \
    using Glue = void;                                                                               \
    static constexpr int kChain = Len;                                                               \
    static constexpr int kThreads = 32;                                                              \
    static constexpr const char* kBody = Ptx;                                                        \
    static T seed() { return T::filled(Dv); }                                                        \
    static U operand_a() { return U::filled(Av, Bv); }                                               \
    static U operand_b() { return U::filled(Av, Bv); }                                               \
    __device__ static T step(T x, const U& a, const U&, unsigned) {                                  \
      if constexpr (::gpuconform::kernels::kCudaArch >= (MinCC) * 10) {                              \
        GC_MMA_ASM_##ND##_##NA##_##NB(Ptx, DC, AC);                                                  \
      } else {                                                                                       \
        __trap();                                                                                    \
      }                                                                                              \
      return x;                                                                                      \
    }                                                                                                \
  };

}  // namespace gpuconform::kernels
