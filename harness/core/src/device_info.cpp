// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/device_info.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/selftest_injection.hpp"

namespace gpuconform {
namespace {

// The runtime does not expose the PCI product id; sysfs does, by bus id.
std::uint32_t read_sysfs_hex(const std::string& bus_id, const char* file) {
  std::string lower = bus_id;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::ifstream in("/sys/bus/pci/devices/" + lower + "/" + file);
  std::string text;
  if (!(in >> text)) return 0;
  try {
    return static_cast<std::uint32_t>(std::stoul(text, nullptr, 16));
  } catch (...) {
    return 0;
  }
}

std::string format_uuid(const cudaUUID_t& uuid) {
  const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
  return fmt::format("GPU-{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-"
                     "{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                     b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
                     b[12], b[13], b[14], b[15]);
}

int attribute(cudaDeviceAttr attr, int index) {
  int value = 0;
  GC_CUDA_CHECK(cudaDeviceGetAttribute(&value, attr, index));
  return value;
}

}  // namespace

std::string nvidia_driver_version() {
  std::ifstream in("/sys/module/nvidia/version");
  std::string version;
  if (in >> version) return version;
  return {};
}

std::string DeviceInfo::arch() const { return fmt::format("sm_{}{}", cc_major, cc_minor); }

std::string DeviceInfo::sku() const {
  return pci_device_id ? fmt::format("0x{:04x}", pci_device_id) : std::string();
}

int device_count(std::string* why, bool* driver_too_old) {
  int count = 0;
  if (driver_too_old) *driver_too_old = false;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    // cudart answers InsufficientDriver both without a driver and with one older than it
    // needs; the driver's own version (0 without a driver) tells them apart.
    int driver = 0, runtime = 0;
    const bool has_driver = cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0;
    cudaRuntimeGetVersion(&runtime);
    const bool too_old = status == cudaErrorInsufficientDriver && has_driver && driver < runtime;
    if (driver_too_old) *driver_too_old = too_old;
    if (why)
      *why = too_old ? fmt::format("no usable CUDA device ({}: the driver supports CUDA {}.{}, this build's runtime "
                                   "needs {}.{})",
                                   cudaGetErrorName(status), driver / 1000, driver % 1000 / 10, runtime / 1000,
                                   runtime % 1000 / 10)
                     : fmt::format("no usable CUDA device ({}: {})", cudaGetErrorName(status),
                                   cudaGetErrorString(status));
    cudaGetLastError();  // clear the sticky status so later calls report their own
    return 0;
  }
  if (count == 0 && why) *why = "no CUDA device found";
  return count;
}

void use_device(int index) {
  GC_CUDA_CHECK(cudaSetDevice(index));
  selftest::rebind_probe_context(index);  // self-test fault injection only: back into its green context
}

DeviceInfo query_device(int index) {
  use_device(index);
  cudaDeviceProp prop{};
  GC_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
  DeviceInfo info;
  info.index = index;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.l2_bytes = prop.l2CacheSize;
  info.shared_per_sm_bytes = static_cast<std::int64_t>(prop.sharedMemPerMultiprocessor);
  info.shared_per_block_optin_bytes = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  info.global_mem_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  info.max_sm_clock_khz = attribute(cudaDevAttrClockRate, index);
  info.mem_clock_khz = attribute(cudaDevAttrMemoryClockRate, index);
  info.mem_bus_width_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, index);
  char bus[32] = {};
  GC_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, index));
  info.pci_bus_id = bus;
  info.pci_device_id = read_sysfs_hex(info.pci_bus_id, "device");
  info.pci_subsystem_id = read_sysfs_hex(info.pci_bus_id, "subsystem_device");
  info.uuid = format_uuid(prop.uuid);
  info.driver_version = nvidia_driver_version();
  GC_CUDA_CHECK(cudaDriverGetVersion(&info.cuda_driver_version));
  GC_CUDA_CHECK(cudaRuntimeGetVersion(&info.cuda_runtime_version));
  return info;
}

}  // namespace gpuconform
