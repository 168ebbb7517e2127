// SPDX-License-Identifier: Apache-2.0
// Throughput of global-memory atomic adds (red.global.add.u32: no return
// value, so the SM need not wait) from every resident thread of every SM:
//   distinct:  every thread adds to its own word of a warp-wide 128-byte line,
//              and the warps sweep a window of half the L2: at step j warp w
//              adds to line (w + j x warps) mod lines, so concurrent warps
//              stay on distinct lines and every warp meets every L2 slice;
//   same_line: every thread of the grid adds to one of the 32 words of a
//              single 128-byte line (lane l -> word l), the L2 atomic unit's
//              serialisation case, timed on kSameLines lines in turn, each on
//              its own 2 MiB page (one launch per line, one sample = all of them).
// Why not one place (issue 19): the rate of a warp that keeps to one line is
// the rate of the L2 slice its line hashes to, and the hash takes physical
// address bits. With each warp on its own line for the whole launch (1 MiB),
// twelve windows of one pool on an H100 (GPU-be9dbe55, 2026-11-27,
// tools/device/placement_variants.cu) read 5.02-5.20e11 op/s (3.5 %) while one
// window measured again varied 0.4 %, and healthy boards' runs spread 7.7 %;
// sweeping 32 MiB read 8.05-8.08e11 (0.34 %). One line on each of twelve pages
// read 1.25-1.32e10 (5.3-6.9 %); the runs' medians over the twelve agreed to 0.4 %.
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
// same_line: lines timed per sample, and the launch time each gets at least.
constexpr int kSameLines = 8;
constexpr double kSameLineLaunchMs = 1.0;
constexpr std::size_t kPageBytes = std::size_t(2) << 20;
constexpr std::size_t kLineWords = 32;

// `at` walks the window: total = lines x 32 words, stride = the grid's threads
// (a multiple of 32), so a warp's lanes stay within one line at every step.
__global__ void __launch_bounds__(kThreads)
    atomic_sweep_kernel(unsigned* words, int trips, unsigned total, unsigned add, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned stride = gridDim.x * blockDim.x;
  unsigned at = tid;
  const unsigned v = add + (tid & 7);  // non-zero
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      asm volatile("red.global.add.u32 [%0], %1;" ::"l"(words + at), "r"(v) : "memory");
      at += stride;
      if (at >= total) at -= total;
    }
  }
  gc_stamp_store(stamps, begin);
}

__global__ void __launch_bounds__(kThreads)
    atomic_line_kernel(unsigned* line, int trips, unsigned add, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  unsigned* p = line + (threadIdx.x & 31);
  const unsigned v = add + (threadIdx.x & 7);  // non-zero
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) asm volatile("red.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  }
  gc_stamp_store(stamps, begin);
}

// The resident grid of `kernel` on this device.
int resident_grid(const DeviceInfo& dev, const void* kernel) {
  int blocks_per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kThreads, 0));
  return std::max(1, blocks_per_sm) * dev.sm_count;
}

Measurement measure_distinct(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (dev.l2_bytes <= 0) throw ProbeSkipped("the device reports no L2 size");
  const int grid = resident_grid(dev, reinterpret_cast<const void*>(&atomic_sweep_kernel));
  const std::size_t threads = static_cast<std::size_t>(grid) * kThreads;
  // Half the L2, whole lines, and at least one word per thread.
  std::size_t total = static_cast<std::size_t>(dev.l2_bytes) / 2 / sizeof(unsigned);
  total = std::max(total / kLineWords * kLineWords, threads);
  DeviceBuffer<unsigned> words(total);
  words.poison(0x11);
  auto run = [&](int trips, long long* stamps) {
    atomic_sweep_kernel<<<grid, kThreads>>>(words.get(), trips, static_cast<unsigned>(total), 3u, stamps);
  };
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kLaunchTargetMs, 4);
  Work work;
  work.unit = "op/s";
  work.units_per_launch = static_cast<double>(threads) * trips * kUnroll;
  work.sms_used = dev.sm_count;
  work.method = fmt::format(
      "{} blocks x {} threads, {} x {} red.global.add.u32 per thread, each warp to one 128-byte line per step, "
      "the grid sweeping {:.1f} MiB (half the L2)",
      grid, kThreads, trips, kUnroll, static_cast<double>(total * sizeof(unsigned)) / (1 << 20));
  Measurement m = measure_throughput(
      ctx, work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&atomic_sweep_kernel), dev.arch()));
  return m;
}

Measurement measure_same_line(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const int grid = resident_grid(dev, reinterpret_cast<const void*>(&atomic_line_kernel));
  const std::size_t threads = static_cast<std::size_t>(grid) * kThreads;
  // Line k at k x (2 MiB + 4 KiB): another page and another offset within it.
  constexpr std::size_t kLineStrideWords = (kPageBytes + 4096) / sizeof(unsigned);
  DeviceBuffer<unsigned> words(kSameLines * kLineStrideWords);
  words.poison(0x11);
  auto run = [&](int trips, long long* stamps) {
    for (int k = 0; k < kSameLines; ++k)
      atomic_line_kernel<<<grid, kThreads>>>(words.get() + k * kLineStrideWords, trips, 3u, stamps);
  };
  const int trips =
      calibrate_trips([&](int t) { run(t, nullptr); }, std::max(kLaunchTargetMs, kSameLines * kSameLineLaunchMs), 1);
  Work work;
  work.unit = "op/s";
  work.units_per_launch = static_cast<double>(threads) * trips * kUnroll * kSameLines;
  work.sms_used = dev.sm_count;
  work.method = fmt::format(
      "{} blocks x {} threads, {} x {} red.global.add.u32 per thread, all to the 32 words of one 128-byte line; "
      "one sample = {} launches, one per line, each line on its own 2 MiB page",
      grid, kThreads, trips, kUnroll, kSameLines);
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(trips, stamps); }, throughput_options(ctx));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&atomic_line_kernel), dev.arch()));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.atomic.global.add.distinct",
          Family::throughput,
          "red.global.add.u32 rate, every thread its own word, the warps sweeping half the L2, all SMs (no public "
          "peak: a measured minimum)",
          {75},
          kMinHint,
          &measure_distinct},
    Probe{"throughput.atomic.global.add.same_line",
          Family::throughput,
          "red.global.add.u32 rate, every thread to one 128-byte line, eight lines in turn, all SMs (no public peak: a "
          "measured minimum)",
          {75},
          kMinHint,
          &measure_same_line},
});

}  // namespace
}  // namespace gpuconform::kernels
