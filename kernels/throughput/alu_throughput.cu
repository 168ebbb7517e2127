// SPDX-License-Identifier: Apache-2.0
// Instruction throughput of the SM's arithmetic pipes, one probe per PTX
// instruction, all SMs. Two kinds of row:
// - fraction: the rate as a fraction of the cited per-SM rate
//   (expectations/peaks/sm_XX.toml) x SMs x the SM clock measured in the
//   launch; an architecture without the entry skips the probe;
// - min: pipes with no public rate on some architecture we run (sm_90: popc,
//   MUFU, dp4a, DPX). The probe never skips: its value is the absolute rate
//   per SM and clock (op/s / (SMs x the SM clock measured in the launch), so
//   boards at different clocks compare) and the expectation is a measured
//   `min` (kind min, `run:` evidence from several boards, as throughput.l2.read).
//   Where the table does cite the pipe (sm_80's popc and MUFU rows) the record
//   carries that rate as `peak`, in the same op/clk/SM, so the fraction is
//   still visible (and a fraction_of_peak entry still works).
//
// Mechanism: one generic kernel. Each thread keeps ILP independent values
// and applies the row's instruction to each, kSteps times per loop trip, so
// a warp always has ILP instructions without a mutual dependency; enough
// resident warps (full occupancy) hide each pipe's latency. Rows whose
// instruction ptxas could merge across steps either carry the run-time guard
// `@p` of the latency tables (dependent_chain.cuh: a predicated instruction
// cannot be merged; ptxas keeps the predicate on the instruction for these
// rows, checked with cuobjdump for the latency probes) or take a second
// operand from the neighbouring value (%1 = x[(i + 1) % ILP]), which makes the
// values data-dependent so nothing can be folded. Inputs are random, non-zero
// and per thread (never zeros); every value is stored at the end, so nothing
// is dead. The SASS of the timed loop is recorded with each measurement.
//
// Row: X(Name, id suffix, min cc, T, constraint, seed kind, a, b, units per
//        step, peak entry, record kind, PTX) with %0 = x (read-write), %1 = the
//        neighbour value, %2 = a, %3 = b and @p the run-time guard. A min row
//        counts 1 op per instruction lane (a dp4a lane is 1 op, not 4 MACs).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/clock_stamps.cuh"
#include "common/cuda_arch.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sampling.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kThreads = 256;
constexpr int kIlp = 4;     // independent values per thread (>= 2: neighbour rows need a distinct neighbour)
constexpr int kSteps = 64;  // unrolled steps per loop trip: the loop overhead is < 1% of the issue slots

enum class Seed { f32_unit, f32_small, f64_unit, f16x2_unit, bf16x2_unit, u32_odd };

// How a row is judged (see the top of the file).
enum class Record { fraction, min };

// Values per seed kind: floats in [1, 2) (f32_small: [0.5, 1), for sin),
// f16x2/bf16x2 lanes in [1, 2), odd 32-bit integers. Never zero.
std::vector<unsigned long long> random_seeds(Seed kind, std::size_t n, std::uint64_t salt) {
  std::mt19937_64 rng(0x7468726f75676870ull ^ salt);
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  std::vector<unsigned long long> out(n);
  for (auto& v : out) {
    const std::uint64_t r = rng();
    switch (kind) {
      case Seed::f32_unit: { float f = static_cast<float>(unit(rng)); std::uint32_t u; std::memcpy(&u, &f, 4); v = u; break; }
      case Seed::f32_small: { float f = static_cast<float>(unit(rng) / 2); std::uint32_t u; std::memcpy(&u, &f, 4); v = u; break; }
      case Seed::f64_unit: { double d = unit(rng); std::memcpy(&v, &d, 8); break; }
      case Seed::f16x2_unit: v = 0x3C003C00u | (r & 0x03FF03FFu); break;          // exponent 15: [1, 2)
      case Seed::bf16x2_unit: v = 0x3F803F80u | (r & 0x007F007Fu); break;         // exponent 127: [1, 2)
      case Seed::u32_odd: v = static_cast<std::uint32_t>(r) | 1u; break;
    }
  }
  return out;
}

