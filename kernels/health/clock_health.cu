// SPDX-License-Identifier: Apache-2.0
// The clocks under load against their maximum (clock_health.hpp), two judged entries:
// - health.under_load.sm_clock: an FFMA load on every SM for about 300 ms (100 ms of
//   warm-up, then 10 launches of about 20 ms back to back); the SM clock of each launch is
//   clock64 over %globaltimer in block 0 (clock_stamps.cuh, as the throughput harness
//   measures it), the value their median against the board's maximum SM clock. FFMA on
//   every SM stays below a 700 W H100's or H200's power cap: healthy boards run it at
//   1980-1981 MHz, their maximum. (All-SM wgmma and mma do reach the cap and run at
//   1.4-1.7 GHz by design: they are not a clock check.)
// - health.under_load.memory_clock: NVML's memory clock, read every 5 ms while HBM read
//   streams run for about 200 ms (enqueued once NVML has answered the maximum) (the flat-grid kernel of throughput.hbm.read,
//   stream_access.cuh), against its maximum. A memory clock that drops under load shows
//   here by name, before the bandwidth entries say only that the rate is low.
// A failure names both clocks ("measured 1755 MHz = 0.886 of peak 1980 MHz (the board's
// maximum SM clock, ...)"). NVML that cannot answer the memory clock skips that check with
// NVML's words; a board whose driver reports no maximum SM clock skips the SM check.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/clock_stamps.cuh"
#include "common/fill.cuh"
#include "gpuconform/clock_health.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sampling.hpp"
#include "gpuconform/timing.hpp"
#include "throughput/stream_access.cuh"

namespace gpuconform::kernels {
namespace {

// ---- SM clock under an all-SM FFMA load ----

constexpr int kFmaThreads = 256;
constexpr int kFmaIlp = 8;           // independent chains per thread: FFMA's latency (4 cycles) hidden
constexpr int kFmaSteps = 32;        // unrolled steps per loop trip
constexpr double kFmaLaunchMs = 20;  // long against a launch's cost and %globaltimer's resolution
constexpr double kFmaWarmupMs = 100; // the clock leaves idle and the board reaches its load draw
constexpr int kFmaTimedLaunches = 10;

// x = x * a + b on kFmaIlp chains; a and b are kernel arguments, so nothing folds, and
// the sum is stored only when it equals a value it never takes, so nothing is dead.
__global__ void __launch_bounds__(kFmaThreads) ffma_load(float a, float b, int trips, float* sink, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  float x[kFmaIlp];
#pragma unroll
  for (int i = 0; i < kFmaIlp; ++i) x[i] = 1.0f + 1e-3f * static_cast<float>((threadIdx.x + i) & 255);
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int s = 0; s < kFmaSteps; ++s) {
#pragma unroll
      for (int i = 0; i < kFmaIlp; ++i) x[i] = __fmaf_rn(x[i], a, b);
    }
  }
  gc_stamp_store(stamps, begin);
  float acc = 0;
#pragma unroll
  for (int i = 0; i < kFmaIlp; ++i) acc += x[i];
  if (acc == -1.0f) *sink = acc;  // x converges to 2b > 0: never true
}

Measurement measure_sm_clock(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const double max_mhz = dev.max_sm_clock_khz / 1e3;
  if (!(max_mhz > 0))
    throw ProbeSkipped(fmt::format("GPU {}'s driver reports no maximum SM clock (cudaDevAttrClockRate)", dev.index));
  int blocks_per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, ffma_load, kFmaThreads, 0));
  const int grid = std::max(1, blocks_per_sm) * dev.sm_count;  // one wave: block 0 spans the launch
  DeviceBuffer<float> sink(1);
  DeviceBuffer<long long> stamps(4 * kFmaTimedLaunches);
  stamps.poison(0);  // a launch that wrote no stamps reads as 0 ns, never as garbage
  const float a = 0.5f, b = 0.75f;
  auto run = [&](int trips, long long* s) { ffma_load<<<grid, kFmaThreads>>>(a, b, trips, sink.get(), s); };
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kFmaLaunchMs, 16);
  const int warmup = static_cast<int>(std::ceil(kFmaWarmupMs / kFmaLaunchMs));
  for (int i = 0; i < warmup; ++i) run(trips, nullptr);
  // Back to back, no host round trip between them: the load never pauses.
  for (int i = 0; i < kFmaTimedLaunches; ++i) run(trips, stamps.get() + 4 * i);
  GC_CUDA_CHECK_LAUNCH();
  const std::vector<long long> q = stamps.download();
  std::vector<double> mhz;
  for (int i = 0; i < kFmaTimedLaunches; ++i) {
    const long long cycles = q[4 * i + 2] - q[4 * i], ns = q[4 * i + 3] - q[4 * i + 1];
    if (ns <= 0 || cycles <= 0)
      throw std::runtime_error(fmt::format("launch {} recorded no clock stamps (cycles {}, ns {})", i, cycles, ns));
    mhz.push_back(static_cast<double>(cycles) / static_cast<double>(ns) * 1e3);
  }
  return sm_clock_measurement(
      mhz, max_mhz,
      fmt::format("{} blocks x {} threads ({} per SM) of fma.rn.f32 chains ({} per thread), {} launches of {} x {} "
                  "steps (about {:.0f} ms each) after {} warm-up launches",
                  grid, kFmaThreads, blocks_per_sm, kFmaIlp, kFmaTimedLaunches, trips, kFmaSteps, kFmaLaunchMs,
                  warmup));
}

