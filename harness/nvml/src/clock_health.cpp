// SPDX-License-Identifier: Apache-2.0
// The clocks under load as measurements (clock_health.hpp): the arithmetic and the NVML
// readings, without a GPU kernel, so the unit tests judge them with the fake NVML.
#include "gpuconform/clock_health.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <new>
#include <stdexcept>
#include <thread>

#include "gpuconform/stats.hpp"
#include "nvml_loader.hpp"

namespace gpuconform {
namespace {

std::string mhz_list(const std::vector<double>& mhz) {
  std::string out;
  for (double v : mhz) out += fmt::format("{}{:.0f}", out.empty() ? "" : " ", v);
  return out;
}

// One NVML clock reading; "" on success, else what NVML said.
std::string clock_reading(const nvml::Library& lib, nvml::Device dev, bool maximum, double& mhz) {
  const char* name = maximum ? "nvmlDeviceGetMaxClockInfo" : "nvmlDeviceGetClockInfo";
  auto* fn = maximum ? lib.api().max_clock_info : lib.api().clock_info;
  if (!fn) return fmt::format("this NVML lacks {}", name);
  unsigned v = 0;
  const nvml::Return r = fn(dev, nvml::kClockMem, &v);
  if (r != nvml::kSuccess) return fmt::format("{}(NVML_CLOCK_MEM) answers {}", name, lib.describe(r));
  mhz = v;
  return {};
}

}  // namespace

Measurement sm_clock_measurement(const std::vector<double>& launch_mhz, double max_mhz, const std::string& method) {
  if (launch_mhz.empty()) throw std::invalid_argument("sm_clock_measurement: no launch was timed");
  if (!(max_mhz > 0)) throw std::invalid_argument("sm_clock_measurement: no maximum SM clock");
  Measurement m;
  m.unit = "MHz";
  m.samples = launch_mhz;
  m.value = median(launch_mhz);
  m.sm_clock_mhz = m.value;
  m.peak = max_mhz;
  m.peak_formula = "the board's maximum SM clock, cudaDevAttrClockRate";
  m.note("method", method);
  m.note("clock_source", "clock64 / %globaltimer in block 0 of each timed launch; the value is their median");
  m.note("per_launch_mhz", mhz_list(launch_mhz));
  return m;
}

MemoryClockReading read_memory_clock(const std::string& uuid, const std::string& pci_bus_id,
                                     const std::function<void()>& start, const std::function<bool()>& loaded,
                                     double poll_ms) {
  MemoryClockReading r;
  std::shared_ptr<const nvml::Library> lib;
  nvml::Device dev = nullptr;
  try {
    lib = nvml::library();  // held for the whole reading
    dev = lib->find_device(uuid, pci_bus_id, &r.skipped);
  } catch (const std::bad_alloc&) {  // a skip that says so, never a throw
    r.skipped = "reading the memory clock failed: out of host memory";
  }
  if (!dev) return r;
  r.skipped.clear();
  if (std::string e = clock_reading(*lib, dev, true, r.max_mhz); !e.empty()) {
    r.skipped = e;
    return r;
  }
  start();
  for (;;) {  // at least one reading, then one per poll while the load runs
    double mhz = 0;
    if (std::string e = clock_reading(*lib, dev, false, mhz); !e.empty()) {
      r = MemoryClockReading{};
      r.skipped = e;
      return r;
    }
    r.mhz.push_back(mhz);
    if (!loaded()) break;
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(poll_ms));
  }
  return r;
}

Measurement memory_clock_measurement(const MemoryClockReading& reading, const std::string& load) {
  if (!reading.skipped.empty() || reading.mhz.empty() || !(reading.max_mhz > 0))
    throw std::invalid_argument("memory_clock_measurement: no memory clock was read");
  Measurement m;
  m.unit = "MHz";
  m.samples = reading.mhz;
  m.value = median(reading.mhz);
  m.peak = reading.max_mhz;
  m.peak_formula = "the memory's maximum clock, nvmlDeviceGetMaxClockInfo(NVML_CLOCK_MEM)";
  m.note("method", fmt::format("nvmlDeviceGetClockInfo(NVML_CLOCK_MEM) read {} time(s) while {}; the value is the "
                               "median reading",
                               reading.mhz.size(), load));
  const auto [lo, hi] = std::minmax_element(reading.mhz.begin(), reading.mhz.end());
  m.note("readings_mhz", fmt::format("{:.0f}-{:.0f}", *lo, *hi));
  return m;
}

}  // namespace gpuconform
