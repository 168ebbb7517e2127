// Streaming bandwidth of device memory (HBM/GDDR) and L2: read, write, copy
// and triad, and the cache operators of ld/st, from one generic kernel
// parametrised by the access pattern and the PTX cache operator.
//
// Method (as the original throughput.hbm.read): resident blocks on every SM
// stream the buffers with 16-byte accesses, four independent accesses in
// flight per thread, grid-stride. HBM buffers are eight times the L2 (at
// least 2 GiB each, so launch overhead stays under 1%), read once per launch; the peak is the device's own
// 2 x memory clock x bus bytes (double data rate on the full bus). L2 probes
// stream a footprint of a quarter of the L2 (inside one partition's share on
// Hopper's two-partition L2) many times with .cg (L2 only, no L1) and have no
// public peak: their expectation is a measured minimum. Data are random and
// non-zero; read results feed a sum stored only on an impossible condition.
// Bytes counted: what the kernel reads plus what it writes (full-sector
// writes need no read for ownership).
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

// 1024 threads per block: on an H100 (2026-11-25, tools/device/stream_variants.cu)
// 1024 x 2 blocks per SM read HBM at 0.925 of peak, 512 x 4 at 0.916, and L2 at
// 7.73 against 7.59 TB/s; the loads in flight per thread (4, 8, 16) changed nothing.
constexpr int kThreads = 1024;
constexpr int kUnroll = 4;

enum class Pattern { read, write, copy, triad };
enum class Ld { ca, cg, cs, lu, cv };
enum class St { wb, cg, cs, wt };

#define GC_LD16(op, v, p)                                                                         \
  asm volatile("ld.global." op ".v4.f32 {%0, %1, %2, %3}, [%4];"                                   \
               : "=f"((v).x), "=f"((v).y), "=f"((v).z), "=f"((v).w) : "l"(p) : "memory")
#define GC_ST16(op, p, v)                                                                         \
  asm volatile("st.global." op ".v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"((v).x), "f"((v).y), \
               "f"((v).z), "f"((v).w) : "memory")

template <Ld L>
__device__ __forceinline__ float4 load16(const float4* p) {
  float4 v;
  if constexpr (L == Ld::ca) GC_LD16("ca", v, p);
  else if constexpr (L == Ld::cg) GC_LD16("cg", v, p);
  else if constexpr (L == Ld::cs) GC_LD16("cs", v, p);
  else if constexpr (L == Ld::lu) GC_LD16("lu", v, p);
  else GC_LD16("cv", v, p);
  return v;
}

template <St S>
__device__ __forceinline__ void store16(float4* p, float4 v) {
  if constexpr (S == St::wb) GC_ST16("wb", p, v);
  else if constexpr (S == St::cg) GC_ST16("cg", p, v);
  else if constexpr (S == St::cs) GC_ST16("cs", p, v);
  else GC_ST16("wt", p, v);
}

__device__ __forceinline__ float sum4(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// `passes` sweeps over `count` float4 elements. The loads of one group of
// kUnroll (each predicated on the bound, so that a footprint of only a few
// grid strides, as in the L2 probes, still keeps kUnroll in flight) are
// issued before any is used.
template <Pattern P, Ld L, St S>
__global__ void __launch_bounds__(kThreads) stream_kernel(const float4* a, const float4* b, float4* c,
                                                          std::size_t count, int passes, float scale,
                                                          unsigned sink_key, float* sink, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  float acc = 0;
#pragma unroll 1
  for (int pass = 0; pass < passes; ++pass) {
    // Writes store a per-thread, per-pass non-zero value.
    const float base = 1.0f + static_cast<float>(first & 1023) + scale * static_cast<float>(pass);
    const float4 fill = make_float4(base, base + 0.25f, base + 0.5f, base + 0.75f);
    for (std::size_t i = first; i < count; i += kUnroll * stride) {
      bool in[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) in[u] = i + u * stride < count;
      // All loads of the step first, then their consumers and the stores:
      // volatile asm keeps program order, so a store placed between two
      // loads would hold the second one back until the first returned.
      float4 x[kUnroll], y[kUnroll];
      if constexpr (P != Pattern::write) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u)
          if (in[u]) x[u] = load16<L>(a + i + u * stride);
      }
      if constexpr (P == Pattern::triad) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u)
          if (in[u]) y[u] = load16<L>(b + i + u * stride);
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (!in[u]) continue;
        if constexpr (P == Pattern::read) {
          acc += sum4(x[u]);
        } else if constexpr (P == Pattern::write) {
          store16<S>(c + i + u * stride, fill);
        } else if constexpr (P == Pattern::copy) {
          store16<S>(c + i + u * stride, x[u]);
        } else {
          store16<S>(c + i + u * stride, make_float4(x[u].x + scale * y[u].x, x[u].y + scale * y[u].y,
                                                     x[u].z + scale * y[u].z, x[u].w + scale * y[u].w));
        }
      }
    }
  }
  gc_stamp_store(stamps, begin);
  if (__float_as_uint(acc) == sink_key) *sink = acc;  // practically never true; keeps the loads live
}

int arrays_read(Pattern p) { return p == Pattern::read || p == Pattern::copy ? 1 : p == Pattern::triad ? 2 : 0; }
int arrays_written(Pattern p) { return p == Pattern::read ? 0 : 1; }

