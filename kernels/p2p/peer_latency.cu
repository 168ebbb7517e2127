// SPDX-License-Identifier: Apache-2.0
// Load-to-use latency of GPU A reading GPU B's memory through peer access
// (p2p.latency.read): one thread of A chases pointers through a random single
// cycle (chase_plan.hpp) over 4 MiB of B's memory, one node per 128-byte line, with
// ld.global.cg (not cached in A's L1). Every load's address is the previous load's
// value, so the loads serialise and the time per hop is one round trip over the
// link to B's L2 (4 MiB fits there; a first full cycle, untimed, puts it there).
// The value is nanoseconds per hop from %globaltimer; cycles per hop from clock64
// are noted beside it (the link's share of a round trip does not scale with A's
// SM clock, so nanoseconds are the quantity to judge).
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <cstdint>
#include <vector>

#include "common/clock_stamps.cuh"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "latency/chase_plan.hpp"
#include "p2p/peer_buffers.hpp"
#include "p2p/peer_link.hpp"

namespace gpuconform::kernels {
namespace {

constexpr std::size_t kFootprint = std::size_t(4) << 20;
constexpr std::size_t kLine = 128;
constexpr std::size_t kNodes = kFootprint / kLine;
constexpr int kTimedHops = 4096;

// result = {ns, cycles, last pointer}; the last pointer is stored before the
// closing reads, so they wait for the final load.
__global__ void peer_chase(unsigned long long start, int warm_hops, int timed_hops, unsigned long long* result) {
  unsigned long long p = start;
  for (int i = 0; i < warm_hops; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
  const unsigned long long t0 = gc_globaltimer();
  const long long c0 = gc_clock64();
  for (int i = 0; i < timed_hops; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p)::"memory");
  result[2] = p;
  const long long c1 = gc_clock64();
  const unsigned long long t1 = gc_globaltimer();
  result[0] = t1 - t0;
  result[1] = static_cast<unsigned long long>(c1 - c0);
}

Measurement peer_read_latency(const ProbeContext& ctx) {
  const DeviceInfo& b = require_peers(ctx).front();
  enable_peer_access(ctx.device, b);
  const PeerBuffer nodes(b.index, kFootprint, 0x1a7e);
  // Node i holds the address of node next[i], one node per line.
  const std::vector<std::uint32_t> next = chase::single_cycle(kNodes, 0x51ab);
  std::vector<unsigned long long> image(kFootprint / 8, 0x5a5a5a5a5a5a5a5aull);
  const auto base = reinterpret_cast<unsigned long long>(nodes.get());
  for (std::size_t i = 0; i < kNodes; ++i) image[i * kLine / 8] = base + next[i] * kLine;
  GC_CUDA_CHECK(cudaMemcpy(nodes.get(), image.data(), kFootprint, cudaMemcpyHostToDevice));
  unsigned long long* result = nullptr;
  GC_CUDA_CHECK(cudaMalloc(&result, 3 * sizeof(unsigned long long)));
  const int launches = ctx.quick ? 3 : 9;
  std::vector<double> ns, cycles;
  try {
    for (int l = 0; l <= launches; ++l) {  // launch 0 is untimed warm-up
      peer_chase<<<1, 1>>>(base, static_cast<int>(kNodes), kTimedHops, result);
      GC_CUDA_CHECK(cudaGetLastError());
      unsigned long long host[3];
      GC_CUDA_CHECK(cudaMemcpy(host, result, sizeof host, cudaMemcpyDeviceToHost));
      if (l == 0) continue;
      ns.push_back(static_cast<double>(host[0]) / kTimedHops);
      cycles.push_back(static_cast<double>(host[1]) / kTimedHops);
    }
  } catch (...) {
    cudaFree(result);
    throw;
  }
  cudaFree(result);
  Measurement m;
  m.unit = "ns";
  m.samples = ns;
  m.value = median(ns);
  const double cyc = median(cycles);
  m.sm_clock_mhz = cyc / m.value * 1e3;
  m.note("method", fmt::format("one thread of GPU {} chases a random single cycle of {} nodes (one per {} B line, "
                               "{} MiB) in GPU {}'s memory with ld.global.cg; {} timed hops after a full untimed "
                               "cycle; median of {} launches",
                               ctx.device.index, kNodes, kLine, kFootprint >> 20, b.index, kTimedHops, launches));
  m.note("cycles_per_hop", fmt::format("{:.1f} (clock64 of GPU {}, {:.0f} MHz during the chase)", cyc,
                                       ctx.device.index, m.sm_clock_mhz));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"p2p.latency.read",
          Family::p2p,
          "load-to-use latency (ns) of GPU A reading GPU B's memory through peer access (pointer chase, 4 MiB)",
          {60},
          RecordHint{ExpectationKind::band, 0, 0.02, 0.05},
          &peer_read_latency,
          Scope::pair},
});

}  // namespace
}  // namespace gpuconform::kernels
