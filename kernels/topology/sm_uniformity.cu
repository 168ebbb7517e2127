// SPDX-License-Identifier: Apache-2.0
// Per-SM uniformity: the same work measured on every SM separately, each SM judged
// against the board's own median (per_sm.hpp names the outliers). A whole-GPU test
// averages an 11% slow SM away; these do not.
//
// In-SM resources (FFMA, shared-memory bandwidth, L1 hit latency, mma.sync): one
// launch of one block per SM (per_sm_launch.cuh), every block timing its own work
// with clock64 between two __syncthreads, so the value is per SM clock and a board
// clock change moves every SM alike. The SMs run at once; none of these resources is
// shared between SMs. HBM bandwidth: one SM streams alone (the other blocks of the
// launch exit at once), SM after SM, timed with %globaltimer (memory does not run
// on the SM clock). L2 latency: topology/l2_latency_matrix.cu.
#include <cuda_fp16.h>
#include <fmt/format.h>

#include "gpuconform/device_buffer.hpp"
#include "gpuconform/per_sm.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/chase_plan.hpp"
#include "topology/per_sm_launch.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kThreads = 512;

// The one-block-per-SM reservation (dynamic shared memory), also the shared-memory
// kernel's buffer. One declaration for every kernel of this file.
extern __shared__ __align__(16) char reserve[];

struct PerSmOut {
  int* sm;             // per block
  long long* cycles;   // per block: clock64 of the timed region
  unsigned long long* ns;  // per block: %globaltimer of the timed region
};

__device__ __forceinline__ void stamp(const PerSmOut& out, long long c0, unsigned long long n0) {
  if (threadIdx.x == 0) {
    out.cycles[blockIdx.x] = clock64() - c0;
    out.ns[blockIdx.x] = per_sm::globaltimer() - n0;
    out.sm[blockIdx.x] = static_cast<int>(per_sm::smid());
  }
}

// 8 independent FFMA chains per thread.
__global__ void __launch_bounds__(kThreads) fma_kernel(const float* seed, int iters, float* sink, PerSmOut out) {
  float a[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) a[k] = seed[(threadIdx.x + k) % 64];
  const float b = seed[1], c = seed[2];
  __syncthreads();
  const long long c0 = clock64();
  const unsigned long long n0 = per_sm::globaltimer();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) a[k] = fmaf(a[k], b, c);
  }
  __syncthreads();
  stamp(out, c0, n0);
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) acc += a[k];
  reinterpret_cast<float*>(reserve)[threadIdx.x] = acc;
  sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// 16-byte shared-memory loads, conflict-free (consecutive threads, consecutive 16 B).
__global__ void __launch_bounds__(kThreads) shared_kernel(int iters, int words, unsigned* sink, PerSmOut out) {
  uint4* smem = reinterpret_cast<uint4*>(reserve);
  for (int i = threadIdx.x; i < words; i += blockDim.x) smem[i] = make_uint4(i, i * 3 + 1, i ^ 0x55, i + 7);
  __syncthreads();
  unsigned acc = 0;
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  const long long c0 = clock64();
  const unsigned long long n0 = per_sm::globaltimer();
  for (int i = 0; i < iters; ++i) {
    const unsigned at = base + 16u * ((threadIdx.x + static_cast<unsigned>(i) * blockDim.x) % words);
    unsigned x, y, z, w;
    asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(at));
    acc ^= x ^ y ^ z ^ w;
  }
  __syncthreads();
  stamp(out, c0, n0);
  sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Thread 0 chases its block's own nodes (one per 128-byte line) with ld.global.ca:
