// SPDX-License-Identifier: Apache-2.0
// Issue 23, item 4: a second method for each of the two values the suite and
// the seed authors' logs disagree on. One run on an H100/H200 decides; the
// batch script (new_probes_batch.sh) builds this file with nvcc, runs it and
// keeps its SASS (cuobjdump) beside the output.
//
// 1. DPX s32 latency: suite ~4 cycles (latency.alu.dpx.*: inline PTX that
//    ptxas fuses, one thread, (T(2N) - T(N)) / N), the authors' H800 log 8-10.
//    Hypotheses, each a column of the DPX table:
//      H1 the fused instruction really takes ~4 cycles: the CUDA intrinsic
//         (__viaddmax_s32 etc., not the suite's PTX) in the suite's chain gives
//         the same (column `chain_1w`);
//      H2 the authors' figure is issue-bound, not latency-bound: many warps per
//         scheduler each running a dependent chain; if DPX issues at half rate
//         per SMSP, 4+ warps per SMSP give 8+ cycles per step (columns
//         `chain_4w` ... `chain_32w`: warps per block, one block);
//      H3 the authors timed a non-unrolled loop (loop overhead on the chain,
//         column `loop_1w`) or one op between two clock reads (the clock pair
//         overhead, column `bracket_1w`: cycles of clock(); op; clock() minus an
//         empty clock pair);
//      H4 the guarded rows of the suite subtract a SEL that ptxas did not emit
//         (vimin3.s16x2's SASS shows IMAD.MOV, not SEL): the unguarded rows
//         (viaddmax/viaddmin) do not depend on it; the raw chain of a guarded
//         row is column `guarded_raw` (vimax3 with a run-time-true guard, no
//         subtraction).
//    The SASS of every kernel (cuobjdump of this binary) shows whether each
//    intrinsic became one DPX instruction (VIADDMNMX, VIMNMX3, VIMNMX.RELU).
// 2. DSMEM bandwidth cluster 2 -> 4: suite ratio 0.68 (throughput.dsmem.cluster4
//    / cluster2, total B/s), quoted 0.81-0.85. Same kernel as
//    kernels/throughput/dsmem_throughput.cu (ld.shared::cluster.v4, 256 threads,
//    64 KiB per CTA), swept over cluster size, peer choice and CTAs per SM:
//      H5 placement: clusters of 4 occupy fewer SMs (a GPC's SM count need not
//         be a multiple of 4, and the occupancy API may place fewer CTAs per
//         SM), so total B/s drops more than per-SM B/s (columns `sms_used`,
//         `ctas_per_sm`, `per_sm_GBps`);
//      H6 distance: in a cluster of 2 the peer (rank + 1) is usually the other
//         SM of the same TPC; in clusters of 4 rank + 1 is a TPC away for half
//         the CTAs (peer modes `next` = the suite's, `xor1` = rank ^ 1,
//         `half` = rank + size / 2, `self` = own memory through the cluster
//         window);
//      H7 the quoted figure is per SM or with one CTA per SM (rows with
//         `cta1`: shared memory padded so one CTA fits per SM).
// Output: one table per part on stdout and one JSON line per row in the file
// given as the first argument.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "cuda_check.cuh"

static FILE* g_json = nullptr;

__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}

// ---- DPX ------------------------------------------------------------------------

enum Op {
  ViaddmaxS32,
  ViaddminS32,
  ViaddmaxReluS32,
  ViaddmaxS16x2,
  Vimax3S32,
  Vimin3S32,
  VimaxReluS32,
  VibmaxS32,
  kOps
};
static const char* kOpName[kOps] = {"viaddmax.s32", "viaddmin.s32", "viaddmax.relu.s32", "viaddmax.s16x2",
                                    "vimax3.s32",   "vimin3.s32",   "vimax.relu.s32",    "vibmax.s32(pred used)"};

template <int O>
__device__ __forceinline__ int dpx(int x, int a, int b) {
  if constexpr (O == ViaddmaxS32)
    return __viaddmax_s32(x, a, b);
  else if constexpr (O == ViaddminS32)
    return __viaddmin_s32(x, a, b);
  else if constexpr (O == ViaddmaxReluS32)
    return __viaddmax_s32_relu(x, a, b);
  else if constexpr (O == ViaddmaxS16x2)
    return static_cast<int>(
        __viaddmax_s16x2(static_cast<unsigned>(x), static_cast<unsigned>(a), static_cast<unsigned>(b)));
  else if constexpr (O == Vimax3S32)
    return __vimax3_s32(x, a, b);
  else if constexpr (O == Vimin3S32)
    return __vimin3_s32(x, a, b);
  else if constexpr (O == VimaxReluS32)
    return __vimax_s32_relu(x, a);
  else {
    bool pred;
    const int m = __vibmax_s32(x, a, &pred);
    return pred ? m : m + b;  // the predicate is used, so the predicate-producing form is emitted
  }
}

