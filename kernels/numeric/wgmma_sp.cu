// SPDX-License-Identifier: Apache-2.0
// wgmma.mma_async.sp (2:4 structured-sparse A, sm_90a) variants, `wgmmasp_<shape>_<D>_<A/B>
// [_areg]_sel<N>`: one table row each, the numeric probe numeric.wgmma_sp.<shape>.<D>.<A/B>...
// and golden vectors. The question the golden files answer: is sparse wgmma the dense wgmma
// model (the m64nNk(K/2) row) applied to each row's kept products, as mma.sp is the dense
// mma.sync model on them? `vectors check` weighs compressed:ID against dense:ID
// (sparse_mma.hpp), `vectors infer` names it as sparse_products, and the probes' entries
// hold it on the GPU.
//
// The kernel is mma_kernel.cuh's, unchanged in kind: the launcher compresses A (the vector
// file keeps it dense with its zeros and records the metadata it gives the hardware), A's
// shared-memory tile (or register fragment, _areg) is the dense k(K/2) one, B's the dense
// k(K) one (64-byte rows), and each warp of the warpgroup holds the metadata of its 16 rows
// as an mma.sp warp does (sparse_a.hpp; the generator's self-test tries the other readings
// of the figures if this one fails). Selectors as the PTX ISA allows them: 0 or 1 for 16-bit
// and tf32, 0 for 8-bit.
//
// m64n8 rows use the generic asm bodies of wgmma_exec.cuh; the m64n64 f16 row issues the very
// wrapper the wgmma.sp latency and throughput probes time (latency/wgmma_sp_ops.cuh), so the
// instruction they time is also the one checked bit for bit.
#include "latency/wgmma_sp_ops.cuh"
#include "numeric/mma_kernel.cuh"
#include "numeric/mma_probes.hpp"
#include "numeric/wgmma_exec.cuh"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::kernels {
namespace {

using namespace mma;

#define GC_WGSP(shape_types) "wgmma.mma_async.sp.sync.aligned." shape_types

// Name, PTX, accumulator kind (F32 or BITS: s32 and packed f16), accumulator registers a
// thread, A from registers, operand text (A, B descriptor, metadata, selector), scale-d's
// operand, immediates after scale-d (f16/bf16: scale-a, scale-b, trans-a (shared A only),
// trans-b; tf32/FP8: the two scales; integer: none), selector.
#define GC_WGMMA_SP_TABLE(X)                                                                                           \
  X(wgmmasp_m64n8k32_f32_f16_sel0, GC_WGSP("m64n8k32.f32.f16.f16"), F32, 4, false, "%4, %5, %6, 0", "7",               \
    ", 1, 1, 0, 0", 0)                                                                                                 \
  X(wgmmasp_m64n8k32_f32_f16_sel1, GC_WGSP("m64n8k32.f32.f16.f16"), F32, 4, false, "%4, %5, %6, 1", "7",               \
    ", 1, 1, 0, 0", 1)                                                                                                 \
  X(wgmmasp_m64n8k32_f32_f16_areg_sel0, GC_WGSP("m64n8k32.f32.f16.f16"), F32, 4, true, "{%4,%5,%6,%7}, %8, %9, 0",     \
    "10", ", 1, 1, 0", 0)                                                                                              \
  X(wgmmasp_m64n8k32_f16_f16_sel0, GC_WGSP("m64n8k32.f16.f16.f16"), BITS, 2, false, "%2, %3, %4, 0", "5",              \
    ", 1, 1, 0, 0", 0)                                                                                                 \
  X(wgmmasp_m64n8k32_f32_bf16_sel0, GC_WGSP("m64n8k32.f32.bf16.bf16"), F32, 4, false, "%4, %5, %6, 0", "7",            \
    ", 1, 1, 0, 0", 0)                                                                                                 \
  X(wgmmasp_m64n8k16_f32_tf32_sel0, GC_WGSP("m64n8k16.f32.tf32.tf32"), F32, 4, false, "%4, %5, %6, 0", "7", ", 1, 1",  \
    0)                                                                                                                 \
  X(wgmmasp_m64n8k64_f32_e4m3_sel0, GC_WGSP("m64n8k64.f32.e4m3.e4m3"), F32, 4, false, "%4, %5, %6, 0", "7", ", 1, 1",  \
    0)                                                                                                                 \
  X(wgmmasp_m64n8k64_f32_e5m2_sel0, GC_WGSP("m64n8k64.f32.e5m2.e5m2"), F32, 4, false, "%4, %5, %6, 0", "7", ", 1, 1",  \
    0)                                                                                                                 \
  X(wgmmasp_m64n8k64_f16_e4m3_sel0, GC_WGSP("m64n8k64.f16.e4m3.e4m3"), BITS, 2, false, "%2, %3, %4, 0", "5", ", 1, 1", \
    0)                                                                                                                 \
  X(wgmmasp_m64n8k64_s32_s8_sel0, GC_WGSP("m64n8k64.s32.s8.s8"), BITS, 4, false, "%4, %5, %6, 0", "7", "", 0)

const Requirements kSparseNeedsSm90a{90, 90, "sm_90a (wgmma)"};

#define GC_WGSP_IN_false GC_WG_IN_SP_SHARED
#define GC_WGSP_IN_true GC_WG_IN_SP_REGISTERS
#define GC_WGSP_IN(ARegisters) GC_WGSP_IN_##ARegisters

// Registration of one traits struct: the variant (sm_90a only) and its checked probe, which
// runs the survey's instances and checks them with `vectors check`'s model (the entry's
// `model`: compressed:ID or dense:ID).
#define GC_WGMMA_SP_REGISTER(Name)                                                                                    \
  const bool Name##_registered =                                                                                      \
      register_mma_variant(#Name, Name::kPtx, numeric_probe_id(#Name), 90, true, &run_mma<Name>, &mma_has_code<Name>, \
                           fragment_counts<Name>(), &fragment_position<Name>) &&                                      \
      register_mma_probe(#Name, kSparseNeedsSm90a, &measure_checked_probe<Name>, false);

#define GC_WGMMA_SP_VARIANT(Name, Ptx, Acc, Regs, ARegisters, Operands, IS, Imm, Sel) \
  struct Name {                                                                       \
    static constexpr const char* kName = #Name;                                       \
    static constexpr const char* kPtx = Ptx;                                          \
    static constexpr Fragments kFragments = Fragments::kWarpgroup;                    \
    static constexpr bool kARegisters = ARegisters;                                   \
    static constexpr bool kNeedsSm90a = true;                                         \
    static constexpr int kMinArch = 900;                                              \
    static constexpr int kSelector = Sel;                                             \
    GC_EXEC_WG_OPS_##Acc(Ptx, Regs, Operands, IS, Imm, GC_WGSP_IN(ARegisters))        \
  };                                                                                  \
  GC_WGMMA_SP_REGISTER(Name)

GC_WGMMA_SP_TABLE(GC_WGMMA_SP_VARIANT)

// m64n64k32.f32.f16 through the timing probes' wrapper (A and B by descriptor, selector 0).
// Separate asm statements: ptxas keeps the accumulators in place across them (the timing
// kernels rely on the same).
struct wgmmasp_m64n64k32_f32_f16_sel0 {
  static constexpr const char* kName = "wgmmasp_m64n64k32_f32_f16_sel0";
  static constexpr const char* kPtx = GC_WGSP("m64n64k32.f32.f16.f16");
  static constexpr Fragments kFragments = Fragments::kWarpgroup;
  static constexpr bool kARegisters = false;
  static constexpr bool kNeedsSm90a = true;
  static constexpr int kMinArch = 900;
  static constexpr int kSelector = 0;
  template <class F>
  __device__ static void exec(F& r) {
    float d[32];
    for (int i = 0; i < 32; ++i) d[i] = __uint_as_float(r.d[i]);
    wgmma_fence();
    wgmma_sp_step<64>(d, r.desc_a, r.desc_b, r.e);
    wgmma_commit_and_wait();
    for (int i = 0; i < 32; ++i) r.d[i] = __float_as_uint(d[i]);
  }
};
GC_WGMMA_SP_REGISTER(wgmmasp_m64n64k32_f32_f16_sel0)

}  // namespace
}  // namespace gpuconform::kernels
