// SPDX-License-Identifier: Apache-2.0
// wgmma (sm_90a) variants: one table row per instruction gives two variants, B always from
// shared memory and A either from shared memory too (`Name`, both operands by matrix
// descriptor) or from registers (`Name_areg`, the fragment layout of the PTX ISA's
// "Register fragments"). Both forms are separate instructions to the hardware, so each has
// its own golden file and probe. Shape m64n8: the smallest wgmma, one warpgroup per
// instance.
//
// Device code exists only in the sm_90a cubin (mma_kernel.cuh compiles the body only under
// __CUDA_ARCH_FEAT_SM90_ALL); elsewhere the variants report "needs sm_90a" and never launch.
#include "numeric/mma_kernel.cuh"
#include "numeric/mma_probes.hpp"
#include "numeric/wgmma_exec.cuh"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::kernels {
namespace {

using namespace mma;

// GC_WGMMA_OPEN / GC_WGMMA_CLOSE and the generic wide bodies: wgmma_exec.cuh (shared with
// the sparse table, wgmma_sp.cu).
#define GC_EXEC_WG_F32_SHARED(Ptx, Imm)                                                         \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    float d[4] = {__uint_as_float(r.d[0]), __uint_as_float(r.d[1]), __uint_as_float(r.d[2]),     \
                  __uint_as_float(r.d[3])};                                                     \
    asm volatile(GC_WGMMA_OPEN("6") Ptx " {%0,%1,%2,%3}, %4, %5, p" Imm GC_WGMMA_CLOSE           \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                               \
                 : "l"(r.desc_a), "l"(r.desc_b), "r"(1)                                         \
                 : "memory");                                                                   \
    for (int i = 0; i < 4; ++i) r.d[i] = __float_as_uint(d[i]);                                \
  }

#define GC_EXEC_WG_F32_REGISTERS(Ptx, Imm)                                                      \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    float d[4] = {__uint_as_float(r.d[0]), __uint_as_float(r.d[1]), __uint_as_float(r.d[2]),     \
                  __uint_as_float(r.d[3])};                                                     \
    asm volatile(GC_WGMMA_OPEN("9") Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p" Imm GC_WGMMA_CLOSE \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                               \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "l"(r.desc_b), "r"(1)    \
                 : "memory");                                                                   \
    for (int i = 0; i < 4; ++i) r.d[i] = __float_as_uint(d[i]);                                \
  }

#define GC_EXEC_WG_S32_SHARED(Ptx, Imm)                                                         \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(GC_WGMMA_OPEN("6") Ptx " {%0,%1,%2,%3}, %4, %5, p" Imm GC_WGMMA_CLOSE           \
                 : "+r"(r.d[0]), "+r"(r.d[1]), "+r"(r.d[2]), "+r"(r.d[3])                       \
                 : "l"(r.desc_a), "l"(r.desc_b), "r"(1)                                         \
                 : "memory");                                                                   \
  }

#define GC_EXEC_WG_S32_REGISTERS(Ptx, Imm)                                                      \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(GC_WGMMA_OPEN("9") Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p" Imm GC_WGMMA_CLOSE \
                 : "+r"(r.d[0]), "+r"(r.d[1]), "+r"(r.d[2]), "+r"(r.d[3])                       \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "l"(r.desc_b), "r"(1)    \
                 : "memory");                                                                   \
  }

#define GC_EXEC_WG_F16_SHARED(Ptx, Imm)                                                         \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(GC_WGMMA_OPEN("4") Ptx " {%0,%1}, %2, %3, p" Imm GC_WGMMA_CLOSE                 \
                 : "+r"(r.d[0]), "+r"(r.d[1])                                                   \
                 : "l"(r.desc_a), "l"(r.desc_b), "r"(1)                                         \
                 : "memory");                                                                   \
  }

#define GC_EXEC_WG_F16_REGISTERS(Ptx, Imm)                                                      \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(GC_WGMMA_OPEN("7") Ptx " {%0,%1}, {%2,%3,%4,%5}, %6, p" Imm GC_WGMMA_CLOSE      \
                 : "+r"(r.d[0]), "+r"(r.d[1])                                                   \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "l"(r.desc_b), "r"(1)    \
                 : "memory");                                                                   \
  }

