// SPDX-License-Identifier: Apache-2.0
// Streaming bandwidth of device memory (HBM/GDDR) and L2: read, write, copy
// and triad, and the cache operators of ld/st, from one generic kernel per
// grid shape, parametrised by the access pattern, the PTX cache operator, the
// access width and the accesses per thread.
//
// Method (docs/throughput.md, "How close the probes come", has the measurements behind it):
//
// - Device memory: a "flat" grid, as gpu-stream's kernels that reach 0.98 of
//   the peak on the same boards: one 16 B access per thread (four 16 B loads
//   for reads), no grid-stride loop, 1024-thread blocks, one block per 1024
//   accesses' worth of elements. Each
//   launch covers every array `passes` times (grid.y = passes), so that it
//   lasts at least kLaunchTargetMs at the peak: the suite's earlier 0.35 ms
//   launches lost 1-2.5 % to the launch and its ramp. Arrays of 4 GiB (at least
//   eight times the L2; smaller only when the device lacks the memory): no pass
//   finds the previous pass's data in the L2. The peak is the device's own
//   2 x memory clock x bus bytes (double data rate on the full bus).
// - L2: one launch of an L2 probe is one kernel in each of L2Shape::placements
//   footprints of separate allocations, back to back. The placements were
//   meant to average the footprint's physical pages; the pages turned out not
//   to matter (tools/device/l2_pool_variants.cu, 2026-11-27: 64 footprints
//   spread over 16 GiB read one level within a process, and the level moved
//   9.74-11.04 TB/s between four processes of H100 GPU-690f792e). What moves
//   it is the block -> SM map, which the scheduler fixes per process and
//   alternates between two per launch: a read whose step shared a factor with
//   the ring's chunks gave each block one residue class of chunks, so which SM
//   read which chunks was the map's choice. l2.read now steps by a count
//   coprime with the chunks, so every block visits every chunk (L2Shape::
//   coprime_step; tools/device/l2_block_map_variants.cu: +4 to +16 % on three
//   H100s and four H200s, and between processes of one board 0.6-3.5 % apart
//   where the old step gave 0.5-7.5 %). Eight kernels a launch still average
//   the two maps of a process.
// - L2: a resident grid (blocks per SM from the occupancy calculator) cycles
//   through a footprint of a quarter of the L2 (inside one partition's share
//   on Hopper's two-partition L2), one contiguous chunk per block and step,
//   with .cg (L2 only, no L1), 4-byte accesses, four independent loads in
//   flight per thread: on an H100 (GPU-d9b2911a, 2026-11-26,
//   tools/device/stream_variants.cu) 4 B x 4 read 11.26 TB/s from a quarter
//   of the L2, 4 B x 8 10.13, 8 B x 4 9.29 and 16 B loads at most 8.5. Launches
//   of at least kLaunchTargetMs (calibrate_trips). No public peak: the
//   expectation is a measured minimum.
//
// Data are non-zero: random for device memory; for the L2, one repeated byte,
// because the L2 reads random data so fast that the board's power limit, not
// the L2, sets the rate: on an H100 (GPU-cba43399, 2026-11-27,
// tools/device/l2_power_variants.cu) the l2.read kernel drew 662 W of the
// 700 W limit on random data and 475 W on one repeated word, at the same
// 11.29 / 11.31 TB/s; in suite runs, where the earlier probes have warmed the
// board, the random-data runs that met sw_power_cap read up to 5 % less than
// the same board's other runs. Read results feed a sum stored only on an
// impossible condition. Bytes counted: what the kernel reads plus what it
// writes, as STREAM counts them (full-sector writes need no read for
// ownership), e.g. triad = 2 arrays read + 1 written.
//
// The shapes are switched in one place (HbmShape, L2Shape below);
// tools/device/stream_variants.cu measures the alternatives on a GPU node.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "common/clock_stamps.cuh"
#include "common/fill.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sampling.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "throughput/stream_access.cuh"

