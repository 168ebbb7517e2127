// SPDX-License-Identifier: Apache-2.0
// Throughput of global-memory atomic adds (red.global.add.u32: no return
// value, so the SM need not wait) from every resident thread of every SM:
//   distinct:  each thread adds to its own word (coalesced, one word per lane),
//   same_line: every thread of the grid adds to one of the 32 words of a
//              single 128-byte line (lane l -> word l), the L2 atomic unit's
//              serialisation case.
// No public peak exists; the expectation is a measured minimum (op/s).
#include <fmt/format.h>

#include <algorithm>

#include "common/clock_stamps.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 8;

template <bool SameLine>
__global__ void __launch_bounds__(kThreads) atomic_add_kernel(unsigned* words, int trips, unsigned add, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  unsigned* p = SameLine ? words + (threadIdx.x & 31) : words + tid;
  const unsigned v = add + static_cast<unsigned>(tid & 7);  // non-zero
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  }
  gc_stamp_store(stamps, begin);
}

template <bool SameLine>
Measurement measure_atomic(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  int blocks_per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, atomic_add_kernel<SameLine>, kThreads, 0));
  const int grid = std::max(1, blocks_per_sm) * dev.sm_count;
  const std::size_t threads = static_cast<std::size_t>(grid) * kThreads;
  DeviceBuffer<unsigned> words(SameLine ? 32 : threads);
  words.poison(0x11);
  auto run = [&](int trips, long long* stamps) {
    atomic_add_kernel<SameLine><<<grid, kThreads>>>(words.get(), trips, 3u, stamps);
  };
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kLaunchTargetMs, 4);
  Work work;
  work.unit = "op/s";
  work.units_per_launch = static_cast<double>(threads) * trips * kUnroll;
  work.sms_used = dev.sm_count;
  work.method = fmt::format("{} blocks x {} threads, {} x {} red.global.add.u32 per thread, {}", grid, kThreads, trips,
                            kUnroll, SameLine ? "all to the 32 words of one 128-byte line" : "each thread its own word");
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&atomic_add_kernel<SameLine>), dev.arch()));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.atomic.global.add.distinct",
          Family::throughput,
          "red.global.add.u32 rate, every thread its own word, all SMs (no public peak: a measured minimum)",
          {75},
          kMinHint,
          &measure_atomic<false>},
    Probe{"throughput.atomic.global.add.same_line",
          Family::throughput,
          "red.global.add.u32 rate, every thread to one 128-byte line, all SMs (no public peak: a measured minimum)",
          {75},
          kMinHint,
          &measure_atomic<true>},
});

}  // namespace
}  // namespace gpuconform::kernels