// one untimed lap brings them into L1, then `hops` timed hops.
__global__ void l1_chase_kernel(const unsigned long long* starts, int warm, int hops, unsigned long long* sink,
                                PerSmOut out) {
  if (threadIdx.x != 0) return;
  unsigned long long p = starts[blockIdx.x];
  for (int i = 0; i < warm; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
  const long long c0 = clock64();
  const unsigned long long n0 = per_sm::globaltimer();
#pragma unroll 8
  for (int i = 0; i < hops; ++i) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
  sink[blockIdx.x] = p;  // waits for the last load
  stamp(out, c0, n0);
  reserve[0] = static_cast<char>(p);
}

// mma.sync m16n8k16 f32.f16.f16.f32, 4 independent accumulators per warp.
__global__ void __launch_bounds__(kThreads) mma_kernel(const unsigned* seed, int iters, float* sink, PerSmOut out) {
#if __CUDA_ARCH__ >= 800
  const unsigned a0 = seed[threadIdx.x % 32], a1 = seed[(threadIdx.x + 1) % 32], a2 = seed[(threadIdx.x + 2) % 32],
                 a3 = seed[(threadIdx.x + 3) % 32], b0 = seed[(threadIdx.x + 4) % 32], b1 = seed[(threadIdx.x + 5) % 32];
  float d[4][4];
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int j = 0; j < 4; ++j) d[k][j] = 0.25f * (k + j + 1);
  __syncthreads();
  const long long c0 = clock64();
  const unsigned long long n0 = per_sm::globaltimer();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 4; ++k)
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%0,%1,%2,%3};"
          : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
  __syncthreads();
  stamp(out, c0, n0);
  float acc = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc += d[k][j];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  reserve[0] = 0;
#else
  __trap();
#endif
}

// The block on SM `target` streams `count` int4 through L2 (evict-first loads); the
// other blocks leave at once.
__global__ void __launch_bounds__(1024) stream_kernel(const int4* buf, unsigned long long count, int target, int4* sink,
                                                      PerSmOut out) {
  __shared__ bool mine;
  if (threadIdx.x == 0) mine = per_sm::smid() == static_cast<unsigned>(target);
  __syncthreads();
  if (!mine) return;
  int acc = 0;
  const long long c0 = clock64();
  const unsigned long long n0 = per_sm::globaltimer();
  for (unsigned long long i = threadIdx.x; i < count; i += 4ull * blockDim.x) {
    int4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const unsigned long long j = i + static_cast<unsigned long long>(u) * blockDim.x;
      v[u] = j < count ? __ldcs(buf + j) : make_int4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) acc ^= v[u].x ^ v[u].w;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    out.cycles[0] = clock64() - c0;
    out.ns[0] = per_sm::globaltimer() - n0;
    out.sm[0] = static_cast<int>(per_sm::smid());
  }
  if (acc == 0x5eed) sink->x = acc;  // practically never: keeps the loads
  reserve[0] = 0;
}

// Device buffers for one block per SM.
struct PerSmBuffers {
  DeviceBuffer<int> sm;
  DeviceBuffer<long long> cycles;
  DeviceBuffer<unsigned long long> ns;
  explicit PerSmBuffers(int blocks) : sm(blocks), cycles(blocks), ns(blocks) {}
  PerSmOut out() const { return {sm.get(), cycles.get(), ns.get()}; }
};

// Runs `launch` (one block per SM) `repeats` times; per SM the median of
// work / cycles. Throws when the blocks were not one per SM.
template <class Launch>
Series per_sm_rate(const ProbeContext& ctx, const Launch& launch, double work_per_block, const std::string& name,
                   const std::string& unit, bool per_cycle_inverse = false) {
  const int sms = ctx.device.sm_count;
  PerSmBuffers b(sms);
  std::vector<std::vector<double>> values(static_cast<std::size_t>(sms));
  launch(b.out());  // warm-up
  GC_CUDA_CHECK_LAUNCH();
  for (int r = 0; r < (ctx.quick ? 3 : 5); ++r) {
    launch(b.out());
    GC_CUDA_CHECK_LAUNCH();
    const auto sm = b.sm.download();
    const auto cycles = b.cycles.download();
    per_sm::require_one_block_per_sm(sm, sms);
    for (int i = 0; i < sms; ++i)
      values[sm[i]].push_back(per_cycle_inverse ? static_cast<double>(cycles[i]) / work_per_block
                                                : work_per_block / static_cast<double>(cycles[i]));
  }
  Series s{kPerSmSeries, "SM", "SM id", name, unit, {}, {}};
  for (int i = 0; i < sms; ++i) {
    s.x.push_back(i);
    s.y.push_back(median(values[i]));
  }
  return s;
}

Measurement finish(const ProbeContext& ctx, Series s, std::string method) {
  (void)ctx;
  Measurement m = per_sm_measurement(std::move(s));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", std::move(method));
  return m;
}

