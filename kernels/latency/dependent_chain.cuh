// SPDX-License-Identifier: Apache-2.0
#pragma once
// The dependent-chain mechanism behind every instruction-latency probe.
//
// One thread (or one warp, for warp-wide instructions) runs a fully unrolled
// chain in which each step consumes the previous step's result, so a step
// issues only when its predecessor completes. Timing chains of N and 2N steps
// in the same launch and dividing the difference by N cancels the clock-read
// and loop overhead and the last step's unobserved tail. The sequence runs
// twice per launch and only the second pass counts, so instruction-cache
// misses and operand loads stay out.
//
// Why the chain cannot be shortened: NVVM may not touch volatile inline PTX,
// but ptxas optimises PTX like any other code, and it does fuse consecutive
// integer steps (two `add.u32 x, x, a` become one `IMAD x, a, 2, x`; sixteen
// `xor` with the same operand fold to one). Steps that ptxas could merge are
// therefore guarded by a predicate that is true at run time but unknown to
// ptxas: a predicated instruction leaves its destination unchanged when the
// guard is false, so no two steps can be merged, re-associated or hoisted.
// Mostly the guard costs nothing on the dependency path (one ISETP before the
// timed region); where ptxas implements it with a select per step instead,
// the row subtracts that select's latency (Glue). IEEE floating-point steps
// are never re-associated and run unguarded. Seeds are loaded per thread, so
// ptxas keeps the chain on the vector pipes rather than the uniform datapath. The SASS of the
// timed region is recorded with every measurement (sass.hpp), so a chain that
// a future compiler shortens anyway shows up as a changed opcode count.
//
// An instruction enters as an Op (see GC_CHAIN_OP): a register type T for the
// chained value, a type U for the other operands, and a device function
// `step(T x, U a, U b, unsigned live)` written as volatile inline PTX. Optional
// members: kChain (steps per chain, default 256; shorter for long multi-
// instruction sequences, to keep compile time down), kThreads (32 for warp-wide
// instructions), prepare() (device set-up before timing, e.g. shared memory)
// and Glue (an Op whose separately measured per-step latency is subtracted,
// for instructions that need a second instruction to feed their result back).
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cuda_arch.cuh"
#include "common/device_clock.cuh"
#include "common/every_sm.cuh"
#include "common/placement.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {

constexpr int kDefaultChain = 256;

namespace chain_detail {
template <class Op, class = void> struct length { static constexpr int value = kDefaultChain; };
template <class Op> struct length<Op, std::void_t<decltype(Op::kChain)>> { static constexpr int value = Op::kChain; };
template <class Op, class = void> struct threads { static constexpr int value = 1; };
template <class Op> struct threads<Op, std::void_t<decltype(Op::kThreads)>> { static constexpr int value = Op::kThreads; };
template <class Op, class = void> struct has_prepare : std::false_type {};
template <class Op>
struct has_prepare<Op, std::void_t<decltype(Op::prepare(typename Op::T{}, typename Op::U{}, typename Op::U{}))>>
    : std::true_type {};
template <class Op, class = void> struct has_body : std::false_type {};
template <class Op> struct has_body<Op, std::void_t<decltype(Op::kBody)>> : std::true_type {};
template <class Op, class = void> struct glue { using type = void; };
template <class Op> struct glue<Op, std::void_t<typename Op::Glue>> { using type = typename Op::Glue; };
}  // namespace chain_detail

template <class Op, int N>
__device__ __forceinline__ typename Op::T run_chain(typename Op::T x, const typename Op::U& a,
                                                    const typename Op::U& b, unsigned live) {
#pragma unroll
  for (int i = 0; i < N; ++i) x = Op::step(x, a, b, live);
  return x;
}

// cycles[0] = N-step cycles, cycles[1] = 2N-step cycles, both of the second
// pass. Each thread loads its seed from seeds[threadIdx.x]: a value that ptxas
// cannot prove warp-uniform stays in vector registers, so the chain runs on
// the SM's vector pipes and not on the uniform datapath (which it would
// otherwise choose for values derived from kernel parameters only).
template <class Op>
__device__ __forceinline__ void chain_latency_body(const typename Op::T* seeds, typename Op::U a, typename Op::U b,
                                                   unsigned live, typename Op::T* sink, long long* cycles) {
  using T = typename Op::T;
  constexpr int n = chain_detail::length<Op>::value;
  T x = seeds[threadIdx.x];
  if constexpr (chain_detail::has_prepare<Op>::value) {
    x = Op::prepare(x, a, b);
    __syncthreads();
  }
  long long short_cycles = 0, long_cycles = 0;
#pragma unroll 1
  for (int pass = 0; pass < 2; ++pass) {
    const long long t0 = gc_clock64();
    x = run_chain<Op, n>(x, a, b, live);
    const long long t1 = gc_clock64();
    x = run_chain<Op, 2 * n>(x, a, b, live);
    const long long t2 = gc_clock64();
    short_cycles = t1 - t0;
    long_cycles = t2 - t1;
  }
  if (threadIdx.x == 0) {
    cycles[0] = short_cycles;
    cycles[1] = long_cycles;
  }
  sink[threadIdx.x] = x;  // the chain's result is live
}