namespace gpuconform::kernels {
namespace {

using namespace gpuconform::stream;  // NOLINT: the access vocabulary of this file

// flat: one block per kThreads x per_thread elements and per pass, no loop;
// resident: as many blocks as fit at once, each thread cycling through the
// footprint with per_thread accesses in flight.
enum class Shape { flat, resident };

// 1024-thread blocks for both shapes: gpu-stream's shape for the flat grid; for
// the resident one an H100 (2026-11-25) read HBM at 0.925 of peak with 1024 x 2
// blocks per SM against 0.916 with 512 x 4, and L2 at 7.73 against 7.59 TB/s.
constexpr int kThreads = 1024;

// ---- The shapes: everything the lead may switch after a stream_variants run ----
struct HbmShape {
  static constexpr bool on_l2 = false;
  static constexpr Shape shape = Shape::flat;
  static constexpr int width = 16;  // bytes per access: 4, 8 or 16
  // flat: accesses per thread (resident: accesses in flight per thread). Reads
  // take four 16 B loads a thread, writes, copies and triads one access: on an
  // H200 (GPU-717f66b6, 2026-11-26, stream_variants.cu) one 16 B load a thread
  // read 0.851 of the peak and four 0.963 (H100 GPU-d9b2911a: 0.957 and
  // 0.957), while four a thread copied at 0.882 against 0.912 (H100).
  static constexpr int per_thread(Pattern p) { return p == Pattern::read ? 4 : 1; }
  static constexpr int max_per_thread = 4;
  static constexpr std::size_t array_bytes = std::size_t(4) << 30;  // per array, when the device has the memory
  static constexpr bool repeated_fill = false;                      // random data
  static constexpr int placements = 1;                              // 4 GiB arrays span thousands of pages
};
struct L2Shape {
  static constexpr bool on_l2 = true;
  static constexpr Shape shape = Shape::resident;
  static constexpr int width = 4;
  static constexpr int per_thread(Pattern) { return 4; }
  static constexpr int max_per_thread = 4;
  static constexpr int footprint_divisor = 4;  // footprint = L2 / 4
  static constexpr bool repeated_fill = true;  // one repeated byte, not random data (header)
  static constexpr int placements = 8;         // footprints per launch, each its own allocation (header)
  // Reads step coprime with the ring (header: the block -> SM map). Writes keep
  // grid mod chunks: their rate did not move between processes (4.02-4.06 TB/s
  // in four processes of GPU-602350d0, whose reads moved 2.8 %).
  static constexpr bool coprime_step(Pattern p) { return p == Pattern::read; }
};
// The cache operators of hbm.read/write/copy/triad (the .ca/.cg/... variants
// name theirs). ptxas 13.0 for sm_90a: ld.global.cs -> LDG.E.EF (evict-first),
// plain ld.global -> LDG.E, ld.global.cg -> LDG.E.STRONG.GPU; plain st.global ->
// STG.E, st.global.wb -> STG.E.STRONG.SM (not the plain store, although the PTX
// manual calls .wb the default), st.global.cs -> STG.E.EF. Plain loads and
// stores, as a C++ kernel has: on an H100 (GPU-d9b2911a, 2026-11-26,
// stream_variants.cu, 16 B flat, 8 passes) copy and triad reached 0.911 and
// 0.921 of the peak so, and 0.896 and 0.901 with .cs loads and plain stores
// (evict-first loads beside normal stores); reads and writes alone read 0.957
// and wrote 0.987 with any operator.
constexpr Ld kHbmLoad = Ld::def;
constexpr St kHbmStore = St::def;
// Untimed device-memory streaming before the first timed launch: an H200 read
// its HBM at 0.82 of peak for the first six 0.45 ms launches of a probe, then at
// 0.95 (2026-11-25), so warm-up is a time, not a count of launches.
constexpr double kHbmWarmupMs = 50;

// Resident grid: the footprint is a ring of chunks of kThreads x U elements;
// block i takes chunks i, i + s, i + 2s, ... modulo `chunks`, one per step
// (s: resident_step), thread t the elements t + u * kThreads of it: U
// accesses in flight per thread however few elements per thread the footprint
// holds (a quarter of an L2 is 3 float4 per thread of a full H100 grid), and
// the wrap costs one compare per step, not one per access (the offsets within
// a chunk are immediates of the loads).
template <Pattern P, Ld L, St S, int W, int U>
__global__ void __launch_bounds__(kThreads)
    stream_resident(const Vec<W>* a, const Vec<W>* b, Vec<W>* c, unsigned chunks, unsigned step, unsigned groups,
                    float scale, unsigned sink_key, float* sink, long long* stamps) {
  const GcStamp begin = gc_stamp_now();
  unsigned k = blockIdx.x % chunks;
  float base = 1.0f + static_cast<float>(threadIdx.x);
  float acc = 0;
#pragma unroll 1
  for (unsigned g = 0; g < groups; ++g) {
    const std::size_t first = static_cast<std::size_t>(k) * (kThreads * U) + threadIdx.x;
    std::size_t at[U];
#pragma unroll
    for (int u = 0; u < U; ++u) at[u] = first + static_cast<std::size_t>(u) * kThreads;
    stream_step<P, L, S, U>(a, b, c, at, scale, base, acc);
    k += step;
    if (k >= chunks) k -= chunks;
    base += scale;
  }
  gc_stamp_store(stamps, begin);
  if (P == Pattern::read && __float_as_uint(acc) == sink_key) *sink = acc;
}

// The resident grid's step through a ring of `chunks`: the grid's blocks, so
// that one step's blocks read distinct chunks; with `coprime`, the next count
// that shares no factor with chunks, so that every block visits every chunk.
unsigned resident_step(std::size_t grid, std::size_t chunks, bool coprime) {
  std::size_t step = grid % chunks;
  if (coprime)
    while (std::gcd(step, chunks) != 1) ++step;
  return static_cast<unsigned>(step);
}

int arrays_read(Pattern p) { return p == Pattern::read || p == Pattern::copy ? 1 : p == Pattern::triad ? 2 : 0; }
int arrays_written(Pattern p) { return p == Pattern::read ? 0 : 1; }
const char* ld_name(Ld l) {
  constexpr const char* names[] = {"ld.global",    "ld.global.ca", "ld.global.cg",
                                   "ld.global.cs", "ld.global.lu", "ld.global.cv"};
  return names[static_cast<int>(l)];
}
const char* st_name(St s) {
  constexpr const char* names[] = {"st.global", "st.global.wb", "st.global.cg", "st.global.cs", "st.global.wt"};
  return names[static_cast<int>(s)];
}

// Bytes per device-memory array: Shape::array_bytes, or less when `arrays` of
// them would take more than 80 % of the free memory, never below eight times
// the L2; a multiple of 2 MiB (whole flat blocks of any width x per_thread).
template <class Shape_>
std::size_t hbm_array_bytes(const DeviceInfo& dev, int arrays) {
  std::size_t free_bytes = 0, total_bytes = 0;
  GC_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t fits = static_cast<std::size_t>(0.8 * static_cast<double>(free_bytes)) / std::max(1, arrays);
  std::size_t bytes = std::min(Shape_::array_bytes, fits);
  bytes = std::max(bytes, 8 * static_cast<std::size_t>(dev.l2_bytes));
  constexpr std::size_t kGrain = std::size_t(2) << 20;
  static_assert(kGrain % (std::size_t(kThreads) * Shape_::max_per_thread * Shape_::width) == 0,
                "flat blocks must tile");
  return bytes / kGrain * kGrain;
}

constexpr int kRepeatedByte = 0x3F;  // repeated_fill's byte

// The arrays of one probe: a and b read, c written, one set per placement
// (Cfg::placements; device memory: one), each filled as Cfg says: random
// non-zero words, or (repeated_fill) the byte 0x3F, so every 4-byte word reads
// 0x3F3F3F3F, the float 0.747, never zero.
template <class T>
struct StreamArrays {
  std::vector<DeviceBuffer<T>> a, b, c;
};

template <class T, class Cfg>
StreamArrays<T> stream_arrays(std::size_t count, int n_in, int n_out) {
  const std::size_t bytes = count * sizeof(T);
  auto fill = [bytes](T* p, std::uint64_t seed) {
    if (Cfg::repeated_fill)
      GC_CUDA_CHECK(cudaMemset(p, kRepeatedByte, bytes));
    else
      fill_random(reinterpret_cast<std::uint64_t*>(p), bytes / 8, seed);
  };
  StreamArrays<T> s;
  for (int p = 0; p < Cfg::placements; ++p) {
    s.a.emplace_back(n_in >= 1 ? count : 0);
    s.b.emplace_back(n_in >= 2 ? count : 0);
    s.c.emplace_back(n_out ? count : 0);
    if (n_in >= 1) fill(s.a.back().get(), 0x6770756366u + p);
    if (n_in >= 2) fill(s.b.back().get(), 0x7472696164u + p);
    if (n_out) fill(s.c.back().get(), 0x77726974u + p);
  }
  return s;
}

template <Pattern P, Ld L, St S, class Cfg>
Measurement measure_stream(const ProbeContext& ctx) {
  constexpr int W = Cfg::width, U = Cfg::per_thread(P);
  using T = Vec<W>;
  const DeviceInfo& dev = ctx.device;
  if (!Cfg::on_l2 && (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0))
    throw ProbeSkipped("the device reports no memory clock or bus width, so no peak can be derived");
  if (Cfg::on_l2 && dev.l2_bytes <= 0) throw ProbeSkipped("the device reports no L2 size");
  const int n_in = arrays_read(P), n_out = arrays_written(P), n_arrays = n_in + n_out;

  std::size_t bytes = 0;  // per array
  if constexpr (Cfg::on_l2) {
    // Whole chunks of kThreads x U accesses (both shapes): 16-128 KiB.
    bytes = static_cast<std::size_t>(dev.l2_bytes) / L2Shape::footprint_divisor;
    bytes -= bytes % (std::size_t(kThreads) * U * W);
  } else {
    bytes = hbm_array_bytes<Cfg>(dev, n_arrays);
  }
  const std::size_t count = bytes / W;
  if (count < std::size_t(kThreads) * U) throw ProbeSkipped("the footprint is smaller than one block's accesses");
  constexpr int kPlacements = Cfg::placements;
  StreamArrays<T> arrays = stream_arrays<T, Cfg>(count, n_in, n_out);
  std::vector<DeviceBuffer<T>>&as = arrays.a, &bs = arrays.b, &cs = arrays.c;
  DeviceBuffer<float> sink(1);
  const float scale = 0.5f;
  const unsigned key = 0x7F7FFFFFu;

  // Device memory: passes for kLaunchTargetMs at the peak (a launch at any
  // lower rate lasts longer); computed rather than calibrated, so that every
  // run on a board times the same launch, and so that the first launches, at
  // the cold rate, do not size it. L2 has no peak: calibrate_trips.
  const double peak = Cfg::on_l2 ? 0 : 2.0 * dev.mem_clock_khz * 1e3 * (dev.mem_bus_width_bits / 8.0);
  const int hbm_passes = Cfg::on_l2 ? 0
                                    : std::max(1, static_cast<int>(std::ceil(kLaunchTargetMs * 1e-3 * peak /
                                                                             (static_cast<double>(bytes) * n_arrays))));
  Work work;
  std::string grid_text;
  StampedLaunch launch;
  const void* kernel = nullptr;
  double passes_per_launch = 0;
  if constexpr (Cfg::shape == Shape::flat) {
    kernel = reinterpret_cast<const void*>(&stream_flat<P, L, S, W, U, kThreads>);
    const std::size_t blocks_per_pass = count / (std::size_t(kThreads) * U);
    if (blocks_per_pass > 0x7FFFFFFFu) throw ProbeSkipped("the array needs more blocks than a grid dimension holds");
    static_assert(Cfg::shape != Shape::flat || kPlacements == 1, "the flat grid streams one set of arrays");
    auto run = [=, &as, &bs, &cs, &sink](int passes) {
      stream_flat<P, L, S, W, U, kThreads>
          <<<dim3(static_cast<unsigned>(blocks_per_pass), static_cast<unsigned>(passes)), kThreads>>>(
              as[0].get(), bs[0].get(), cs[0].get(), scale, key, sink.get());
    };
    // grid.y caps the passes at 65535: ample (an L2 quarter of 12 MiB at 10 TB/s needs ~4100 for 5 ms).
    const int passes = Cfg::on_l2 ? calibrate_trips(run, kLaunchTargetMs, 1, 65535) : std::min(hbm_passes, 65535);
    launch = [run, passes](long long*) { run(passes); };
    passes_per_launch = passes;
    grid_text = fmt::format(
        "flat grid: {} blocks x {} threads per pass x {} passes (grid.y), {} x {} B per thread, "
        "no loop",
        blocks_per_pass, kThreads, passes, U, W);
  } else {
    kernel = reinterpret_cast<const void*>(&stream_resident<P, L, S, W, U>);
    const std::size_t chunks = count / (std::size_t(kThreads) * U);
    if (chunks >= (std::size_t(1) << 31)) throw ProbeSkipped("the resident kernel indexes fewer than 2^31 chunks");
    int blocks_per_sm = 0;
    GC_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, stream_resident<P, L, S, W, U>, kThreads, 0));
    const int grid = std::max(1, blocks_per_sm) * dev.sm_count;
    const unsigned step = resident_step(grid, chunks, Cfg::coprime_step(P));
    // One kernel in placement p; the clock stamps come from the first placement's kernel.
    auto run = [=, &as, &bs, &cs, &sink](int p, int groups, long long* stamps) {
      stream_resident<P, L, S, W, U><<<grid, kThreads>>>(as[p].get(), bs[p].get(), cs[p].get(),
                                                         static_cast<unsigned>(chunks), step,
                                                         static_cast<unsigned>(groups), scale, key, sink.get(), stamps);
    };
    // Steps (one chunk per block each) for one pass over the footprint.
    const int one_pass = std::max(1, static_cast<int>((chunks + grid - 1) / grid));
    const int groups = Cfg::on_l2 ? calibrate_trips([&](int g) { run(0, g, nullptr); }, kLaunchTargetMs, one_pass)
                                  : hbm_passes * one_pass;
    // A "launch" of the harness: one kernel in every placement, back to back.
    launch = [run, groups](long long* stamps) {
      for (int p = 0; p < kPlacements; ++p) run(p, groups, p == 0 ? stamps : nullptr);
    };
    passes_per_launch = static_cast<double>(groups) * grid / static_cast<double>(chunks) * kPlacements;
    grid_text = fmt::format(
        "resident grid: {} blocks x {} threads ({} per SM), {} x {} B accesses in flight per "
        "thread, {} steps of one {} KiB chunk per block through a ring of {} chunks, {} chunks a step{}{}",
        grid, kThreads, blocks_per_sm, U, W, groups, kThreads * U * W / 1024, chunks, step,
        Cfg::coprime_step(P) ? " (coprime with the ring: every block visits every chunk)" : "",
        kPlacements > 1 ? fmt::format("; one kernel in each of {} footprints of separate "
                                      "allocations per launch (placements, header)",
                                      kPlacements)
                        : std::string());
  }
  work.units_per_launch = static_cast<double>(bytes) * n_arrays * passes_per_launch;
  work.sms_used = dev.sm_count;
  work.unit = "B/s";
  const std::string ops = P == Pattern::read    ? ld_name(L)
                          : P == Pattern::write ? st_name(S)
                                                : fmt::format("{} / {}", ld_name(L), st_name(S));
  work.method = fmt::format(
      "{} MiB{} x {} array(s) read + {} written, {:.4g} passes per launch (>= {} ms{}); {}; {}; "
      "{}; bytes = all reads + writes",
      bytes >> 20, Cfg::on_l2 ? fmt::format(" (1/{} of the L2)", L2Shape::footprint_divisor) : "", n_in, n_out,
      passes_per_launch, kLaunchTargetMs, Cfg::on_l2 ? ", calibrated" : " at the peak", grid_text, ops,
      Cfg::repeated_fill ? fmt::format("data: the non-zero byte {:#x} repeated (power, header)", kRepeatedByte)
                         : "random non-zero data");
  if (!Cfg::on_l2) {
    const double bus_bytes = dev.mem_bus_width_bits / 8.0;
    work.device_peak = peak;
    work.device_peak_formula = fmt::format("2 x {:.0f} MHz x {:.0f} B bus", dev.mem_clock_khz / 1e3, bus_bytes);
  }
  ThroughputOptions options = throughput_options(ctx);
  // Device memory: untimed streaming first; the L2 needs none.
  if (!Cfg::on_l2) options.policy.min_warmup_ms = kHbmWarmupMs;
  Measurement m = measure_throughput(ctx, work, launch, options);
  m.note("sass", sass::timed_region_note(kernel, dev.arch()));
  return m;
}

