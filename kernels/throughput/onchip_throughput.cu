// SPDX-License-Identifier: Apache-2.0
// Bandwidth of the SM's on-chip memories: shared-memory 128-bit loads and
// stores, ldmatrix.x4 (plain and .trans) and stmatrix.x4 (all SMs), and L1
// hits (one SM), as a fraction of the cited bytes per clock per SM (peak
// entries "smem" and "l1").
//
// Method: each thread owns one 16-byte column of a 16-slot (12 for ld.shared) array (slot s of
// thread t at (s * threads + t) * 16 B, so a warp's access is 512 contiguous
// bytes: conflict-free, four 128-byte wavefronts). Every loop trip accesses
// eight consecutive slots starting at slot (trip mod 8, or 4), all at immediate
// offsets from one pointer, so the timed loop is eight 128-bit memory
// instructions, their consumers and two address instructions; the slot window
// moves each trip, so nothing is loop-invariant. Loaded words are folded with
// XOR (ld.shared: summed) into a value stored at the end; stored words depend on the trip and are
// read back after a barrier, so neither is dead. L1: one block on one SM over
// a 16 x 512 x 16 B = 128 KiB buffer with ld.global.ca, after an untimed pass
// has filled L1 (the kernel asks for the largest L1 carve-out). Each launch
// is timed inside the kernel: %globaltimer from the first block's loop start
// to the last block's loop end (one wave of equal blocks), so the fill and the
// launch's fixed cost are not counted.
#include <fmt/format.h>

#include <algorithm>

#include "common/clock_stamps.cuh"
#include "common/fill.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kWindow = 8;  // slots accessed per trip

enum class Access { shared_load, shared_store, l1_load, ldmatrix_x4, ldmatrix_x4_trans, stmatrix_x4 };

constexpr bool is_load(Access a) {
  return a == Access::shared_load || a == Access::ldmatrix_x4 || a == Access::ldmatrix_x4_trans;
}

__device__ __forceinline__ uint4 ld_shared16(unsigned addr) {
  uint4 v;
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
  return v;
}
__device__ __forceinline__ void st_shared16(unsigned addr, uint4 v) {
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}
// ldmatrix/stmatrix .x4: lane l gives the address of row l % 8 of matrix
// l / 8; with lane l's 16-byte column at l * 16 the 32 rows are 512
// contiguous bytes, conflict-free, and every lane receives 16 bytes.
template <bool Trans>
__device__ __forceinline__ uint4 ldmatrix16(unsigned addr) {
  uint4 v;
  if constexpr (Trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
  return v;
}
__device__ __forceinline__ void stmatrix16(unsigned addr, uint4 v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(v.x), "r"(v.y),
               "r"(v.z), "r"(v.w) : "memory");
#else
  __trap();  // sm_90 and later only; the probe requires compute capability 9.0
#endif
}

