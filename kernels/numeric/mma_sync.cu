// SPDX-License-Identifier: Apache-2.0
// mma.sync variants: one table row each. A row names the variant (its vector-file name,
// from which mma_kernel.cuh parses shape and element widths), the PTX it issues, the
// register signature of that PTX, the compute capability it needs and whether it is also
// a numeric probe (numeric.mma_sync.<shape>.<D>.<A/B>, compared bit for bit with the
// reference model the expectation names). The generic kernel does the rest.
#include "common/ptx_features.cuh"
#include "numeric/mma_kernel.cuh"
#include "numeric/mma_probes.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::kernels {
namespace {

using namespace mma;

// exec() bodies by register signature. D holds C on entry and is both the C and the D
// operand, so one asm covers D = A*B + C. 32-bit registers travel as "r"; f32 and f64
// values as "f" and "d", the constraint the PTX type asks for.
#define GC_EXEC_SYNC_F32(Ptx)                                                                   \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    float d[4] = {__uint_as_float(r.d[0]), __uint_as_float(r.d[1]), __uint_as_float(r.d[2]),     \
                  __uint_as_float(r.d[3])};                                                     \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                    \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                               \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1])); \
    for (int i = 0; i < 4; ++i) r.d[i] = __float_as_uint(d[i]);                                \
  }

#define GC_EXEC_SYNC_S32(Ptx)                                                                   \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                    \
                 : "+r"(r.d[0]), "+r"(r.d[1]), "+r"(r.d[2]), "+r"(r.d[3])                       \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1])); \
  }

#define GC_EXEC_SYNC_F16(Ptx)                                                                   \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(Ptx " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"                                \
                 : "+r"(r.d[0]), "+r"(r.d[1])                                                   \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.a[2]), "r"(r.a[3]), "r"(r.b[0]), "r"(r.b[1])); \
  }

#define GC_EXEC_SYNC_F64(Ptx)                                                                   \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    double d0 = __longlong_as_double(static_cast<long long>(r.d[0]));                           \
    double d1 = __longlong_as_double(static_cast<long long>(r.d[1]));                           \
    asm volatile(Ptx " {%0,%1}, {%2}, {%3}, {%0,%1};"                                            \
                 : "+d"(d0), "+d"(d1)                                                           \
                 : "d"(__longlong_as_double(static_cast<long long>(r.a[0]))),                   \
                   "d"(__longlong_as_double(static_cast<long long>(r.b[0]))));                  \
    r.d[0] = static_cast<std::uint64_t>(__double_as_longlong(d0));                              \
    r.d[1] = static_cast<std::uint64_t>(__double_as_longlong(d1));                              \
  }

// The shorter shapes: A in two registers, B in one (m16n8k8 f16/bf16, m16n8k4 tf32,
// m16n8k16 8-bit integers).
#define GC_EXEC_SYNC_F32_A2(Ptx)                                                                \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    float d[4] = {__uint_as_float(r.d[0]), __uint_as_float(r.d[1]), __uint_as_float(r.d[2]),     \
                  __uint_as_float(r.d[3])};                                                     \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"                              \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                               \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.b[0]));                                      \
    for (int i = 0; i < 4; ++i) r.d[i] = __float_as_uint(d[i]);                                \
  }

#define GC_EXEC_SYNC_S32_A2(Ptx)                                                                \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"                              \
                 : "+r"(r.d[0]), "+r"(r.d[1]), "+r"(r.d[2]), "+r"(r.d[3])                       \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.b[0]));                                      \
  }

#define GC_EXEC_SYNC_F16_A2(Ptx)                                                                \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(Ptx " {%0,%1}, {%2,%3}, {%4}, {%0,%1};"                                          \
                 : "+r"(r.d[0]), "+r"(r.d[1])                                                   \
                 : "r"(r.a[0]), "r"(r.a[1]), "r"(r.b[0]));                                      \
  }

// mma.sync m8n8k32 s4/u4 and m8n8k128 b1: A and B in one register each, two s32 D.
#define GC_EXEC_SYNC_S32_M8N8(Ptx)                                                              \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    asm volatile(Ptx " {%0,%1}, {%2}, {%3}, {%0,%1};"                                            \
                 : "+r"(r.d[0]), "+r"(r.d[1])                                                   \
                 : "r"(r.a[0]), "r"(r.b[0]));                                                   \
  }