// Summaries: "device-memory <what> bandwidth as a fraction of 2 x memory clock x bus width".
std::string hbm_summary(const std::string& what) {
  return "device-memory " + what + " bandwidth as a fraction of 2 x memory clock x bus width";
}
const std::string kOps = fmt::format("{} loads, {} stores", ld_name(kHbmLoad), st_name(kHbmStore));

#define GC_HBM(id, P, L, S, what)                                                           \
  Probe {                                                                                   \
    "throughput.hbm." id, Family::throughput, hbm_summary(what), {75}, kFractionOfPeakHint, \
        &measure_stream<Pattern::P, L, S, HbmShape>                                         \
  }

const bool kRegistered = register_probes({
    // hbm.read keeps the summary of the retired kernels/bandwidth/hbm_read.cu.
    GC_HBM("read", read, kHbmLoad, kHbmStore, "read"),
    GC_HBM("write", write, kHbmLoad, kHbmStore, fmt::format("write ({} stores)", st_name(kHbmStore))),
    GC_HBM("copy", copy, kHbmLoad, kHbmStore, fmt::format("copy ({})", kOps)),
    GC_HBM("triad", triad, kHbmLoad, kHbmStore, fmt::format("triad a = b + s*c ({})", kOps)),
    GC_HBM("read.ca", read, Ld::ca, kHbmStore, "read with ld.global.ca"),
    GC_HBM("read.cg", read, Ld::cg, kHbmStore, "read with ld.global.cg"),
    GC_HBM("read.cs", read, Ld::cs, kHbmStore, "read with ld.global.cs"),
    GC_HBM("read.lu", read, Ld::lu, kHbmStore, "read with ld.global.lu"),
    GC_HBM("read.cv", read, Ld::cv, kHbmStore, "read with ld.global.cv"),
    GC_HBM("write.wb", write, kHbmLoad, St::wb, "write with st.global.wb"),
    GC_HBM("write.cg", write, kHbmLoad, St::cg, "write with st.global.cg"),
    GC_HBM("write.cs", write, kHbmLoad, St::cs, "write with st.global.cs"),
    GC_HBM("write.wt", write, kHbmLoad, St::wt, "write with st.global.wt"),
    Probe{"throughput.l2.read",
          Family::throughput,
          "L2 read bandwidth (.cg loads over a quarter of the L2, all SMs); no public peak: a measured minimum",
          {75},
          kMinHint,
          &measure_stream<Pattern::read, Ld::cg, St::wb, L2Shape>},
    Probe{"throughput.l2.write",
          Family::throughput,
          "L2 write bandwidth (.cg stores over a quarter of the L2, all SMs); no public peak: a measured minimum",
          {75},
          kMinHint,
          &measure_stream<Pattern::write, Ld::cg, St::cg, L2Shape>},
});

}  // namespace
}  // namespace gpuconform::kernels