// Values: fma x*a+b with a = 1/2 converges to 2b (no overflow, never zero);
// add grows by a until rounding stops it (still an add each step); mad.lo
// with odd factors stays odd; (x & y) ^ a, shf, popc of a neighbour and the
// DPX max stay non-zero (the DPX rows: the chained value enters the add or
// the first min/max, the neighbour the second, so no two steps can be merged;
// __vibmax_s32 has no row: with its predicate unused ptxas emits a plain VIMNMX
// (the latency probe's SASS), with it used a second instruction per step, so a
// row would not time one DPX instruction); ex2(-x) converges to 0.641, rsqrt to 1, sin decays
// slowly from [0.5, 1) and stays far above zero over one launch.
// The table is aligned by hand, one row per instruction.
// clang-format off
#define GC_TPUT_ALU_TABLE(X)                                                                                           \
  X(FmaF32, "fma.rn.f32", 75, float, "f", Seed::f32_unit, 0.5f, 0.75f, 2, "fp32.fma", Record::fraction,                \
    "fma.rn.f32 %0, %0, %2, %3;")                                                                                      \
  X(AddF32, "add.rn.f32", 75, float, "f", Seed::f32_unit, 0.25f, 0.0f, 1, "fp32.add", Record::fraction,                \
    "add.rn.f32 %0, %0, %2;")                                                                                          \
  X(FmaF64, "fma.rn.f64", 75, double, "d", Seed::f64_unit, 0.5, 0.75, 2, "fp64.fma", Record::fraction,                 \
    "fma.rn.f64 %0, %0, %2, %3;")                                                                                      \
  X(FmaF16x2, "fma.rn.f16x2", 75, unsigned, "r", Seed::f16x2_unit, 0x38003800u, 0x3A003A00u, 4, "fp16.fma",            \
    Record::fraction, "fma.rn.f16x2 %0, %0, %2, %3;")                                                                  \
  X(FmaBf16x2, "fma.rn.bf16x2", 80, unsigned, "r", Seed::bf16x2_unit, 0x3F003F00u, 0x3F403F40u, 4, "bf16.fma",         \
    Record::fraction, "fma.rn.bf16x2 %0, %0, %2, %3;")                                                                 \
  X(MadLoU32, "mad.lo.u32", 75, unsigned, "r", Seed::u32_odd, 0x9E3779B9u, 0x7F4A7C16u, 1, "int32.mad",                \
    Record::fraction, "@p mad.lo.u32 %0, %0, %2, %3;")                                                                 \
  X(AddU32, "add.u32", 75, unsigned, "r", Seed::u32_odd, 0x9E3779B9u, 0u, 1, "int32.add", Record::fraction,            \
    "@p add.u32 %0, %0, %2;")                                                                                          \
  X(Lop3B32, "lop3.b32", 75, unsigned, "r", Seed::u32_odd, 0x9E3779B9u, 0u, 1, "int32.logic", Record::fraction,        \
    "lop3.b32 %0, %0, %1, %2, 0x6A;")                                                                                  \
  X(ShfLWrapB32, "shf.l.wrap.b32", 75, unsigned, "r", Seed::u32_odd, 7u, 0u, 1, "int32.shift", Record::fraction,       \
    "shf.l.wrap.b32 %0, %0, %1, %2;")                                                                                  \
  X(PopcB32, "popc.b32", 75, unsigned, "r", Seed::u32_odd, 0u, 0u, 1, "int32.popc", Record::min,                       \
    "popc.b32 %0, %1;")                                                                                                \
  X(Ex2ApproxF32, "ex2.approx.f32", 75, float, "f", Seed::f32_unit, 0.0f, 0.0f, 1, "mufu", Record::min,                \
    "{.reg .f32 t; neg.f32 t, %0; ex2.approx.ftz.f32 %0, t;}")                                                         \
  X(RsqrtApproxF32, "rsqrt.approx.f32", 75, float, "f", Seed::f32_unit, 0.0f, 0.0f, 1, "mufu", Record::min,            \
    "rsqrt.approx.ftz.f32 %0, %0;")                                                                                    \
  X(SinApproxF32, "sin.approx.f32", 75, float, "f", Seed::f32_small, 0.0f, 0.0f, 1, "mufu", Record::min,               \
    "sin.approx.ftz.f32 %0, %0;")                                                                                      \
  X(CvtF16x2F32, "cvt.rn.f16x2.f32", 80, unsigned, "r", Seed::f32_unit, 0x0000FFFFu, 0x3F800000u, 1, "cvt.other",      \
    Record::min,                                                                                                  \
    "{.reg .f32 fx, fy; .reg .b32 h; mov.b32 fx, %0; mov.b32 fy, %1; cvt.rn.f16x2.f32 h, fx, fy;"                      \
    " lop3.b32 %0, h, %2, %3, 0xEA;}")                                                                                 \
  X(Dp4aS32, "dp4a.s32.s32", 75, unsigned, "r", Seed::u32_odd, 0x01020304u, 0u, 1, "int32.dp4a", Record::min,          \
    "dp4a.s32.s32 %0, %1, %2, %0;")                                                                                    \
  X(Vimax3S32, "dpx.vimax3.s32", 90, unsigned, "r", Seed::u32_odd, 0x12345u, 0u, 1, "dpx.s32", Record::min,            \
    "{.reg .s32 t; max.s32 t, %0, %1; max.s32 %0, t, %2;}")                                                          \
  X(Vimin3S16x2, "dpx.vimin3.s16x2", 90, unsigned, "r", Seed::u32_odd, 0x7FF07FF0u, 0u, 1, "dpx.s16x2", Record::min,   \
    "{.reg .b32 t; min.s16x2 t, %0, %1; min.s16x2 %0, t, %2;}")                                                      \
  X(ViaddmaxS32, "dpx.viaddmax.s32", 90, unsigned, "r", Seed::u32_odd, 3u, 0u, 1, "dpx.s32", Record::min,              \
    "{.reg .s32 t; add.s32 t, %0, %2; max.s32 %0, t, %1;}")                                                          \
  X(ViaddminS32, "dpx.viaddmin.s32", 90, unsigned, "r", Seed::u32_odd, 3u, 0u, 1, "dpx.s32", Record::min,              \
    "{.reg .s32 t; add.s32 t, %0, %2; min.s32 %0, t, %1;}")                                                          \
  X(ViaddmaxS16x2, "dpx.viaddmax.s16x2", 90, unsigned, "r", Seed::u32_odd, 0x00010001u, 0u, 1, "dpx.s16x2",            \
    Record::min, "{.reg .b32 t; add.s16x2 t, %0, %2; max.s16x2 %0, t, %1;}")                                         \
  X(ViaddmaxReluS32, "dpx.viaddmax.relu.s32", 90, unsigned, "r", Seed::u32_odd, 3u, 0u, 1, "dpx.s32", Record::min,     \
    "{.reg .s32 t; add.s32 t, %0, %2; max.relu.s32 %0, t, %1;}")                                                     \
  X(VimaxReluS32, "dpx.vimax.relu.s32", 90, unsigned, "r", Seed::u32_odd, 0u, 0u, 1, "dpx.s32", Record::min,           \
    "max.relu.s32 %0, %0, %1;")