template <int O, int N>
__device__ __forceinline__ int chain(int x, int a, int b) {
#pragma unroll
  for (int i = 0; i < N; ++i) x = dpx<O>(x, a, b);
  return x;
}

// Every warp runs the chain; warp 0 lane 0 reports T(N), T(2N) of the second pass.
template <int O>
__global__ void dpx_chain_kernel(const int* in, int* sink, long long* out) {
  constexpr int N = 128;
  int x = in[threadIdx.x % 32], a = in[32 + threadIdx.x % 32], b = in[64 + threadIdx.x % 32];
  long long ts = 0, tl = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    __syncthreads();
    const long long t0 = clk();
    x = chain<O, N>(x, a, b);
    const long long t1 = clk();
    x = chain<O, 2 * N>(x, a, b);
    const long long t2 = clk();
    ts = t1 - t0;
    tl = t2 - t1;
  }
  if (threadIdx.x == 0) {
    out[0] = ts;
    out[1] = tl;
  }
  sink[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A non-unrolled loop of n steps (the loop counter and branch on every step).
template <int O>
__global__ void dpx_loop_kernel(const int* in, int n, int* sink, long long* out) {
  int x = in[threadIdx.x % 32], a = in[32 + threadIdx.x % 32], b = in[64 + threadIdx.x % 32];
  long long dt = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    const long long t0 = clk();
#pragma unroll 1
    for (int i = 0; i < n; ++i) x = dpx<O>(x, a, b);
    dt = clk() - t0;
  }
  if (threadIdx.x == 0) out[0] = dt;
  sink[threadIdx.x] = x;
}

// One op between two clock reads, minus an empty clock pair: what a per-op
// clock bracket reports.
template <int O>
__global__ void dpx_bracket_kernel(const int* in, int* sink, long long* out) {
  int x = in[threadIdx.x % 32], a = in[32 + threadIdx.x % 32], b = in[64 + threadIdx.x % 32];
  long long empty = 0, one = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    long long t0 = clk();
    long long t1 = clk();
    empty = t1 - t0;
    t0 = clk();
    x = dpx<O>(x, a, b);
    asm volatile("" : "+r"(x));
    sink[threadIdx.x + 32] = x;  // the store waits for the result before the second read
    t1 = clk();
    one = t1 - t0;
  }
  if (threadIdx.x == 0) {
    out[0] = one;
    out[1] = empty;
  }
  sink[threadIdx.x] = x;
}

// The suite's guarded form of vimax3 (run-time-true predicate), raw: no glue subtracted.
__global__ void vimax3_guarded_kernel(const int* in, unsigned live, int* sink, long long* out) {
  constexpr int N = 128;
  int x = in[threadIdx.x % 32], a = in[32 + threadIdx.x % 32], b = in[64 + threadIdx.x % 32];
  long long ts = 0, tl = 0;
  auto step = [&](int v) {
    asm volatile("{.reg .pred p; setp.ne.b32 p, %3, 0; .reg .s32 t; max.s32 t, %0, %1; @p max.s32 %0, t, %2;}"
                 : "+r"(v)
                 : "r"(a), "r"(b), "r"(live));
    return v;
  };
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    const long long t0 = clk();
#pragma unroll
    for (int i = 0; i < N; ++i) x = step(x);
    const long long t1 = clk();
#pragma unroll
    for (int i = 0; i < 2 * N; ++i) x = step(x);
    const long long t2 = clk();
    ts = t1 - t0;
    tl = t2 - t1;
  }
  if (threadIdx.x == 0) {
    out[0] = ts;
    out[1] = tl;
  }
  sink[threadIdx.x] = x;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

