// SPDX-License-Identifier: Apache-2.0
// Latency of the asynchronous global -> shared copies (issue 23, item 2), by
// pointer chase at the L2-hit level, beside a plain dependent load of the same
// lines in the same kernel:
//
//   latency.tma.load                 one cp.async.bulk (TMA, 1-D) of a 128-byte
//                                    tile into shared memory per hop, completed
//                                    on an mbarrier (arrive.expect_tx, then
//                                    try_wait.parity), the next address read
//                                    from the tile (ld.shared)
//   latency.tma.load.extra_over_ldg  latency.tma.load minus ld.global.cg's
//                                    latency over the same lines, same SM,
//                                    same launch shape (per repeat, then median)
//   latency.tma.load.tensor_2d       the same chase through a tensor map: the
//                                    footprint as a 2-D map of rows of 32 4-byte
//                                    elements (one line per row), each node the
//                                    next node's row, one cp.async.bulk.tensor.2d
//                                    of the 32 x 1 box at {0, row} per hop
//   latency.cp_async                 one cp.async.cg of 16 bytes (LDGSTS) per
//                                    hop, commit_group + wait_group 0, then the
//                                    next address from shared memory
//   latency.cp_async.extra_over_ldg  latency.cp_async minus ld.global.cg's
//
// Method (pointer_chase.cuh's, with the load replaced): 4096 random 128-byte
// lines of an eighth of the L2, each holding the address of the next in a
// single random cycle; one chasing block on every SM at once (as
// latency.mem.l2_hit: common/every_sm.cuh) first reads the footprint with ld.cg
// (into L2), thread 0 walks one untimed lap from its SM's own node of the cycle
// and then times a second lap with clock64; the value is the median over SMs,
// so it does not depend on where SM 0 sits on the die (the L1-level cp.async.ca
// pair, an SM-local hit, stays on SM 0). TMA and
// LDGSTS bypass L1 (cp.async.cg by its cache operator; TMA writes shared memory
// from L2), so every timed hop is an L2 hit, as the ld.global.cg reference is.
// The extra over ld.global.cg is what a program pays for routing a dependent
// load through shared memory: the copy unit, the mbarrier or async-group wait
// and the shared-memory read of the result. Every mbarrier wait is bounded: a
// transfer that never completes ends the chase with an error, never a hang.
#include <fmt/format.h>

#include <stdexcept>
#include <string>

#include "common/device_clock.cuh"
#include "common/every_sm.cuh"
#include "common/placement.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "latency/chase_plan.hpp"
#include "latency/dependent_chain.cuh"
#include "latency/async_plan.hpp"
#include "latency/pointer_chase.cuh"
#include "throughput/tensor_map.hpp"

