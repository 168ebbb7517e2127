// SPDX-License-Identifier: Apache-2.0
// Tensor-core throughput of mma.sync: for each instruction, the full sweep of
// warps per SM x ILP of seed 001 (Sun et al., Tables 3-7, Fig. 6), kept in the
// run record as a matrix of FLOP (or op) per clock per SM; the verdict is on
// the best point, re-timed with the full repeats, as a fraction of the cited
// peak entry x SMs x the measured SM clock. A second probe per instruction,
// <id>.convergence, records (info) the convergence point: the fewest warps x
// ILP that reach 95% of the best point.
//
// Mechanism: one block of W warps per SM (grid = SM count); each thread keeps
// ILP independent accumulators and runs kSteps x ILP mma.sync per loop trip,
// each accumulator's D feeding its own next C (so ILP = 1 measures one chain
// per warp, like the latency probes, and ILP > 1 overlaps them). A and B are
// random per lane in the input format, with random signs and small
// magnitudes, so the accumulators random-walk and stay finite (never zeros,
// never infinities). On sm_90, m16n8k32 e4m3 is lowered by ptxas to f16 HMMA
// and the sparse m16n8k64 e4m3 to f16 HMMA.SP (F2FP unpacks ahead of each;
// tools/device/fp8_mma_lowering.cu), so they are held to the f16 dense and
// sparse peaks there.
// The fragment asm comes from latency/mma_chain.cuh.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <random>

#include "common/clock_stamps.cuh"
#include "common/ptx_features.cuh"
#include "gpuconform/throughput.hpp"
#include "latency/mma_chain.cuh"
#include "throughput/random_formats.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kSteps = 8;
constexpr int kWarps[] = {1, 2, 4, 8, 16};
constexpr int kIlps[] = {1, 2, 4, 8};

// Valid sparse metadata: eight groups of two 2-bit indices i < j (i | j << 2);
// tf32 is 1:2 sparse, so only the pairs (0, 1) and (2, 3) are valid for it.
unsigned random_metadata(Fmt fmt, std::mt19937_64& rng) {
  static const unsigned pairs[] = {0x4, 0xE, 0x8, 0xC, 0x9, 0xD};
  const unsigned choices = fmt == Fmt::tf32 ? 2 : 6;
  unsigned e = 0;
  for (int g = 0; g < 8; ++g) e |= pairs[rng() % choices] << (4 * g);
  return e;
}

// Row: X(Name, id, Dense | Sparse, min cc, PTX, D type, D regs, D constraint, A/B type, A regs,
//        B regs, A/B constraint, input format, FLOP per warp instruction,
//        peak entry, peak entry on sm_90 or "")
#define GC_MMA_TPUT_TABLE(X)                                                                                      \
  X(K16F32F16, "mma_sync.m16n8k16.f32.f16", Dense, 80, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", float, 4, "f",        \
    unsigned, 4, 2, "r", Fmt::f16, 2 * 16 * 8 * 16, "mma.f16", "")                                                \
  X(K16F16F16, "mma_sync.m16n8k16.f16.f16", Dense, 80, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", unsigned, 2, "r",     \
    unsigned, 4, 2, "r", Fmt::f16, 2 * 16 * 8 * 16, "mma.f16", "")                                                \
  X(K16F32Bf16, "mma_sync.m16n8k16.f32.bf16", Dense, 80, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", float, 4, "f",    \
    unsigned, 4, 2, "r", Fmt::bf16, 2 * 16 * 8 * 16, "mma.bf16", "")                                              \
  X(K8F32Tf32, "mma_sync.m16n8k8.f32.tf32", Dense, 80, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", float, 4, "f",       \
    unsigned, 4, 2, "r", Fmt::tf32, 2 * 16 * 8 * 8, "mma.tf32", "")                                               \
  X(K32F32E4m3, "mma_sync.m16n8k32.f32.e4m3", Dense, 89, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", float, 4, "f",    \
    unsigned, 4, 2, "r", Fmt::e4m3, 2 * 16 * 8 * 32, "mma.fp8", "mma.f16")                                        \
  X(K32S8, "mma_sync.m16n8k32.s32.s8", Dense, 80, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", unsigned, 4, "r", unsigned,  \
    4, 2, "r", Fmt::s8, 2 * 16 * 8 * 32, "mma.int8", "")                                                          \
  X(K64S4, "mma_sync.m16n8k64.s32.s4", Dense, 80, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32", unsigned, 4, "r", unsigned,  \
    4, 2, "r", Fmt::s4, 2 * 16 * 8 * 64, "mma.int4", "")                                                          \
  X(M8K4F64, "mma_sync.m8n8k4.f64.f64", Dense, 80, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", double, 2, "d", double, 1, \
    1, "d", Fmt::f64, 2 * 8 * 8 * 4, "mma.f64", "")                                                               \
  X(SpK32F32F16, "mma_sp.m16n8k32.f32.f16", Sparse, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",    \
    float, 4, "f", unsigned, 4, 4, "r", Fmt::f16, 2 * 16 * 8 * 32, "mma_sp.f16", "")                                 \
  X(SpK32F32Bf16, "mma_sp.m16n8k32.f32.bf16", Sparse, 80,                                                            \
    "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32", float, 4, "f", unsigned, 4, 4, "r", Fmt::bf16,         \
    2 * 16 * 8 * 32, "mma_sp.bf16", "")                                                                              \
  X(SpK16F32Tf32, "mma_sp.m16n8k16.f32.tf32", Sparse, 80,                                                            \
    "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32", float, 4, "f", unsigned, 4, 4, "r", Fmt::tf32,         \
    2 * 16 * 8 * 16, "mma_sp.tf32", "")                                                                              \
  X(SpK64F32E4m3, "mma_sp.m16n8k64.f32.e4m3", Sparse, 89,                                                            \
    "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32", float, 4, "f", unsigned, 4, 4, "r",  \
    Fmt::e4m3, 2 * 16 * 8 * 64, "mma_sp.fp8", "mma_sp.f16")                                                \
  X(SpK64S8, "mma_sp.m16n8k64.s32.s8", Sparse, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32", unsigned,  \
    4, "r", unsigned, 4, 4, "r", Fmt::s8, 2 * 16 * 8 * 64, "mma_sp.int8", "")

