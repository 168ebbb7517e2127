// Instruction latencies of the CUDA cores, one dependent chain per PTX
// instruction. Each row of the table is one probe: its id, the PTX it times,
// and the operands that keep the chain's values finite and non-trivial
// (never zeros: a zero operand can take a faster path).
#include "latency/dependent_chain.cuh"

namespace gpuconform::kernels {
namespace {

// Op for a three-operand instruction "op d, x, a, b" on one register class.
#define GC_CHAIN_OP3(Name, Type, Cons, Ptx, Seed, A, B)                          \
  struct Name {                                                                  \
    using T = Type;                                                              \
    static T seed() { return Seed; }                                             \
    static T operand_a() { return A; }                                           \
    static T operand_b() { return B; }                                           \
    __device__ static T step(T x, T a, T b) {                                    \
      asm volatile(Ptx " %0, %0, %1, %2;" : "+" Cons(x) : Cons(a), Cons(b));     \
      return x;                                                                  \
    }                                                                            \
  };

// x*a + b with a just under 1 and b small keeps the value bounded and normal.
GC_CHAIN_OP3(FmaRnF32, float, "f", "fma.rn.f32", 1.5f, 0.999f, 0.25f)
GC_CHAIN_OP3(FmaRnF64, double, "d", "fma.rn.f64", 1.5, 0.999, 0.25)
GC_CHAIN_OP3(MadLoU32, unsigned, "r", "mad.lo.u32", 0x12345u, 0x9E3779B9u, 0x7F4A7C15u)

const RecordHint kDeterministic{ExpectationKind::band, 0.25, 0.0};

}  // namespace

GPUCONFORM_PROBE("latency.alu.fma.rn.f32", Family::latency,
                 "fma.rn.f32 dependent-chain latency", {75}, kDeterministic,
                 &measure_chain_latency<FmaRnF32>);
GPUCONFORM_PROBE("latency.alu.fma.rn.f64", Family::latency,
                 "fma.rn.f64 dependent-chain latency", {75}, kDeterministic,
                 &measure_chain_latency<FmaRnF64>);
GPUCONFORM_PROBE("latency.alu.mad.lo.u32", Family::latency,
                 "mad.lo.u32 dependent-chain latency", {75}, kDeterministic,
                 &measure_chain_latency<MadLoU32>);

}  // namespace gpuconform::kernels
