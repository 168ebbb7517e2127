// SPDX-License-Identifier: Apache-2.0
#pragma once
// A GPU's PCIe link as sysfs shows it, and the raw rate it can carry:
//   rate = transfer rate (GT/s) x lanes x line-code efficiency / 8 bits,
// with 8b/10b for 2.5 and 5 GT/s (gen 1, 2) and 128b/130b from 8 GT/s on (gen 3
// to 5); gen 6 (64 GT/s, FLIT mode) is not modelled (efficiency 0). Shared by the
// host-copy probes (throughput.pcie.*) and the GPU-to-GPU probes on nodes without
// NVLink (p2p.*).
#include <string>

namespace gpuconform::kernels {

struct PcieLink {
  double gts = 0;  // current transfer rate; 0 when unreadable
  int width = 0;
  std::string speed_text, max_speed_text;
  int max_width = 0;
};

// /sys/bus/pci/devices/<bus id>/{current,max}_link_{speed,width}.
PcieLink read_pcie_link(const std::string& bus_id);

// 8/10, 128/130, or 0 for a rate with no model here.
double pcie_encoding_efficiency(double gts);

// Bytes per second one direction of the link carries at its current rate and
// width, 0 when unreadable or unmodelled; `formula` says how it was derived.
double pcie_link_rate(const PcieLink& link, std::string* formula = nullptr);

}  // namespace gpuconform::kernels