// One block: wherever the scheduler puts it (the value every SM reads alike).
template <class Op>
__global__ void chain_latency_kernel(const typename Op::T* seeds, typename Op::U a, typename Op::U b, unsigned live,
                                     typename Op::T* sink, long long* cycles) {
  chain_latency_body<Op>(seeds, a, b, live, sink, cycles);
}

// Ops whose chain does not read alike on every SM opt in (a specialisation
// deriving from std::true_type next to the Op) and are timed on each SM alone
// in turn. Why: a chain whose unrolled code outgrows the instruction cache
// fetches on every pass, and that costs more on some SMs: latency.alu.sad.u64
// timed alone on each SM reads 22.0 to 27.5 cycles (median 23.7, the same SMs
// on an H100 and an H200), and the single block of the old method landed on a
// slow SM on two H200s only (25.875 in every sample, where every other board
// read 22.078). One SM at a time, because the
// same chain run on every SM at once contends for those fetches (median 23.8,
// spread 21.9-27.4 on an H200) and because the every-SM kernel compiles the
// other Ops' chains to other SASS (their values moved by up to 7 %).
template <class Op>
struct times_each_sm : std::false_type {};

// The body on SM `target` only: the first block that finds itself there
// (claim[0] counts them) measures; every other block leaves at once.
template <class Op>
__global__ void chain_latency_on_sm_kernel(const typename Op::T* seeds, typename Op::U a, typename Op::U b,
                                           unsigned live, typename Op::T* sink, long long* cycles, unsigned target,
                                           unsigned* claim) {
  __shared__ bool measures;
  if (threadIdx.x == 0) measures = every_sm::smid() == target && atomicAdd(claim, 1u) == 0u;
  __syncthreads();
  if (measures) chain_latency_body<Op>(seeds, a, b, live, sink, cycles);
}

// Per-step cycles of one Op: median over launches of (T(2N) - T(N)) / N.
template <class Op>
std::vector<double> chain_step_samples(const ProbeContext& ctx) {
  using T = typename Op::T;
  constexpr int n = chain_detail::length<Op>::value;
  constexpr int threads = chain_detail::threads<Op>::value;
  DeviceBuffer<T> seeds(std::vector<T>(threads, Op::seed()));
  DeviceBuffer<T> sink(threads);
  DeviceBuffer<long long> cycles(2);
  const typename Op::U a = Op::operand_a(), b = Op::operand_b();
  const unsigned live = 1;  // the guard predicate: true, but only at run time
  auto launch = [&] {
    chain_latency_kernel<Op><<<1, threads>>>(seeds.get(), a, b, live, sink.get(), cycles.get());
    GC_CUDA_CHECK_LAUNCH();
  };
  launch();  // warm-up: module load, instruction cache
  RepeatPolicy policy;
  policy.min_samples = ctx.quick ? 3 : 7;
  policy.max_samples = ctx.quick ? 5 : 31;
  policy.max_rel_mad = 0.001;
  return repeat_until_stable(
      [&] {
        launch();
        const auto c = cycles.download();
        return static_cast<double>(c[1] - c[0]) / n;
      },
      policy);
}

// Per-step cycles of an Op that times each SM alone (times_each_sm): one sweep
// times every SM in turn; per sweep the median over the SMs, then over sweeps
// (placement.hpp). An SM no block landed on in a sweep is reported missing.
template <class Op>
placement::Summary chain_sweep_summary(const ProbeContext& ctx) {
  using T = typename Op::T;
  constexpr int n = chain_detail::length<Op>::value;
  constexpr int threads = chain_detail::threads<Op>::value;
  const int sms = ctx.device.sm_count;
  DeviceBuffer<T> seeds(std::vector<T>(threads, Op::seed()));
  DeviceBuffer<T> sink(threads);
  DeviceBuffer<long long> cycles(2);
  DeviceBuffer<unsigned> claim(1);
  const typename Op::U a = Op::operand_a(), b = Op::operand_b();
  const unsigned live = 1;  // the guard predicate: true, but only at run time
  auto sweep = [&] {
    placement::Launch l;
    l.expected = sms;
    for (int sm = 0; sm < sms; ++sm) {
      claim.poison(0);
      chain_latency_on_sm_kernel<Op><<<every_sm::kBlocksPerSm * sms, threads>>>(
          seeds.get(), a, b, live, sink.get(), cycles.get(), static_cast<unsigned>(sm), claim.get());
      GC_CUDA_CHECK_LAUNCH();
      if (claim.download()[0] == 0) continue;  // no block landed there this time
      const auto c = cycles.download();
      l.readings.push_back({sm, sm, static_cast<double>(c[1] - c[0]) / n, fmt::format("SM {}", sm)});
    }
    return l;
  };
  sweep();  // warm-up: module load, instruction caches
  std::vector<placement::Launch> sweeps;
  RepeatPolicy policy;
  policy.min_samples = ctx.quick ? 3 : 7;
  policy.max_samples = ctx.quick ? 5 : 15;
  policy.max_rel_mad = 0.001;
  repeat_until_stable(
      [&] {
        sweeps.push_back(sweep());
        std::vector<double> per_sm;
        for (const placement::Reading& r : sweeps.back().readings) per_sm.push_back(r.value);
        if (per_sm.empty()) throw std::runtime_error("a chain sweep timed no SM");
        return median(per_sm);
      },
      policy);
  return placement::summarize(sweeps, "SM");
}

