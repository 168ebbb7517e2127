// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a GPU-to-GPU probe divides by, and the peer access it needs.
//
// A GPU's egress: the rates of its active NVLink links added up, as NVML reports
// them (nvlink_state.hpp; an H100 or H200 SXM shows 18 links of 26.562 GB/s);
// without an active link, its PCIe link's rate (common/pcie_link.hpp). One
// direction from A to B is bounded by both ends, so its peak is
// min(egress A, egress B); every GPU sending at once is bounded by the sum of the
// egresses. A link that is down lowers the peak: health.nvlink.links_up judges
// the link count itself.
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/throughput.hpp"

namespace gpuconform::kernels {

struct LinkRate {
  double bytes_per_s = 0;
  std::string formula;  // "GPU 0: 18 NVLink links x 26.562 GB/s (NVML)"
  bool nvlink = false;
};

// One GPU's egress; ProbeSkipped when neither NVLink nor PCIe can be read.
LinkRate gpu_egress(const DeviceInfo& gpu);

// One direction from `a` to `b`: min of both egresses.
LinkRate pair_peak(const DeviceInfo& a, const DeviceInfo& b);

// Every GPU of `gpus` sending at once: the sum of their egresses.
LinkRate node_peak(const std::vector<DeviceInfo>& gpus);

// Times `launch` (measure_throughput) moving `bytes_per_launch` bytes over the link and
// judges it against `peak`: the record's peak, formula and a "path" note (NVLink or PCIe).
Measurement measure_link(const ProbeContext& ctx, double bytes_per_launch, const std::string& method,
                         const LinkRate& peak, const StampedLaunch& launch);

// Lets `from` load and store `to`'s memory (cudaDeviceEnablePeerAccess; enabling
// twice is fine). ProbeSkipped when the pair cannot (cudaDeviceCanAccessPeer = 0),
// or when `atomics` is asked and the link has no native atomics.
void enable_peer_access(const DeviceInfo& from, const DeviceInfo& to, bool atomics = false);

}  // namespace gpuconform::kernels
