#pragma once
// The throughput harness. A probe declares its work (how many FLOP, ops or
// bytes one launch performs, which peak-table entry they load, how many SMs
// the launch occupies) and hands over a launch; the harness times it, measures
// the SM clock during it and derives rate, peak and fraction once:
//
//   peak           = per_sm_per_clock x SMs used x SM clock measured during the probe
//   peak at max    = per_sm_per_clock x SMs used x the driver's maximum SM clock
//
// `Measurement::peak` is the first (the verdict's denominator: a clock- or
// power-limited part is judged on what its SMs could do at the clock they
// ran); the notes carry the second and the fraction of it, so a part that
// throttles is visible in the record. Peak entries live in
// expectations/peaks/sm_XX.toml (peaks.hpp); a missing entry skips the probe.
//
// The SM clock: the launch receives a 4-word device buffer; a kernel that
// calls gc_stamp_begin/gc_stamp_end (kernels/common/clock_stamps.cuh) records
// clock64 and %globaltimer at its start and end in block 0, and the clock is
// their ratio over the timed launches (median). A kernel that does not, or
// one too short for %globaltimer's resolution, gets the clock measured by a
// spinning kernel right after the timed launches (timing.hpp).
#include <functional>
#include <string>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform {

// Three kinds of denominator: a peak-table entry (`peak_id`: ALU pipes, tensor
// cores, shared memory), a peak the device itself defines (`device_peak`:
// HBM = 2 x memory clock x bus bytes, PCIe = link rate x width), or none
// (both empty: L2 and atomics, asserted as a measured `min`).
struct Work {
  std::string peak_id;          // entry in expectations/peaks/sm_XX.toml, or ""
  double units_per_launch = 0;  // FLOP, op or B (the entry's unit without "/clk/SM")
  int sms_used = 0;             // SMs the launch occupies
  std::string method;           // one sentence for the record's "method" note
  double device_peak = 0;       // without peak_id: a peak in `unit` from the device's own constants
  std::string device_peak_formula;
  std::string unit;             // without peak_id: "B/s", "op/s", ...
};

struct ThroughputOptions {
  int warmup = 2;
  int repeats = 10;   // event-timed launches; the value is their median
};

// The derived peak of one measurement (pure arithmetic, unit-tested).
struct DerivedPeak {
  double peak = 0;            // rate units per second at the measured clock
  double peak_at_max = 0;     // the same at the maximum SM clock
  std::string formula;        // "256 FLOP/clk/SM x 132 SMs x 1755 MHz (measured)"
};
DerivedPeak derive_peak(const PeakEntry& entry, int sms_used, double measured_mhz, double max_mhz);

// The peak entry `id` for this device, or ProbeSkipped naming the missing entry
// and the file it should be in.
const PeakEntry& require_peak(const ProbeContext& ctx, const std::string& id);

// Times `launch(stamps)` and fills value (units/s, median), samples, unit,
// sm_clock_mhz, peak, peak_formula and the notes method, clock_source,
// peak_entry, peak_at_max_clock and fraction_of_max_clock_peak.
using StampedLaunch = std::function<void(long long* stamps)>;
Measurement measure_throughput(const ProbeContext& ctx, const Work& work, const StampedLaunch& launch,
                               ThroughputOptions options = {});

// Repeats for a probe: `normal`, or fewer under --quick.
ThroughputOptions throughput_options(const ProbeContext& ctx);

// Median in-kernel SM clock (MHz) from stamp quadruples {c0, t0, c1, t1};
// 0 when no quadruple spans at least `min_ns` of %globaltimer.
double clock_from_stamps(const std::vector<long long>& quadruples, double min_ns = 20000);

// Convergence point of a warps x ILP sweep (seed 001, Tables 3-7): among the
// cells reaching `fraction` of the best cell, the one with the fewest warps x
// ILP (ties: fewer warps). Returns {row index, col index}.
struct GridPoint {
  std::size_t row = 0, col = 0;
};
GridPoint best_point(const Matrix& m);
GridPoint convergence_point(const Matrix& m, double fraction = 0.95);

}  // namespace gpuconform
