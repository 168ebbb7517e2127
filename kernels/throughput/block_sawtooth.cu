// SPDX-License-Identifier: Apache-2.0
// The block-count sawtooth (seed 002, van Stigt et al.): the time of a kernel
// whose every block does the same fixed work, for n = 1 ... 4 x SMs + 1
// blocks. Blocks run in waves of the resident-block capacity (here one block
// per SM: each block reserves more than half of an SM's shared memory), so
// the time is flat inside a wave and steps up at n = k x capacity + 1. The
// probe counts mismatched steps: an expected step (k = 1..4) where the time
// rises by less than a third of one wave, plus any rise of more than that
// elsewhere, each confirmed by re-measuring. The whole curve goes into the run record as a Series.
#include <fmt/format.h>

#include <algorithm>

#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kThreads = 256;

// Fixed work: a dependent FMA chain per thread (about 20 us at 1.7 GHz for
// 8192 steps of 4 cycles), result stored so it is live.
__global__ void fixed_work_kernel(const float* seed, int steps, float* sink) {
  extern __shared__ float reserve[];  // only reserved, to cap residency at one block per SM
  float x = seed[threadIdx.x];
#pragma unroll 16
  for (int i = 0; i < steps; ++i) x = fmaf(x, 0.999f, 0.001f);
  if (threadIdx.x == 0) reserve[0] = x;
  sink[blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x] = x;
}

Measurement measure_sawtooth(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const std::size_t smem = static_cast<std::size_t>(dev.shared_per_sm_bytes) / 2 + 1024;
  if (smem > static_cast<std::size_t>(dev.shared_per_block_optin_bytes))
    throw ProbeSkipped("a block cannot reserve more than half of an SM's shared memory on this device");
  GC_CUDA_CHECK(cudaFuncSetAttribute(fixed_work_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  int per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fixed_work_kernel, kThreads, smem));
  if (per_sm != 1) throw ProbeSkipped(fmt::format("expected one resident block per SM, the occupancy API says {}", per_sm));
  const int capacity = per_sm * dev.sm_count;
  const int max_blocks = 4 * capacity + 1;
  DeviceBuffer<float> seed(std::vector<float>(kThreads, 1.5f));
  DeviceBuffer<float> sink(static_cast<std::size_t>(max_blocks) * kThreads);
  const int steps = 8192;

  Series curve;
  curve.name = "time_vs_blocks";
  curve.x_name = "blocks";
  curve.x_unit = "blocks";
  curve.y_name = "kernel time";
  curve.y_unit = "us";
  auto time_us = [&](int n, int launches) {
    return median(time_launches_ms([&] { fixed_work_kernel<<<n, kThreads, smem>>>(seed.get(), steps, sink.get()); },
                                   n == 1 ? 2 : 0, launches)) * 1e3;
  };
  // Three launches per n at every level: with two (--level quick) an H100 saw 5 mismatched steps.
  for (int n = 1; n <= max_blocks; ++n) {
    curve.x.push_back(n);
    curve.y.push_back(time_us(n, 3));
  }
  // One wave's time: the median over the first wave; a step is a rise of more
  // than a third of it from n - 1 to n.
  const double wave = median(std::vector<double>(curve.y.begin(), curve.y.begin() + capacity));
  auto rises = [&](double before, double after) { return after - before > wave / 3; };
  // A rise where none is expected, or none where one is, counts only if it survives two
  // re-measurements of n - 1 and n (7 launches each): a host or clock hiccup during
  // one point's launches (an unseen H100 showed rises at n = 9, 30, 35 and 74 inside
  // the first wave in one run of seven) is not the scheduler's doing, a real one repeats.
  int mismatches = 0;
  std::string steps_seen, unconfirmed;
  for (int n = 2; n <= max_blocks; ++n) {
    const bool expected = (n - 1) % capacity == 0;
    bool step = rises(curve.y[n - 2], curve.y[n - 1]);
    for (int retry = 0; retry < 2 && step != expected; ++retry) {
      if (rises(time_us(n - 1, 7), time_us(n, 7)) == expected) {
        unconfirmed += (unconfirmed.empty() ? "" : ", ") + std::to_string(n);
        step = expected;
      }
    }
    if (step) steps_seen += (steps_seen.empty() ? "" : ", ") + std::to_string(n);
    if (step != expected) ++mismatches;
  }
  Measurement m;
  m.value = mismatches;
  m.unit = "mismatched steps";
  m.series.push_back(std::move(curve));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", fmt::format("{} blocks x {} threads, each an {}-step FMA chain, {} B shared memory per block "
                               "(1 resident block per SM, capacity {}); event-timed median per n",
                               max_blocks, kThreads, steps, smem, capacity));
  m.note("steps", fmt::format("rises at n = {} (expected at {}, {}, {}, {}); one wave = {:.1f} us",
                              steps_seen.empty() ? "none" : steps_seen, capacity + 1, 2 * capacity + 1,
                              3 * capacity + 1, 4 * capacity + 1, wave));
  if (!unconfirmed.empty())
    m.note("unconfirmed", fmt::format("mismatched at n = {} in the sweep, not in a re-measurement (not counted)",
                                      unconfirmed));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.sched.block_sawtooth",
          Family::throughput,
          "kernel time against block count steps exactly at multiples of the resident-block capacity",
          {75},
          // One mismatched step drifts, two fail: every H100 board read 0, but H200 boards
          // read 1 in some runs (2026-11-25), and a class margin of a 0 centre is 0.
          {ExpectationKind::max, 1, 0, 0},
          &measure_sawtooth},
});

}  // namespace
}  // namespace gpuconform::kernels