Measurement measure_fma(const ProbeContext& ctx) {
  const std::size_t smem = per_sm::one_block_smem(ctx.device);
  per_sm::reserve_smem(fma_kernel, smem, kThreads);
  const int iters = 4096;
  std::vector<float> host(64);
  for (int i = 0; i < 64; ++i) host[i] = 1.0f + 0.001f * (i + 1);
  DeviceBuffer<float> seed(host), sink(static_cast<std::size_t>(ctx.device.sm_count) * kThreads);
  const int sms = ctx.device.sm_count;
  auto launch = [&](PerSmOut out) { fma_kernel<<<sms, kThreads, smem>>>(seed.get(), iters, sink.get(), out); };
  Series s = per_sm_rate(ctx, launch, 2.0 * kThreads * iters * 8, "FFMA rate", "FLOP/clk");
  return finish(ctx, std::move(s),
                fmt::format("one block of {} threads per SM, 8 independent FFMA chains x {} steps per thread; "
                            "clock64 between two __syncthreads; median of 5 launches per SM", kThreads, iters));
}

Measurement measure_shared(const ProbeContext& ctx) {
  const std::size_t smem = per_sm::one_block_smem(ctx.device);
  per_sm::reserve_smem(shared_kernel, smem, kThreads);
  const int iters = 2048;
  const int words = static_cast<int>(smem / 16);
  DeviceBuffer<unsigned> sink(static_cast<std::size_t>(ctx.device.sm_count) * kThreads);
  const int sms = ctx.device.sm_count;
  auto launch = [&](PerSmOut out) { shared_kernel<<<sms, kThreads, smem>>>(iters, words, sink.get(), out); };
  Series s = per_sm_rate(ctx, launch, 16.0 * kThreads * iters, "shared-memory bandwidth", "B/clk");
  return finish(ctx, std::move(s),
                fmt::format("one block of {} threads per SM, {} conflict-free ld.shared.v4 per thread over {} B; "
                            "clock64 between two __syncthreads; median of 5 launches per SM", kThreads, iters, smem));
}

Measurement measure_l1(const ProbeContext& ctx) {
  const std::size_t smem = per_sm::one_block_smem(ctx.device);
  per_sm::reserve_smem(l1_chase_kernel, smem, 32);
  const int sms = ctx.device.sm_count;
  constexpr int kNodes = 64;  // 8 KiB per SM: far inside L1
  constexpr std::size_t kRegion = kNodes * 128;
  DeviceBuffer<unsigned long long> nodes(static_cast<std::size_t>(sms) * kRegion / 8);
  const auto next = chase::single_cycle(kNodes, 0x4c31756e69ull);
  const auto base = reinterpret_cast<unsigned long long>(nodes.get());
  std::vector<unsigned long long> host(nodes.size(), 0), starts(static_cast<std::size_t>(sms));
  for (int b = 0; b < sms; ++b) {
    const unsigned long long region = base + static_cast<unsigned long long>(b) * kRegion;
    for (int i = 0; i < kNodes; ++i) host[(b * kRegion + i * 128) / 8] = region + next[i] * 128ull;
    starts[b] = region;
  }
  nodes.upload(host);
  DeviceBuffer<unsigned long long> d_starts(starts), sink(sms);
  const int hops = 4096;
  auto launch = [&](PerSmOut out) { l1_chase_kernel<<<sms, 32, smem>>>(d_starts.get(), kNodes, hops, sink.get(), out); };
  Series s = per_sm_rate(ctx, launch, hops, "L1 hit latency", "cycles", true);
  return finish(ctx, std::move(s),
                fmt::format("one block per SM, thread 0 chases {} nodes (one per 128-byte line, its own 8 KiB) with "
                            "ld.global.ca: 1 untimed lap, {} timed hops; median of 5 launches per SM", kNodes, hops));
}

