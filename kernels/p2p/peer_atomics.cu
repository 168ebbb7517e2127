// SPDX-License-Identifier: Apache-2.0
// System-scope atomics across a GPU pair, counted exactly (p2p.atomics.system_scope):
// 256 counters live in GPU A's memory; GPU A's SMs and GPU B's SMs (over the link,
// through peer access) add to them at the same time with atom.add.sys
// (atomicAdd_system), every thread adding 1 to counter (thread % 256) kAdds times.
// The CUDA C++ Programming Guide (Atomic Functions) makes system-scope atomics atomic
// with respect to all threads of the system, so when both kernels are done every
// counter holds exactly its share of the adds: the value is how many adds are
// missing or extra, summed over the counters (0 on a healthy pair). The counters
// start from a non-zero base, so an add that landed on stale zeros cannot pass.
// The rate of adds over both GPUs is noted, not judged.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/probe.hpp"
#include "p2p/peer_buffers.hpp"
#include "p2p/peer_link.hpp"

namespace gpuconform::kernels {
namespace {

constexpr int kCounters = 256;
constexpr int kBlocks = 64;
constexpr int kThreads = 256;
constexpr int kAdds = 64;
constexpr unsigned long long kBase = 0x100000000ull;  // counters start here, not at 0

__global__ void add_system(unsigned long long* counters) {
  unsigned long long* mine = counters + threadIdx.x % kCounters;
  for (int i = 0; i < kAdds; ++i) atomicAdd_system(mine, 1ull);
}

Measurement system_atomics(const ProbeContext& ctx) {
  const DeviceInfo& a = ctx.device;
  const DeviceInfo& b = require_peers(ctx).front();
  enable_peer_access(b, a, /*atomics=*/true);  // B's SMs reach A's counters
  const PeerBuffer counters(a.index, kCounters * sizeof(unsigned long long), 0xa70c);
  const std::vector<unsigned long long> start(kCounters, kBase);
  GC_CUDA_CHECK(cudaMemcpy(counters.get(), start.data(), kCounters * sizeof(unsigned long long),
                           cudaMemcpyHostToDevice));
  DeviceStream on_a(a.index), on_b(b.index);
  const auto t0 = std::chrono::steady_clock::now();
  {
    DeviceScope scope(a.index);
    add_system<<<kBlocks, kThreads, 0, on_a.stream>>>(counters.get<unsigned long long>());
    GC_CUDA_CHECK(cudaGetLastError());
  }
  {
    DeviceScope scope(b.index);
    add_system<<<kBlocks, kThreads, 0, on_b.stream>>>(counters.get<unsigned long long>());
    GC_CUDA_CHECK(cudaGetLastError());
  }
  GC_CUDA_CHECK(cudaStreamSynchronize(on_a.stream));
  GC_CUDA_CHECK(cudaStreamSynchronize(on_b.stream));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::vector<unsigned long long> end(kCounters);
  GC_CUDA_CHECK(cudaMemcpy(end.data(), counters.get(), kCounters * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  // Each counter gets kAdds from every thread whose index maps to it, on both GPUs.
  const unsigned long long per_counter = 2ull * kBlocks * (kThreads / kCounters) * kAdds;
  unsigned long long off = 0;
  int first_bad = -1;
  for (int i = 0; i < kCounters; ++i) {
    const unsigned long long want = kBase + per_counter;
    const unsigned long long diff = end[i] > want ? end[i] - want : want - end[i];
    if (diff && first_bad < 0) first_bad = i;
    off += diff;
  }
  Measurement m;
  m.unit = "lost or extra adds";
  m.value = static_cast<double>(off);
  m.compared = kCounters;
  const double adds = 2.0 * kBlocks * kThreads * kAdds;
  m.note("method", fmt::format("{} blocks x {} threads on GPU {} and on GPU {} at once, {} atomicAdd_system each "
                               "onto {} counters in GPU {}'s memory; {:.0f} adds expected per counter",
                               kBlocks, kThreads, a.index, b.index, kAdds, kCounters, a.index,
                               static_cast<double>(per_counter)));
  m.note("rate", fmt::format("{:.4g} adds/s over both GPUs (host-timed, launch included)", adds / seconds));
  if (first_bad >= 0)
    m.note("first_wrong_counter", fmt::format("counter {} holds {} above its base, expected {}", first_bad,
                                              end[first_bad] - kBase, per_counter));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"p2p.atomics.system_scope",
          Family::p2p,
          "system-scope atomic adds from GPU A and GPU B at once onto counters in A's memory: adds lost or extra",
          {60},
          kMaxHint,
          &system_atomics,
          Scope::pair},
});

}  // namespace
}  // namespace gpuconform::kernels
