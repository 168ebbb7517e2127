// SPDX-License-Identifier: Apache-2.0
#pragma once
// A board's clocks under load, judged against their maximum (health.under_load.*,
// kernels/health/clock_health.cu). Every per-clock throughput entry divides by the SM
// clock measured during its probe, so a board stuck at a lower clock passes them all;
// these two checks judge the clocks themselves:
// - health.under_load.sm_clock: the SM clock under an all-SM FFMA load (clock64 over
//   %globaltimer inside the kernel, as throughput.hpp measures it) against the board's
//   maximum SM clock (cudaDevAttrClockRate, the device record's max_sm_clock_mhz). FFMA
//   on every SM stays below a 700 W H100's or H200's power cap, so a healthy board runs
//   it at its maximum;
// - health.under_load.memory_clock: the memory clock NVML reports while an HBM read
//   stream runs, against the memory's maximum clock (nvmlDeviceGetMaxClockInfo).
// Both are fraction_of_peak measurements: the value is the clock in MHz and the peak the
// maximum, so a failure names both clocks ("measured 1755 MHz = 0.886 of peak 1980 MHz").
// The ids sort after every idle health check (health.throttle.idle,
// health.temperature.idle_margin): probes run in id order, and these load the GPU.
#include <functional>
#include <string>
#include <vector>

#include "gpuconform/measurement.hpp"

namespace gpuconform {

// health.under_load.sm_clock from the in-kernel SM clock of each timed launch (MHz)
// and the board's maximum: value = their median, samples = each launch's clock.
// `method` says what ran. Throws std::invalid_argument without launches or maximum.
Measurement sm_clock_measurement(const std::vector<double>& launch_mhz, double max_mhz, const std::string& method);

// NVML's memory clock while a load runs.
struct MemoryClockReading {
  std::string skipped;      // non-empty: why NVML cannot answer (then the rest means nothing)
  std::vector<double> mhz;  // nvmlDeviceGetClockInfo(NVML_CLOCK_MEM), one reading per poll
  double max_mhz = 0;       // nvmlDeviceGetMaxClockInfo(NVML_CLOCK_MEM)
};

// Opens NVML and reads the maximum memory clock of the GPU with this UUID (else PCI bus
// id), then calls `start()` (which starts the load: NVML's first use may take longer than
// the load) and reads the current clock every `poll_ms` while `loaded()` says the load
// still runs, at least once. NVML's absence or refusal becomes `skipped`, with NVML's
// words, and then `start` is not called; what `start` or `loaded` throw propagates.
MemoryClockReading read_memory_clock(const std::string& uuid, const std::string& pci_bus_id,
                                     const std::function<void()>& start, const std::function<bool()>& loaded,
                                     double poll_ms = 5);

// health.under_load.memory_clock from a reading without `skipped`: value = the median
// reading, peak = the maximum. `load` says what ran meanwhile.
Measurement memory_clock_measurement(const MemoryClockReading& reading, const std::string& load);

}  // namespace gpuconform