// The SASS opcodes between the clock reads of the kernel that times an Op.
template <class Op>
std::string chain_sass(const ProbeContext& ctx) {
  const void* kernel = nullptr;
  if constexpr (times_each_sm<Op>::value)
    kernel = reinterpret_cast<const void*>(&chain_latency_on_sm_kernel<Op>);
  else
    kernel = reinterpret_cast<const void*>(&chain_latency_kernel<Op>);
  return sass::timed_region_note(kernel, ctx.device.arch());
}

template <class Op>
Measurement measure_chain_latency(const ProbeContext& ctx) {
  using Glue = typename chain_detail::glue<Op>::type;
  constexpr int n = chain_detail::length<Op>::value;
  Measurement m;
  std::string method = fmt::format("dependent chain, (T({}) - T({})) / {}, {} thread(s), ", 2 * n, n, n,
                                   chain_detail::threads<Op>::value);
  if constexpr (times_each_sm<Op>::value) {
    method += "timed on each SM alone in turn: median over SMs per sweep, then over sweeps";
    m = placement::to_measurement(chain_sweep_summary<Op>(ctx), method);
  } else {
    method += "median of launches";
    m.samples = chain_step_samples<Op>(ctx);
    m.unit = "cycles";
  }
  if constexpr (!std::is_void_v<Glue>) {
    const double glue = median(chain_step_samples<Glue>(ctx));
    for (double& s : m.samples) s -= glue;
    method += fmt::format("; minus {:.3f} cycles of the feedback instruction, measured by its own chain{}", glue,
                          times_each_sm<Op>::value ? " (the per_sm note and series are before it)" : "");
    m.note("glue_sass", chain_sass<Glue>(ctx));
  }
  m.value = median(m.samples);
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", method);
  if constexpr (chain_detail::has_body<Op>::value) m.note("ptx", Op::kBody);
  m.note("sass", chain_sass<Op>(ctx));
  return m;
}

}  // namespace gpuconform::kernels

// Register types of the op tables.
using gc_u16 = unsigned short;
using gc_u32 = unsigned;
using gc_u64 = unsigned long long;
using gc_f32 = float;
using gc_f64 = double;

// An Op for one PTX instruction (or a short fixed sequence) on registers.
// Body is PTX in which %0 is the chained value x (read and written), %1 and %2
// the operands a and b, and every instruction that carries the chain is
// guarded by `@p` (true at run time). MinCC is the lowest compute capability
// whose ptxas accepts the body (x10 = __CUDA_ARCH__); GlueT is void or the Op
// whose latency is subtracted.
#define GC_CHAIN_OP(Name, MinCC, Type, Cons, UType, UCons, Len, GlueT, Body, Seed, A, B)             \
  struct Name {                                                                                      \
    using T = Type;                                                                                  \
    using U = UType;                                                                                 \
    using Glue = GlueT;                                                                              \
    static constexpr int kChain = Len;                                                               \
    static constexpr const char* kBody = Body;                                                       \
    static T seed() { return Seed; }                                                                 \
    static U operand_a() { return A; }                                                               \
    static U operand_b() { return B; }                                                               \
    __device__ static T step(T x, U a, U b, unsigned live) {                                         \
      if constexpr (::gpuconform::kernels::kCudaArch >= (MinCC) * 10) {                              \
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %3, 0;\n\t" Body "\n\t}"                 \
                     : "+" Cons(x)                                                                   \
                     : UCons(a), UCons(b), "r"(live));                                               \
      } else {                                                                                       \
        __trap();                                                                                    \
      }                                                                                              \
      return x;                                                                                      \
    }                                                                                                \
  };

// One table row's Op and its probe registration ("latency.alu.<Id>").
#define GC_ALU_ROW_OP(Name, Id, MinCC, T, C, U, UC, Len, Glue, Body, Seed, A, B) \
  GC_CHAIN_OP(Name, MinCC, T, C, U, UC, Len, Glue, Body, Seed, A, B)
#define GC_ALU_PROBE(Name, Id, MinCC)                                                                        \
  ::gpuconform::Probe{                                                                                       \
      "latency.alu." Id,                                                                                     \
      ::gpuconform::Family::latency,                                                                         \
      std::string("dependent-chain latency of `") + Name::kBody + "` (p: a guard that is true at run time)", \
      {MinCC},                                                                                               \
      ::gpuconform::kDeterministicLatency,                                                                   \
      &::gpuconform::kernels::measure_chain_latency<Name>},
#define GC_ALU_ROW_PROBE(Name, Id, MinCC, T, C, U, UC, Len, Glue, Body, Seed, A, B) GC_ALU_PROBE(Name, Id, MinCC)
