// SPDX-License-Identifier: Apache-2.0
// wgmma (sm_90a) completion latency and issue interval per N, for
// m64nNk16.f32.f16.f16 with both operands in shared memory (SS); the method is
// wgmma_timing.cuh's. On an H100 the issue interval is the tensor-core
// throughput bound (perf-anchors: m64n256k16 128 cycles, m64n64k16 32 cycles).
// Operands: A 64x16 and B Nx16 f16, K-major, no swizzle (core matrices of
// 8 rows x 16 bytes, leading byte offset 128, stride byte offset 256).
// Device code exists only for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL); the probes
// require exactly compute capability 9.0 and skip elsewhere.
#include "gpuconform/probe.hpp"
#include "latency/wgmma_ops.cuh"
#include "latency/wgmma_timing.cuh"

namespace gpuconform::kernels {
namespace {

template <int N>
struct DenseWgmma {
  static constexpr int kN = N, kK = 16;
  static constexpr const char* kInstr = "wgmma";
  static constexpr int kAElems = 64 * 16, kBElems = 256 * 16;
  static constexpr unsigned long long kBStride = 256;
  __device__ static void step(float* d, unsigned long long da, unsigned long long db) { wgmma_step<N>(d, da, db); }
};

#define GC_WGMMA_PROBES(N)                                                                             \
  Probe{"latency.wgmma.m64n" #N "k16.f32.f16",                                                         \
        Family::latency,                                                                               \
        "wgmma.mma_async m64n" #N "k16.f32.f16.f16 (SS) completion latency: issue, commit, wait",      \
        kWgmmaSm90a,                                                                                   \
        {ExpectationKind::band, 0.25, 0.005},                                                          \
        &measure_wgmma_timing<DenseWgmma<N>, WgmmaTiming::latency>},                                   \
      Probe{"latency.wgmma.m64n" #N "k16.f32.f16.issue_interval",                                      \
            Family::latency,                                                                           \
            "steady-state cycles between back-to-back wgmma.mma_async m64n" #N "k16.f32.f16.f16 (SS)", \
            kWgmmaSm90a,                                                                               \
            {ExpectationKind::band, 0.25, 0.005},                                                      \
            &measure_wgmma_timing<DenseWgmma<N>, WgmmaTiming::issue_interval>},

}  // namespace

const bool kWgmmaRegistered = register_probes({GC_WGMMA_PROBES(8) GC_WGMMA_PROBES(16) GC_WGMMA_PROBES(32)
                                                   GC_WGMMA_PROBES(64) GC_WGMMA_PROBES(128) GC_WGMMA_PROBES(256)});

}  // namespace gpuconform::kernels
