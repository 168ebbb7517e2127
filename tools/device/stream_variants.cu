// SPDX-License-Identifier: Apache-2.0
// Which shape of streaming kernel gets closest to the limit on this GPU? An
// investigation tool, not a probe (issue 18): it measures the alternatives for
// kernels/throughput/stream_throughput.cu, whose shapes are switched in one
// place there (HbmShape, L2Shape). Standalone; on the GPU node:
//
//   nvcc -O3 -std=c++17 -arch=sm_90a -I kernels -o /tmp/sv tools/device/stream_variants.cu && /tmp/sv
//
// (about 30 s on an H100; needs 12 GiB of device memory). The accesses are
// the probes' own (kernels/throughput/stream_access.cuh); the flat and
// resident kernels have the suite's shapes, plus the older grid-stride kernel
// for comparison. Every row is one machine-parsable line:
//
//   variant=<name> mem=hbm|l2 pattern=read|write|copy|triad shape=flat|resident|stride width=B per_thread=N
//   passes=P ld=OP st=OP threads=T blocks=B regs=R array_mib=M bytes=<per launch> ms_best= ms_median=
//   gbs_best= gbs_median= frac_best= frac_median=      (hbm: fraction of 2 x memory clock x bus bytes)
//   gbs_best= gbs_median= tbs_best= tbs_median=        (l2: no public peak)
//
// best and median of 7 event-timed launches after untimed ones (device memory
// is streamed for 300 ms before the first row; each row runs >= 10 ms untimed).
// Bytes = every byte read plus every byte written (triad: 2 arrays read + 1
// written), as the suite and STREAM count them.
//
// Sections (grep the variant prefix):
//   hbm.*.flat.*       flat grid (one block per 1024 x per_thread elements and pass, no loop):
//                      8 B vs 16 B per thread x 1 vs 8 passes per launch x loads default (LDG.E) vs .cs
//                      (LDG.E.EF) x stores default (STG.E) vs .wb (STG.E.STRONG.SM) vs .cs (STG.E.EF),
//                      4 GiB arrays, two rounds (r1, r2) to show the spread
//   hbm.*.flat4.*      flat, 4 x 16 B per thread (the H200's 0.966 bulk-load shape, limits.md)
//   hbm.*.size*        flat 16 B, .cs loads, default stores, arrays of 1, 2, 4 GiB, passes for >= 5 ms
//                      at the peak: the suite's shape and launch rule (size4096m = the suite's probe)
//   hbm.*.stride.*     today's suite kernel: resident 1024 x 2 per SM, 4 x 16 B in flight, grid-stride,
//                      .cs/.wb, 1 pass (today) and 8; hbm.read.stride512: the retired hbm_read.cu shape
//   l2.read.res*       resident grid (1024 and 512 threads per block, blocks per SM from occupancy),
//                      4/8/16 B .cg loads x 4/8 in flight, footprint L2/4 and L2/8, launches >= 5 ms
//                      (ptxas keeps only ~4-5 of 8 x 16 B loads in flight: it consumes early to stay at
//                      32 registers; 4 and 8 B keep all 8 in flight)
//   l2.read.flat*      flat grid over the footprint, 8 loads per thread (gpu-l2-cache's shape)
//   l2.write.res*      resident, .cg stores, 4/8/16 B x 8 (and 16 B x 4) in flight, L2/4
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.cuh"

#include "throughput/stream_access.cuh"  // the probes' own accesses (build with -I kernels)

using namespace gpuconform::stream;
constexpr int kThreads = 1024;  // flat and resident shapes (as the suite)
const char* kPatternName[] = {"read", "write", "copy", "triad"};
const char* kLdName[] = {"def", "ca", "cg", "cs", "lu", "cv"};  // Ld's order
const char* kStName[] = {"def", "wb", "cg", "cs", "wt"};        // St's order

// Flat grid: stream_flat of stream_access.cuh, the probes' own kernel.