namespace gpuconform::kernels {
namespace {

enum class Copy { ldg, tma_bulk, cp_async_cg, tma_tensor, ldg_ca, cp_async_ca };

// The L1-level copies chase a 16 KiB footprint warmed with ld.ca (L1 hits); the
// others 4096 lines of L2/8 warmed with ld.cg (L2 hits).
constexpr bool at_l1(Copy c) { return c == Copy::ldg_ca || c == Copy::cp_async_ca; }
constexpr unsigned long long kL1Bytes = 16 << 10;

constexpr unsigned kTileBytes = 128;   // one L2 line per TMA hop
constexpr unsigned kLdgstsBytes = 16;  // cp.async.cg copies 16 bytes
constexpr int kThreads = 1024;
constexpr unsigned long long kLine = 128;
constexpr std::size_t kLines = 4096;
constexpr int kPinnedSm = 0;
constexpr long long kSpinLimit = 1ll << 22;  // polls of one mbarrier phase before the chase gives up
constexpr std::uint64_t kSeed = 0x746d616c6174ull;

struct AsyncArgs {
  unsigned long long start = 0;
  const char* warm_base = nullptr;
  unsigned long long warm_bytes = 0;
  int warm_hops = 0, timed_hops = 0;
  int target_sm = kPinnedSm;
  unsigned* claimed = nullptr;
  long long* result = nullptr;  // [0] cycles, [1] SM, [2] last node, [3] error (0: none)
  every_sm::Slots every{};      // active: every SM chases (start, target_sm and result unused)
};

// Copy::tma_tensor: `map` views the footprint as rows of 32 4-byte elements (one
// 128-byte line per row), each node holds the row index of the next node, and a
// hop loads the 32 x 1 box at {0, row}; the other copies chase 64-bit addresses.
template <Copy C>
__global__ void __launch_bounds__(kThreads) async_chase_kernel(AsyncArgs a, const __grid_constant__ CUtensorMap map) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ bool chosen;
  __shared__ unsigned sm;
  __shared__ __align__(128) unsigned char tile[kTileBytes];
  __shared__ __align__(8) unsigned long long bar;
  if (threadIdx.x == 0) {
    sm = chase_dev::smid();
    if (a.every.active()) {
      chosen = every_sm::claim(a.every, sm);  // the others leave at once
    } else {
      chosen = a.target_sm < 0 || (sm == static_cast<unsigned>(a.target_sm) && atomicExch(a.claimed, 1u) == 0u);
      if (!chosen) {
        const long long t0 = gc_clock64();
        while (*reinterpret_cast<volatile unsigned*>(a.claimed) == 0u && gc_clock64() - t0 < 200000) {
        }
      }
    }
  }
  __syncthreads();
  if (!chosen) return;
  // The last node's home: keeps the chase live and makes the second clock read wait for the last hop.
  long long* const sink = a.every.active() ? reinterpret_cast<long long*>(a.every.last + sm) : a.result + 2;
  unsigned long long acc = 0;
  for (unsigned long long off = static_cast<unsigned long long>(threadIdx.x) * kLine; off < a.warm_bytes;
       off += static_cast<unsigned long long>(blockDim.x) * kLine) {
    unsigned long long v;
    if constexpr (at_l1(C))
      asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(a.warm_base + off) : "memory");
    else
      asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(a.warm_base + off) : "memory");
    acc ^= v;
  }
  __syncthreads();
  if (threadIdx.x != 0) {
    if (acc == 0x5eedull) *sink = static_cast<long long>(acc);  // practically never: keeps the warm loads
    return;
  }
  const unsigned tile_s = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  const unsigned bar_s = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if constexpr (C == Copy::tma_bulk || C == Copy::tma_tensor) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  unsigned phase = 0;
  bool failed = false;
  // One hop: p <- the 8-byte word at p, through the copy mechanism under test.
  auto hop = [&](unsigned long long p) -> unsigned long long {
    if constexpr (C == Copy::ldg) {
      asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
    } else if constexpr (C == Copy::ldg_ca) {
      asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p)::"memory");
    } else if constexpr (C == Copy::cp_async_cg || C == Copy::cp_async_ca) {
      if constexpr (C == Copy::cp_async_cg)
        asm volatile("cp.async.cg.shared.global [%0], [%1], %2;" ::"r"(tile_s), "l"(p), "n"(kLdgstsBytes) : "memory");
      else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(tile_s), "l"(p), "n"(kLdgstsBytes) : "memory");
      asm volatile("cp.async.commit_group;" ::: "memory");
      asm volatile("cp.async.wait_group 0;" ::: "memory");
      asm volatile("ld.shared.u64 %0, [%1];" : "=l"(p) : "r"(tile_s) : "memory");
    } else {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s), "n"(kTileBytes) : "memory");
      if constexpr (C == Copy::tma_bulk)
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(tile_s),
            "l"(p), "n"(kTileBytes), "r"(bar_s)
            : "memory");
      else
        asm volatile(
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
            "[%4];" ::"r"(tile_s),
            "l"(reinterpret_cast<unsigned long long>(&map)), "r"(0), "r"(static_cast<unsigned>(p)), "r"(bar_s)
            : "memory");
      unsigned done = 0;
      for (long long spin = 0; spin < kSpinLimit && !done; ++spin)
        asm volatile("{.reg .pred q; mbarrier.try_wait.parity.shared::cta.b64 q, [%1], %2; selp.u32 %0, 1, 0, q;}"
                     : "=r"(done)
                     : "r"(bar_s), "r"(phase)
                     : "memory");
      if (!done) failed = true;
      phase ^= 1u;
      if constexpr (C == Copy::tma_bulk) {
        asm volatile("ld.shared.u64 %0, [%1];" : "=l"(p) : "r"(tile_s) : "memory");
      } else {
        unsigned row;
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(row) : "r"(tile_s) : "memory");
        p = row;
      }
    }
    return p;
  };
  unsigned long long p = a.start;
  if (a.every.active()) {
    p = a.every.starts[sm];
    every_sm::start_line(a.every);
  }
  for (int i = 0; i < a.warm_hops && !failed; ++i) p = hop(p);
  const long long t0 = gc_clock64();
