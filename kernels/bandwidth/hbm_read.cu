// Device-memory (HBM/GDDR) read bandwidth against the peak derived from the
// memory clock and bus width the device reports.
//
// Method: every SM runs resident blocks that stream a buffer eight times the
// L2 (at least 1 GiB) with 16-byte loads, four independent loads in flight
// per thread, XOR-reducing into a register that is stored only on an
// impossible condition so the loads cannot be removed. Event-timed median of
// repeated launches after warm-up; bytes = buffer size (each byte read once).
#include <algorithm>
#include <cstdint>
#include <fmt/format.h>

#include "common/fill.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 4;

__global__ void __launch_bounds__(kThreads) hbm_read_kernel(const int4* __restrict__ data, std::size_t count,
                                                            int4* sink) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  int4 acc = make_int4(0, 0, 0, 0);
  for (; i + (kUnroll - 1) * stride < count; i += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldcs(data + i + u * stride);  // streaming: no L1 reuse
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      acc.x ^= v[u].x; acc.y ^= v[u].y; acc.z ^= v[u].z; acc.w ^= v[u].w;
    }
  }
  for (; i < count; i += stride) {
    const int4 v = __ldcs(data + i);
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if ((acc.x & acc.y & acc.z & acc.w) == -1) *sink = acc;  // practically never true
}

Measurement measure_hbm_read(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0)
    throw ProbeSkipped("the device reports no memory clock or bus width, so no peak can be derived");
  const std::size_t bytes = std::max<std::size_t>(std::size_t(1) << 30, 8 * static_cast<std::size_t>(dev.l2_bytes));
  const std::size_t count = bytes / sizeof(int4);
  DeviceBuffer<int4> data(count);
  DeviceBuffer<int4> sink(1);
  fill_random(reinterpret_cast<std::uint64_t*>(data.get()), bytes / 8, 0x6770756366u);

  int blocks_per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, hbm_read_kernel, kThreads, 0));
  const int grid = std::max(1, blocks_per_sm) * dev.sm_count;
  auto launch = [&] { hbm_read_kernel<<<grid, kThreads>>>(data.get(), count, sink.get()); };
  // 50 ms of untimed streaming first (timing.hpp: device memory reaches its
  // sustained rate only after a few ms; 3 launches were too few on an H200).
  const auto ms = time_launches_ms(launch, warmup_launches_for(launch, 50.0), ctx.quick ? 5 : 20);
  Measurement m;
  m.unit = "B/s";
  for (double t : ms) m.samples.push_back(static_cast<double>(bytes) / (t * 1e-3));
  m.value = median(m.samples);
  m.sm_clock_mhz = measure_sm_clock_mhz();
  // Double data rate: two transfers per memory clock on the full bus.
  const double bus_bytes = dev.mem_bus_width_bits / 8.0;
  m.peak = 2.0 * dev.mem_clock_khz * 1e3 * bus_bytes;
  m.peak_formula = fmt::format("2 x {:.0f} MHz x {:.0f} B bus", dev.mem_clock_khz / 1e3, bus_bytes);
  m.note("method", fmt::format("{} MiB read with 16 B streaming loads, {} blocks x {} threads, "
                               "event-timed median", bytes >> 20, grid, kThreads));
  return m;
}

}  // namespace

GPUCONFORM_PROBE("throughput.hbm.read", Family::throughput,
                 "device-memory read bandwidth as a fraction of 2 x memory clock x bus width", {75},
                 {ExpectationKind::fraction_of_peak, 0, 0, 0.05}, &measure_hbm_read);

}  // namespace gpuconform::kernels