// Resident grid (as the suite's): a ring of chunks of B x U elements, block i
// takes chunks i, i + G, ... (G = blocks) modulo `chunks`, one per step.
template <Pattern P, Ld L, St S, int W, int U, int B>
__global__ void __launch_bounds__(B) stream_resident(const Vec<W>* a, const Vec<W>* b, Vec<W>* c, unsigned chunks,
                                                     unsigned groups, float scale, unsigned sink_key, float* sink) {
  const unsigned step = gridDim.x % chunks;
  unsigned k = blockIdx.x % chunks;
  float base = 1.0f + static_cast<float>(threadIdx.x);
  float acc = 0;
#pragma unroll 1
  for (unsigned g = 0; g < groups; ++g) {
    const size_t first = static_cast<size_t>(k) * (B * U) + threadIdx.x;
    size_t at[U];
#pragma unroll
    for (int u = 0; u < U; ++u) at[u] = first + static_cast<size_t>(u) * B;
    stream_step<P, L, S, U>(a, b, c, at, scale, base, acc);
    k += step;
    if (k >= chunks) k -= chunks;
    base += scale;
  }
  if (P == Pattern::read && __float_as_uint(acc) == sink_key) *sink = acc;
}

// Today's suite kernel (before issue 18): resident blocks, grid-stride, 4
// predicated 16-byte accesses in flight per thread, `passes` sweeps.
template <Pattern P, Ld L, St S>
__global__ void __launch_bounds__(1024) stream_stride(const float4* a, const float4* b, float4* c, size_t count,
                                                      int passes, float scale, unsigned sink_key, float* sink) {
  constexpr int U = 4;
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t first = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int pass = 0; pass < passes; ++pass) {
    const float base = 1.0f + static_cast<float>(first & 1023) + scale * static_cast<float>(pass);
    const float4 fill = make_float4(base, base + 0.25f, base + 0.5f, base + 0.75f);
    for (size_t i = first; i < count; i += U * stride) {
      bool in[U];
#pragma unroll
      for (int u = 0; u < U; ++u) in[u] = i + u * stride < count;
      float4 x[U], y[U];
      if constexpr (P != Pattern::write) {
#pragma unroll
        for (int u = 0; u < U; ++u)
          if (in[u]) LdOp<L>::ld(x[u], a + i + u * stride);
      }
      if constexpr (P == Pattern::triad) {
#pragma unroll
        for (int u = 0; u < U; ++u)
          if (in[u]) LdOp<L>::ld(y[u], b + i + u * stride);
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if (!in[u]) continue;
        if constexpr (P == Pattern::read) acc += vsum(x[u]);
        else if constexpr (P == Pattern::write) StOp<S>::st(c + i + u * stride, fill);
        else if constexpr (P == Pattern::copy) StOp<S>::st(c + i + u * stride, x[u]);
        else StOp<S>::st(c + i + u * stride, vtriad(x[u], scale, y[u]));
      }
    }
  }
  if (P == Pattern::read && __float_as_uint(acc) == sink_key) *sink = acc;
}

__global__ void fill_kernel(uint64_t* w, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t x = i + seed + 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    w[i] = x | 0x0000000100000001ull;  // non-zero in both halves
  }
}

// ---- host ----
struct Env {
  int sms = 0;
  size_t l2 = 0;
  double peak_gbs = 0;
  void* a = nullptr;
  void* b = nullptr;
  void* c = nullptr;
  size_t array_bytes = 0;  // allocated per array
  float* sink = nullptr;
  cudaEvent_t e0{}, e1{};
};
Env env;
constexpr float kScale = 0.5f;
constexpr unsigned kKey = 0x7F7FFFFFu;

double time_once(const std::function<void()>& launch) {
  CHECK(cudaEventRecord(env.e0));
  launch();
  CHECK(cudaEventRecord(env.e1));
  CHECK(cudaEventSynchronize(env.e1));
  CHECK(cudaGetLastError());
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, env.e0, env.e1));
  return ms;
}

// Untimed launches for >= busy_ms (at least one), then 7 timed; returns sorted ms.
std::vector<double> time7(const std::function<void()>& launch, double busy_ms) {
  double spent = time_once(launch);
  while (spent < busy_ms) spent += time_once(launch);
  std::vector<double> ms;
  for (int r = 0; r < 7; ++r) ms.push_back(time_once(launch));
  std::sort(ms.begin(), ms.end());
  return ms;
}