// Sparse A/B fragments: the compressed A (the two kept values of every four
// along K), the dense B, and the 2:4 metadata register e (two 2-bit indices
// per group of four, i < j, as .sp::ordered_metadata requires; the sparsity
// selector is 0).
template <int NA, int NB>
struct SpFragAB {
  unsigned a[NA];
  unsigned b[NB];
  unsigned e;
};
template <bool Sparse, class AT, int NA, int NB>
struct FragFor { using type = FragAB<AT, NA, NB>; };
template <class AT, int NA, int NB>
struct FragFor<true, AT, NA, NB> { using type = SpFragAB<NA, NB>; };
constexpr bool Dense = false, Sparse = true;

#define GC_MMA_SP_ASM_4_4_4(PTX, DC, AC) \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;" : "+" DC(x.r[0]), "+" DC(x.r[1]), "+" DC(x.r[2]), "+" DC(x.r[3]) : AC(a.a[0]), AC(a.a[1]), AC(a.a[2]), AC(a.a[3]), AC(a.b[0]), AC(a.b[1]), AC(a.b[2]), AC(a.b[3]), "r"(a.e))
#define GC_MMA_ASM_Dense(ND, NA, NB) GC_MMA_ASM_##ND##_##NA##_##NB
#define GC_MMA_ASM_Sparse(ND, NA, NB) GC_MMA_SP_ASM_##ND##_##NA##_##NB

#define GC_MMA_TPUT_OP(Name, Id, Kind, MinCC, Ptx, DT, ND, DC, AT, NA, NB, AC, Format, Flop, Peak, Peak90) \
  struct Name {                                                                                            \
    using T = Frag<DT, ND>;                                                                                \
    static constexpr bool kSparse = Kind;                                                                  \
    using U = typename FragFor<Kind, AT, NA, NB>::type;                                                    \
    static constexpr const char* kId = "throughput." Id;                                                   \
    static constexpr const char* kPtx = Ptx;                                                               \
    static constexpr Fmt kFmt = Format;                                                                    \
    static constexpr double kFlop = Flop;                                                                  \
    static constexpr const char* kPeak = Peak;                                                             \
    static constexpr const char* kPeak90 = Peak90;                                                         \
    static constexpr bool kLowered = sizeof(Peak90) > 1; /* held to another peak on sm_90: lowered */      \
    static constexpr bool kInteger = Format == Fmt::s8 || Format == Fmt::s4;                               \
    __device__ static T step(T x, const U& a) {                                                            \
      if constexpr (kCudaArch >= (MinCC)*10 && ptx_built(Ptx)) { /* ptx_features.cuh */                    \
        GC_MMA_ASM_##Kind(ND, NA, NB)(Ptx, DC, AC);                                                        \
      } else {                                                                                             \
        __trap();                                                                                          \
      }                                                                                                    \
      return x;                                                                                            \
    }                                                                                                      \
  };
