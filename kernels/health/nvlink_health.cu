// SPDX-License-Identifier: Apache-2.0
// NVLink health read through NVML (nvlink_state.hpp), one judged entry each:
// - health.nvlink.links_up: how many NVLink links the GPU shows active (an H100 or
//   H200 SXM shows 18); the record names every link NVML shows that is down;
// - health.nvlink.link_rate: the slowest active link's rate (a link that trained at a
//   lower rate caps every transfer striped over it);
// - health.nvlink.errors (pair probe): how much the links' replay, recovery and CRC-flit
//   error counters of both GPUs rose while GPU A and GPU B copied to each other for
//   about half a second; 0 on a healthy link (the data-CRC counter is noted only: see
//   judged_rise). The counters' totals since boot are noted.
// A GPU that shows no link (a PCIe board, or a pass-through VM whose NVLink is not
// exposed: `nvidia-smi nvlink -s` shows nothing there) skips with that reason.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <chrono>
#include <string>
#include <tuple>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/nvlink_state.hpp"
#include "gpuconform/probe.hpp"
#include "p2p/peer_buffers.hpp"
#include "p2p/peer_link.hpp"

namespace gpuconform::kernels {
namespace {

NvLinkState links_or_skip(const DeviceInfo& gpu) {
  NvLinkState s = read_nvlink_state(gpu.uuid, gpu.pci_bus_id);
  if (!s.unavailable.empty())
    throw ProbeSkipped(fmt::format("GPU {}'s NVLink state cannot be read: {}", gpu.index, s.unavailable));
  if (s.links.empty())
    throw ProbeSkipped(fmt::format("GPU {} shows no NVLink link (a PCIe board, or a pass-through VM that does not "
                                   "expose NVLink): nothing to judge",
                                   gpu.index));
  return s;
}

Measurement links_up(const ProbeContext& ctx) {
  const NvLinkState s = links_or_skip(ctx.device);
  Measurement m;
  m.unit = "links";
  m.value = s.active_links();
  std::string down;
  for (const NvLinkLink& l : s.links)
    if (!l.active) down += fmt::format("{}{}", down.empty() ? "" : ", ", l.link);
  m.note("links_shown", std::to_string(s.links.size()));
  if (!down.empty()) m.note("links_down", down);
  m.note("nvml", s.to_json().dump());
  return m;
}

Measurement link_rate(const ProbeContext& ctx) {
  const NvLinkState s = links_or_skip(ctx.device);
  if (s.active_links() == 0) throw ProbeSkipped(fmt::format("GPU {} shows no active NVLink link", ctx.device.index));
  Measurement m;
  m.unit = "B/s";
  m.value = s.slowest_active_rate();
  if (!(m.value > 0)) throw ProbeSkipped(fmt::format("NVML gives no NVLink link rate for GPU {}", ctx.device.index));
  for (const NvLinkLink& l : s.links)
    if (l.active && l.rate_bytes_per_s == m.value) {
      m.note("slowest_link", std::to_string(l.link));
      break;
    }
  return m;
}

// The judged counters' rise between two readings: replay, recovery and CRC-flit,
// the three `nvidia-smi nvlink -e` reports. The data-CRC counter (DL_CRC_DATA) is
// noted, not judged: on healthy H200 links it rose by 3-35 per link in every 0.5 s
// of traffic while `nvidia-smi nvlink -e` showed 0 CRC errors and the replay,
// recovery and CRC-flit counters stayed at 0 (GPU-84135ed2 and GPU-891124cd,
// 2026-11-26, expectations/evidence/README.md): it counts corrected events, not faults.
double judged_rise(const NvLinkState& before, const NvLinkState& after) {
  if (!before.totals || !after.totals) return 0;
  const NvLinkCounters& b = *before.totals;
  const NvLinkCounters& a = *after.totals;
  auto rise = [](unsigned long long x, unsigned long long y) { return y > x ? static_cast<double>(y - x) : 0.0; };
  return rise(b.replay, a.replay) + rise(b.recovery, a.recovery) + rise(b.crc_flit, a.crc_flit);
}

double data_crc_rise(const NvLinkState& before, const NvLinkState& after) {
  if (!before.totals || !after.totals || after.totals->crc_data < before.totals->crc_data) return 0;
  return static_cast<double>(after.totals->crc_data - before.totals->crc_data);
}

// About `seconds` of copies both ways between the pair, 256 MiB at a time.
void exercise_links(const DeviceInfo& a, const DeviceInfo& b, double seconds) {
  constexpr std::size_t kBytes = std::size_t(256) << 20;
  const PeerBuffer a_src(a.index, kBytes, 0xe1), a_dst(a.index, kBytes, 0xe2);
  const PeerBuffer b_src(b.index, kBytes, 0xe3), b_dst(b.index, kBytes, 0xe4);
  DeviceStream on_a(a.index), on_b(b.index);
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    for (int i = 0; i < 8; ++i) {
      GC_CUDA_CHECK(cudaMemcpyPeerAsync(b_dst.get(), b.index, a_src.get(), a.index, kBytes, on_a.stream));
      GC_CUDA_CHECK(cudaMemcpyPeerAsync(a_dst.get(), a.index, b_src.get(), b.index, kBytes, on_b.stream));
    }
    GC_CUDA_CHECK(cudaStreamSynchronize(on_a.stream));
    GC_CUDA_CHECK(cudaStreamSynchronize(on_b.stream));
  }
}

Measurement link_errors(const ProbeContext& ctx) {
  const DeviceInfo& b = require_peers(ctx).front();
  const NvLinkState a0 = links_or_skip(ctx.device), b0 = links_or_skip(b);
  if (!a0.totals && !b0.totals)
    throw ProbeSkipped(fmt::format("NVML gives no NVLink error counter for GPU {} or GPU {}", ctx.device.index,
                                   b.index));
  enable_peer_access(ctx.device, b);
  enable_peer_access(b, ctx.device);
  exercise_links(ctx.device, b, 0.5);
  const NvLinkState a1 = read_nvlink_state(ctx.device.uuid, ctx.device.pci_bus_id);
  const NvLinkState b1 = read_nvlink_state(b.uuid, b.pci_bus_id);
  Measurement m;
  m.unit = "errors";
  m.value = judged_rise(a0, a1) + judged_rise(b0, b1);
  std::string rises;
  for (const auto& [gpu, before, after] : {std::tuple{ctx.device.index, &a0, &a1}, std::tuple{b.index, &b0, &b1}})
    for (const std::string& r : nvlink_counter_rises(*before, *after))
      rises += fmt::format("{}GPU {} {}", rises.empty() ? "" : "; ", gpu, r);
  if (!rises.empty()) m.note("rises", rises);
  m.note("data_crc_rise", fmt::format("{:.0f} (DL_CRC_DATA of both GPUs: noted, not judged)",
                                      data_crc_rise(a0, a1) + data_crc_rise(b0, b1)));
  m.note("method", "NVLink replay, recovery and CRC counters of both GPUs read before and after about 0.5 s of "
                   "cudaMemcpyPeerAsync both ways (256 MiB copies)");
  m.note("counter_source", a1.counter_source.empty() ? b1.counter_source : a1.counter_source);
  m.note("totals_after", fmt::format("GPU {}: {}; GPU {}: {}", ctx.device.index, a1.to_json().value("totals", nlohmann::json()).dump(),
                                     b.index, b1.to_json().value("totals", nlohmann::json()).dump()));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"health.nvlink.links_up",
          Family::health,
          "NVLink links NVML shows active on this GPU",
          {60},
          kMinHint,
          &links_up},
    Probe{"health.nvlink.link_rate",
          Family::health,
          "the slowest active NVLink link's rate (NVML)",
          {60},
          kMinHint,
          &link_rate},
    Probe{"health.nvlink.errors",
          Family::health,
          "NVLink replay, recovery and CRC-flit error counters of GPU A and GPU B: their rise over 0.5 s of "
          "copies both ways",
          {60},
          kMaxHint,
          &link_errors,
          Scope::pair},
});

}  // namespace
}  // namespace gpuconform::kernels