// Name (the vector-file variant with A in shared memory), PTX, exec signature, immediates
// after scale-d with A in shared memory and with A in registers (f16/bf16: imm-scale-a,
// imm-scale-b, imm-trans-a (shared A only), imm-trans-b; tf32/FP8: the two scales; integer:
// none), numeric probe (1) or golden vectors only (0).
#define GC_WGMMA_TABLE(X)                                                                                  \
  X(wgmma_m64n8k16_f32_f16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", F32, ", 1, 1, 0, 0",        \
    ", 1, 1, 0", 1)                                                                                         \
  X(wgmma_m64n8k16_f32_bf16, "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", F32, ", 1, 1, 0, 0",     \
    ", 1, 1, 0", 1)                                                                                         \
  X(wgmma_m64n8k16_f16_f16, "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16", F16, ", 1, 1, 0, 0",        \
    ", 1, 1, 0", 1)                                                                                         \
  X(wgmma_m64n8k8_f32_tf32, "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32", F32, ", 1, 1", ", 1, 1", 1) \
  X(wgmma_m64n8k32_f32_e4m3, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3", F32, ", 1, 1", ", 1, 1", 1) \
  X(wgmma_m64n8k32_f32_e5m2, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2", F32, ", 1, 1", ", 1, 1", 1) \
  X(wgmma_m64n8k32_f16_e4m3, "wgmma.mma_async.sync.aligned.m64n8k32.f16.e4m3.e4m3", F16, ", 1, 1", ", 1, 1", 1) \
  X(wgmma_m64n8k32_f16_e5m2, "wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e5m2", F16, ", 1, 1", ", 1, 1", 1) \
  X(wgmma_m64n8k32_s32_s8, "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8", S32, "", "", 0)                   \
  X(wgmma_m64n8k32_s32_s8_satfinite, "wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.s8.s8", S32, "", "", 0)

const Requirements kNeedsSm90a{90, 90, "sm_90a (wgmma)"};

#define GC_WGMMA_VARIANT(Name, Ptx, Exec, Imm, ARegisters, Probe)                                      \
  struct Name {                                                                                        \
    static constexpr const char* kName = #Name;                                                        \
    static constexpr Fragments kFragments = Fragments::kWarpgroup;                                     \
    static constexpr bool kARegisters = ARegisters;                                                    \
    static constexpr bool kNeedsSm90a = true;                                                          \
    static constexpr int kMinArch = 900;                                                               \
    GC_EXEC_WG_##Exec(Ptx, Imm)                                                                        \
  };                                                                                                   \
  const bool Name##_registered =                                                                       \
      register_mma_variant(#Name, Ptx, numeric_probe_id(#Name), 90, true, &run_mma<Name>,               \
                           &mma_has_code<Name>, fragment_counts<Name>(), &fragment_position<Name>) &&  \
      register_mma_probe(#Name, kNeedsSm90a, Probe ? &measure_mma_probe<Name> : &measure_checked_probe<Name>, Probe);

#define GC_WGMMA_VARIANTS(Name, Ptx, Exec, ImmShared, ImmRegisters, Probe)      \
  GC_WGMMA_VARIANT(Name, Ptx, Exec##_SHARED, ImmShared, false, Probe)           \
  GC_WGMMA_VARIANT(Name##_areg, Ptx, Exec##_REGISTERS, ImmRegisters, true, Probe)

GC_WGMMA_TABLE(GC_WGMMA_VARIANTS)

// ---- Wide N (m64nNk*, N = 16 .. 256): the arithmetic does not depend on N (the model rows
// are the m64n8 ones), but the accumulator fragment grows to N/2 (s32, f32) or N/4 (f16)
// registers a thread, laid out as N/8 mma.sync m16n8 C tiles (mma_kernel.cuh c_at), and B's
// shared-memory tile to N rows. Golden vectors only: the m64n8 rows are the numeric probes.
// Register lists, operand lists and the exec bodies GC_EXEC_WG_WIDE_BITS / _F32: wgmma_exec.cuh.

// Name, PTX, accumulator kind (BITS: s32 or packed f16; F32), accumulator registers a thread
// (N/2 for s32 and f32, N/4 for f16), A from registers (areg) or by descriptor, A's operand
// text, the operand numbers of desc-b and scale-d (they follow the accumulators and A), the
// immediates after scale-d (as in GC_WGMMA_TABLE). Float rows: f32.f16 at N = 16, 64 and 256
// walk the accumulator layout; every other float type at N = 256 (the widest fragment), and
// A from registers at N = 256 for an f16 and an FP8 type.
#define GC_WGMMA_WIDE_TABLE(X)                                                                                     \
  X(wgmma_m64n16k32_s32_s8, "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8", BITS, 8, false, "%8", "9", "10", "") \
  X(wgmma_m64n32k32_s32_s8, "wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8", BITS, 16, false, "%16", "17", "18",  \
    "")                                                                                                            \
  X(wgmma_m64n64k32_s32_s8, "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8", BITS, 32, false, "%32", "33", "34",  \
    "")                                                                                                            \
  X(wgmma_m64n128k32_s32_s8, "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8", BITS, 64, false, "%64", "65",      \
    "66", "")                                                                                                      \
  X(wgmma_m64n256k32_s32_s8, "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8", BITS, 128, false, "%128", "129",   \
    "130", "")                                                                                                     \
  X(wgmma_m64n256k32_s32_s8_satfinite, "wgmma.mma_async.sync.aligned.m64n256k32.satfinite.s32.s8.s8", BITS, 128,    \
    false, "%128", "129", "130", "")                                                                               \
  X(wgmma_m64n16k16_f32_f16, "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16", F32, 8, false, "%8", "9", "10",   \
    ", 1, 1, 0, 0")                                                                                                \
  X(wgmma_m64n64k16_f32_f16, "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", F32, 32, false, "%32", "33",      \
    "34", ", 1, 1, 0, 0")                                                                                          \
  X(wgmma_m64n256k16_f32_f16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", F32, 128, false, "%128",        \
    "129", "130", ", 1, 1, 0, 0")                                                                                  \
  X(wgmma_m64n256k16_f32_bf16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", F32, 128, false, "%128",     \
    "129", "130", ", 1, 1, 0, 0")                                                                                  \
  X(wgmma_m64n256k16_f16_f16, "wgmma.mma_async.sync.aligned.m64n256k16.f16.f16.f16", BITS, 64, false, "%64", "65",   \
    "66", ", 1, 1, 0, 0")                                                                                          \
  X(wgmma_m64n256k8_f32_tf32, "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", F32, 128, false, "%128",       \
    "129", "130", ", 1, 1")                                                                                        \
  X(wgmma_m64n256k32_f32_e4m3, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", F32, 128, false, "%128",     \
    "129", "130", ", 1, 1")                                                                                        \
  X(wgmma_m64n256k32_f32_e5m2, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2", F32, 128, false, "%128",     \
    "129", "130", ", 1, 1")                                                                                        \
  X(wgmma_m64n256k16_f32_f16_areg, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", F32, 128, true,           \
    "{%128,%129,%130,%131}", "132", "133", ", 1, 1, 0")                                                            \
  X(wgmma_m64n256k32_f32_e4m3_areg, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", F32, 128, true,        \
    "{%128,%129,%130,%131}", "132", "133", ", 1, 1")

#define GC_WG_IN_false GC_WG_IN_SHARED
#define GC_WG_IN_true GC_WG_IN_REGISTERS
#define GC_WG_IN(ARegisters) GC_WG_IN_##ARegisters

#define GC_WGMMA_WIDE_VARIANT(Name, Ptx, Acc, Regs, ARegisters, AText, IB, IS, Imm)                   \
  struct Name {                                                                                    \
    static constexpr const char* kName = #Name;                                                    \
    static constexpr Fragments kFragments = Fragments::kWarpgroup;                                 \
    static constexpr bool kARegisters = ARegisters;                                                \
    static constexpr bool kNeedsSm90a = true;                                                      \
    static constexpr int kMinArch = 900;                                                           \
    GC_EXEC_WG_WIDE_##Acc(Ptx, Regs, AText, IB, IS, Imm, GC_WG_IN(ARegisters))                     \
  };                                                                                               \
  const bool Name##_registered =                                                                   \
      register_mma_variant(#Name, Ptx, numeric_probe_id(#Name), 90, true, &run_mma<Name>,           \
                           &mma_has_code<Name>, fragment_counts<Name>(), &fragment_position<Name>) && \
      register_mma_probe(#Name, kNeedsSm90a, &measure_checked_probe<Name>, false);

GC_WGMMA_WIDE_TABLE(GC_WGMMA_WIDE_VARIANT)

}  // namespace
}  // namespace gpuconform::kernels