GC_MMA_TPUT_TABLE(GC_MMA_TPUT_OP)
#undef GC_MMA_TPUT_OP

// Flips bits of a fragment register by `mask`, whatever its element type.
template <class E>
__device__ void flip_bits(E& e, unsigned mask) {
  if constexpr (sizeof(E) == 8) {
    unsigned long long u;
    memcpy(&u, &e, sizeof u);
    u ^= mask;
    memcpy(&e, &u, sizeof u);
  } else {
    static_assert(sizeof(E) == 4, "fragment registers are 32 or 64 bits");
    unsigned u;
    memcpy(&u, &e, sizeof u);
    u ^= mask;
    memcpy(&e, &u, sizeof u);
  }
}

// Each of the ILP chains has its own A/B registers (chain i's are lane l's
// ab[l] with bits flipped by salt & (i + 1)) and its own accumulator, whose D
// feeds its next C. `salt` is 0 at run time, which ptxas cannot know, so the
// chains' operands are distinct registers, as in the public m16n8k16 loop that
// reached 0.661-0.666 of the f16 peak on the boards where one A/B set shared by
// all chains, flipped every trip, reached 0.641-0.656 (docs/throughput.md, "How close
// the probes come"): a flip rewrites registers that in-flight HMMAs still have to read.
// Native paths keep their operands for the whole loop; nothing of an mma whose
// C is the previous D can be hoisted. sm_90's lowered e4m3 mma.sync is
// HMMA(A, B, 0) + FADD into D: with fixed A and B ptxas computes the product
// once and adds it 8 x ILP times (1.46 of the f16 peak on an H100, 2026-11-25),
// so lowered paths get fresh (by nothing) operands per instruction, as in a
// real GEMM.
template <class Op, int Ilp>
__global__ void mma_throughput_kernel(const typename Op::U* ab, int trips, unsigned salt, typename Op::T* sink,
                                      long long* stamps) {
  using T = typename Op::T;
  const GcStamp begin = gc_stamp_now();
  typename Op::U a[Ilp];
  T x[Ilp];
#pragma unroll
  for (int i = 0; i < Ilp; ++i) {
    a[i] = ab[threadIdx.x & 31];
    const unsigned chain_mask = salt & static_cast<unsigned>(i + 1);
#pragma unroll
    for (auto& r : a[i].a) flip_bits(r, chain_mask);
#pragma unroll
    for (auto& r : a[i].b) flip_bits(r, chain_mask);
#pragma unroll
    for (auto& r : x[i].r) {
      static_assert(sizeof r == sizeof a[i].b[0], "D and A/B registers have the same width in every row");
      memcpy(&r, &a[i].b[0], sizeof r);  // a small non-zero start: the B register's bits
    }
  }
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s)
#pragma unroll
      for (int i = 0; i < Ilp; ++i) {
        if constexpr (Op::kLowered && kCudaArch == 900) {
          const unsigned step_mask = salt & static_cast<unsigned>((trip * kSteps + s) * Ilp + i + 1);
#pragma unroll
          for (auto& r : a[i].a) flip_bits(r, step_mask);
#pragma unroll
          for (auto& r : a[i].b) flip_bits(r, step_mask);
        }
        x[i] = Op::step(x[i], a[i]);
      }
  }
  gc_stamp_store(stamps, begin);
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
#pragma unroll
  for (int i = 0; i < Ilp; ++i) sink[tid * Ilp + i] = x[i];
}

template <class Op>
using MmaKernel = void (*)(const typename Op::U*, int, unsigned, typename Op::T*, long long*);

template <class Op>
MmaKernel<Op> kernel_for_ilp(int ilp) {
  switch (ilp) {
    case 1: return mma_throughput_kernel<Op, 1>;
    case 2: return mma_throughput_kernel<Op, 2>;
    case 4: return mma_throughput_kernel<Op, 4>;
    default: return mma_throughput_kernel<Op, 8>;
  }
}

template <class Op>
const char* peak_id_for(const DeviceInfo& dev) {
  return dev.cc() == 90 && Op::kPeak90[0] != '\0' ? Op::kPeak90 : Op::kPeak;
}

// Everything one instruction's two probes need, measured once per process.
struct Sweep {
  Matrix matrix;     // FLOP (op) per clock per SM over warps x ILP
  int best_warps = 0, best_ilp = 0;
  std::string unlaunchable;  // points the SM's registers cannot hold, "16 warps x ILP 8, ..."
};

