// SPDX-License-Identifier: Apache-2.0
#pragma once
// Bandwidth against bytes in flight per SM (seed 003's cp.async / TMA curves):
// the sweep the asynchronous-copy probes share, its plateau (re-measured under
// the sampling policy) and the bytes in flight where it crosses 90% of it, and
// the two measurements a curve yields (the plateau as a fraction of the HBM
// peak; the bytes at 90%).
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/sampling.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/throughput.hpp"
#include "gpuconform/timing.hpp"
#include "throughput/inflight_crossing.hpp"

namespace gpuconform::kernels {

struct InflightCurve {
  Series series;           // x: bytes in flight per SM, y: B/s (median of each point's launches)
  std::vector<std::vector<double>> point_samples;  // B/s of every timed launch, per point
  double plateau = 0;                              // highest point, then the re-measured plateau
  double sweep_highest = 0;                        // the sweep's highest point: what the crossings are fractions of
  double bytes_90 = 0;     // bytes in flight where the curve crosses 90% of the plateau (inflight_crossing.hpp)
  double peak = 0;         // 2 x memory clock x bus bytes
  std::string peak_formula, method, sass;
  Measurement plateau_sampled;  // the plateau point re-measured under the sampling policy
};

// One point of a sweep: its bytes in flight per SM, the bytes one launch reads,
// what must be set before its launches (a kernel attribute) and one launch.
struct InflightPoint {
  double bytes_in_flight = 0;
  double bytes_per_launch = 0;
  std::function<void()> prepare;
  std::function<void()> launch;
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
  c.plateau = c.sweep_highest = *std::max_element(c.series.y.begin(), c.series.y.end());
  c.bytes_90 = first_crossing(c.series.x, c.series.y, 0.9 * c.sweep_highest).x;
  const double bus_bytes = dev.mem_bus_width_bits / 8.0;
  c.peak = 2.0 * dev.mem_clock_khz * 1e3 * bus_bytes;
  c.peak_formula = fmt::format("2 x {:.0f} MHz x {:.0f} B bus", dev.mem_clock_khz / 1e3, bus_bytes);
}

inline Measurement inflight_plateau(const InflightCurve& c) {
  // The value, samples and interval are the plateau point's re-measurement; the
  // sweep's curve and the bytes at 90 % come with it.
  Measurement m = c.plateau_sampled;
  m.series.push_back(c.series);
  m.note("curve", c.method);
  m.note("bytes_in_flight_90", fmt::format("{:.0f} B per SM reach 90% of the plateau", c.bytes_90));
  if (!c.sass.empty()) m.note("sass", c.sass);
  return m;
}

// The sweep and its plateau: each point timed (one warm-up, then 3 launches at
// --level quick, 5 otherwise; event-timed median), `check` after each point (it
// throws on an error the kernel reported), then plateau, bytes at 90 % and peak.
// The plateau point is then measured again as every throughput probe is
// (measure_throughput: warm-up until two batches agree, samples until the
// median's 95 % interval meets the level's target): back-to-back launches of
// that point make one sample of at least kLaunchTargetMs, so launch gaps and a
// transient dip (an unseen H100 read 0.870 of peak once, 0.902-0.913 in six
// other runs, with five launches of one point) no longer set the value.
inline void sweep_inflight_curve(const ProbeContext& ctx, InflightCurve& c, const std::vector<InflightPoint>& points,
                                 const std::function<void()>& check) {
  const DeviceInfo& dev = ctx.device;
  std::vector<const InflightPoint*> used;
  for (const InflightPoint& p : points) {
    p.prepare();
    const auto ms = time_launches_ms(p.launch, 1, ctx.quick ? 3 : 5);
    check();
    add_inflight_point(c, p.bytes_in_flight, p.bytes_per_launch, ms);
    used.push_back(&p);
  }
  finish_inflight_curve(c, dev);
  const InflightPoint& best = *used[static_cast<std::size_t>(
      std::max_element(c.series.y.begin(), c.series.y.end()) - c.series.y.begin())];
  best.prepare();
  auto launches = [&best](int k) {
    for (int i = 0; i < k; ++i) best.launch();
  };
  const int per_sample = calibrate_trips(launches, kLaunchTargetMs, 1, 1 << 12);
  Work work;
  work.units_per_launch = best.bytes_per_launch * per_sample;
  work.sms_used = dev.sm_count;
  work.device_peak = c.peak;
  work.device_peak_formula = c.peak_formula;
  work.unit = "B/s";
  work.method = fmt::format("the plateau point ({:.0f} B in flight per SM) re-measured: {} back-to-back launches "
                            "of {:.0f} MiB per sample", best.bytes_in_flight, per_sample, best.bytes_per_launch / 1048576.0);
  c.plateau_sampled = measure_throughput(ctx, work, [&](long long*) { launches(per_sample); }, throughput_options(ctx));
  check();
  c.plateau = c.plateau_sampled.value;
}

// The bytes in flight per SM where the curve first reaches `fraction` of the sweep's
// highest point. At 90 % the curve is already bending over (cp.async on an H100 between
// its 16 and 32 KiB points: 1 % of bandwidth moves the crossing about 9 %); at 50 % it
// still rises in proportion to the bytes in flight (Little's law: bytes = bandwidth x
// latency), so that crossing follows the path's latency with little noise.
inline Measurement inflight_bytes_at(const InflightCurve& c, double fraction) {
  const Crossing crossing = first_crossing(c.series.x, c.series.y, fraction * c.sweep_highest);
  Measurement m;
  m.value = crossing.x;
  m.unit = "B";
  m.series.push_back(c.series);
  m.note("method", c.method);
  const int percent = static_cast<int>(fraction * 100 + 0.5);
  m.note("statistic", crossing.interpolated
                          ? fmt::format("{}% of the sweep's highest point, interpolated linearly between the "
                                        "bracketing points",
                                        percent)
                          : fmt::format("the sweep's first point already reaches {}% of its highest point: an upper "
                                        "bound",
                                        percent));
  m.note("plateau", fmt::format("{:.4g} B/s = {:.3f} of {} (re-measured)", c.plateau, c.plateau / c.peak, c.peak_formula));
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