// ---- Memory clock under an HBM read stream ----

constexpr int kStreamThreads = 1024;
constexpr int kStreamU = 4;                     // four 16 B loads a thread, as throughput.hbm.read
constexpr double kStreamLaunchMs = 10;
constexpr double kStreamLoadMs = 200;           // NVML read every kPollMs meanwhile
constexpr double kPollMs = 5;
constexpr std::size_t kMinStreamBytes = std::size_t(256) << 20;
using stream::Ld;
using stream::Pattern;
using stream::St;

Measurement measure_memory_clock(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  // Four times the L2 (at least 256 MiB): the reads come from HBM, not from the L2.
  const std::size_t per_block = std::size_t(kStreamThreads) * kStreamU;  // float4 elements
  std::size_t count = std::max(kMinStreamBytes, 4 * static_cast<std::size_t>(std::max<std::int64_t>(dev.l2_bytes, 0))) / 16;
  count -= count % per_block;
  DeviceBuffer<float4> data(count);
  DeviceBuffer<float> sink(1);
  fill_random(reinterpret_cast<std::uint64_t*>(data.get()), data.bytes() / 8, 0x6d656d636c6bu);
  const unsigned blocks = static_cast<unsigned>(count / per_block);
  auto run = [&](int passes) {
    stream::stream_flat<Pattern::read, Ld::def, St::def, 16, kStreamU, kStreamThreads>
        <<<dim3(blocks, static_cast<unsigned>(passes)), kStreamThreads>>>(data.get(), nullptr, nullptr, 0.5f,
                                                                          0x7F7FFFFFu, sink.get());
  };
  // One pass timed (after a warm-up launch that loads the module and wakes the memory),
  // then launches of kStreamLaunchMs for kStreamLoadMs, enqueued at once.
  const std::vector<double> one = time_launches_ms([&] { run(1); }, 1, 3);
  const double pass_ms = std::max(*std::min_element(one.begin(), one.end()), 1e-3);
  const int passes = static_cast<int>(std::clamp(std::ceil(kStreamLaunchMs / pass_ms), 1.0, 65535.0));
  const int launches = static_cast<int>(std::ceil(kStreamLoadMs / kStreamLaunchMs));
  const MemoryClockReading r = read_memory_clock(
      dev.uuid, dev.pci_bus_id,
      [&] {
        for (int i = 0; i < launches; ++i) run(passes);
      },
      [] { return cudaStreamQuery(nullptr) == cudaErrorNotReady; }, kPollMs);
  GC_CUDA_CHECK_LAUNCH();  // the stream's own errors first: a CUDA fault is a failure, not a skip
  if (!r.skipped.empty())
    throw ProbeSkipped(fmt::format("GPU {}'s memory clock cannot be read: {}", dev.index, r.skipped));
  Measurement m = memory_clock_measurement(
      r, fmt::format("{} launches of {} passes over {} MiB streamed HBM reads (flat grid of {} x {} threads, {} x 16 B "
                     "per thread, as throughput.hbm.read), about {:.0f} ms",
                     launches, passes, data.bytes() >> 20, blocks, kStreamThreads, kStreamU,
                     launches * passes * pass_ms));
  m.note("cuda_memory_clock", fmt::format("{:.0f} MHz (cudaDevAttrMemoryClockRate)", dev.mem_clock_khz / 1e3));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"health.under_load.sm_clock",
          Family::health,
          "SM clock under an all-SM FFMA load (clock64 / %globaltimer in the kernel) as a fraction of the board's "
          "maximum SM clock (cudaDevAttrClockRate)",
          {60},
          kFractionOfPeakHint,
          &measure_sm_clock},
    Probe{"health.under_load.memory_clock",
          Family::health,
          "memory clock while HBM read streams run (nvmlDeviceGetClockInfo) as a fraction of its maximum "
          "(nvmlDeviceGetMaxClockInfo)",
          {60},
          kFractionOfPeakHint,
          &measure_memory_clock},
});

}  // namespace
}  // namespace gpuconform::kernels
