// Host <-> device copy bandwidth over PCIe with pinned host memory, as a
// fraction of the link's raw rate read from sysfs:
//   peak = transfer rate (GT/s) x lanes x line-code efficiency / 8 bits,
// with 8b/10b for 2.5 and 5 GT/s (gen 1, 2) and 128b/130b from 8 GT/s on
// (gen 3 to 5); gen 6 (64 GT/s, FLIT mode) has no entry here and skips. The
// link is read after the timed copies, while it is still trained up (an idle
// GPU may drop its link to 2.5 GT/s); the record notes current and maximum.
// Packet headers make the peak unreachable (about 0.8-0.9 of it is typical):
// the expectation is the fraction measured on real boards.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <functional>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/throughput.hpp"

namespace gpuconform::kernels {
namespace {

std::string read_sysfs(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

struct Link {
  double gts = 0;
  int width = 0;
  std::string speed_text, max_speed_text;
  int max_width = 0;
};

// "16.0 GT/s PCIe" -> 16.0; 0 when unreadable.
double parse_gts(const std::string& text) {
  try {
    return text.empty() ? 0.0 : std::stod(text);
  } catch (...) {
    return 0.0;
  }
}

Link read_link(const std::string& bus_id) {
  std::string id = bus_id;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string dir = "/sys/bus/pci/devices/" + id + "/";
  Link l;
  l.speed_text = read_sysfs(dir + "current_link_speed");
  l.max_speed_text = read_sysfs(dir + "max_link_speed");
  l.gts = parse_gts(l.speed_text);
  try {
    l.width = std::stoi(read_sysfs(dir + "current_link_width"));
    l.max_width = std::stoi(read_sysfs(dir + "max_link_width"));
  } catch (...) {
  }
  return l;
}

double encoding_efficiency(double gts) {
  if (gts <= 5.0) return 8.0 / 10.0;
  if (gts <= 32.0) return 128.0 / 130.0;
  return 0;  // gen 6 FLIT mode: not modelled
}

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
  if (read_link(dev.pci_bus_id).gts <= 0)
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
  std::sort(m.samples.begin(), m.samples.end(), std::greater<double>());
  m.samples.resize((m.samples.size() + 1) / 2);
  m.value = median(m.samples);
  m.note("statistic", fmt::format("median of the faster {} of {} copies", m.samples.size(), options.repeats));
  const Link link = read_link(dev.pci_bus_id);
  const double eff = encoding_efficiency(link.gts);
  if (link.gts <= 0 || link.width <= 0)
    throw ProbeSkipped(fmt::format("cannot read the link speed and width of {} from sysfs", dev.pci_bus_id));
  if (eff <= 0) throw ProbeSkipped(fmt::format("link speed '{}' (PCIe 6 or later) has no peak model here", link.speed_text));
  m.peak = link.gts * 1e9 * link.width * eff / 8.0;
  m.peak_formula = fmt::format("{:g} GT/s x {} lanes x {} / 8 (sysfs current_link_speed '{}')", link.gts, link.width,
                               link.gts <= 5.0 ? "8/10" : "128/130", link.speed_text);
  m.note("link", fmt::format("current {} x{}, maximum {} x{}", link.speed_text, link.width, link.max_speed_text,
                             link.max_width));
  return m;
}

const RecordHint kFraction{ExpectationKind::fraction_of_peak, 0, 0, 0.05};

const bool kRegistered = [] {
  for (const Probe& p : {
           Probe{"throughput.pcie.h2d", Family::throughput,
                 "host-to-device copy bandwidth (pinned) as a fraction of the PCIe link rate x width from sysfs", {75},
                 kFraction, &measure_pcie<true>},
           Probe{"throughput.pcie.d2h", Family::throughput,
                 "device-to-host copy bandwidth (pinned) as a fraction of the PCIe link rate x width from sysfs", {75},
                 kFraction, &measure_pcie<false>},
       })
    Registry::instance().add(p);
  return true;
}();

}  // namespace
}  // namespace gpuconform::kernels
