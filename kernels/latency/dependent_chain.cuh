#pragma once
// The dependent-chain mechanism behind every instruction-latency probe.
//
// One thread runs a fully unrolled chain in which each instruction consumes
// the previous result, so each issues only when its predecessor completes.
// Timing chains of N and 2N instructions in the same launch and dividing the
// difference by N cancels the clock-read and loop overhead and the last
// instruction's unobserved tail. The sequence runs twice per launch and only
// the second pass counts, so instruction-cache misses stay out.
//
// An instruction enters as an Op: a type T and a device function
// `static T step(T x, T a, T b)` written as volatile inline PTX, so the
// compiler can neither fold the chain nor move it across the clock reads.
#include <vector>

#include "common/device_clock.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {

constexpr int kChainShort = 256;
constexpr int kChainLong = 2 * kChainShort;

template <class Op, int N>
__device__ __forceinline__ typename Op::T run_chain(typename Op::T x, typename Op::T a, typename Op::T b) {
#pragma unroll
  for (int i = 0; i < N; ++i) x = Op::step(x, a, b);
  return x;
}

// cycles[0] = N-chain cycles, cycles[1] = 2N-chain cycles (second pass).
template <class Op>
__global__ void chain_latency_kernel(typename Op::T seed, typename Op::T a, typename Op::T b,
                                     typename Op::T* sink, long long* cycles) {
  using T = typename Op::T;
  T x = seed;
  long long short_cycles = 0, long_cycles = 0;
  for (int pass = 0; pass < 2; ++pass) {
    long long t0 = gc_clock64();
    x = run_chain<Op, kChainShort>(x, a, b);
    long long t1 = gc_clock64();
    x = run_chain<Op, kChainLong>(x, a, b);
    long long t2 = gc_clock64();
    short_cycles = t1 - t0;
    long_cycles = t2 - t1;
  }
  cycles[0] = short_cycles;
  cycles[1] = long_cycles;
  *sink = x;  // the chain's result is live, so nothing in it is dead code
}

// Latency in cycles per instruction: median over launches of
// (T(2N) - T(N)) / N.
template <class Op>
Measurement measure_chain_latency(const ProbeContext& ctx) {
  using T = typename Op::T;
  DeviceBuffer<T> sink(1);
  DeviceBuffer<long long> cycles(2);
  const T seed = Op::seed(), a = Op::operand_a(), b = Op::operand_b();
  RepeatPolicy policy;
  policy.min_samples = ctx.quick ? 3 : 7;
  policy.max_samples = ctx.quick ? 5 : 31;
  policy.max_rel_mad = 0.001;
  chain_latency_kernel<Op><<<1, 1>>>(seed, a, b, sink.get(), cycles.get());  // warm-up
  GC_CUDA_CHECK_LAUNCH();
  Measurement m;
  m.samples = repeat_until_stable(
      [&] {
        chain_latency_kernel<Op><<<1, 1>>>(seed, a, b, sink.get(), cycles.get());
        GC_CUDA_CHECK_LAUNCH();
        const auto c = cycles.download();
        return static_cast<double>(c[1] - c[0]) / kChainShort;
      },
      policy);
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz();
  m.note("method", "dependent chain, (T(512) - T(256)) / 256, one thread, median of launches");
  return m;
}

}  // namespace gpuconform::kernels
