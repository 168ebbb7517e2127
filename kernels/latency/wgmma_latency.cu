// wgmma (sm_90a) completion latency and issue interval per N, for
// m64nNk16.f32.f16.f16 with both operands in shared memory (SS).
//
// One warpgroup (128 threads, one warp per SM sub-partition) on one SM:
//   completion latency: each iteration issues one wgmma, commits and waits
//     for it (wgmma.fence; mma_async; commit_group; wait_group 0), so an
//     iteration lasts from issue to the accumulator being readable; the value
//     is cycles per iteration, fence and commit included (they issue in a few
//     cycles against tens of cycles of tensor-core work);
//   issue interval: K wgmmas into the same accumulator issued back to back,
//     then one commit and wait; (T_K - L) / (K - 1) with L the completion
//     latency removes the pipeline fill and drain and leaves the steady-state
//     cycles per wgmma, which on an H100 is the tensor-core throughput bound
//     (perf-anchors: m64n256k16 128 cycles, m64n64k16 32 cycles).
// Operands: A 64x16 and B Nx16 f16, K-major, no swizzle (core matrices of
// 8 rows x 16 bytes, leading byte offset 128, stride byte offset 256), filled
// with 0.75 and 0.5; D starts at 1 and accumulates (scale-d = 1). The
// generic-proxy stores that fill shared memory are made visible to the
// tensor cores' async proxy with fence.proxy.async before the first wgmma.
// Device code exists only for sm_90a (__CUDA_ARCH_FEAT_SM90_ALL); the probes
// require exactly compute capability 9.0 and skip elsewhere.
#include <fmt/format.h>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/dependent_chain.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kIters = 64;

#define GC_WGMMA_M64N8K16(d, da, db) \
  asm volatile("{.reg .pred p; setp.ne.b32 p, %6, 0; " \
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;}" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) \
               : "l"(da), "l"(db), "r"(1) : "memory")
#define GC_WGMMA_M64N16K16(d, da, db) \
  asm volatile("{.reg .pred p; setp.ne.b32 p, %10, 0; " \
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;}" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) \
               : "l"(da), "l"(db), "r"(1) : "memory")
#define GC_WGMMA_M64N32K16(d, da, db) \
  asm volatile("{.reg .pred p; setp.ne.b32 p, %18, 0; " \
               "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1, 0, 0;}" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]) \
               : "l"(da), "l"(db), "r"(1) : "memory")
#define GC_WGMMA_M64N64K16(d, da, db) \
  asm volatile("{.reg .pred p; setp.ne.b32 p, %34, 0; " \
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;}" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) \
               : "l"(da), "l"(db), "r"(1) : "memory")
#define GC_WGMMA_M64N128K16(d, da, db) \
  asm volatile("{.reg .pred p; setp.ne.b32 p, %66, 0; " \
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;}" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) \
               : "l"(da), "l"(db), "r"(1) : "memory")
#define GC_WGMMA_M64N256K16(d, da, db) \
  asm volatile("{.reg .pred p; setp.ne.b32 p, %130, 0; " \
               "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1, 0, 0;}" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127]) \
               : "l"(da), "l"(db), "r"(1) : "memory")

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GC_HAVE_WGMMA 1
#else
#define GC_HAVE_WGMMA 0
#endif

__device__ __forceinline__ unsigned long long smem_descriptor(const void* p) {
  const auto addr = static_cast<unsigned>(__cvta_generic_to_shared(p));
  constexpr unsigned long long kLbo = 128, kSbo = 256;  // bytes; layout type 0 (no swizzle)
  return ((addr >> 4) & 0x3FFFull) | (((kLbo >> 4) & 0x3FFFull) << 16) | (((kSbo >> 4) & 0x3FFFull) << 32);
}

template <int N>
__device__ __forceinline__ void wgmma_step(float* d, unsigned long long da, unsigned long long db) {
#if GC_HAVE_WGMMA
  if constexpr (N == 8) GC_WGMMA_M64N8K16(d, da, db);
  else if constexpr (N == 16) GC_WGMMA_M64N16K16(d, da, db);
  else if constexpr (N == 32) GC_WGMMA_M64N32K16(d, da, db);
  else if constexpr (N == 64) GC_WGMMA_M64N64K16(d, da, db);
  else if constexpr (N == 128) GC_WGMMA_M64N128K16(d, da, db);
  else GC_WGMMA_M64N256K16(d, da, db);
#endif
}

