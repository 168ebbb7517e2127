// SPDX-License-Identifier: Apache-2.0
// Contention (seed 002, van Stigt et al. 2022, section 6: latency under contention
// from more warps and blocks): latency and throughput as the number of SMs hitting one
// address grows from 1 to all.
//   parallel.contention.atomic_same_address: lane 0 of 4 warps per SM runs a chain of
//     atom.global.add.u32 on one word (each add depends on the previous result);
//   parallel.contention.l2_same_line: lane 0 of 4 warps per SM chases a node that
//     points to itself, ld.global.cg: every load reads the same L2 line (one slice).
// One block per SM (per_sm_launch.cuh); the blocks on the first n SM ids work, the
// others leave at once. Latency: cycles per operation of a chain (clock64) on SM 0, which
// works at every step: its distance to the line's L2 slice stays the same, so only the
// contention moves it (the median over all working SMs mixes in SMs nearer to or farther
// from the slice as SMs are added: on one H200 it fell from 291.5 cycles at 2 SMs to 260.8
// at 6 with no contention to speak of, 2026-11-26; it is kept as a second curve);
// throughput: all operations / (last end - first start) of %globaltimer. Judged: the shape (layout_analysis.hpp check_contention_curve:
// latency never falls by more than 10% as SMs are added, throughput never collapses
// below half its best past saturation); the curves and the saturation point (the
// fewest SMs reaching 90% of the best throughput) go into the run record.
#include <fmt/format.h>

#include <algorithm>

#include "gpuconform/device_buffer.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"
#include "topology/per_sm_launch.cuh"

