// SPDX-License-Identifier: Apache-2.0
// GPU-to-GPU bandwidth through the copy engines (cudaMemcpyPeerAsync), as
// nvbandwidth's "memcpy_ce" tests measure it, as a fraction of the link peak
// (p2p/peer_link.hpp):
// - p2p.bandwidth.copy_engine.uni: 1 GiB from A to B, bytes copied per second;
// - p2p.bandwidth.copy_engine.bi: 1 GiB each way at once, both directions' bytes
//   counted, against twice the one-way peak;
// - p2p.bandwidth.all_pairs_concurrent (node probe): every GPU copies to every other
//   at once (what an NVSwitch must carry), all bytes counted, against the sum of
//   the GPUs' egresses.
// Each timed launch forks the copies of every source GPU off A's default stream with
// an event and joins them back, so A's events time the whole exchange. Peer access
// is enabled first, so the driver copies directly rather than through host memory.
// After timing, three slices of each destination are compared with the source.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/throughput.hpp"
#include "p2p/peer_buffers.hpp"
#include "p2p/peer_link.hpp"

namespace gpuconform::kernels {
namespace {

constexpr std::size_t kCopyBytes = std::size_t(1) << 30;

// One copy of the exchange: `bytes` from `src` (on its GPU) to `dst` (on another).
struct Copy {
  const PeerBuffer* src;
  const PeerBuffer* dst;
};

// Times `copies` issued together, each source GPU on a stream of its own, as one
// launch of measure_throughput on the current (A's) default stream.
Measurement time_exchange(const ProbeContext& ctx, const std::vector<Copy>& copies, std::size_t bytes,
                          const LinkRate& peak, const std::string& method) {
  const DeviceStream home_stream(ctx.device.index);  // its event forks the copies off A's default stream
  const cudaEvent_t fork = home_stream.event;
  std::vector<std::unique_ptr<DeviceStream>> streams;
  for (const Copy& c : copies) streams.push_back(std::make_unique<DeviceStream>(c.src->device()));
  const int home = ctx.device.index;
  auto launch = [&](long long*) {
    GC_CUDA_CHECK(cudaEventRecord(fork, 0));
    for (std::size_t i = 0; i < copies.size(); ++i) {
      DeviceStream& s = *streams[i];
      DeviceScope on(s.device);
      GC_CUDA_CHECK(cudaStreamWaitEvent(s.stream, fork, 0));
      GC_CUDA_CHECK(cudaMemcpyPeerAsync(copies[i].dst->get(), copies[i].dst->device(), copies[i].src->get(),
                                        copies[i].src->device(), bytes, s.stream));
      GC_CUDA_CHECK(cudaEventRecord(s.event, s.stream));
    }
    for (const auto& s : streams) GC_CUDA_CHECK(cudaStreamWaitEvent(0, s->event, 0));
    GC_CUDA_CHECK(cudaSetDevice(home));
  };
  const Measurement m = measure_link(ctx, static_cast<double>(bytes) * copies.size(), method, peak, launch);
  for (const Copy& c : copies)
    if (std::string diff = compare_slices(*c.src, *c.dst, bytes); !diff.empty())
      throw std::runtime_error(fmt::format("the copy from GPU {} to GPU {} is wrong: {}", c.src->device(),
                                           c.dst->device(), diff));
  return m;
}

Measurement copy_uni(const ProbeContext& ctx) {
  const DeviceInfo& b = require_peers(ctx).front();
  enable_peer_access(ctx.device, b);
  enable_peer_access(b, ctx.device);
  const PeerBuffer src(ctx.device.index, kCopyBytes, 0x9e11), dst(b.index, kCopyBytes, 0x9e12);
  return time_exchange(ctx, {{&src, &dst}}, kCopyBytes, pair_peak(ctx.device, b),
                       fmt::format("cudaMemcpyPeerAsync of {} MiB from GPU {} to GPU {}, event-timed", kCopyBytes >> 20,
                                   ctx.device.index, b.index));
}

Measurement copy_bi(const ProbeContext& ctx) {
  const DeviceInfo& b = require_peers(ctx).front();
  enable_peer_access(ctx.device, b);
  enable_peer_access(b, ctx.device);
  const PeerBuffer a_src(ctx.device.index, kCopyBytes, 0x9e21), a_dst(ctx.device.index, kCopyBytes, 0x9e22);
  const PeerBuffer b_src(b.index, kCopyBytes, 0x9e23), b_dst(b.index, kCopyBytes, 0x9e24);
  LinkRate peak = pair_peak(ctx.device, b);
  peak.bytes_per_s *= 2;
  peak.formula = "2 x " + peak.formula;
  return time_exchange(ctx, {{&a_src, &b_dst}, {&b_src, &a_dst}}, kCopyBytes, peak,
                       fmt::format("cudaMemcpyPeerAsync of {} MiB each way between GPU {} and GPU {} at once, both "
                                   "directions' bytes counted, event-timed",
                                   kCopyBytes >> 20, ctx.device.index, b.index));
}

Measurement copy_all_pairs(const ProbeContext& ctx) {
  std::vector<DeviceInfo> gpus = {ctx.device};
  for (const DeviceInfo& p : require_peers(ctx)) gpus.push_back(p);
  // Every ordered pair shares its source GPU's egress with the others: 1 GiB in all
  // per source GPU keeps the exchange long and the memory bounded on large nodes.
  const std::size_t per_copy = (kCopyBytes / (gpus.size() - 1)) & ~std::size_t(4095);
  std::vector<std::unique_ptr<PeerBuffer>> buffers;
  std::vector<Copy> copies;
  std::uint64_t seed = 0x9e30;
  for (const DeviceInfo& from : gpus)
    for (const DeviceInfo& to : gpus) {
      if (from.index == to.index) continue;
      enable_peer_access(from, to);
      buffers.push_back(std::make_unique<PeerBuffer>(from.index, per_copy, ++seed));
      buffers.push_back(std::make_unique<PeerBuffer>(to.index, per_copy, ++seed));
      copies.push_back({buffers[buffers.size() - 2].get(), buffers.back().get()});
    }
  return time_exchange(ctx, copies, per_copy, node_peak(gpus),
                       fmt::format("cudaMemcpyPeerAsync of {} MiB for each of the {} ordered pairs of {} GPUs at once, "
                                   "all bytes counted, event-timed",
                                   per_copy >> 20, copies.size(), gpus.size()));
}

const bool kRegistered = register_probes({
    Probe{"p2p.bandwidth.copy_engine.uni",
          Family::p2p,
          "copy-engine bandwidth from GPU A to GPU B (cudaMemcpyPeerAsync, 1 GiB) as a fraction of the link peak",
          {60},
          kFractionOfPeakHint,
          &copy_uni,
          Scope::pair},
    Probe{"p2p.bandwidth.copy_engine.bi",
          Family::p2p,
          "copy-engine bandwidth both ways between GPU A and GPU B at once as a fraction of twice the link peak",
          {60},
          kFractionOfPeakHint,
          &copy_bi,
          Scope::pair},
    Probe{"p2p.bandwidth.all_pairs_concurrent",
          Family::p2p,
          "copy-engine bandwidth of every ordered GPU pair at once as a fraction of the GPUs' summed egress",
          {60},
          kFractionOfPeakHint,
          &copy_all_pairs,
          Scope::node},
});

}  // namespace
}  // namespace gpuconform::kernels
