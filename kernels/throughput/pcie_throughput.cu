// SPDX-License-Identifier: Apache-2.0
// Host <-> device copy bandwidth over PCIe with pinned host memory, as a
// fraction of the link's raw rate read from sysfs (common/pcie_link.hpp; gen 6
// has no model there and skips). The
// link is read after the timed copies, while it is still trained up (an idle
// GPU may drop its link to 2.5 GT/s); the record notes current and maximum.
// Packet headers make the peak unreachable (about 0.8-0.9 of it is typical):
// the expectation is the fraction measured on real boards.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "common/pcie_link.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/throughput.hpp"

namespace gpuconform::kernels {
namespace {

template <bool H2D>
Measurement measure_pcie(const ProbeContext& ctx) {
  const DeviceInfo& dev = ctx.device;
  if (dev.pci_bus_id.empty()) throw ProbeSkipped("the device reports no PCI bus id, so its link cannot be read");
  const std::size_t bytes = std::size_t(256) << 20;
  void* host = nullptr;
  GC_CUDA_CHECK(cudaMallocHost(&host, bytes));
  struct HostFree {
    void* p;
    ~HostFree() { cudaFreeHost(p); }
  } host_guard{host};
  std::memset(host, 0x5A, bytes);  // non-zero
  DeviceBuffer<unsigned char> device(bytes);
  GC_CUDA_CHECK(cudaMemset(device.get(), 0x3C, bytes));
  auto launch = [&](long long*) {
    if (H2D) GC_CUDA_CHECK(cudaMemcpyAsync(device.get(), host, bytes, cudaMemcpyHostToDevice));
    else GC_CUDA_CHECK(cudaMemcpyAsync(host, device.get(), bytes, cudaMemcpyDeviceToHost));
  };
  // Read the link first to skip cheaply when it cannot be read at all.
  if (read_pcie_link(dev.pci_bus_id).gts <= 0)
    throw ProbeSkipped(fmt::format("cannot read /sys/bus/pci/devices/{}/current_link_speed", dev.pci_bus_id));
  Work work;
  work.unit = "B/s";
  work.units_per_launch = static_cast<double>(bytes);
  work.sms_used = dev.sm_count;
  work.method = fmt::format("cudaMemcpyAsync of {} MiB {} pinned host memory, event-timed", bytes >> 20,
                            H2D ? "from" : "to");
  // The peak is read after warm-up copies have trained the link up: measure
  // once to find it, then attach it.
  ThroughputOptions options = throughput_options(ctx);
  Measurement m = measure_throughput(ctx, work, launch, options);
  // The host can only slow a copy down (other DMA, interrupts, IOMMU misses): in one
  // of nine runs on three H100 hosts most copies ran at 0.56 of the link and the
  // rest at 0.87 (2026-11-25). The link is judged on the faster half of its copies.
  const std::size_t copies = m.samples.size();
  std::sort(m.samples.begin(), m.samples.end(), std::greater<double>());
  m.samples.resize((m.samples.size() + 1) / 2);
  m.value = median(m.samples);
  m.note("statistic", fmt::format("median of the faster {} of {} copies", m.samples.size(), copies));
  const PcieLink link = read_pcie_link(dev.pci_bus_id);
  if (link.gts <= 0 || link.width <= 0)
    throw ProbeSkipped(fmt::format("cannot read the link speed and width of {} from sysfs", dev.pci_bus_id));
  std::string formula;
  const double rate = pcie_link_rate(link, &formula);
  if (rate <= 0)
    throw ProbeSkipped(fmt::format("link speed '{}' (PCIe 6 or later) has no peak model here", link.speed_text));
  m.peak = rate;
  m.peak_formula = formula;
  m.note("link", fmt::format("current {} x{}, maximum {} x{}", link.speed_text, link.width, link.max_speed_text,
                             link.max_width));
  return m;
}

const bool kRegistered = register_probes({
    Probe{"throughput.pcie.h2d",
          Family::throughput,
          "host-to-device copy bandwidth (pinned) as a fraction of the PCIe link rate x width from sysfs",
          {75},
          kFractionOfPeakHint,
          &measure_pcie<true>},
    Probe{"throughput.pcie.d2h",
          Family::throughput,
          "device-to-host copy bandwidth (pinned) as a fraction of the PCIe link rate x width from sysfs",
          {75},
          kFractionOfPeakHint,
          &measure_pcie<false>},
});

}  // namespace
}  // namespace gpuconform::kernels
