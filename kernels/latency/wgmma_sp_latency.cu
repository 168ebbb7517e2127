// SPDX-License-Identifier: Apache-2.0
// Sparse wgmma (wgmma.mma_async.sp, sm_90a) completion latency and issue
// interval, m64nNk32.f32.f16.f16 with A (2:4 structured-sparse, stored as
// 64 x 16) and B (32 x N) in shared memory (issue 23, item 3: the timing half;
// the bit-exact numerics are a separate task), by the method of the dense
// probes (wgmma_timing.cuh): the issue interval is the steady-state cycles per
// instruction (the tensor-core rate: a dense m64nNk16 does half the MACs).
// Operands: no-swizzle K-major layouts (core matrices of 8 rows x 16 bytes;
// A: leading byte offset 128, stride 256; B, 32 deep: leading 128, stride
// 512), every element 0.75 (A) / 0.5 (B); metadata 0x44444444 (each group of
// four keeps elements 0 and 1), sparsity selector 0. Timing does not depend on
// which positions are kept. Device code exists only for sm_90a.
#include "gpuconform/probe.hpp"
#include "latency/wgmma_ops.cuh"
#include "latency/wgmma_sp_ops.cuh"
#include "latency/wgmma_timing.cuh"

namespace gpuconform::kernels {
namespace {

template <int N>
struct SparseWgmma {
  static constexpr int kN = N, kK = 32;
  static constexpr const char* kInstr = "wgmma.sp";
  static constexpr int kAElems = 64 * 16, kBElems = 256 * 32;
  static constexpr unsigned long long kBStride = kWgmmaSpBStride;
  __device__ static void step(float* d, unsigned long long da, unsigned long long db) {
    wgmma_sp_step<N>(d, da, db, kWgmmaSpMeta);
  }
};

#define GC_WGMMA_SP_PROBES(N)                                                                                      \
  Probe{"latency.wgmma_sp.m64n" #N "k32.f32.f16",                                                                  \
        Family::latency,                                                                                           \
        "wgmma.mma_async.sp m64n" #N "k32.f32.f16.f16 (2:4 sparse A, SS) completion latency: issue, commit, wait", \
        kWgmmaSm90a,                                                                                               \
        {ExpectationKind::band, 0.25, 0.005},                                                                      \
        &measure_wgmma_timing<SparseWgmma<N>, WgmmaTiming::latency>},                                              \
      Probe{"latency.wgmma_sp.m64n" #N "k32.f32.f16.issue_interval",                                               \
            Family::latency,                                                                                       \
            "steady-state cycles between back-to-back wgmma.mma_async.sp m64n" #N "k32.f32.f16.f16",               \
            kWgmmaSm90a,                                                                                           \
            {ExpectationKind::band, 0.25, 0.005},                                                                  \
            &measure_wgmma_timing<SparseWgmma<N>, WgmmaTiming::issue_interval>},

const bool kRegistered = register_probes({GC_WGMMA_SP_PROBES(64) GC_WGMMA_SP_PROBES(256)});

}  // namespace
}  // namespace gpuconform::kernels