template <int O>
static void dpx_row(const int* in, int* sink, long long* out) {
  std::vector<std::string> cols;
  std::string json = std::string("{\"part\":\"dpx\",\"op\":\"") + kOpName[O] + "\"";
  char buf[128];
  for (int warps : {1, 4, 8, 16, 32}) {
    std::vector<double> s;
    for (int r = 0; r < 7; ++r) {
      dpx_chain_kernel<O><<<1, 32 * warps>>>(in, sink, out);
      CHECK(cudaGetLastError());
      long long h[2];
      CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
      s.push_back(static_cast<double>(h[1] - h[0]) / 128);
    }
    std::snprintf(buf, sizeof buf, "%8.3f", median(s));
    cols.push_back(buf);
    std::snprintf(buf, sizeof buf, ",\"chain_%dw\":%.4f", warps, median(s));
    json += buf;
  }
  {
    std::vector<double> s;
    for (int r = 0; r < 7; ++r) {
      long long h[2];
      dpx_loop_kernel<O><<<1, 32>>>(in, 256, sink, out);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(h, out, sizeof(long long), cudaMemcpyDeviceToHost));
      const double c256 = static_cast<double>(h[0]);
      dpx_loop_kernel<O><<<1, 32>>>(in, 512, sink, out);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(h, out, sizeof(long long), cudaMemcpyDeviceToHost));
      s.push_back((static_cast<double>(h[0]) - c256) / 256);
    }
    std::snprintf(buf, sizeof buf, "%8.3f", median(s));
    cols.push_back(buf);
    std::snprintf(buf, sizeof buf, ",\"loop_1w\":%.4f", median(s));
    json += buf;
  }
  {
    std::vector<double> s, e;
    for (int r = 0; r < 7; ++r) {
      long long h[2];
      dpx_bracket_kernel<O><<<1, 32>>>(in, sink, out);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
      s.push_back(static_cast<double>(h[0]));
      e.push_back(static_cast<double>(h[1]));
    }
    std::snprintf(buf, sizeof buf, "%8.1f%8.1f", median(s), median(e));
    cols.push_back(buf);
    std::snprintf(buf, sizeof buf, ",\"bracket_1w\":%.1f,\"empty_bracket\":%.1f", median(s), median(e));
    json += buf;
  }
  std::printf("%-22s", kOpName[O]);
  for (const auto& c : cols) std::printf(" %s", c.c_str());
  std::printf("\n");
  if (g_json) std::fprintf(g_json, "%s}\n", json.c_str());
}

static void dpx_part() {
  int host[96];
  for (int i = 0; i < 32; ++i) {
    host[i] = 0x12345 + i;       // x
    host[32 + i] = 3 + (i & 1);  // a: x grows by a per step (add-then-max forms)
    host[64 + i] = -1000000;     // b: a floor below x
  }
  int *in, *sink;
  long long* out;
  CHECK(cudaMalloc(&in, sizeof host));
  CHECK(cudaMalloc(&sink, 2048 * sizeof(int)));
  CHECK(cudaMalloc(&out, 4 * sizeof(long long)));
  CHECK(cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice));
  std::printf("== DPX: cycles per step (intrinsics, chain through the first operand)\n");
  std::printf("(a row near 0 means ptxas folded an idempotent chain: see the SASS counts)\n");
  std::printf("%-22s %8s %8s %8s %8s %8s %8s %8s%8s\n", "op", "1 warp", "4 warps", "8 warps", "16 warps", "32 warps",
              "loop", "bracket", "empty");
  dpx_row<ViaddmaxS32>(in, sink, out);
  dpx_row<ViaddminS32>(in, sink, out);
  dpx_row<ViaddmaxReluS32>(in, sink, out);
  dpx_row<ViaddmaxS16x2>(in, sink, out);
  dpx_row<Vimax3S32>(in, sink, out);
  dpx_row<Vimin3S32>(in, sink, out);
  dpx_row<VimaxReluS32>(in, sink, out);
  dpx_row<VibmaxS32>(in, sink, out);
  std::vector<double> s;
  for (int r = 0; r < 7; ++r) {
    long long h[2];
    vimax3_guarded_kernel<<<1, 32>>>(in, 1u, sink, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    s.push_back(static_cast<double>(h[1] - h[0]) / 128);
  }
  std::printf("vimax3.s32 guarded, raw (no glue subtracted; the suite subtracts selp.b32): %.3f cycles\n", median(s));
  if (g_json)
    std::fprintf(g_json, "{\"part\":\"dpx\",\"op\":\"vimax3.s32 guarded raw\",\"chain_1w\":%.4f}\n", median(s));
  CHECK(cudaFree(in));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(out));
}

// ---- DSMEM ----------------------------------------------------------------------

constexpr int kThreads = 256, kSlots = 16, kWindow = 8;
enum Peer { Next, Xor1, Half, Self };
static const char* kPeerName[] = {"next", "xor1", "half", "self"};