struct Row {
  std::string variant, mem, shape;
  Pattern p = Pattern::read;
  int width = 16, per_thread = 1, threads = kThreads, blocks = 0, regs = 0;
  double passes = 1;
  const char* ld = "-";
  const char* st = "-";
  size_t array_bytes = 0;
  double bytes = 0;  // per launch
};

void print(const Row& r, const std::vector<double>& ms) {
  const double best = ms.front(), med = ms[ms.size() / 2];
  const double g_best = r.bytes / (best * 1e-3) / 1e9, g_med = r.bytes / (med * 1e-3) / 1e9;
  std::printf("variant=%s mem=%s pattern=%s shape=%s width=%d per_thread=%d passes=%.4g ld=%s st=%s threads=%d "
              "blocks=%d regs=%d array_mib=%zu bytes=%.0f ms_best=%.4f ms_median=%.4f gbs_best=%.1f gbs_median=%.1f",
              r.variant.c_str(), r.mem.c_str(), kPatternName[int(r.p)], r.shape.c_str(), r.width, r.per_thread,
              r.passes, r.ld, r.st, r.threads, r.blocks, r.regs, r.array_bytes >> 20, r.bytes, best, med, g_best,
              g_med);
  if (r.mem == "hbm") std::printf(" frac_best=%.4f frac_median=%.4f\n", g_best / env.peak_gbs, g_med / env.peak_gbs);
  else std::printf(" tbs_best=%.3f tbs_median=%.3f\n", g_best / 1e3, g_med / 1e3);
  std::fflush(stdout);
}

int regs_of(const void* f) {
  cudaFuncAttributes attr{};
  CHECK(cudaFuncGetAttributes(&attr, f));
  return attr.numRegs;
}
int arrays_read(Pattern p) { return p == Pattern::read || p == Pattern::copy ? 1 : p == Pattern::triad ? 2 : 0; }
int arrays_written(Pattern p) { return p == Pattern::read ? 0 : 1; }
template <int W> Vec<W>* A() { return static_cast<Vec<W>*>(env.a); }
template <int W> Vec<W>* B() { return static_cast<Vec<W>*>(env.b); }
template <int W> Vec<W>* C() { return static_cast<Vec<W>*>(env.c); }

// Flat grid over arrays of `bytes`, `passes` per launch (0: enough for 5 ms at the HBM peak).
template <Pattern P, Ld L, St S, int W, int U>
void flat(const std::string& variant, bool hbm, size_t bytes, int passes) {
  const size_t per_block = size_t(kThreads) * U;
  const size_t count = bytes / W / per_block * per_block;
  const int n = arrays_read(P) + arrays_written(P);
  const size_t blocks = count / per_block;
  auto run = [&](int ps) {
    stream_flat<P, L, S, W, U><<<dim3(unsigned(blocks), unsigned(ps)), kThreads>>>(A<W>(), B<W>(), C<W>(), kScale,
                                                                                   kKey, env.sink);
  };
  if (passes == 0 && hbm) passes = std::max(1, int(std::ceil(5e-3 * env.peak_gbs * 1e9 / (double(count) * W * n))));
  if (passes == 0) {  // L2: calibrate for >= 5 ms (grid.y caps the passes at 65535)
    run(1);
    int probe = 16;
    double t = time_once([&] { run(probe); });
    while (t < 1.0 && probe < 16384) {
      probe *= 4;
      t = time_once([&] { run(probe); });
    }
    passes = std::min(65535, std::max(1, int(std::ceil(probe * 5.0 / t * 1.05))));
  }
  Row r;
  r.variant = variant;
  r.mem = hbm ? "hbm" : "l2";
  r.shape = "flat";
  r.p = P;
  r.width = W;
  r.per_thread = U;
  r.passes = passes;
  r.ld = P == Pattern::write ? "-" : kLdName[int(L)];
  r.st = P == Pattern::read ? "-" : kStName[int(S)];
  r.blocks = int(blocks);
  r.regs = regs_of(reinterpret_cast<const void*>(&stream_flat<P, L, S, W, U>));
  r.array_bytes = count * W;
  r.bytes = double(count) * W * n * passes;
  print(r, time7([&] { run(passes); }, hbm ? 10 : 1));
}