#pragma unroll 4
  for (int i = 0; i < a.timed_hops; ++i) {
    p = hop(p);
    if (failed) break;
  }
  *sink = static_cast<long long>(p);  // waits for the last hop
  const long long t1 = gc_clock64();
  if (a.every.active()) {
    if (failed)
      atomicAdd(a.every.failed, 1u);
    else
      a.every.cycles[sm] = t1 - t0;
    return;
  }
  a.result[0] = t1 - t0;
  a.result[1] = sm;
  a.result[3] = failed ? 1 : 0;
#else
  __trap();
#endif
}

const char* copy_name(Copy c) {
  switch (c) {
    case Copy::ldg: return "ld.global.cg.u64";
    case Copy::tma_bulk: return "cp.async.bulk (TMA, 128 B) + mbarrier try_wait.parity + ld.shared.u64";
    case Copy::cp_async_cg: return "cp.async.cg 16 B + commit_group + wait_group 0 + ld.shared.u64";
    case Copy::ldg_ca: return "ld.global.ca.u64";
    case Copy::cp_async_ca: return "cp.async.ca 16 B + commit_group + wait_group 0 + ld.shared.u64";
    case Copy::tma_tensor:
      return "cp.async.bulk.tensor.2d (TMA, 32 x 1 box of 4-byte elements = 128 B, coordinates {0, row}) + mbarrier "
             "try_wait.parity + ld.shared.u32 (the next row)";
  }
  return "?";
}

const void* kernel_of(Copy c) {
  switch (c) {
    case Copy::ldg: return reinterpret_cast<const void*>(&async_chase_kernel<Copy::ldg>);
    case Copy::tma_bulk: return reinterpret_cast<const void*>(&async_chase_kernel<Copy::tma_bulk>);
    case Copy::cp_async_cg: return reinterpret_cast<const void*>(&async_chase_kernel<Copy::cp_async_cg>);
    case Copy::tma_tensor: return reinterpret_cast<const void*>(&async_chase_kernel<Copy::tma_tensor>);
    case Copy::ldg_ca: return reinterpret_cast<const void*>(&async_chase_kernel<Copy::ldg_ca>);
    case Copy::cp_async_ca: return reinterpret_cast<const void*>(&async_chase_kernel<Copy::cp_async_ca>);
  }
  return nullptr;
}

void launch_async(Copy c, int grid, const AsyncArgs& a, const CUtensorMap& map) {
  switch (c) {
    case Copy::ldg: async_chase_kernel<Copy::ldg><<<grid, kThreads>>>(a, map); break;
    case Copy::tma_bulk: async_chase_kernel<Copy::tma_bulk><<<grid, kThreads>>>(a, map); break;
    case Copy::cp_async_cg: async_chase_kernel<Copy::cp_async_cg><<<grid, kThreads>>>(a, map); break;
    case Copy::tma_tensor: async_chase_kernel<Copy::tma_tensor><<<grid, kThreads>>>(a, map); break;
    case Copy::ldg_ca: async_chase_kernel<Copy::ldg_ca><<<grid, kThreads>>>(a, map); break;
    case Copy::cp_async_ca: async_chase_kernel<Copy::cp_async_ca><<<grid, kThreads>>>(a, map); break;
  }
  GC_CUDA_CHECK_LAUNCH();
}

std::string lost_copy(Copy c) {
  return fmt::format("{}: an mbarrier phase never completed within {} polls (the TMA copy was lost); the chase stopped",
                     copy_name(c), kSpinLimit);
}

// One launch: cycles per hop of the chase starting at `start` over `lines` nodes.
double run_async_chase(Copy c, const ProbeContext& ctx, const chase_dev::ChaseBuffer& buf, unsigned long long footprint,
                       unsigned long long start, int warm_hops, int hops, const CUtensorMap& map = CUtensorMap{}) {
  DeviceBuffer<long long> result(4);
  DeviceBuffer<unsigned> claimed(1);
  GC_CUDA_CHECK(cudaMemset(claimed.get(), 0, sizeof(unsigned)));
  GC_CUDA_CHECK(cudaMemset(result.get(), 0xFF, 4 * sizeof(long long)));
  AsyncArgs a;
  a.start = start;
  a.warm_base = buf.base();
  a.warm_bytes = footprint;
  a.warm_hops = warm_hops;
  a.timed_hops = hops;
  a.claimed = claimed.get();
  a.result = result.get();
  launch_async(c, 2 * ctx.device.sm_count, a, map);
  const auto r = result.download();
  if (r[0] < 0)
    throw std::runtime_error(fmt::format("the chase block never ran on SM {} (pinning by %smid failed)", kPinnedSm));
  if (r[3] != 0) throw std::runtime_error(lost_copy(c));
  return static_cast<double>(r[0]) / hops;
}

