// SPDX-License-Identifier: Apache-2.0
// wgmma (sm_90a) throughput: one SM (the per-clock rate of one SM's tensor
// cores) and all SMs, random operands, as a fraction of the peak entry of the
// type x SMs x the measured SM clock. The all-SM probes also time the same
// launch on all-zero operands and note that rate (perf-anchors: random
// operands cost 3-8% on H100 SXM through power).
//
// Variants: m64nNk16.f32.f16 for N = 64, 128, 256 with A and B in shared
// memory (SS) and, for N = 256, A from registers (.areg, RS); m64n256k16
// .f16.f16 and .f32.bf16, m64n256k8.f32.tf32, m64n256k32.f32.e4m3, .f32.e5m2
// and .s32.s8 (SS). Every K tile is 32 bytes per row, so one no-swizzle
// K-major layout (core matrices of 8 rows x 16 bytes, leading byte offset
// 128, stride byte offset 256: latency/wgmma_ops.cuh) serves all types.
//
// Mechanism (shared with the sparse probes): wgmma_rate.cuh. Operands: random
// in the input format (random_formats.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <type_traits>

#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "latency/wgmma_ops.cuh"
#include "throughput/random_formats.hpp"
#include "throughput/wgmma_rate.cuh"

namespace gpuconform::kernels {
namespace {

constexpr int kAWords = 64 * 32 / 4, kBWords = 256 * 32 / 4;  // 32 bytes of K per row

// Operand lists: "%0, ..., %(n-1)" for n accumulator registers, then the A and
// B descriptors (or A's four registers and B's descriptor) and the predicate.
#define GC_WG_PH_32 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define GC_WG_DESC_32 "%32, %33"
#define GC_WG_PRED_32 "%34"
#define GC_WG_AREG_32 "{%32, %33, %34, %35}, %36"
#define GC_WG_AREG_PRED_32 "%37"
#define GC_WG_PH_64 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define GC_WG_DESC_64 "%64, %65"
#define GC_WG_PRED_64 "%66"
#define GC_WG_AREG_64 "{%64, %65, %66, %67}, %68"
#define GC_WG_AREG_PRED_64 "%69"
#define GC_WG_PH_128 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
#define GC_WG_DESC_128 "%128, %129"
#define GC_WG_PRED_128 "%130"
#define GC_WG_AREG_128 "{%128, %129, %130, %131}, %132"
#define GC_WG_AREG_PRED_128 "%133"

// n accumulator operands d[0..n-1] with constraint C ("+f" or "+r").
#define GC_WG_OPS1(C, i) C(d[i])
#define GC_WG_OPS2(C, i) GC_WG_OPS1(C, 2 * (i)), GC_WG_OPS1(C, 2 * (i) + 1)
#define GC_WG_OPS4(C, i) GC_WG_OPS2(C, 2 * (i)), GC_WG_OPS2(C, 2 * (i) + 1)
#define GC_WG_OPS8(C, i) GC_WG_OPS4(C, 2 * (i)), GC_WG_OPS4(C, 2 * (i) + 1)
#define GC_WG_OPS16(C, i) GC_WG_OPS8(C, 2 * (i)), GC_WG_OPS8(C, 2 * (i) + 1)
#define GC_WG_OPS32(C, i) GC_WG_OPS16(C, 2 * (i)), GC_WG_OPS16(C, 2 * (i) + 1)
#define GC_WG_OPS64(C, i) GC_WG_OPS32(C, 2 * (i)), GC_WG_OPS32(C, 2 * (i) + 1)
#define GC_WG_OPS128(C, i) GC_WG_OPS64(C, 2 * (i)), GC_WG_OPS64(C, 2 * (i) + 1)

// Row: X(Name, id, PTX instruction, accumulator registers, register type,
//        constraint, trailing immediates, A/B format, FLOP per wgmma, peak
//        entry, A from registers)
#define GC_WGMMA_TABLE(X)                                                                                         \
  X(F32F16N64, "m64n64k16.f32.f16", "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", 32, float, "+f",      \
    ", 1, 1, 0, 0", Fmt::f16, 2.0 * 64 * 64 * 16, "mma.f16", false)                                             \
  X(F32F16N128, "m64n128k16.f32.f16", "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16", 64, float, "+f",   \
    ", 1, 1, 0, 0", Fmt::f16, 2.0 * 64 * 128 * 16, "mma.f16", false)                                            \
  X(F32F16N256, "m64n256k16.f32.f16", "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", 128, float, "+f",  \
    ", 1, 1, 0, 0", Fmt::f16, 2.0 * 64 * 256 * 16, "mma.f16", false)                                            \
  X(F32F16N256Areg, "m64n256k16.f32.f16.areg", "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", 128,       \
    float, "+f", ", 1, 1, 0", Fmt::f16, 2.0 * 64 * 256 * 16, "mma.f16", true)                                   \
  X(F16F16N256, "m64n256k16.f16.f16", "wgmma.mma_async.sync.aligned.m64n256k16.f16.f16.f16", 64, unsigned,      \
    "+r", ", 1, 1, 0, 0", Fmt::f16, 2.0 * 64 * 256 * 16, "mma.f16", false)                                      \
  X(F32Bf16N256, "m64n256k16.f32.bf16", "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", 128, float,    \
    "+f", ", 1, 1, 0, 0", Fmt::bf16, 2.0 * 64 * 256 * 16, "mma.bf16", false)                                    \
  X(F32Tf32N256, "m64n256k8.f32.tf32", "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", 128, float,      \
    "+f", ", 1, 1", Fmt::tf32, 2.0 * 64 * 256 * 8, "mma.tf32", false)                                           \
  X(F32E4m3N256, "m64n256k32.f32.e4m3", "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", 128, float,    \
    "+f", ", 1, 1", Fmt::e4m3, 2.0 * 64 * 256 * 32, "mma.fp8", false)                                           \
  X(F32E5m2N256, "m64n256k32.f32.e5m2", "wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2", 128, float,    \
    "+f", ", 1, 1", Fmt::e5m2, 2.0 * 64 * 256 * 32, "mma.fp8", false)                                           \
  X(S32S8N256, "m64n256k32.s32.s8", "wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8", 128, unsigned, "+r",   \
    "", Fmt::s8, 2.0 * 64 * 256 * 32, "mma.int8", false)

#if GC_HAVE_WGMMA
#define GC_WG_ISSUE_SS(Instr, NReg, Cons, Tail)                                                          \
  asm volatile("{.reg .pred p; setp.ne.b32 p, " GC_WG_PRED_##NReg ", 0; " Instr " {" GC_WG_PH_##NReg     \
               "}, " GC_WG_DESC_##NReg ", p" Tail ";}"                                                   \
               : GC_WG_OPS##NReg(Cons, 0)                                                                \
               : "l"(da), "l"(db), "r"(1)                                                                \
               : "memory")
#define GC_WG_ISSUE_RS(Instr, NReg, Cons, Tail)                                                          \
  asm volatile("{.reg .pred p; setp.ne.b32 p, " GC_WG_AREG_PRED_##NReg ", 0; " Instr " {"                \
               GC_WG_PH_##NReg "}, " GC_WG_AREG_##NReg ", p" Tail ";}"                                   \
               : GC_WG_OPS##NReg(Cons, 0)                                                                \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1)                             \
               : "memory")
#else
#define GC_WG_ISSUE_SS(Instr, NReg, Cons, Tail) __trap()
#define GC_WG_ISSUE_RS(Instr, NReg, Cons, Tail) __trap()
#endif

#define GC_WGMMA_VARIANT(Name, Id, Instr, NReg, RegT, Cons, Tail, Format, Flop, Peak, Areg)                 \
  struct Name {                                                                                           \
    using Reg = RegT;                                                                                     \
    static constexpr int kRegs = NReg;                                                                    \
    static constexpr bool kAreg = Areg;                                                                   \
    static constexpr Fmt kFmt = Format;                                                                   \
    static constexpr double kFlop = Flop;                                                                 \
    static constexpr const char* kPeak = Peak;                                                            \
    static constexpr const char* kInstr = Instr;                                                          \
    __device__ static void issue(Reg* d, const unsigned* a, unsigned long long da, unsigned long long db) { \
      if constexpr (Areg) {                                                                               \
        GC_WG_ISSUE_RS(Instr, NReg, Cons, Tail);                                                          \
      } else {                                                                                            \
        GC_WG_ISSUE_SS(Instr, NReg, Cons, Tail);                                                          \
      }                                                                                                   \
    }                                                                                                     \
  };
GC_WGMMA_TABLE(GC_WGMMA_VARIANT)
#undef GC_WGMMA_VARIANT

// A non-zero accumulator start of the register type: 0.125 (f32), 0.125 in
// both f16 halves, or 1 (s32).
template <class Reg>
__device__ __forceinline__ Reg accumulator_start(bool f16_pairs) {
  if constexpr (std::is_same_v<Reg, float>) return 0.125f;
  else return f16_pairs ? 0x30003000u : 1u;
}

template <class V>
__global__ void __launch_bounds__(kWgmmaThreads)
    wgmma_throughput_kernel(const unsigned* a_src, const unsigned* b_src, int trips, float* sink, long long* stamps) {
  // Outside sm_90a the wgmma helpers are empty and the staging traps; the body is
  // still compiled there (so every variant is referenced) but never runs.
  __shared__ alignas(128) unsigned a_s[kAWords];
  __shared__ alignas(128) unsigned b_s[kBWords];
  wgmma_stage_tiles<kAWords, kBWords>(a_s, a_src, b_s, b_src);
  const unsigned long long da = smem_descriptor(a_s), db = smem_descriptor(b_s);
  // A from registers (.areg): each thread's four fragment registers.
  unsigned a[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) a[i] = a_src[((threadIdx.x % 128) * 4 + i) % kAWords];
  typename V::Reg d[V::kRegs];
#pragma unroll
  for (int i = 0; i < V::kRegs; ++i) d[i] = accumulator_start<typename V::Reg>(V::kFmt == Fmt::f16);
  wgmma_timed_batches(trips, stamps, [&] { V::issue(d, a, da, db); });
  wgmma_sink<V::kRegs>(d, sink);
}

template <class V, bool AllSms>
Measurement measure_wgmma_throughput(const ProbeContext& ctx) {
  require_peak(ctx, V::kPeak);
  const DeviceInfo& dev = ctx.device;
  const int grid = AllSms ? dev.sm_count : 1;
  DeviceBuffer<unsigned> a(random_words(V::kFmt, kAWords, 0xA11CEu)), b(random_words(V::kFmt, kBWords, 0xB0Bu));
  DeviceBuffer<unsigned> za(kAWords), zb(kBWords);
  GC_CUDA_CHECK(cudaMemset(za.get(), 0, za.bytes()));
  GC_CUDA_CHECK(cudaMemset(zb.get(), 0, zb.bytes()));
  DeviceBuffer<float> sink(static_cast<std::size_t>(grid) * kWgmmaThreads);
  const auto kernel = wgmma_throughput_kernel<V>;
  auto run = [&](const unsigned* pa, const unsigned* pb, int trips, long long* stamps) {
    kernel<<<grid, kWgmmaThreads>>>(pa, pb, trips, sink.get(), stamps);
  };
  WgmmaLaunch plan = plan_wgmma_launch(V::kPeak, grid, V::kFlop, [&](int t) { run(a.get(), b.get(), t, nullptr); });
  const int trips = plan.trips;
  Work& work = plan.work;
  work.method = fmt::format(
      "{} SM(s) x {} warpgroups, each {} trips x {} back-to-back {} ({}) into its own "
      "accumulator, fence + commit + wait_group 0 per trip; random operands",
      grid, kWgmmaWarpgroups, trips, kWgmmaSteps, V::kInstr,
      V::kAreg ? "A from registers" : "A and B in shared memory");
  Measurement m = measure_throughput(ctx, work, [&](long long* stamps) { run(a.get(), b.get(), trips, stamps); },
                                     throughput_options(ctx));
  if (AllSms) {
    const Measurement zero = measure_throughput(
        ctx, work, [&](long long* stamps) { run(za.get(), zb.get(), trips, stamps); }, ThroughputOptions{sampling_policy(true)});
    m.note("zero_data_rate", fmt::format("{:.6g} {} = {:.4f} of its peak at {:.0f} MHz (all-zero A and B; random "
                                         "data reach {:.4f} of peak)",
                                         zero.value, zero.unit, zero.value / *zero.peak, zero.sm_clock_mhz,
                                         m.value / *m.peak));
  }
  m.note("sass", sass::timed_region_note(reinterpret_cast<const void*>(kernel), dev.arch()));
  return m;
}

#define GC_WGMMA_PROBES(Name, Id, Instr, NReg, RegT, Cons, Tail, Format, Flop, Peak, Areg)   \
  Probe{"throughput.wgmma." Id,                                                              \
        Family::throughput,                                                                  \
        "wgmma " Id " on all SMs, random operands, as a fraction of peak entry '" Peak "'",  \
        kWgmmaSm90a,                                                                         \
        kFractionOfPeakHint,                                                                 \
        &measure_wgmma_throughput<Name, true>},                                              \
      Probe{"throughput.wgmma." Id ".one_sm",                                                \
            Family::throughput,                                                              \
            "wgmma " Id " on one SM: the per-clock tensor-core rate of one SM ('" Peak "')", \
            kWgmmaSm90a,                                                                     \
            kFractionOfPeakHint,                                                             \
            &measure_wgmma_throughput<Name, false>},

const bool kRegistered = register_probes({GC_WGMMA_TABLE(GC_WGMMA_PROBES)});

}  // namespace
}  // namespace gpuconform::kernels