// Resident grid over a footprint of `bytes` per array (whole chunks), launches >= 5 ms (calibrated).
template <Pattern P, Ld L, St S, int W, int U, int Threads>
void resident(const std::string& variant, bool hbm, size_t bytes) {
  const size_t chunk = size_t(Threads) * U;
  const size_t chunks = bytes / W / chunk;
  const size_t count = chunks * chunk;
  const int n = arrays_read(P) + arrays_written(P);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_resident<P, L, S, W, U, Threads>, Threads, 0));
  const int grid = std::max(1, per_sm) * env.sms;
  auto run = [&](unsigned groups) {
    stream_resident<P, L, S, W, U, Threads><<<grid, Threads>>>(A<W>(), B<W>(), C<W>(), unsigned(chunks), groups,
                                                               kScale, kKey, env.sink);
  };
  const unsigned one_pass = unsigned((chunks + grid - 1) / grid);
  run(one_pass);
  unsigned probe = one_pass;
  double t = time_once([&] { run(probe); });
  while (t < 1.0 && probe < (1u << 24)) {
    probe *= 4;
    t = time_once([&] { run(probe); });
  }
  const unsigned groups = unsigned(std::ceil(double(probe) * 5.0 / t * 1.05));
  Row r;
  r.variant = variant;
  r.mem = hbm ? "hbm" : "l2";
  r.shape = "resident";
  r.p = P;
  r.width = W;
  r.per_thread = U;
  r.threads = Threads;
  r.blocks = grid;
  r.passes = double(groups) * grid / double(chunks);
  r.ld = P == Pattern::write ? "-" : kLdName[int(L)];
  r.st = P == Pattern::read ? "-" : kStName[int(S)];
  r.regs = regs_of(reinterpret_cast<const void*>(&stream_resident<P, L, S, W, U, Threads>));
  r.array_bytes = count * W;
  r.bytes = double(groups) * grid * chunk * W * n;
  print(r, time7([&] { run(groups); }, hbm ? 10 : 1));
}

// Today's grid-stride kernel on arrays of `bytes`, `passes` sweeps per launch.
template <Pattern P, Ld L, St S>
void stride(const std::string& variant, size_t bytes, int passes, int threads) {
  const size_t count = bytes / 16;
  const int n = arrays_read(P) + arrays_written(P);
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_stride<P, L, S>, threads, 0));
  const int grid = std::max(1, per_sm) * env.sms;
  auto run = [&] {
    stream_stride<P, L, S><<<grid, threads>>>(A<16>(), B<16>(), C<16>(), count, passes, kScale, kKey, env.sink);
  };
  Row r;
  r.variant = variant;
  r.mem = "hbm";
  r.shape = "stride";
  r.p = P;
  r.width = 16;
  r.per_thread = 4;
  r.threads = threads;
  r.blocks = grid;
  r.passes = passes;
  r.ld = P == Pattern::write ? "-" : kLdName[int(L)];
  r.st = P == Pattern::read ? "-" : kStName[int(S)];
  r.regs = regs_of(reinterpret_cast<const void*>(&stream_stride<P, L, S>));
  r.array_bytes = count * 16;
  r.bytes = double(count) * 16 * n * passes;
  print(r, time7(run, 10));
}

std::string name(const char* mem, Pattern p, const char* shape, const std::string& rest) {
  return std::string(mem) + "." + kPatternName[int(p)] + "." + shape + "." + rest;
}

