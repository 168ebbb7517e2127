#pragma once
// Bandwidth against bytes in flight per SM (seed 003's cp.async / TMA curves):
// the curve shape the asynchronous-copy probes share, its plateau and the
// fewest bytes in flight that reach 90% of it, and the two measurements a
// curve yields (the plateau as a fraction of the HBM peak; the bytes at 90%).
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {

struct InflightCurve {
  Series series;           // x: bytes in flight per SM, y: B/s (median of each point's launches)
  std::vector<std::vector<double>> point_samples;  // B/s of every timed launch, per point
  double plateau = 0;      // highest point
  double bytes_90 = 0;     // fewest bytes in flight reaching 90% of the plateau
  double peak = 0;         // 2 x memory clock x bus bytes
  std::string peak_formula, method, sass;
};

inline InflightCurve make_inflight_curve(const std::string& what) {
  InflightCurve c;
  c.series.name = "bandwidth_vs_bytes_in_flight";
  c.series.x_name = "bytes in flight per SM";
  c.series.x_unit = "B";
  c.series.y_name = what;
  c.series.y_unit = "B/s";
  return c;
}

// Fills plateau, bytes_90 and the device-memory peak once the points are in.
// Adds one point: its x and the B/s of each timed launch (y is their median).
inline void add_inflight_point(InflightCurve& c, double bytes_in_flight, double bytes, const std::vector<double>& ms) {
  std::vector<double> rates;
  for (double t : ms) rates.push_back(bytes / (t * 1e-3));
  c.series.x.push_back(bytes_in_flight);
  c.series.y.push_back(median(rates));
  c.point_samples.push_back(std::move(rates));
}

inline void finish_inflight_curve(InflightCurve& c, const DeviceInfo& dev) {
  if (c.series.y.empty()) throw ProbeSkipped("no point of the sweep fits this device's shared memory");
  c.plateau = *std::max_element(c.series.y.begin(), c.series.y.end());
  for (std::size_t i = 0; i < c.series.y.size(); ++i)
    if (c.series.y[i] >= 0.9 * c.plateau) {
      c.bytes_90 = c.series.x[i];
      break;
    }
  const double bus_bytes = dev.mem_bus_width_bits / 8.0;
  c.peak = 2.0 * dev.mem_clock_khz * 1e3 * bus_bytes;
  c.peak_formula = fmt::format("2 x {:.0f} MHz x {:.0f} B bus", dev.mem_clock_khz / 1e3, bus_bytes);
}

inline Measurement inflight_plateau(const InflightCurve& c) {
  Measurement m;
  m.value = c.plateau;
  m.unit = "B/s";
  // The samples are the plateau point's launches (the curve is in `series`).
  m.samples = c.point_samples[static_cast<std::size_t>(
      std::max_element(c.series.y.begin(), c.series.y.end()) - c.series.y.begin())];
  m.peak = c.peak;
  m.peak_formula = c.peak_formula;
  m.series.push_back(c.series);
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  m.note("method", c.method);
  m.note("bytes_in_flight_90", fmt::format("{:.0f} B per SM reach 90% of the plateau", c.bytes_90));
  if (!c.sass.empty()) m.note("sass", c.sass);
  return m;
}

inline Measurement inflight_bytes_90(const InflightCurve& c) {
  Measurement m;
  m.value = c.bytes_90;
  m.unit = "B";
  m.series.push_back(c.series);
  m.note("method", c.method);
  m.note("plateau", fmt::format("{:.4g} B/s = {:.3f} of {}", c.plateau, c.plateau / c.peak, c.peak_formula));
  return m;
}

// One curve per device (and --quick) per process: a mechanism's plateau and
// bytes-in-flight probes read the same measurement. `measure(bytes)` measures it
// over a device-memory stream of `bytes` (eight times the L2, at least 1 GiB). Each
// `measure` type (one lambda per mechanism) has its own cache.
template <class Measure>
const InflightCurve& cached_inflight_curve(const ProbeContext& ctx, Measure measure) {
  static std::mutex mutex;
  static std::map<std::string, InflightCurve> curves;
  std::lock_guard<std::mutex> lock(mutex);
  const DeviceInfo& dev = ctx.device;
  const std::string key = fmt::format("{}{}", dev.index, ctx.quick ? "q" : "");
  if (auto it = curves.find(key); it != curves.end()) return it->second;
  if (dev.mem_clock_khz <= 0 || dev.mem_bus_width_bits <= 0)
    throw ProbeSkipped("the device reports no memory clock or bus width, so no peak can be derived");
  const std::size_t bytes = std::max<std::size_t>(std::size_t(1) << 30, 8 * static_cast<std::size_t>(dev.l2_bytes));
  return curves.emplace(key, measure(bytes)).first->second;
}

}  // namespace gpuconform::kernels