template <class Op>
struct MmaSetup {
  DeviceBuffer<typename Op::U> ab;
  DeviceBuffer<typename Op::T> sink;
  explicit MmaSetup(const DeviceInfo& dev)
      : ab(random_fragments()), sink(static_cast<std::size_t>(dev.sm_count) * 32 * 16 * 8) {}
  static std::vector<typename Op::U> random_fragments() {
    std::mt19937_64 rng(0x6d6d61u ^ std::hash<std::string>{}(Op::kId));
    std::vector<typename Op::U> out(32);
    for (auto& f : out) {
      for (auto& e : f.a) { const std::uint64_t v = random_register(Op::kFmt, rng); std::memcpy(&e, &v, sizeof e); }
      for (auto& e : f.b) { const std::uint64_t v = random_register(Op::kFmt, rng); std::memcpy(&e, &v, sizeof e); }
      if constexpr (Op::kSparse) f.e = random_metadata(Op::kFmt, rng);
    }
    return out;
  }
  // Trips for about `target_ms` per launch at this point of the sweep.
  int calibrate(const DeviceInfo& dev, int warps, int ilp, double target_ms) {
    const auto k = kernel_for_ilp<Op>(ilp);
    return calibrate_trips([&](int trips) { k<<<dev.sm_count, 32 * warps>>>(ab.get(), trips, 0u, sink.get(), nullptr); },
                           target_ms, 8);
  }
};

std::mutex g_sweep_mutex;
std::map<std::string, Sweep> g_sweeps;

template <class Op>
const Sweep& sweep_for(const ProbeContext& ctx, MmaSetup<Op>& setup) {
  std::lock_guard<std::mutex> lock(g_sweep_mutex);
  const std::string key = fmt::format("{}@{}{}", Op::kId, ctx.device.index, ctx.quick ? "q" : "");
  if (auto it = g_sweeps.find(key); it != g_sweeps.end()) return it->second;
  const DeviceInfo& dev = ctx.device;
  Sweep s;
  Matrix& m = s.matrix;
  m.name = "warps_x_ilp";
  m.row_name = "warps per SM";
  m.row_unit = "warps";
  m.col_name = "ILP (independent accumulators per warp)";
  m.col_unit = "instructions";
  m.value_name = "throughput";
  m.value_unit = Op::kInteger ? "op/clk/SM" : "FLOP/clk/SM";
  for (int w : kWarps) m.rows.push_back(w);
  for (int i : kIlps) m.cols.push_back(i);
  DeviceBuffer<long long> stamps(4);
  for (int w : kWarps) {
    for (int ilp : kIlps) {
      const auto k = kernel_for_ilp<Op>(ilp);
      // A point whose block needs more registers than an SM has (the sparse e4m3
      // kernel at 16 warps x ILP 8 on an H100) cannot run: recorded as 0, named.
      int fits = 0;
      GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fits, k, 32 * w, 0));
      if (fits == 0) {
        s.unlaunchable += fmt::format("{}{} warps x ILP {}", s.unlaunchable.empty() ? "" : ", ", w, ilp);
        m.values.push_back(0.0);
        continue;
      }
      // Sweep points are ranked, not judged: 1 ms launches (a launch's fixed cost
      // is then < 1 %), 3 timed; the best point is re-timed under the full policy.
      const int trips = setup.calibrate(dev, w, ilp, ctx.quick ? 0.5 : 1.0);
      const auto ms = time_launches_ms([&] { k<<<dev.sm_count, 32 * w>>>(setup.ab.get(), trips, 0u, setup.sink.get(), stamps.get()); },
                                       1, ctx.quick ? 2 : 3);
      double mhz = clock_from_stamps(stamps.download(), 20000);
      if (mhz <= 0) mhz = dev.max_sm_clock_khz / 1e3;  // a launch too short for %globaltimer: nominal clock
      const double flop = static_cast<double>(dev.sm_count) * w * trips * kSteps * ilp * Op::kFlop;
      const double seconds = median(ms) * 1e-3;
      m.values.push_back(flop / seconds / (dev.sm_count * mhz * 1e6));
    }
  }
  const GridPoint best = best_point(m);
  s.best_warps = static_cast<int>(m.rows[best.row]);
  s.best_ilp = static_cast<int>(m.cols[best.col]);
  return g_sweeps.emplace(key, std::move(s)).first->second;
}