template <Pattern P, Ld L, St S, bool OnL2>
Measurement measure_stream(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (!OnL2 && (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0))
    throw ProbeSkipped("the device reports no memory clock or bus width, so no peak can be derived");
  if (OnL2 && dev.l2_bytes <= 0) throw ProbeSkipped("the device reports no L2 size");
  const std::size_t bytes = OnL2 ? static_cast<std::size_t>(dev.l2_bytes) / 4
                                 : std::max<std::size_t>(std::size_t(2) << 30, 8 * static_cast<std::size_t>(dev.l2_bytes));
  const std::size_t count = bytes / sizeof(float4);
  const int n_in = arrays_read(P), n_out = arrays_written(P);
  DeviceBuffer<float4> a(n_in >= 1 ? count : 0), b(n_in >= 2 ? count : 0), c(n_out ? count : 0);
  DeviceBuffer<float> sink(1);
  if (n_in >= 1) fill_random(reinterpret_cast<std::uint64_t*>(a.get()), bytes / 8, 0x6770756366u);
  if (n_in >= 2) fill_random(reinterpret_cast<std::uint64_t*>(b.get()), bytes / 8, 0x7472696164u);
  if (n_out) fill_random(reinterpret_cast<std::uint64_t*>(c.get()), bytes / 8, 0x77726974u);

  int blocks_per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, stream_kernel<P, L, S>, kThreads, 0));
  const int grid = std::max(1, blocks_per_sm) * dev.sm_count;
  // L2: enough passes for about 2 ms at 10 TB/s (0.5 ms quick).
  const int passes = OnL2 ? std::max(4, static_cast<int>((ctx.quick ? 5e9 : 2e10) / static_cast<double>(bytes))) : 1;
  const float scale = 0.5f;
  auto launch = [&](long long* stamps) {
    stream_kernel<P, L, S><<<grid, kThreads>>>(a.get(), b.get(), c.get(), count, passes, scale, 0x7F7FFFFFu,
                                               sink.get(), stamps);
  };
  Work work;
  work.units_per_launch = static_cast<double>(bytes) * (n_in + n_out) * passes;
  work.sms_used = dev.sm_count;
  work.unit = "B/s";
  work.method = fmt::format("{} MiB x {} array(s) read + {} written, {} pass(es), 16 B accesses, {} in flight per "
                            "thread, {} blocks x {} threads; random non-zero data",
                            bytes >> 20, n_in, n_out, passes, kUnroll, grid, kThreads);
  if (!OnL2) {
    const double bus_bytes = dev.mem_bus_width_bits / 8.0;
    work.device_peak = 2.0 * dev.mem_clock_khz * 1e3 * bus_bytes;
    work.device_peak_formula = fmt::format("2 x {:.0f} MHz x {:.0f} B bus", dev.mem_clock_khz / 1e3, bus_bytes);
  }
  ThroughputOptions options = throughput_options(ctx);
  // Device memory: untimed streaming for 50 ms first (timing.hpp: an H200 ran
  // at 0.82 of peak for its first few ms); the L2 passes are long enough already.
  options.warmup = OnL2 ? 1 : warmup_launches_for([&] { launch(nullptr); }, 50.0);
  Measurement m = measure_throughput(ctx, work, launch, options);
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&stream_kernel<P, L, S>), dev.arch()));
  return m;
}

const RecordHint kFraction{ExpectationKind::fraction_of_peak, 0, 0, 0.05};
const RecordHint kMin{ExpectationKind::min, 0, 0, 0.05};

#define GC_HBM(id, P, L, S, what)                                                                     \
  Probe{"throughput.hbm." id, Family::throughput,                                                     \
        "device-memory " what " bandwidth as a fraction of 2 x memory clock x bus width", {75}, kFraction, \
        &measure_stream<Pattern::P, Ld::L, St::S, false>}

const bool kRegistered = [] {
  for (const Probe& p : {
           // throughput.hbm.read itself stays kernels/bandwidth/hbm_read.cu: its sm_90 entries
           // were measured with that method; read.cs is this kernel's equivalent, to be
           // compared with it on a GPU before the two are merged.
           GC_HBM("write", write, cs, wb, "write (.wb stores)"),
           GC_HBM("copy", copy, cs, wb, "copy (.cs loads, .wb stores)"),
           GC_HBM("triad", triad, cs, wb, "triad a = b + s*c (.cs loads, .wb stores)"),
           GC_HBM("read.ca", read, ca, wb, "read with ld.global.ca"),
           GC_HBM("read.cg", read, cg, wb, "read with ld.global.cg"),
           GC_HBM("read.cs", read, cs, wb, "read with ld.global.cs"),
           GC_HBM("read.lu", read, lu, wb, "read with ld.global.lu"),
           GC_HBM("read.cv", read, cv, wb, "read with ld.global.cv"),
           GC_HBM("write.wb", write, cs, wb, "write with st.global.wb"),
           GC_HBM("write.cg", write, cs, cg, "write with st.global.cg"),
           GC_HBM("write.cs", write, cs, cs, "write with st.global.cs"),
           GC_HBM("write.wt", write, cs, wt, "write with st.global.wt"),
           Probe{"throughput.l2.read", Family::throughput,
                 "L2 read bandwidth (.cg loads over a quarter of the L2, all SMs); no public peak: a measured minimum",
                 {75}, kMin, &measure_stream<Pattern::read, Ld::cg, St::wb, true>},
           Probe{"throughput.l2.write", Family::throughput,
                 "L2 write bandwidth (.cg stores over a quarter of the L2, all SMs); no public peak: a measured minimum",
                 {75}, kMin, &measure_stream<Pattern::write, Ld::cg, St::cg, true>},
       })
    Registry::instance().add(p);
  return true;
}();

}  // namespace
}  // namespace gpuconform::kernels
