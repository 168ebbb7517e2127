// SPDX-License-Identifier: Apache-2.0
// Constant-cache and local-memory load latencies on the dependent-chain
// mechanism (seed 000, Abdelkhalik et al. 2022, memory units; seed 004, Luo
// et al. 2024). Each step loads the byte offset of the next node from the
// node the previous step found, written in C++ so that the compiler emits the
// register-plus-immediate addressing of LDC and LDL (no address arithmetic on
// the dependency path); the clock reads' memory clobber keeps the loads
// between them.
//
//   latency.mem.constant  16 nodes, 64 bytes apart (1 KiB: constant-cache
//                         hit), a __constant__ ring uploaded before the chase
//   latency.mem.local     a 64-word per-thread array indexed by run-time
//                         offsets, which the compiler must place in local
//                         memory; after its first pass it hits in L1
#include <numeric>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"

__constant__ unsigned gc_constant_ring[256];

namespace gpuconform::kernels {
namespace {

constexpr unsigned kConstNodes = 16;
constexpr unsigned kConstStride = 64;  // bytes

struct ConstantLoad {
  using T = gc_u32;
  using U = gc_u32;
  using Glue = void;
  static constexpr int kChain = 256;
  static T seed() { return 0; }  // byte offset of the first node
  static U operand_a() { return 1; }
  static U operand_b() { return 1; }
  __device__ static T step(T x, U, U, unsigned) {
    return *reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(gc_constant_ring) + x);
  }
};

Measurement measure_constant(const ProbeContext& ctx) {
  std::vector<unsigned> ring(sizeof(gc_constant_ring) / sizeof(unsigned), 0);
  const auto next = chase::single_cycle(kConstNodes, 0x636f6e7374ull);
  for (unsigned i = 0; i < kConstNodes; ++i) ring[i * kConstStride / 4] = next[i] * kConstStride;
  GC_CUDA_CHECK(cudaMemcpyToSymbol(gc_constant_ring, ring.data(), ring.size() * sizeof(unsigned)));
  return measure_chain_latency<ConstantLoad>(ctx);
}

// The local array must belong to the kernel (a chained struct would be copied
// at every step), so local memory has this small kernel of its own; it runs
// the chain exactly as chain_latency_kernel does (two passes, N and 2N steps).
constexpr int kLocalWords = 64;
constexpr int kLocalChain = 256;

__device__ __forceinline__ unsigned local_step(unsigned at) {
  asm volatile("ld.local.u32 %0, [%0];" : "+r"(at)::"memory");
  return at;
}

// Nodes hold 32-bit local-window addresses, so each step is one LDL [R].
__global__ void local_chase_kernel(const unsigned* init, unsigned* sink, long long* cycles) {
  unsigned word[kLocalWords];
  unsigned long long base64;
  asm volatile("cvta.to.local.u64 %0, %1;" : "=l"(base64) : "l"(word));
  const auto base = static_cast<unsigned>(base64);
#pragma unroll
  for (int i = 0; i < kLocalWords; ++i) word[i] = base + init[i];
  unsigned at = base + init[kLocalWords];
  long long short_cycles = 0, long_cycles = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    const long long t0 = gc_clock64();
#pragma unroll
    for (int i = 0; i < kLocalChain; ++i) at = local_step(at);
    const long long t1 = gc_clock64();
#pragma unroll
    for (int i = 0; i < 2 * kLocalChain; ++i) at = local_step(at);
    const long long t2 = gc_clock64();
    short_cycles = t1 - t0;
    long_cycles = t2 - t1;
  }
  cycles[0] = short_cycles;
  cycles[1] = long_cycles;
  *sink = at;
}

Measurement measure_local(const ProbeContext& ctx) {
  std::vector<unsigned> init(kLocalWords + 1);
  const auto next = chase::single_cycle(kLocalWords, 0x6c6f63616cull);
  for (int i = 0; i < kLocalWords; ++i) init[i] = next[i] * 4;
  init[kLocalWords] = 0;
  DeviceBuffer<unsigned> d_init(init), sink(1);
  DeviceBuffer<long long> cycles(2);
  auto launch = [&] {
    local_chase_kernel<<<1, 1>>>(d_init.get(), sink.get(), cycles.get());
    GC_CUDA_CHECK_LAUNCH();
  };
  launch();
  RepeatPolicy policy;
  policy.min_samples = ctx.quick ? 3 : 7;
  policy.max_samples = ctx.quick ? 5 : 31;
  policy.max_rel_mad = 0.001;
  Measurement m;
  m.samples = repeat_until_stable(
      [&] {
        launch();
        const auto c = cycles.download();
        return static_cast<double>(c[1] - c[0]) / kLocalChain;
      },
      policy);
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", "dependent chain of local-memory loads, (T(512) - T(256)) / 256, one thread");
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&local_chase_kernel), ctx.device.arch()));
  return m;
}

}  // namespace

const bool kOnchipRegistered = register_probes({
    {"latency.mem.constant", Family::latency, "constant-cache hit: dependent LDC chase within 1 KiB", {75},
     kDeterministicLatency, &measure_constant},
    {"latency.mem.local", Family::latency, "local-memory load (L1 hit): dependent LDL chase in a per-thread array",
     {75}, kDeterministicLatency, &measure_local},
});

}  // namespace gpuconform::kernels