template <class Op>
Measurement measure_mma(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const char* peak = peak_id_for<Op>(dev);
  // An architecture with no cited rate for this instruction (sm_90 has no INT4
  // tensor core; ptxas emulates s4 mma.sync with integer instructions) gets its
  // rate per SM and clock, recorded as a measured minimum (record_writer.cpp).
  const bool cited = peak_table_for(dev.arch()).find(peak) != nullptr;
  MmaSetup<Op> setup(dev);
  const Sweep& s = sweep_for<Op>(ctx, setup);
  const int trips = setup.calibrate(dev, s.best_warps, s.best_ilp, kLaunchTargetMs);
  const auto k = kernel_for_ilp<Op>(s.best_ilp);
  Work work;
  if (cited) {
    work.peak_id = peak;
  } else {
    work.unit = Op::kInteger ? "op/s" : "FLOP/s";
  }
  work.units_per_launch = static_cast<double>(dev.sm_count) * s.best_warps * trips * kSteps * s.best_ilp * Op::kFlop;
  work.sms_used = dev.sm_count;
  work.method = fmt::format("best point of the warps x ILP sweep: {} warps per SM x ILP {} (one block per SM, {} "
                            "trips x {} steps), random A/B per lane, own A/B registers per chain; PTX {}",
                            s.best_warps, s.best_ilp, trips, kSteps, Op::kPtx);
  Measurement m = measure_throughput(
      ctx, work, [&](long long* stamps) { k<<<dev.sm_count, 32 * s.best_warps>>>(setup.ab.get(), trips, 0u, setup.sink.get(), stamps); },
      throughput_options(ctx));
  m.matrices.push_back(s.matrix);
  if (!s.unlaunchable.empty()) m.note("unlaunchable_points", s.unlaunchable + " (too many registers; 0 in the matrix)");
  if (!cited) {
    express_per_sm_clock(m, dev.sm_count, Op::kInteger ? "op/clk/SM" : "FLOP/clk/SM");
    m.note("peak_entry", fmt::format("none: {} has no '{}' entry in {} (no public rate); the value is judged "
                                     "against a measured minimum", dev.arch(), peak, peak_table_dir()));
  }
  if (dev.cc() == 90 && Op::kPeak90[0] != '\0')
    m.note("lowering", fmt::format("on sm_90 ptxas lowers this instruction to f16 HMMA (HMMA.SP when sparse); held to peak entry '{}'", peak));
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(k), dev.arch()));
  return m;
}

template <class Op>
Measurement measure_mma_convergence(const ProbeContext& ctx) {
  MmaSetup<Op> setup(ctx.device);
  const Sweep& s = sweep_for<Op>(ctx, setup);
  const GridPoint c = convergence_point(s.matrix, 0.95);
  const GridPoint b = best_point(s.matrix);
  Measurement m;
  m.value = s.matrix.rows[c.row] * s.matrix.cols[c.col];
  m.unit = "warps x ILP";
  m.matrices.push_back(s.matrix);
  if (!s.unlaunchable.empty()) m.note("unlaunchable_points", s.unlaunchable + " (too many registers; 0 in the matrix)");
  m.note("convergence", fmt::format("{:g} warps x ILP {:g} reach {:.1f} {} (>= 95% of the best, {:.1f} at {:g} x {:g})",
                                    s.matrix.rows[c.row], s.matrix.cols[c.col], s.matrix.at(c.row, c.col),
                                    s.matrix.value_unit, s.matrix.at(b.row, b.col), s.matrix.rows[b.row],
                                    s.matrix.cols[b.col]));
  return m;
}

#define GC_MMA_TPUT_PROBES(Name, Id, Kind, MinCC, Ptx, DT, ND, DC, AT, NA, NB, AC, Format, Flop, Peak, Peak90) \
  Probe{Name::kId,                                                                                             \
        Family::throughput,                                                                                    \
        Id " throughput at the best point of the warps x ILP sweep, as a fraction of the tensor peak",         \
        {MinCC, 0, "", ptx_build_gap(Ptx)},                                                                    \
        kFractionOfPeakHint,                                                                                   \
        &measure_mma<Name>},                                                                                   \
      Probe{std::string(Name::kId) + ".convergence",                                                           \
            Family::throughput,                                                                                \
            Id ": fewest warps x ILP reaching 95% of the best throughput (info)",                              \
            {MinCC, 0, "", ptx_build_gap(Ptx)},                                                                \
            kInfoHint,                                                                                         \
            &measure_mma_convergence<Name>},

const bool kRegistered = register_probes({GC_MMA_TPUT_TABLE(GC_MMA_TPUT_PROBES)});

}  // namespace
}  // namespace gpuconform::kernels
