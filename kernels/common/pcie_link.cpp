// SPDX-License-Identifier: Apache-2.0
#include "common/pcie_link.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>

namespace gpuconform::kernels {
namespace {

std::string read_sysfs(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// "16.0 GT/s PCIe" -> 16.0; 0 when unreadable.
double parse_gts(const std::string& text) {
  try {
    return text.empty() ? 0.0 : std::stod(text);
  } catch (...) {
    return 0.0;
  }
}

}  // namespace

PcieLink read_pcie_link(const std::string& bus_id) {
  std::string id = bus_id;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string dir = "/sys/bus/pci/devices/" + id + "/";
  PcieLink l;
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

double pcie_encoding_efficiency(double gts) {
  if (gts <= 5.0) return 8.0 / 10.0;
  if (gts <= 32.0) return 128.0 / 130.0;
  return 0;  // gen 6 FLIT mode: not modelled
}

double pcie_link_rate(const PcieLink& link, std::string* formula) {
  const double eff = pcie_encoding_efficiency(link.gts);
  if (link.gts <= 0 || link.width <= 0 || eff <= 0) return 0;
  if (formula)
    *formula = fmt::format("{:g} GT/s x {} lanes x {} / 8 (sysfs current_link_speed '{}')", link.gts, link.width,
                           link.gts <= 5.0 ? "8/10" : "128/130", link.speed_text);
  return link.gts * 1e9 * link.width * eff / 8.0;
}

}  // namespace gpuconform::kernels