// The flat matrix of one pattern: width x passes x load op x store op.
template <Pattern P>
void flat_matrix(int round) {
  const std::string r = ".r" + std::to_string(round);
  auto one = [&](auto w_tag, int passes) {
    constexpr int W = decltype(w_tag)::value;
    const std::string base = "w" + std::to_string(W) + ".p" + std::to_string(passes);
    const size_t bytes = env.array_bytes;
    if constexpr (P == Pattern::read) {
      flat<P, Ld::def, St::def, W, 1>(name("hbm", P, "flat", base + ".ld_def" + r), true, bytes, passes);
      flat<P, Ld::cs, St::def, W, 1>(name("hbm", P, "flat", base + ".ld_cs" + r), true, bytes, passes);
    } else if constexpr (P == Pattern::write) {
      flat<P, Ld::cs, St::def, W, 1>(name("hbm", P, "flat", base + ".st_def" + r), true, bytes, passes);
      flat<P, Ld::cs, St::wb, W, 1>(name("hbm", P, "flat", base + ".st_wb" + r), true, bytes, passes);
      flat<P, Ld::cs, St::cs, W, 1>(name("hbm", P, "flat", base + ".st_cs" + r), true, bytes, passes);
    } else {
      flat<P, Ld::def, St::def, W, 1>(name("hbm", P, "flat", base + ".ld_def.st_def" + r), true, bytes, passes);
      flat<P, Ld::cs, St::def, W, 1>(name("hbm", P, "flat", base + ".ld_cs.st_def" + r), true, bytes, passes);
      flat<P, Ld::def, St::wb, W, 1>(name("hbm", P, "flat", base + ".ld_def.st_wb" + r), true, bytes, passes);
      flat<P, Ld::cs, St::wb, W, 1>(name("hbm", P, "flat", base + ".ld_cs.st_wb" + r), true, bytes, passes);
      flat<P, Ld::def, St::cs, W, 1>(name("hbm", P, "flat", base + ".ld_def.st_cs" + r), true, bytes, passes);
      flat<P, Ld::cs, St::cs, W, 1>(name("hbm", P, "flat", base + ".ld_cs.st_cs" + r), true, bytes, passes);
    }
  };
  for (int passes : {1, 8}) {
    one(std::integral_constant<int, 8>{}, passes);
    one(std::integral_constant<int, 16>{}, passes);
  }
}

template <Pattern P>
void stride_rows() {
  for (int passes : {1, 8})
    stride<P, Ld::cs, St::wb>(name("hbm", P, "stride", "w16.u4.p" + std::to_string(passes) + ".ld_cs.st_wb"),
                              env.array_bytes, passes, 1024);
}

template <Pattern P>
void size_rows() {
  for (size_t gib : {1, 2, 4}) {
    const size_t bytes = std::min(env.array_bytes, std::max(gib << 30, 8 * env.l2));
    flat<P, Ld::cs, St::def, 16, 1>(name("hbm", P, ("size" + std::to_string(bytes >> 20) + "m").c_str(),
                                         "w16.p5ms.ld_cs.st_def"),
                                   true, bytes, 0);
  }
}