Measurement measure_mma(const ProbeContext& ctx) {
  const std::size_t smem = per_sm::one_block_smem(ctx.device);
  per_sm::reserve_smem(mma_kernel, smem, kThreads);
  const int iters = 1024;
  std::vector<unsigned> host(32);
  for (int i = 0; i < 32; ++i) {
    const unsigned short lo = __half_as_ushort(__float2half(0.5f + 0.01f * i));
    const unsigned short hi = __half_as_ushort(__float2half(0.75f - 0.005f * i));
    host[i] = lo | (static_cast<unsigned>(hi) << 16);
  }
  DeviceBuffer<unsigned> seed(host);
  DeviceBuffer<float> sink(static_cast<std::size_t>(ctx.device.sm_count) * kThreads);
  const int sms = ctx.device.sm_count;
  auto launch = [&](PerSmOut out) { mma_kernel<<<sms, kThreads, smem>>>(seed.get(), iters, sink.get(), out); };
  const double flop = 2.0 * 16 * 8 * 16 * 4 * iters * (kThreads / 32);
  Series s = per_sm_rate(ctx, launch, flop, "mma.sync f16 rate", "FLOP/clk");
  return finish(ctx, std::move(s),
                fmt::format("one block of {} warps per SM, 4 independent mma.sync.m16n8k16.f32.f16 accumulators x {} "
                            "steps per warp; clock64 between two __syncthreads; median of 5 launches per SM",
                            kThreads / 32, iters));
}

Measurement measure_hbm(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const std::size_t smem = per_sm::one_block_smem(dev);
  per_sm::reserve_smem(stream_kernel, smem, 1024);
  // Twice L2, so a stream never finds its lines left in L2 by the previous SM's.
  const std::size_t count = 2 * static_cast<std::size_t>(dev.l2_bytes) / sizeof(int4);
  DeviceBuffer<int4> buf(count), sink(1);
  GC_CUDA_CHECK(cudaMemset(buf.get(), 0x3C, buf.bytes()));
  PerSmBuffers b(1);
  Series s{kPerSmSeries, "SM", "SM id", "HBM read bandwidth of one SM alone", "B/s", {}, {}};
  const int repeats = ctx.quick ? 1 : 2;
  for (int target = 0; target < dev.sm_count; ++target) {
    std::vector<double> rates;
    for (int r = 0; r <= repeats; ++r) {  // r = 0 is a warm-up
      GC_CUDA_CHECK(cudaMemset(b.sm.get(), 0xFF, sizeof(int)));
      stream_kernel<<<dev.sm_count, 1024, smem>>>(buf.get(), count, target, sink.get(), b.out());
      GC_CUDA_CHECK_LAUNCH();
      const int sm = b.sm.download()[0];
      if (sm != target) throw std::runtime_error(fmt::format("no block of the launch ran on SM {}", target));
      if (r > 0) rates.push_back(static_cast<double>(count * sizeof(int4)) / (b.ns.download()[0] * 1e-9));
    }
    s.x.push_back(target);
    s.y.push_back(median(rates));
  }
  return finish(ctx, std::move(s),
                fmt::format("SM after SM, the one block on that SM streams {} MiB (2 x L2, __ldcs int4, 1024 "
                            "threads) while every other SM is idle; %globaltimer; median of {} launches per SM",
                            count * sizeof(int4) >> 20, repeats));
}

const Requirements kAny{70};

}  // namespace

const bool kRegistered = register_probes({
    Probe{"topology.uniformity.fma_rate",
          Family::topology,
          "each SM's FFMA rate (one block per SM, clock64), against the board's median",
          kAny,
          {ExpectationKind::band, 0, 0},
          &measure_fma},
    Probe{"topology.uniformity.shared_bandwidth",
          Family::topology,
          "each SM's shared-memory load bandwidth per clock, against the board's median",
          kAny,
          {ExpectationKind::band, 0, 0},
          &measure_shared},
    Probe{"topology.uniformity.l1_hit_latency",
          Family::topology,
          "each SM's L1 hit latency (pointer chase), against the board's median",
          kAny,
          {ExpectationKind::band, 0, 0},
          &measure_l1},
    Probe{"topology.uniformity.mma_rate",
          Family::topology,
          "each SM's mma.sync m16n8k16 f32.f16 rate, against the board's median",
          Requirements{80},
          {ExpectationKind::band, 0, 0},
          &measure_mma},
    Probe{"topology.uniformity.hbm_bandwidth",
          Family::topology,
          "each SM's HBM read bandwidth streaming alone, against the board's median",
          kAny,
          {ExpectationKind::band, 0, 0},
          &measure_hbm},
});

}  // namespace gpuconform::kernels