// sm_90 DMMA m16n8k{4,8,16}: four f64 D registers; A in K/2, B in K/4 f64 registers.
#define GC_F64_D(i) __longlong_as_double(static_cast<long long>(r.d[i]))
#define GC_F64_A(i) "d"(__longlong_as_double(static_cast<long long>(r.a[i])))
#define GC_F64_B(i) "d"(__longlong_as_double(static_cast<long long>(r.b[i])))
#define GC_EXEC_SYNC_F64_OPEN                                                                   \
  template <class F>                                                                            \
  __device__ static void exec(F& r) {                                                           \
    double d[4] = {GC_F64_D(0), GC_F64_D(1), GC_F64_D(2), GC_F64_D(3)};
#define GC_EXEC_SYNC_F64_CLOSE                                                                  \
  for (int i = 0; i < 4; ++i) r.d[i] = static_cast<std::uint64_t>(__double_as_longlong(d[i]));  \
  }
#define GC_F64_OUT "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])

#define GC_EXEC_SYNC_F64_K4(Ptx)                                                                \
  GC_EXEC_SYNC_F64_OPEN                                                                         \
  asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"                                \
               : GC_F64_OUT                                                                     \
               : GC_F64_A(0), GC_F64_A(1), GC_F64_B(0));                                        \
  GC_EXEC_SYNC_F64_CLOSE

#define GC_EXEC_SYNC_F64_K8(Ptx)                                                                \
  GC_EXEC_SYNC_F64_OPEN                                                                         \
  asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                       \
               : GC_F64_OUT                                                                     \
               : GC_F64_A(0), GC_F64_A(1), GC_F64_A(2), GC_F64_A(3), GC_F64_B(0), GC_F64_B(1));  \
  GC_EXEC_SYNC_F64_CLOSE

#define GC_EXEC_SYNC_F64_K16(Ptx)                                                               \
  GC_EXEC_SYNC_F64_OPEN                                                                         \
  asm volatile(Ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};" \
               : GC_F64_OUT                                                                     \
               : GC_F64_A(0), GC_F64_A(1), GC_F64_A(2), GC_F64_A(3), GC_F64_A(4), GC_F64_A(5),  \
                 GC_F64_A(6), GC_F64_A(7), GC_F64_B(0), GC_F64_B(1), GC_F64_B(2), GC_F64_B(3)); \
  GC_EXEC_SYNC_F64_CLOSE

// Name (the vector-file variant), PTX, exec signature, fragments, min compute capability,
// numeric probe (1) or golden vectors only (0: no block-FMA model exists for int8/fp64; the
// shorter shapes until their H100 golden files are committed: tools/device/numerics_batch.sh).
#define GC_MMA_SYNC_TABLE(X)                                                                                   \
  X(mma_m16n8k16_f32_f16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", F32, kSyncM16N8, 80, 1)          \
  X(mma_m16n8k16_f32_bf16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", F32, kSyncM16N8, 80, 1)       \
  X(mma_m16n8k16_f16_f16, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", F16, kSyncM16N8, 80, 1)          \
  X(mma_m16n8k8_f32_tf32, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", F32, kSyncM16N8, 80, 1)         \
  X(mma_m16n8k32_f32_e4m3, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", F32, kSyncM16N8, 89, 1)       \
  X(mma_m16n8k32_f32_e5m2, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", F32, kSyncM16N8, 89, 1)       \
  X(mma_m16n8k32_f16_e4m3, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16", F16, kSyncM16N8, 89, 1)       \
  X(mma_m16n8k32_f16_e5m2, "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16", F16, kSyncM16N8, 89, 1)       \
  X(mma_m16n8k32_s32_s8, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", S32, kSyncM16N8, 80, 0)             \
  X(mma_m16n8k32_s32_s8_satfinite, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", S32,            \
    kSyncM16N8, 80, 0)                                                                                          \
  X(mma_m8n8k4_f64_f64, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", F64, kSyncM8N8, 80, 0)             \
  X(mma_m16n8k8_f32_f16, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", F32_A2, kSyncM16N8, 80, 0)         \
  X(mma_m16n8k8_f32_bf16, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32", F32_A2, kSyncM16N8, 80, 0)      \
  X(mma_m16n8k8_f16_f16, "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16", F16_A2, kSyncM16N8, 80, 0)         \
  X(mma_m16n8k4_f32_tf32, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", F32_A2, kSyncM16N8, 80, 0)      \
  X(mma_m16n8k16_s32_s8, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", S32_A2, kSyncM16N8, 80, 0)          \
  X(mma_m16n8k32_s32_u8, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32", S32, kSyncM16N8, 80, 0)             \
  X(mma_m16n8k4_f64_f64, "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64", F64_K4, kSyncM16N8, 90, 0)         \
  X(mma_m16n8k8_f64_f64, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64", F64_K8, kSyncM16N8, 90, 0)         \
  X(mma_m16n8k16_f64_f64, "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64", F64_K16, kSyncM16N8, 90, 0)         \
  GC_MMA_SYNC_SUBBYTE_TABLE(X)