__device__ __forceinline__ uint4 ld_global_ca16(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// Threads per block: a compile-time constant, so that every access of a trip
// is an immediate offset from one address (no per-access address arithmetic).
//
// ld.shared.v4 runs 512 x 2 blocks per SM (32 warps) over 12 slots and sums
// with four independent adds: on an H100 (GPU-6b820e26, 2026-11-26,
// tools/device/shared_variants.cu) that shape read 0.9956 of 128 B/clk/SM,
// the 256 x 3 shape with XOR folding 0.9941 and with adds 0.9913.
template <Access A>
constexpr unsigned kBlock = A == Access::l1_load || A == Access::shared_load ? 512 : 256;
// Slots per thread: 16 (window start moves over 8 positions) or, for 512-thread
// loads, 12 (over 4), so that two blocks fit in an SM's shared memory.
template <Access A>
constexpr int kSlots = A == Access::shared_load ? 12 : 16;

// Dynamic shared memory: kSlots x kBlock x 16 B (shared variants only).
template <Access A>
__global__ void __launch_bounds__(kBlock<A>) onchip_kernel(const uint4* global, int trips, uint4* sink,
                                                              long long* stamps) {
  extern __shared__ uint4 smem[];
  constexpr unsigned n = kBlock<A>;
  const unsigned t = threadIdx.x;
  if constexpr (A != Access::l1_load) {
    // Fill shared memory with the thread's random words (never zeros).
    for (int s = 0; s < kSlots<A>; ++s) smem[s * n + t] = global[(blockIdx.x * kSlots<A> + s) * n + t];
    __syncthreads();
  }
  const unsigned smem_base = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + t * 16u;
  constexpr unsigned slot_bytes = n * 16u;
  uint4 acc = make_uint4(t, 1u, 2u, 3u);
  const GcStamp begin = gc_stamp_now();
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
    constexpr unsigned kStarts = kSlots<A> - kWindow >= 8 ? 8 : 4;  // a power of two <= slots - window + 1
    const unsigned first = static_cast<unsigned>(trip) & (kStarts - 1);
    if constexpr (A == Access::l1_load) {
      const uint4* p = global + first * n + t;
      uint4 v[kWindow];
#pragma unroll
      for (int k = 0; k < kWindow; ++k) v[k] = ld_global_ca16(p + k * n);
#pragma unroll
      for (int k = 0; k < kWindow; ++k) { acc.x ^= v[k].x ^ v[k].y; acc.y ^= v[k].z ^ v[k].w; }
    } else {
      const unsigned addr = smem_base + first * slot_bytes;
      if constexpr (is_load(A)) {
        uint4 v[kWindow];
#pragma unroll
        for (int k = 0; k < kWindow; ++k) {
          if constexpr (A == Access::shared_load) v[k] = ld_shared16(addr + k * slot_bytes);
          else v[k] = ldmatrix16<A == Access::ldmatrix_x4_trans>(addr + k * slot_bytes);
        }
#pragma unroll
        for (int k = 0; k < kWindow; ++k) {
          if constexpr (A == Access::shared_load) {
            acc.x += v[k].x; acc.y += v[k].y; acc.z += v[k].z; acc.w += v[k].w;
          } else {
            acc.x ^= v[k].x ^ v[k].y; acc.y ^= v[k].z ^ v[k].w;
          }
        }
      } else {
        const uint4 w = make_uint4(acc.x + trip, acc.y, acc.z, acc.w);
#pragma unroll
        for (int k = 0; k < kWindow; ++k) {
          if constexpr (A == Access::shared_store) st_shared16(addr + k * slot_bytes, w);
          else stmatrix16(addr + k * slot_bytes, w);
        }
      }
    }
  }
  __syncthreads();  // every warp's loop is over: the block's span ends here
  gc_stamp_store(stamps, begin);
  gc_span_store(stamps, begin);
  if constexpr (A == Access::shared_store || A == Access::stmatrix_x4) {
    acc = smem[((t + 1) % n) + n * (kSlots<A> - 1)];  // another thread's stores are read: they are observable
  }
  sink[blockIdx.x * static_cast<std::size_t>(n) + t] = acc;
}

const char* access_name(Access a) {
  switch (a) {
    case Access::shared_load: return "ld.shared.v4";
    case Access::shared_store: return "st.shared.v4";
    case Access::l1_load: return "ld.global.ca.v4 (L1 hits)";
    case Access::ldmatrix_x4: return "ldmatrix.x4 (per lane)";
    case Access::ldmatrix_x4_trans: return "ldmatrix.x4.trans (per lane)";
    case Access::stmatrix_x4: return "stmatrix.x4 (per lane)";
  }
  return "?";
}