// clang-format on

// One Op per row: step(x, y, a, b, live) runs the row's PTX. Instructions newer
// than the device pass are compiled out (the probe's Requirements keep them
// from running).
#define GC_TPUT_OP(Name, Id, MinCC, Type, Cons, SeedKind, A, B, Units, PeakId, Rec, Body) \
  struct Name {                                                                           \
    using T = Type;                                                                       \
    static constexpr const char* kId = "throughput.alu." Id;                              \
    static constexpr const char* kPeak = PeakId;                                          \
    static constexpr Record kRecord = Rec;                                                \
    static constexpr const char* kBody = Body;                                            \
    static constexpr double kUnits = Units;                                               \
    static constexpr Seed kSeed = SeedKind;                                               \
    static T a() { return A; }                                                            \
    static T b() { return B; }                                                            \
    __device__ static T step(T x, T y, T a, T b, unsigned live) {                         \
      if constexpr (kCudaArch >= (MinCC)*10) {                                            \
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t" Body "\n\t}"       \
                     : "+" Cons(x)                                                        \
                     : Cons(y), Cons(a), Cons(b), "r"(live));                             \
      } else {                                                                            \
        __trap();                                                                         \
      }                                                                                   \
      return x;                                                                           \
    }                                                                                     \
  };
GC_TPUT_ALU_TABLE(GC_TPUT_OP)
#undef GC_TPUT_OP

template <class Op>
__global__ void __launch_bounds__(kThreads) alu_throughput_kernel(const typename Op::T* seeds, typename Op::T a,
                                                                  typename Op::T b, unsigned live, int trips,
                                                                  typename Op::T* sink, long long* stamps) {
  using T = typename Op::T;
  const GcStamp begin = gc_stamp_now();
  const std::size_t tid = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  T x[kIlp];
#pragma unroll
  for (int i = 0; i < kIlp; ++i) x[i] = seeds[(tid * kIlp + i) & 4095];
#pragma unroll 1
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      T next[kIlp];
#pragma unroll
      for (int i = 0; i < kIlp; ++i) next[i] = Op::step(x[i], x[(i + 1) % kIlp], a, b, live);
#pragma unroll
      for (int i = 0; i < kIlp; ++i) x[i] = next[i];
    }
  }
  gc_stamp_store(stamps, begin);
#pragma unroll
  for (int i = 0; i < kIlp; ++i) sink[tid * kIlp + i] = x[i];  // every value is live
}