// Sub-byte integers: s4/u4 (8 to a register) and b1 (32 to a register, a popc of xor or and
// of A and B bits instead of products), golden vectors only like s8. On sm_90 ptxas may
// lower s4/u4 to other instructions (tools/device/subbyte_batch.sh records the SASS).
#define GC_MMA_SYNC_SUBBYTE_TABLE(X)                                                                            \
  X(mma_m8n8k32_s32_s4, "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32", S32_M8N8, kSyncM8N8, 80, 0)            \
  X(mma_m8n8k32_s32_u4, "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32", S32_M8N8, kSyncM8N8, 80, 0)            \
  X(mma_m16n8k32_s32_s4, "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32", S32_A2, kSyncM16N8, 80, 0)           \
  X(mma_m16n8k32_s32_u4, "mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32", S32_A2, kSyncM16N8, 80, 0)           \
  X(mma_m16n8k64_s32_s4, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", S32, kSyncM16N8, 80, 0)              \
  X(mma_m16n8k64_s32_u4, "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32", S32, kSyncM16N8, 80, 0)              \
  X(mma_m16n8k64_s32_s4_satfinite, "mma.sync.aligned.m16n8k64.row.col.satfinite.s32.s4.s4.s32", S32,            \
    kSyncM16N8, 80, 0)                                                                                          \
  X(mma_m8n8k128_s32_b1_xor, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc", S32_M8N8, kSyncM8N8,    \
    80, 0)                                                                                                      \
  X(mma_m8n8k128_s32_b1_and, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc", S32_M8N8, kSyncM8N8,    \
    80, 0)                                                                                                      \
  X(mma_m16n8k128_s32_b1_xor, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", S32_A2, kSyncM16N8,   \
    80, 0)                                                                                                      \
  X(mma_m16n8k128_s32_b1_and, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc", S32_A2, kSyncM16N8,   \
    80, 0)                                                                                                      \
  X(mma_m16n8k256_s32_b1_xor, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc", S32, kSyncM16N8, 80, \
    0)                                                                                                          \
  X(mma_m16n8k256_s32_b1_and, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", S32, kSyncM16N8, 80, \
    0)

// Name##Asm holds the asm; Name runs it only where this build's toolkit assembles it
// (common/ptx_features.cuh: CUDA 12.4 has no FP8 mma.sync with an f16 accumulator), else the
// probe is unsupported (build_gap) and the variant reports no code, so nothing launches the trap.
#define GC_MMA_SYNC_VARIANT(Name, Ptx, Exec, Frags, MinCc, Probe)                                          \
  struct Name##Asm {                                                                                       \
    GC_EXEC_SYNC_##Exec(Ptx)                                                                               \
  };                                                                                                       \
  struct Name {                                                                                            \
    static constexpr const char* kName = #Name;                                                            \
    static constexpr Fragments kFragments = Fragments::Frags;                                              \
    static constexpr bool kARegisters = true;                                                              \
    static constexpr bool kNeedsSm90a = false;                                                             \
    static constexpr int kMinArch = MinCc * 10;                                                            \
    GC_MMA_GUARDED_EXEC(Name, Ptx)                                                                         \
  };                                                                                                       \
  const bool Name##_registered =                                                                           \
      register_mma_variant(#Name, Ptx, numeric_probe_id(#Name), MinCc, false, &run_mma<Name>,              \
                           ptx_built(Ptx) ? &mma_has_code<Name> : &mma_not_built, fragment_counts<Name>(), \
                           &fragment_position<Name>) &&                                                    \
      register_mma_probe(#Name, Requirements{MinCc, 0, "", ptx_build_gap(Ptx)},                            \
                         Probe ? &measure_mma_probe<Name> : &measure_checked_probe<Name>, Probe);

GC_MMA_SYNC_TABLE(GC_MMA_SYNC_VARIANT)

}  // namespace
}  // namespace gpuconform::kernels