__global__ void __launch_bounds__(kThreads) dsmem_read_kernel(int peer_mode, int trips, uint4* sink, unsigned* smids) {
  extern __shared__ uint4 smem[];
  const unsigned t = threadIdx.x;
  for (int s = 0; s < kSlots; ++s) smem[s * kThreads + t] = make_uint4(t + s, blockIdx.x, 3u * t, 7u);
  unsigned rank, size, sm;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(size));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (t == 0) smids[blockIdx.x] = sm;
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  unsigned target = rank;
  if (peer_mode == Next)
    target = (rank + 1) % size;
  else if (peer_mode == Xor1)
    target = (rank ^ 1u) % size;
  else if (peer_mode == Half)
    target = (rank + size / 2) % size;
  const unsigned local = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + t * 16u;
  unsigned remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"(target));
  constexpr unsigned slot_bytes = kThreads * 16u;
  uint4 acc = make_uint4(t, 1u, 2u, 3u);
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    const unsigned addr = remote + (static_cast<unsigned>(trip) & (kWindow - 1)) * slot_bytes;
    uint4 v[kWindow];
#pragma unroll
    for (int k = 0; k < kWindow; ++k)
      asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(v[k].x), "=r"(v[k].y), "=r"(v[k].z), "=r"(v[k].w)
                   : "r"(addr + k * slot_bytes));
#pragma unroll
    for (int k = 0; k < kWindow; ++k) {
      acc.x ^= v[k].x ^ v[k].y;
      acc.y ^= v[k].z ^ v[k].w;
    }
  }
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::: "memory");
  sink[blockIdx.x * static_cast<size_t>(kThreads) + t] = acc;
}

struct DsmemResult {
  double bw = 0, per_sm = 0, per_cta = 0;
};