// A min row's value: the rate per SM and clock, op/s / (SMs x the SM clock
// measured in the timed launches). The table's entry for the pipe, where there
// is one (sm_80's popc and MUFU rows), becomes the peak in the same unit.
void to_per_sm_clock(Measurement& m, int sms, const PeakEntry* cited, const char* peak_id, const std::string& arch) {
  express_per_sm_clock(m, sms, "op/clk/SM");
  if (!cited) {
    m.note("peak_entry", fmt::format("none: {} has no '{}' entry (no public rate); the value is judged against a "
                                     "measured minimum",
                                     arch, peak_id));
    return;
  }
  if (cited->unit != m.unit)
    throw std::logic_error(fmt::format("peak entry '{}' is in {}, the probe counts op/clk/SM", cited->id, cited->unit));
  m.peak = cited->per_sm_per_clock;
  m.peak_formula = fmt::format("{:g} {} ({}:{}, {})", cited->per_sm_per_clock, cited->unit, cited->where.file,
                               cited->where.line, cited->source);
  m.note("peak_entry",
         fmt::format("{} = {:g} {} ({})", cited->id, cited->per_sm_per_clock, cited->unit, cited->source));
}

template <class Op>
Measurement measure_alu_throughput(const ProbeContext& ctx) {
  using T = typename Op::T;
  const DeviceInfo& dev = ctx.device;
  // A fraction row skips before any allocation when the entry is missing; a
  // min row runs everywhere and uses the entry only where there is one.
  [[maybe_unused]] const PeakEntry* cited = Op::kRecord == Record::fraction
                                                ? &require_peak(ctx, Op::kPeak)
                                                : peak_table_for(dev.arch()).find(Op::kPeak);
  int blocks_per_sm = 0;
  GC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, alu_throughput_kernel<Op>, kThreads, 0));
  blocks_per_sm = std::max(1, blocks_per_sm);
  const int grid = blocks_per_sm * dev.sm_count;
  const std::size_t threads = static_cast<std::size_t>(grid) * kThreads;

  std::vector<T> seeds_host;
  for (unsigned long long v : random_seeds(Op::kSeed, 4096, std::hash<std::string>{}(Op::kId))) {
    T t{};
    std::memcpy(&t, &v, sizeof(T));
    seeds_host.push_back(t);
  }
  DeviceBuffer<T> seeds(seeds_host);
  DeviceBuffer<T> sink(threads * kIlp);
  const unsigned live = 1;  // the guard: true, but only at run time

  auto run = [&](int trips, long long* stamps) {
    alu_throughput_kernel<Op><<<grid, kThreads>>>(seeds.get(), Op::a(), Op::b(), live, trips, sink.get(), stamps);
  };
  // Loop trips for one launch of at least kLaunchTargetMs (sampling.hpp).
  const int trips = calibrate_trips([&](int t) { run(t, nullptr); }, kLaunchTargetMs, 16);

  Work work;
  if constexpr (Op::kRecord == Record::fraction) work.peak_id = Op::kPeak;
  else work.unit = "op/s";  // converted to op/clk/SM below
  work.units_per_launch = static_cast<double>(threads) * trips * kSteps * kIlp * Op::kUnits;
  work.sms_used = dev.sm_count;
  work.method = fmt::format("{} blocks x {} threads ({} per SM), {} independent values per thread, {} x {} steps "
                            "each; random non-zero inputs; PTX per step: {}",
                            grid, kThreads, blocks_per_sm, kIlp, trips, kSteps, Op::kBody);
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(trips, stamps); },
                                     throughput_options(ctx));
  if constexpr (Op::kRecord == Record::min) to_per_sm_clock(m, dev.sm_count, cited, Op::kPeak, dev.arch());
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(&alu_throughput_kernel<Op>), dev.arch()));
  return m;
}


std::string summary(Record r, const char* instruction, const char* peak_id) {
  if (r == Record::fraction)
    return fmt::format("throughput of {} on all SMs as a fraction of peak entry '{}'", instruction, peak_id);
  return fmt::format("throughput of {} on all SMs in op/clk/SM at the measured SM clock; no public rate on sm_90: "
                     "a measured minimum (peak entry '{}' is shown where the table has it)",
                     instruction, peak_id);
}

#define GC_TPUT_PROBE(Name, Id, MinCC, Type, Cons, SeedKind, A, B, Units, PeakId, Rec, Body) \
  Probe{Name::kId,                                                                           \
        Family::throughput,                                                                  \
        summary(Rec, Id, PeakId),                                                            \
        {MinCC},                                                                             \
        (Rec) == Record::min ? kMinHint : kFractionOfPeakHint,                               \
        &measure_alu_throughput<Name>},

const bool kRegistered = register_probes({GC_TPUT_ALU_TABLE(GC_TPUT_PROBE)});

}  // namespace
}  // namespace gpuconform::kernels