namespace gpuconform::kernels {
namespace {

extern __shared__ __align__(16) char reserve[];

constexpr int kWarps = 4;
constexpr int kOps = 256;
constexpr double kShapeTol = 0.10;

enum class Op { atomic, load };

template <Op O>
__global__ void __launch_bounds__(kWarps * 32) contend_kernel(unsigned long long* target, int active_sms,
                                                              long long* cycles, unsigned long long* begin,
                                                              unsigned long long* end, unsigned* sink) {
  const unsigned sm = per_sm::smid();
  if (sm >= static_cast<unsigned>(active_sms)) return;
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    const unsigned long long t0 = per_sm::globaltimer();
    const long long c0 = clock64();
    unsigned v = 0;
    if constexpr (O == Op::atomic) {
      unsigned* word = reinterpret_cast<unsigned*>(target);
      for (int i = 0; i < kOps; ++i) v = atomicAdd(word, (v >> 31) | 1u);  // the next add waits for this one
    } else {
      unsigned long long p = reinterpret_cast<unsigned long long>(target);
      for (int i = 0; i < kOps; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
      v = static_cast<unsigned>(p);
    }
    sink[sm * kWarps + threadIdx.x / 32] = v;  // waits for the last operation
    const long long c1 = clock64();
    const unsigned long long t1 = per_sm::globaltimer();
    const unsigned slot = sm * kWarps + threadIdx.x / 32;
    cycles[slot] = c1 - c0;
    begin[slot] = t0;
    end[slot] = t1;
  }
  if (threadIdx.x == 0 && active_sms < 0) reserve[0] = 0;  // never: the reservation needs a use
}

std::vector<int> sm_steps(int sms) {
  std::vector<int> out;
  for (int n : {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 80, 96, 112, 128})
    if (n < sms) out.push_back(n);
  out.push_back(sms);
  return out;
}

template <Op O>
Measurement measure_contention(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  const std::size_t smem = per_sm::one_block_smem(dev);
  per_sm::reserve_smem(contend_kernel<O>, smem, kWarps * 32);
  const int slots = dev.sm_count * kWarps;
  DeviceBuffer<unsigned long long> target(16);  // one 128-byte line
  DeviceBuffer<long long> cycles(slots);
  DeviceBuffer<unsigned long long> begin(slots), end(slots);
  DeviceBuffer<unsigned> sink(slots);
  const unsigned long long self = reinterpret_cast<unsigned long long>(target.get());
  Series lat{"latency_vs_sms", "SMs", "SMs contending", "latency", "cycles per operation (SM 0)", {}, {}};
  Series lat_all{"latency_all_sms_vs_sms", "SMs", "SMs contending", "latency",
                 "cycles per operation (median of every working SM)", {}, {}};
  Series thr{"throughput_vs_sms", "SMs", "SMs contending", "throughput", "operations/ns", {}, {}};
  for (int n : sm_steps(dev.sm_count)) {
    std::vector<double> l, t, all;
    for (int r = 0; r <= (ctx.quick ? 2 : 4); ++r) {  // r = 0 is a warm-up
      target.upload(std::vector<unsigned long long>(16, self));  // the node points to itself
      GC_CUDA_CHECK(cudaMemset(cycles.get(), 0xFF, cycles.bytes()));
      contend_kernel<O><<<dev.sm_count, kWarps * 32, smem>>>(target.get(), n, cycles.get(), begin.get(), end.get(),
                                                              sink.get());
      GC_CUDA_CHECK_LAUNCH();
      const auto c = cycles.download();
      const auto b = begin.download(), e = end.download();
      std::vector<double> per_op, sm0;
      unsigned long long first = ~0ull, last = 0;
      for (int s = 0; s < slots; ++s)
        if (c[s] >= 0) {
          per_op.push_back(static_cast<double>(c[s]) / kOps);
          if (s < kWarps) sm0.push_back(per_op.back());
          first = std::min(first, b[s]);
          last = std::max(last, e[s]);
        }
      if (per_op.size() != static_cast<std::size_t>(n * kWarps))
        throw std::runtime_error(fmt::format("{} warps worked instead of {} x {} (one block per SM failed)",
                                             per_op.size(), n, kWarps));
      if (r == 0) continue;
      l.push_back(median(sm0));
      all.push_back(median(per_op));
      t.push_back(static_cast<double>(n) * kWarps * kOps / static_cast<double>(std::max(1ull, last - first)));
    }
    lat.x.push_back(n);
    lat.y.push_back(median(l));
    lat_all.x.push_back(n);
    lat_all.y.push_back(median(all));
    thr.x.push_back(n);
    thr.y.push_back(median(t));
  }
  const auto shape = topology::check_contention_curve(lat.x, lat.y, thr.y, kShapeTol);
  Measurement m;
  m.value = static_cast<double>(shape.violations.size());
  m.unit = "violations";
  m.samples.push_back(m.value);
  if (!shape.violations.empty()) m.note("violations", topology::join_violations(shape.violations));
  m.note("saturation", fmt::format("throughput reaches 90% of its best ({:.4g} operations/ns) at {:.0f} SMs; latency "
                                   "{:.1f} cycles at 1 SM, {:.1f} at {} SMs",
                                   *std::max_element(thr.y.begin(), thr.y.end()), thr.x[shape.saturation], lat.y.front(),
                                   lat.y.back(), dev.sm_count));
  m.note("method", fmt::format("one block per SM, the first n SM ids work: lane 0 of {} warps each runs {} dependent "
                               "{} on one 128-byte line; median of 4 launches per n",
                               kWarps, kOps, O == Op::atomic ? "atom.global.add.u32" : "ld.global.cg of a self-pointing node"));
  m.series.push_back(std::move(lat));
  m.series.push_back(std::move(lat_all));
  m.series.push_back(std::move(thr));
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

}  // namespace

const bool kRegistered = register_probes({
    Probe{"parallel.contention.atomic_same_address",
          Family::parallel,
          "shape violations of atomic latency/throughput as 1..all SMs add to one address",
          {70},
          kMaxHint,
          &measure_contention<Op::atomic>},
    Probe{"parallel.contention.l2_same_line",
          Family::parallel,
          "shape violations of L2 load latency/throughput as 1..all SMs read one line",
          {70},
          kMaxHint,
          &measure_contention<Op::load>},
});

}  // namespace gpuconform::kernels
