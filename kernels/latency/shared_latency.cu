// SPDX-License-Identifier: Apache-2.0
// Shared-memory latencies on the dependent-chain mechanism: each step is a
// shared-memory load whose address is the value the previous load returned
// (a pointer chase in shared memory, where there is no cache or prefetch to
// defeat, so a fixed ring or a self-loop suffices).
//
//   latency.mem.shared_load            ld.shared.u32, one thread: load-to-use
//   latency.mem.shared_store_to_load   st.shared then ld.shared of the same
//                                      word (volatile, or ptxas forwards the
//                                      stored value), minus the plain load:
//                                      what a preceding store adds
//   latency.shared.bank_conflict.u32.Nway  one warp, lane l at word l*N: every
//                                      bank serves N lanes (N = 1 .. 32), seed
//                                      001 (Sun et al. 2022) Table 10
//   latency.shared.bank_conflict.u64.Nway  8-byte loads, lane l at slot l*N/2
//                                      (N = 2, 4, 8 wavefronts, Table 10's
//                                      labels: 2-way is the conflict-free
//                                      pattern of a 256-byte warp access)
//   latency.ldmatrix.x1/x2/x4          ldmatrix.m8n8 with 1, 2, 4 matrices,
//                                      seed 001 Table 9: each lane's first
//                                      result register is its next row address
//
// The shared addresses are 32-bit shared-window addresses, loaded with
// `ld.shared [reg]` so no address arithmetic sits on the dependency path.
#include "latency/dependent_chain.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kSharedWords = 2048;

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Ring of 64 consecutive words, written by thread 0; returns its first node.
__device__ unsigned init_ring(unsigned* mem) {
  if (threadIdx.x == 0)
    for (int i = 0; i < 64; ++i) mem[i] = shared_address(mem + (i + 1) % 64);
  return shared_address(mem);
}

// Each lane's node at 32-bit word `word`, holding its own address.
__device__ unsigned init_self_loop32(unsigned* mem, unsigned word) {
  mem[word] = shared_address(mem + word);
  return shared_address(mem + word);
}

// Each lane's node at 64-bit slot `slot`: low word its own address, high word
// non-zero.
__device__ unsigned init_self_loop64(unsigned* mem, unsigned slot) {
  mem[2 * slot] = shared_address(mem + 2 * slot);
  mem[2 * slot + 1] = 0x9E3779B9u;
  return shared_address(mem + 2 * slot);
}

// Four 8x8 b16 matrices, 128 bytes apart; ldmatrix gives lane l the 32-bit
// word l of each matrix, and lane l supplies the address of row l % 8 of
// matrix l / 8. Every word l holds that address, so each lane's first result
// is its next row address.
__device__ unsigned init_ldmatrix(unsigned* mem) {
  const unsigned lane = threadIdx.x;
  const unsigned row = shared_address(mem) + 128 * (lane / 8) + 16 * (lane % 8);
  for (int m = 0; m < 4; ++m) mem[32 * m + lane] = row;
  return row;
}

#define GC_SHARED_OP(Name, Threads, Len, GlueT, Init, Body)                                           \
  struct Name {                                                                                      \
    using T = gc_u32;                                                                                \
    using U = gc_u32;                                                                                \
    using Glue = GlueT;                                                                              \
    static constexpr int kChain = Len;                                                               \
    static constexpr int kThreads = Threads;                                                         \
    static constexpr const char* kBody = Body;                                                       \
    static T seed() { return 1; }                                                                    \
    static U operand_a() { return 1; }                                                               \
    static U operand_b() { return 1; }                                                               \
    __device__ static T prepare(T, U, U) {                                                           \
      __shared__ alignas(16) unsigned mem[kSharedWords];                                             \
      const unsigned lane = threadIdx.x;                                                             \
      (void)lane;                                                                                    \
      return Init;                                                                                   \
    }                                                                                                \
    __device__ static T step(T x, U, U, unsigned) {                                                  \
      asm volatile(Body : "+r"(x)::"memory");                                                        \
      return x;                                                                                      \
    }                                                                                                \
  };

#define GC_LD32 "ld.shared.u32 %0, [%0];"
#define GC_LD64 "{.reg .b64 v; ld.shared.u64 v, [%0]; cvt.u32.u64 %0, v;}"

