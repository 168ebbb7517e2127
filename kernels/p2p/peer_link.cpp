// SPDX-License-Identifier: Apache-2.0
#include "p2p/peer_link.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>

#include "common/pcie_link.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/nvlink_state.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {

LinkRate gpu_egress(const DeviceInfo& gpu) {
  const NvLinkState links = read_nvlink_state(gpu.uuid, gpu.pci_bus_id);
  LinkRate r;
  const int active = links.active_links();
  if (active > 0) {
    double sum = 0;
    for (const NvLinkLink& l : links.links)
      if (l.active) sum += l.rate_bytes_per_s;
    if (!(sum > 0))
      throw ProbeSkipped(fmt::format("GPU {} shows {} active NVLink links but NVML gives no link rate", gpu.index,
                                     active));
    r.bytes_per_s = sum;
    r.nvlink = true;
    const double slowest = links.slowest_active_rate();
    r.formula = sum == active * slowest
                    ? fmt::format("GPU {}: {} NVLink links x {:.3f} GB/s (NVML)", gpu.index, active, slowest / 1e9)
                    : fmt::format("GPU {}: {} NVLink links, {:.3f} GB/s together (NVML)", gpu.index, active, sum / 1e9);
    return r;
  }
  std::string formula;
  r.bytes_per_s = pcie_link_rate(read_pcie_link(gpu.pci_bus_id), &formula);
  if (!(r.bytes_per_s > 0))
    throw ProbeSkipped(fmt::format("GPU {} shows no active NVLink link ({}) and its PCIe link rate cannot be read",
                                   gpu.index, links.unavailable.empty() ? "NVML lists none" : links.unavailable));
  r.formula = fmt::format("GPU {}: PCIe {}", gpu.index, formula);
  return r;
}

LinkRate pair_peak(const DeviceInfo& a, const DeviceInfo& b) {
  const LinkRate ea = gpu_egress(a), eb = gpu_egress(b);
  LinkRate r;
  r.bytes_per_s = std::min(ea.bytes_per_s, eb.bytes_per_s);
  r.nvlink = ea.nvlink && eb.nvlink;
  r.formula = fmt::format("min({}; {})", ea.formula, eb.formula);
  return r;
}

LinkRate node_peak(const std::vector<DeviceInfo>& gpus) {
  LinkRate r;
  r.nvlink = true;
  for (const DeviceInfo& g : gpus) {
    const LinkRate e = gpu_egress(g);
    r.bytes_per_s += e.bytes_per_s;
    r.nvlink = r.nvlink && e.nvlink;
    r.formula += (r.formula.empty() ? "sum(" : "; ") + e.formula;
  }
  r.formula += ")";
  return r;
}

Measurement measure_link(const ProbeContext& ctx, double bytes_per_launch, const std::string& method,
                         const LinkRate& peak, const StampedLaunch& launch) {
  Work work;
  work.unit = "B/s";
  work.units_per_launch = bytes_per_launch;
  work.sms_used = ctx.device.sm_count;
  work.method = method;
  work.device_peak = peak.bytes_per_s;
  work.device_peak_formula = peak.formula;
  Measurement m = measure_throughput(ctx, work, launch, throughput_options(ctx));
  m.note("path", peak.nvlink ? "NVLink" : "PCIe (no active NVLink link on one side)");
  return m;
}

void enable_peer_access(const DeviceInfo& from, const DeviceInfo& to, bool atomics) {
  int can = 0;
  GC_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, from.index, to.index));
  if (!can)
    throw ProbeSkipped(fmt::format("GPU {} cannot access GPU {}'s memory (cudaDeviceCanAccessPeer = 0): no "
                                   "peer-to-peer path between them",
                                   from.index, to.index));
  if (atomics) {
    int native = 0;
    GC_CUDA_CHECK(cudaDeviceGetP2PAttribute(&native, cudaDevP2PAttrNativeAtomicSupported, from.index, to.index));
    if (!native)
      throw ProbeSkipped(fmt::format("the link from GPU {} to GPU {} has no native atomics "
                                     "(cudaDevP2PAttrNativeAtomicSupported = 0)",
                                     from.index, to.index));
  }
  int current = 0;
  GC_CUDA_CHECK(cudaGetDevice(&current));
  GC_CUDA_CHECK(cudaSetDevice(from.index));
  const cudaError_t e = cudaDeviceEnablePeerAccess(to.index, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // enabled by an earlier probe: fine
  else GC_CUDA_CHECK(e);
  GC_CUDA_CHECK(cudaSetDevice(current));
}

}  // namespace gpuconform::kernels