template <int W, int U>
void l2_read_resident(size_t bytes, int div) {
  const std::string tail = ".w" + std::to_string(W) + ".u" + std::to_string(U) + ".l2div" + std::to_string(div);
  resident<Pattern::read, Ld::cg, St::wb, W, U, 1024>("l2.read.res1024" + tail, false, bytes);
  resident<Pattern::read, Ld::cg, St::wb, W, U, 512>("l2.read.res512" + tail, false, bytes);
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  int mem_khz = 0, bus_bits = 0, sm_khz = 0;
  CHECK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, 0));
  env.sms = p.multiProcessorCount;
  env.l2 = size_t(p.l2CacheSize);
  env.peak_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  // 4 GiB per array (three arrays for triad), at least 8 x L2; less if the device lacks it.
  env.array_bytes = std::max<size_t>(size_t(4) << 30, 8 * env.l2);
  env.array_bytes = std::min(env.array_bytes, size_t(0.8 * double(free_b)) / 3) / (size_t(2) << 20) * (size_t(2) << 20);
  std::printf("device name=\"%s\" sms=%d l2_bytes=%zu mem_clock_mhz=%d bus_bytes=%d peak_gbs=%.1f "
              "max_sm_clock_mhz=%d array_mib=%zu free_mib=%zu\n",
              p.name, env.sms, env.l2, mem_khz / 1000, bus_bits / 8, env.peak_gbs, sm_khz / 1000,
              env.array_bytes >> 20, free_b >> 20);
  std::fflush(stdout);
  CHECK(cudaMalloc(&env.a, env.array_bytes));
  CHECK(cudaMalloc(&env.b, env.array_bytes));
  CHECK(cudaMalloc(&env.c, env.array_bytes));
  CHECK(cudaMalloc(&env.sink, 4));
  CHECK(cudaEventCreate(&env.e0));
  CHECK(cudaEventCreate(&env.e1));
  fill_kernel<<<4 * env.sms, 1024>>>(static_cast<uint64_t*>(env.a), env.array_bytes / 8, 1);
  fill_kernel<<<4 * env.sms, 1024>>>(static_cast<uint64_t*>(env.b), env.array_bytes / 8, 2);
  fill_kernel<<<4 * env.sms, 1024>>>(static_cast<uint64_t*>(env.c), env.array_bytes / 8, 3);
  CHECK(cudaDeviceSynchronize());

  // Device memory reaches its sustained rate only after tens of ms of streaming.
  {
    auto warm = [&] {
      stream_flat<Pattern::copy, Ld::cs, St::wb, 16, 1><<<dim3(unsigned(env.array_bytes / 16 / kThreads), 1),
                                                          kThreads>>>(A<16>(), B<16>(), C<16>(), kScale, kKey,
                                                                      env.sink);
    };
    double spent = 0;
    while (spent < 300) spent += time_once(warm);
  }

  // HBM: the flat matrix twice (the spread between rounds is the noise), then the rest.
  for (int round = 1; round <= 2; ++round) {
    flat_matrix<Pattern::read>(round);
    flat_matrix<Pattern::write>(round);
    flat_matrix<Pattern::copy>(round);
    flat_matrix<Pattern::triad>(round);
  }
  flat<Pattern::read, Ld::cs, St::def, 16, 4>("hbm.read.flat4.w16.p8.ld_cs", true, env.array_bytes, 8);
  flat<Pattern::copy, Ld::cs, St::def, 16, 4>("hbm.copy.flat4.w16.p8.ld_cs.st_def", true, env.array_bytes, 8);
  flat<Pattern::triad, Ld::cs, St::def, 16, 4>("hbm.triad.flat4.w16.p8.ld_cs.st_def", true, env.array_bytes, 8);
  size_rows<Pattern::read>();
  size_rows<Pattern::write>();
  size_rows<Pattern::copy>();
  size_rows<Pattern::triad>();
  stride_rows<Pattern::read>();
  stride_rows<Pattern::write>();
  stride_rows<Pattern::copy>();
  stride_rows<Pattern::triad>();
  stride<Pattern::read, Ld::cs, St::wb>("hbm.read.stride512.w16.u4.p1.ld_cs.1gib", std::max(size_t(1) << 30, 8 * env.l2),
                                        1, 512);

  // L2: resident grid, widths x loads in flight x footprint; flat and writes for comparison.
  for (int div : {4, 8}) {
    const size_t bytes = env.l2 / div;
    l2_read_resident<4, 4>(bytes, div);
    l2_read_resident<4, 8>(bytes, div);
    l2_read_resident<8, 4>(bytes, div);
    l2_read_resident<8, 8>(bytes, div);
    l2_read_resident<16, 4>(bytes, div);
    l2_read_resident<16, 8>(bytes, div);
    const std::string d = ".l2div" + std::to_string(div);
    flat<Pattern::read, Ld::cg, St::wb, 4, 8>("l2.read.flat.w4.u8" + d, false, bytes, 0);
    flat<Pattern::read, Ld::cg, St::wb, 8, 8>("l2.read.flat.w8.u8" + d, false, bytes, 0);
    flat<Pattern::read, Ld::cg, St::wb, 16, 8>("l2.read.flat.w16.u8" + d, false, bytes, 0);
  }
  const size_t quarter = env.l2 / 4;
  resident<Pattern::write, Ld::cg, St::cg, 4, 8, 1024>("l2.write.res1024.w4.u8.l2div4", false, quarter);
  resident<Pattern::write, Ld::cg, St::cg, 8, 8, 1024>("l2.write.res1024.w8.u8.l2div4", false, quarter);
  resident<Pattern::write, Ld::cg, St::cg, 16, 8, 1024>("l2.write.res1024.w16.u8.l2div4", false, quarter);
  resident<Pattern::write, Ld::cg, St::cg, 16, 4, 1024>("l2.write.res1024.w16.u4.l2div4", false, quarter);
  std::printf("done\n");
  return 0;
}