template <Access A>
Measurement measure_onchip(const ProbeContext& ctx) {
  constexpr bool kL1 = A == Access::l1_load;
  const char* peak_id = kL1 ? "l1" : "smem";
  require_peak(ctx, peak_id);
  const DeviceInfo& dev = ctx.device;
  const int threads = static_cast<int>(kBlock<A>);
  const std::size_t smem_bytes = kL1 ? 0 : static_cast<std::size_t>(kSlots<A>) * threads * sizeof(uint4);
  const auto kernel = onchip_kernel<A>;
  if (smem_bytes > 48 * 1024)
    GC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_bytes)));
  GC_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                     kL1 ? 0 : static_cast<int>(cudaSharedmemCarveoutMaxShared)));
  int blocks_per_sm = 1;
  if (!kL1) {
    GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, threads, smem_bytes));
    if (blocks_per_sm < 1) throw ProbeSkipped(fmt::format("{} B of shared memory per block do not fit an SM", smem_bytes));
  }
  const int grid = kL1 ? 1 : blocks_per_sm * dev.sm_count;
  const int sms = kL1 ? 1 : dev.sm_count;
  const std::size_t words = static_cast<std::size_t>(kL1 ? 1 : grid) * kSlots<A> * threads;  // uint4 per source buffer
  DeviceBuffer<uint4> source(words);
  fill_random(reinterpret_cast<std::uint64_t*>(source.get()), words * 2, 0x6f6e63686970u);
  DeviceBuffer<uint4> sink(static_cast<std::size_t>(grid) * threads);

  auto run = [&](int trips, long long* stamps) {
    kernel<<<grid, threads, smem_bytes>>>(source.get(), trips, sink.get(), stamps);
  };
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kLaunchTargetMs, 256);

  Work work;
  work.peak_id = peak_id;
  work.units_per_launch = static_cast<double>(grid) * threads * trips * kWindow * sizeof(uint4);
  work.sms_used = sms;
  // One wave of equal blocks: the span of their loops, without the fill of
  // shared memory before them or the launch's fixed cost (the pipe's cycles,
  // counted inside the kernel).
  work.time_by_stamps = true;
  work.method = fmt::format("{} block(s) x {} threads on {} SM(s), {} x {} conflict-free 16 B {} per thread; "
                            "random non-zero data", grid, threads, sms, trips, kWindow,
                            access_name(A));
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(kernel), dev.arch()));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.shared.load.b128",
          Family::throughput,
          "shared-memory 128-bit load bandwidth, all SMs, as a fraction of peak entry 'smem'",
          {75},
          kFractionOfPeakHint,
          &measure_onchip<Access::shared_load>},
    Probe{"throughput.shared.store.b128",
          Family::throughput,
          "shared-memory 128-bit store bandwidth, all SMs, as a fraction of peak entry 'smem'",
          {75},
          kFractionOfPeakHint,
          &measure_onchip<Access::shared_store>},
    Probe{"throughput.l1.read",
          Family::throughput,
          "L1 hit bandwidth of one SM (ld.global.ca, 128 KiB footprint) as a fraction of peak entry 'l1'",
          {75},
          kFractionOfPeakHint,
          &measure_onchip<Access::l1_load>},
    Probe{"throughput.ldmatrix.x4",
          Family::throughput,
          "ldmatrix.sync.m8n8.x4 shared-memory bandwidth, all SMs, as a fraction of peak entry 'smem'",
          {75},
          kFractionOfPeakHint,
          &measure_onchip<Access::ldmatrix_x4>},
    Probe{"throughput.ldmatrix.x4.trans",
          Family::throughput,
          "ldmatrix.sync.m8n8.x4.trans shared-memory bandwidth, all SMs, as a fraction of peak entry 'smem'",
          {75},
          kFractionOfPeakHint,
          &measure_onchip<Access::ldmatrix_x4_trans>},
    Probe{"throughput.stmatrix.x4",
          Family::throughput,
          "stmatrix.sync.m8n8.x4 shared-memory bandwidth, all SMs, as a fraction of peak entry 'smem'",
          {90},
          kFractionOfPeakHint,
          &measure_onchip<Access::stmatrix_x4>},
});

}  // namespace
}  // namespace gpuconform::kernels