GC_SHARED_OP(SharedLoad, 1, 256, void, init_ring(mem), GC_LD32)
GC_SHARED_OP(SharedStoreLoad, 1, 256, SharedLoad, init_ring(mem), "st.volatile.shared.u32 [%0], %0; ld.volatile.shared.u32 %0, [%0];")
GC_SHARED_OP(Bank1, 32, 256, void, init_self_loop32(mem, lane * 1), GC_LD32)
GC_SHARED_OP(Bank2, 32, 256, void, init_self_loop32(mem, lane * 2), GC_LD32)
GC_SHARED_OP(Bank4, 32, 256, void, init_self_loop32(mem, lane * 4), GC_LD32)
GC_SHARED_OP(Bank8, 32, 256, void, init_self_loop32(mem, lane * 8), GC_LD32)
GC_SHARED_OP(Bank16, 32, 128, void, init_self_loop32(mem, lane * 16), GC_LD32)
GC_SHARED_OP(Bank32, 32, 128, void, init_self_loop32(mem, lane * 32), GC_LD32)
GC_SHARED_OP(Bank64x2, 32, 256, void, init_self_loop64(mem, lane * 1), GC_LD64)
GC_SHARED_OP(Bank64x4, 32, 256, void, init_self_loop64(mem, lane * 2), GC_LD64)
GC_SHARED_OP(Bank64x8, 32, 256, void, init_self_loop64(mem, lane * 4), GC_LD64)
GC_SHARED_OP(Ldmatrix1, 32, 256, void, init_ldmatrix(mem), "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%0];")
GC_SHARED_OP(Ldmatrix2, 32, 256, void, init_ldmatrix(mem),
             "{.reg .b32 t; ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, t}, [%0];}")
GC_SHARED_OP(Ldmatrix4, 32, 256, void, init_ldmatrix(mem),
             "{.reg .b32 t<3>; ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, t0, t1, t2}, [%0];}")

#define GC_SHARED_PROBE(Name, Id, Summary) \
  Probe{Id, Family::latency, Summary, {75}, kDeterministicLatency, &measure_chain_latency<Name>},

const bool kRegistered = register_probes({
    GC_SHARED_PROBE(SharedLoad, "latency.mem.shared_load", "ld.shared.u32 load-to-use latency, one thread")
    GC_SHARED_PROBE(SharedStoreLoad, "latency.mem.shared_store_to_load",
                    "cycles a st.shared to the same word adds to the following ld.shared")
    GC_SHARED_PROBE(Bank1, "latency.shared.bank_conflict.u32.1way", "ld.shared.u32, one warp, no bank conflict")
    GC_SHARED_PROBE(Bank2, "latency.shared.bank_conflict.u32.2way", "ld.shared.u32, one warp, 2-way bank conflict")
    GC_SHARED_PROBE(Bank4, "latency.shared.bank_conflict.u32.4way", "ld.shared.u32, one warp, 4-way bank conflict")
    GC_SHARED_PROBE(Bank8, "latency.shared.bank_conflict.u32.8way", "ld.shared.u32, one warp, 8-way bank conflict")
    GC_SHARED_PROBE(Bank16, "latency.shared.bank_conflict.u32.16way", "ld.shared.u32, one warp, 16-way bank conflict")
    GC_SHARED_PROBE(Bank32, "latency.shared.bank_conflict.u32.32way", "ld.shared.u32, one warp, 32-way bank conflict")
    GC_SHARED_PROBE(Bank64x2, "latency.shared.bank_conflict.u64.2way",
                    "ld.shared.u64, one warp, consecutive 8-byte slots (two wavefronts)")
    GC_SHARED_PROBE(Bank64x4, "latency.shared.bank_conflict.u64.4way", "ld.shared.u64, one warp, 16-byte stride")
    GC_SHARED_PROBE(Bank64x8, "latency.shared.bank_conflict.u64.8way", "ld.shared.u64, one warp, 32-byte stride")
    GC_SHARED_PROBE(Ldmatrix1, "latency.ldmatrix.x1", "ldmatrix.sync.aligned.m8n8.x1.shared.b16 completion latency")
    GC_SHARED_PROBE(Ldmatrix2, "latency.ldmatrix.x2", "ldmatrix.sync.aligned.m8n8.x2.shared.b16 completion latency")
    GC_SHARED_PROBE(Ldmatrix4, "latency.ldmatrix.x4", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 completion latency")
});

}  // namespace
}  // namespace gpuconform::kernels