static DsmemResult dsmem_row(int cluster, int peer, bool one_cta_per_sm, int sm_count, size_t optin) {
  size_t smem = static_cast<size_t>(kSlots) * kThreads * sizeof(uint4);  // 64 KiB, the probe's
  if (one_cta_per_sm) smem = std::max(smem, optin / 2 + 1024);           // two no longer fit
  if (smem > optin) smem = optin;
  CHECK(cudaFuncSetAttribute(dsmem_read_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  if (cluster > 8) CHECK(cudaFuncSetAttribute(dsmem_read_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = cluster;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg{};
  cfg.blockDim = dim3(kThreads);
  cfg.dynamicSmemBytes = smem;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  cfg.gridDim = dim3(cluster);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, dsmem_read_kernel, &cfg) != cudaSuccess || clusters < 1) {
    cudaGetLastError();
    std::printf("cluster %2d %-5s %s: no cluster fits\n", cluster, kPeerName[peer], one_cta_per_sm ? "cta1" : "max ");
    return {};
  }
  const int grid = clusters * cluster;
  cfg.gridDim = dim3(grid);
  uint4* sink;
  unsigned* smids;
  CHECK(cudaMalloc(&sink, static_cast<size_t>(grid) * kThreads * sizeof(uint4)));
  CHECK(cudaMalloc(&smids, grid * sizeof(unsigned)));
  auto run = [&](int trips) {
    CHECK(cudaLaunchKernelEx(&cfg, dsmem_read_kernel, peer, trips, sink, smids));
    CHECK(cudaGetLastError());
  };
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  int trips = 64;
  float ms = 0;
  for (;;) {  // a launch of >= 5 ms
    CHECK(cudaEventRecord(e0));
    run(trips);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (ms >= 5 || trips >= (1 << 24)) break;
    trips *= 2;
  }
  std::vector<double> rates;
  for (int r = 0; r < 15; ++r) {
    CHECK(cudaEventRecord(e0));
    run(trips);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    rates.push_back(static_cast<double>(grid) * kThreads * trips * kWindow * 16.0 / (ms * 1e-3));
  }
  std::vector<unsigned> h(grid);
  CHECK(cudaMemcpy(h.data(), smids, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));
  const std::set<unsigned> used(h.begin(), h.end());
  // CTAs whose peer (by the mode) sits on the other SM of the same TPC (SM ids 2k, 2k + 1).
  int same_tpc = 0;
  for (int b = 0; b < grid; ++b) {
    const int rank = b % cluster, base = b - rank;
    int target = rank;
    if (peer == Next)
      target = (rank + 1) % cluster;
    else if (peer == Xor1)
      target = (rank ^ 1) % cluster;
    else if (peer == Half)
      target = (rank + cluster / 2) % cluster;
    if (target != rank && (h[base + target] >> 1) == (h[b] >> 1)) ++same_tpc;
  }
  const double bw = median(rates);
  std::printf(
      "cluster %2d %-5s %s  clusters %3d  CTAs %3d  SMs used %3zu of %3d  CTAs/SM %.2f  peer in same TPC %3d  "
      "total %8.1f GB/s  per SM %6.2f GB/s  per CTA %6.2f GB/s\n",
      cluster, kPeerName[peer], one_cta_per_sm ? "cta1" : "max ", clusters, grid, used.size(), sm_count,
      static_cast<double>(grid) / used.size(), same_tpc, bw / 1e9, bw / 1e9 / used.size(), bw / 1e9 / grid);
  if (g_json)
    std::fprintf(g_json,
                 "{\"part\":\"dsmem\",\"cluster\":%d,\"peer\":\"%s\",\"ctas\":\"%s\",\"clusters\":%d,\"grid\":%d,"
                 "\"sms_used\":%zu,\"sm_count\":%d,\"same_tpc_peers\":%d,\"smem\":%zu,\"trips\":%d,\"Bps\":%.6e,"
                 "\"per_sm_Bps\":%.6e,\"per_cta_Bps\":%.6e}\n",
                 cluster, kPeerName[peer], one_cta_per_sm ? "cta1" : "max", clusters, grid, used.size(), sm_count,
                 same_tpc, smem, trips, bw, bw / used.size(), bw / grid);
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  CHECK(cudaFree(sink));
  CHECK(cudaFree(smids));
  return {bw, bw / used.size(), bw / grid};
}

static void dsmem_part() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("== DSMEM read bandwidth (ld.shared::cluster.v4, %d threads/CTA): %s, %d SMs\n", kThreads, prop.name,
              prop.multiProcessorCount);
  DsmemResult r[2][9][4] = {};
  for (bool cta1 : {false, true})
    for (int cluster : {2, 4, 8})
      for (int peer : {Next, Xor1, Half, Self}) {
        if (cluster == 2 && peer == Half) continue;  // = next for 2
        r[cta1][cluster][peer] = dsmem_row(cluster, peer, cta1, prop.multiProcessorCount, prop.sharedMemPerBlockOptin);
      }
  // The suite's ratio is cluster 4 / cluster 2, total B/s, peer next, the occupancy's CTAs per SM.
  std::printf("ratios cluster 4 / cluster 2 (the suite's: total, next, max = %.3f):\n",
              r[0][2][Next].bw > 0 ? r[0][4][Next].bw / r[0][2][Next].bw : 0.0);
  for (bool cta1 : {false, true})
    for (int peer : {Next, Xor1, Self}) {
      const DsmemResult &a = r[cta1][2][peer], &b = r[cta1][4][peer];
      if (a.bw <= 0 || b.bw <= 0) continue;
      std::printf("  %-5s %s  total %.3f  per SM %.3f  per CTA %.3f   (cluster 4 xor1 / cluster 2 next, total: %.3f)\n",
                  kPeerName[peer], cta1 ? "cta1" : "max ", b.bw / a.bw, b.per_sm / a.per_sm, b.per_cta / a.per_cta,
                  r[cta1][2][Next].bw > 0 ? r[cta1][4][Xor1].bw / r[cta1][2][Next].bw : 0.0);
      if (g_json)
        std::fprintf(g_json,
                     "{\"part\":\"dsmem_ratio\",\"peer\":\"%s\",\"ctas\":\"%s\",\"total\":%.4f,\"per_sm\":%.4f,"
                     "\"per_cta\":%.4f}\n",
                     kPeerName[peer], cta1 ? "cta1" : "max", b.bw / a.bw, b.per_sm / a.per_sm, b.per_cta / a.per_cta);
    }
}

int main(int argc, char** argv) {
  if (argc > 1) g_json = std::fopen(argv[1], "w");
  int cc_major = 0;
  CHECK(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, 0));
  if (cc_major < 9) {
    std::printf("needs sm_90 (DPX, clusters)\n");
    return 77;
  }
  const std::string what = argc > 2 ? argv[2] : "all";
  if (what == "all" || what == "dpx") dpx_part();
  if (what == "all" || what == "dsmem") dsmem_part();
  if (g_json) std::fclose(g_json);
  return 0;
}
