// SPDX-License-Identifier: Apache-2.0
#pragma once
// Identity of one GPU: what the expectations are keyed on (architecture, PCI
// device id) and what every run record carries so two runs can be compared.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuconform {

struct DeviceInfo {
  int index = 0;                  // CUDA runtime ordinal
  std::string name;               // e.g. "NVIDIA H100 80GB HBM3"
  int cc_major = 0, cc_minor = 0; // compute capability
  int sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t shared_per_sm_bytes = 0;
  std::int64_t shared_per_block_optin_bytes = 0;
  std::int64_t global_mem_bytes = 0;
  int max_sm_clock_khz = 0;       // the clock the driver reports as peak
  int mem_clock_khz = 0;          // peak memory clock (data rate is twice this)
  int mem_bus_width_bits = 0;
  std::string pci_bus_id;         // "0000:c1:00.0"
  std::uint32_t pci_device_id = 0;     // e.g. 0x2330 (H100 SXM5 80GB); 0 if unreadable
  std::uint32_t pci_subsystem_id = 0;  // subsystem device id; 0 if unreadable
  std::string uuid;               // "GPU-xxxxxxxx-..."
  std::string driver_version;     // kernel module version, e.g. "580.159.04"; "" if unknown
  int cuda_driver_version = 0;    // e.g. 13000
  int cuda_runtime_version = 0;

  // "sm_90": the key of the architecture expectation file.
  std::string arch() const;
  // "0x2330": the key of the SKU overlay; "" if the id could not be read.
  std::string sku() const;
  int cc() const { return cc_major * 10 + cc_minor; }
};

// Number of usable CUDA devices. When there are none, `why` says why (no
// driver, no device, ...) in words a person can act on, and `driver_too_old` whether a
// driver is installed that is older than this build's CUDA runtime needs.
int device_count(std::string* why = nullptr, bool* driver_too_old = nullptr);

// The NVIDIA kernel module's version ("580.159.04", from sysfs); "" without the driver.
// Needs no CUDA context.
std::string nvidia_driver_version();

// Queries device `index` and makes it current. Throws CudaError on failure.
DeviceInfo query_device(int index);

// Sets the current device for subsequent kernels of this thread.
void use_device(int index);

}  // namespace gpuconform