// One launch with a chasing block on every SM (common/every_sm.cuh), SM s from starts[s].
placement::Launch run_async_on_every_sm(Copy c, every_sm::SlotSet& slots, const chase_dev::ChaseBuffer& buf,
                                        unsigned long long footprint, const std::vector<unsigned long long>& starts,
                                        int warm_hops, int hops, const CUtensorMap& map = CUtensorMap{}) {
  AsyncArgs a;
  a.warm_base = buf.base();
  a.warm_bytes = footprint;
  a.warm_hops = warm_hops;
  a.timed_hops = hops;
  a.target_sm = -1;
  a.every = slots.arm(starts);
  launch_async(c, slots.grid(), a, map);
  if (slots.failed() != 0) throw std::runtime_error(lost_copy(c));
  return slots.collect(hops);
}

// Rewrites the nodes at `offsets` from the 64-bit address of the next node to its
// row index (offset / 128) in word 0: the tensor-map chase's node format.
__global__ void rows_from_addresses_kernel(char* base, const unsigned long long* offsets, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    auto* node = reinterpret_cast<unsigned long long*>(base + offsets[i]);
    const unsigned long long next = *node - reinterpret_cast<unsigned long long>(base);
    *node = next / kLine;  // low word: the row; high word: 0
  }
}

struct Footprint {
  unsigned long long bytes;
  chase_dev::ChaseBuffer buf;
  std::size_t lines;
  // L2 level: 4096 random lines of L2/8; L1 level: all 128 lines of 16 KiB.
  Footprint(const DeviceInfo& dev, bool l1)
      : bytes(l1 ? kL1Bytes : static_cast<unsigned long long>(dev.l2_bytes) / 8 / kLine * kLine),
        buf(bytes),
        lines(l1 ? kL1Bytes / kLine : kLines) {}
  std::vector<unsigned long long> starts;  // with units > 0: each chaser's first node (an address, or a row)
  // Places a random cycle; as_rows: nodes hold row indices and the start is a row. With
  // units > 0 also fills `starts`: `units` first nodes spread over the cycle.
  unsigned long long place(std::uint64_t seed, bool as_rows = false, std::size_t units = 0) {
    const auto sample = chase::distinct_sample(bytes / kLine, lines, seed);
    std::vector<unsigned long long> offsets(sample.size());
    for (std::size_t i = 0; i < sample.size(); ++i) offsets[i] = sample[i] * kLine;
    const auto next = chase::single_cycle(offsets.size(), seed ^ 0x9E3779B97F4A7C15ull);
    const unsigned long long start = buf.place(offsets, next);
    starts.clear();
    if (units > 0)
      for (std::uint32_t node : placement::spread_starts(next, 0, units))
        starts.push_back(as_rows ? offsets[node] / kLine
                                 : reinterpret_cast<unsigned long long>(buf.base() + offsets[node]));
    if (!as_rows) return start;
    DeviceBuffer<unsigned long long> d_offsets(offsets);
    rows_from_addresses_kernel<<<(static_cast<unsigned>(offsets.size()) + 255) / 256, 256>>>(
        buf.base(), d_offsets.get(), static_cast<unsigned>(offsets.size()));
    GC_CUDA_CHECK_LAUNCH();
    return (start - reinterpret_cast<unsigned long long>(buf.base())) / kLine;
  }
};

void require(const ProbeContext& ctx) {
  if (ctx.device.l2_bytes < static_cast<std::int64_t>(8 * kLine * kLines))
    throw ProbeSkipped("the L2 is too small for 4096 distinct lines in an eighth of it");
}