__device__ __forceinline__ void wgmma_fence() {
#if GC_HAVE_WGMMA
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit_and_wait() {
#if GC_HAVE_WGMMA
  asm volatile("wgmma.commit_group.sync.aligned; wgmma.wait_group.sync.aligned 0;" ::: "memory");
#endif
}

// out[0] = cycles of kIters issue-commit-wait iterations, out[1] = cycles of
// kIters back-to-back wgmmas plus one commit-wait.
template <int N>
__global__ void __launch_bounds__(128) wgmma_latency_kernel(long long* out, float* sink) {
#if GC_HAVE_WGMMA
  __shared__ alignas(128) unsigned short a_s[64 * 16];
  __shared__ alignas(128) unsigned short b_s[256 * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) a_s[i] = 0x3A00;   // 0.75
  for (int i = threadIdx.x; i < 256 * 16; i += blockDim.x) b_s[i] = 0x3800;  // 0.5
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const unsigned long long da = smem_descriptor(a_s), db = smem_descriptor(b_s);
  float d[N / 2];
#pragma unroll
  for (int i = 0; i < N / 2; ++i) d[i] = 1.0f;
  wgmma_fence();  // warm-up: one complete wgmma
  wgmma_step<N>(d, da, db);
  wgmma_commit_and_wait();
  const long long t0 = gc_clock64();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) {
    wgmma_fence();
    wgmma_step<N>(d, da, db);
    wgmma_commit_and_wait();
  }
  const long long t1 = gc_clock64();
  wgmma_fence();
#pragma unroll 1
  for (int i = 0; i < kIters; ++i) wgmma_step<N>(d, da, db);
  wgmma_commit_and_wait();
  const long long t2 = gc_clock64();
  if (threadIdx.x == 0) {
    out[0] = t1 - t0;
    out[1] = t2 - t1;
  }
  float acc = 0;
#pragma unroll
  for (int i = 0; i < N / 2; ++i) acc += d[i];
  sink[threadIdx.x] = acc;
#else
  __trap();
#endif
}

enum class What { latency, issue_interval };

template <int N, What W>
Measurement measure_wgmma(const ProbeContext& ctx) {
  DeviceBuffer<long long> out(2);
  DeviceBuffer<float> sink(128);
  auto launch = [&] {
    wgmma_latency_kernel<N><<<1, 128>>>(out.get(), sink.get());
    GC_CUDA_CHECK_LAUNCH();
    return out.download();
  };
  launch();
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 3 : 9); ++r) {
    const auto c = launch();
    const double latency = static_cast<double>(c[0]) / kIters;
    m.samples.push_back(W == What::latency ? latency : (static_cast<double>(c[1]) - latency) / (kIters - 1));
  }
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", W == What::latency
                       ? fmt::format("fence + wgmma m64n{}k16 + commit + wait 0, {} iterations, one warpgroup", N, kIters)
                       : fmt::format("{} back-to-back wgmma m64n{}k16 into one accumulator: (T - latency) / {}",
                                     kIters, N, kIters - 1));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&wgmma_latency_kernel<N>), ctx.device.arch()));
  return m;
}

const Requirements kSm90a{90, 90, "sm_90a (wgmma)"};

#define GC_WGMMA_PROBES(N)                                                                                      \
  Probe{"latency.wgmma.m64n" #N "k16.f32.f16", Family::latency,                                                \
        "wgmma.mma_async m64n" #N "k16.f32.f16.f16 (SS) completion latency: issue, commit, wait", kSm90a,      \
        {ExpectationKind::band, 0.25, 0.005}, &measure_wgmma<N, What::latency>},                               \
  Probe{"latency.wgmma.m64n" #N "k16.f32.f16.issue_interval", Family::latency,                                 \
        "steady-state cycles between back-to-back wgmma.mma_async m64n" #N "k16.f32.f16.f16 (SS)", kSm90a,     \
        {ExpectationKind::band, 0.25, 0.005}, &measure_wgmma<N, What::issue_interval>},

}  // namespace

const bool kWgmmaRegistered = register_probes({GC_WGMMA_PROBES(8) GC_WGMMA_PROBES(16) GC_WGMMA_PROBES(32)
                                                   GC_WGMMA_PROBES(64) GC_WGMMA_PROBES(128) GC_WGMMA_PROBES(256)});

}  // namespace gpuconform::kernels