// L1 level (cp.async.ca): an L1 hit is the SM's own, the same on every SM, so one
// block pinned to SM 0 chases. C alone (Extra = false) or C minus ld.global.ca over
// the same lines (Extra = true).
template <Copy C, bool Extra>
Measurement measure_async_l1(const ProbeContext& ctx) {
  constexpr Copy kRef = Copy::ldg_ca;
  Footprint f(ctx.device, true);
  // One untimed lap of the 128 lines, then 4096 timed hops (32 laps).
  const int warm = static_cast<int>(f.lines), hops = static_cast<int>(kLines);
  // The largest L1 (the kernels use 136 B of static shared memory).
  GC_CUDA_CHECK(cudaFuncSetAttribute(async_chase_kernel<C>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  GC_CUDA_CHECK(cudaFuncSetAttribute(async_chase_kernel<kRef>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  Measurement m;
  std::vector<double> copy_values, ldg_values;
  for (int r = 0; r < (ctx.quick ? 3 : 7); ++r) {
    const unsigned long long start = f.place(kSeed + 17 * r);
    const double copy = run_async_chase(C, ctx, f.buf, f.bytes, start, warm, hops);
    copy_values.push_back(copy);
    if constexpr (Extra) {
      const double ldg = run_async_chase(kRef, ctx, f.buf, f.bytes, start, warm, hops);
      ldg_values.push_back(ldg);
      m.samples.push_back(copy - ldg);
    } else {
      m.samples.push_back(copy);
    }
  }
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method",
         fmt::format("pointer chase over {} random 128-byte lines of 16 KiB, warmed into L1 with ld.ca and one "
                     "untimed lap, then {} hops timed with clock64 on SM {}; per hop: {}{}; median of launches",
                     f.lines, hops, kPinnedSm, copy_name(C),
                     Extra ? fmt::format("; minus {}'s cycles per hop over the same cycle, same SM, in the next launch",
                                         copy_name(kRef))
                           : std::string()));
  m.note("copy_cycles_per_hop", fmt::format("{:.2f}", median(copy_values)));
  if constexpr (Extra) m.note("ldg_cycles_per_hop", fmt::format("{:.2f}", median(ldg_values)));
  return m;
}

// L2 level (TMA, cp.async.cg): in every SM at once (common/every_sm.cuh), each SM's
// block warms the footprint and chases the same cycle from its own node; a sample is
// the median over SMs of one launch. Extra: per launch pair, the median over SMs of C
// minus the median over SMs of ld.global.cg on the same cycle and starts.
template <Copy C, bool Extra>
Measurement measure_async_l2(const ProbeContext& ctx) {
  Footprint f(ctx.device, false);
  every_sm::SlotSet slots(ctx.device.sm_count);
  const int warm = static_cast<int>(f.lines), hops = static_cast<int>(kLines);  // one untimed lap, one timed
  CUtensorMap map{};
  if constexpr (C == Copy::tma_tensor)  // the footprint as rows of 32 4-byte elements, a 32 x 1 box
    map = make_tensor_map_2d_u32(f.buf.base(), plan::plan_tma_2d(f.bytes, 4, kLine / 4, kLine / 4, 1));
  std::vector<placement::Launch> copies, ldgs;
  unsigned long long start = 0;
  for (int r = 0; r < (ctx.quick ? 3 : 7); ++r) {
    start = f.place(kSeed + 17 * r, C == Copy::tma_tensor, slots.sm_count());
    copies.push_back(run_async_on_every_sm(C, slots, f.buf, f.bytes, f.starts, warm, hops, map));
    if constexpr (Extra) ldgs.push_back(run_async_on_every_sm(Copy::ldg, slots, f.buf, f.bytes, f.starts, warm, hops));
  }
  const placement::Summary copy = placement::summarize(copies, "SM");
  Measurement m = placement::to_measurement(
      copy, fmt::format("pointer chase over {} random 128-byte lines of L2/8 ({} KiB) in one cycle, in every SM at "
                        "once: one block per SM warms the footprint into L2 with ld.cg, walks one untimed lap from "
                        "its own node of the cycle and times {} hops with clock64; per hop: {}; sample = median over "
                        "SMs{}, value = median of {} launches",
                        f.lines, f.bytes >> 10, hops, copy_name(C),
                        Extra ? fmt::format(" minus the median over SMs of {} over the same cycle and starts in the "
                                            "next launch",
                                            copy_name(Copy::ldg))
                              : std::string(),
                        copies.size()));
  m.note("copy_cycles_per_hop", fmt::format("{:.2f}", copy.value));
  if constexpr (Extra) {
    const placement::Summary ldg = placement::summarize(ldgs, "SM");
    for (std::size_t i = 0; i < m.samples.size(); ++i) m.samples[i] = copy.samples[i] - ldg.samples[i];
    m.value = median(m.samples);
    m.note("ldg_cycles_per_hop", fmt::format("{:.2f}", ldg.value));
    m.note("ldg_per_sm", placement::spread_note(ldg, "cycles"));
  } else {
    // SM 0 alone on the last cycle: the former method.
    m.note("sm0_alone",
           placement::alone_note(copy, kPinnedSm, run_async_chase(C, ctx, f.buf, f.bytes, start, warm, hops, map)));
  }
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

// Copy C alone (Extra = false) or C minus the plain load over the same lines (Extra = true).
template <Copy C, bool Extra>
Measurement measure_async(const ProbeContext& ctx) {
  static_assert(!(Extra && C == Copy::tma_tensor), "the tensor chase's nodes are rows, not addresses");
  require(ctx);
  constexpr Copy kRef = at_l1(C) ? Copy::ldg_ca : Copy::ldg;  // the plain load at the same level
  Measurement m;
  if constexpr (at_l1(C))
    m = measure_async_l1<C, Extra>(ctx);
  else
    m = measure_async_l2<C, Extra>(ctx);
  m.note("sass", sass::timed_region_note(kernel_of(C), ctx.device.arch()));
  if constexpr (Extra) m.note("ldg_sass", sass::timed_region_note(kernel_of(kRef), ctx.device.arch()));
  return m;
}

const Requirements kTma{90, 0, "TMA (cp.async.bulk)"};
const Requirements kLdgsts{90, 0, "cp.async (LDGSTS), measured on sm_90"};

const bool kRegistered = register_probes({
    {"latency.tma.load",
     Family::latency,
     "TMA bulk copy (cp.async.bulk, 128-byte tile) global -> shared completed on an mbarrier, dependent chase of "
     "L2-resident lines, every SM at once (median)",
     kTma,
     {ExpectationKind::band, 0, 0.01},
     &measure_async<Copy::tma_bulk, false>},
    {"latency.tma.load.extra_over_ldg",
     Family::latency,
     "latency.tma.load minus a dependent ld.global.cg over the same L2-resident lines (cycles the TMA path adds)",
     kTma,
     {ExpectationKind::band, 2, 0.03},
     &measure_async<Copy::tma_bulk, true>},
    {"latency.tma.load.tensor_2d",
     Family::latency,
     "TMA tensor-map load (cp.async.bulk.tensor.2d, 32 x 1 box of 4-byte elements = 128 B) completed on an mbarrier, "
     "dependent chase of L2-resident lines (the next row from the tile), every SM at once (median)",
     {90, 0, "TMA tensor maps (cp.async.bulk.tensor)"},
     {ExpectationKind::band, 0, 0.01},
     &measure_async<Copy::tma_tensor, false>},
    {"latency.cp_async",
     Family::latency,
     "cp.async.cg 16 B (LDGSTS) + wait_group 0 + ld.shared, dependent chase of L2-resident lines, every SM at once "
     "(median)",
     kLdgsts,
     {ExpectationKind::band, 0, 0.01},
     &measure_async<Copy::cp_async_cg, false>},
    {"latency.cp_async.extra_over_ldg",
     Family::latency,
     "latency.cp_async minus a dependent ld.global.cg over the same L2-resident lines",
     kLdgsts,
     {ExpectationKind::band, 2, 0.03},
     &measure_async<Copy::cp_async_cg, true>},
    {"latency.cp_async.ca",
     Family::latency,
     "cp.async.ca 16 B (LDGSTS through L1) + wait_group 0 + ld.shared, dependent chase of 128 L1-resident lines, SM 0",
     kLdgsts,
     {ExpectationKind::band, 0, 0.01},
     &measure_async<Copy::cp_async_ca, false>},
    {"latency.cp_async.ca.extra_over_ldg",
     Family::latency,
     "latency.cp_async.ca minus a dependent ld.global.ca over the same L1-resident lines",
     kLdgsts,
     {ExpectationKind::band, 2, 0.03},
     &measure_async<Copy::cp_async_ca, true>},
});

}  // namespace
}  // namespace gpuconform::kernels
