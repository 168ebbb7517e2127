// SPDX-License-Identifier: Apache-2.0
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
// ran); `Measurement::peak_at_max_clock` and the notes carry the second and the
// fraction of it, so a part that throttles is visible in the record, and an entry
// with `at_max_clock` (loads below the power cap) fails a board stuck at a lower clock. Peak entries live in
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
#include "gpuconform/sampling.hpp"

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
  // Time each launch inside the kernel instead of with events: %globaltimer
  // from the earliest block's loop start to the latest block's loop end
  // (gc_span_store, kernels/common/clock_stamps.cuh). The set-up before the
  // loop (filling shared memory) and the launch's fixed cost drop out, so a
  // per-SM pipe is judged on the time its loops took. Only for kernels whose
  // blocks all run at once (one wave).
  bool time_by_stamps = false;
};

// How the launches are warmed up and sampled: the one policy of sampling.hpp.
struct ThroughputOptions {
  SamplingPolicy policy;
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

// Warms up and samples `launch(stamps)` under options.policy (sampling.hpp)
// and fills value (units/s, median), samples, sampling, unit, sm_clock_mhz,
// peak, peak_formula and the notes method, clock_source, timing, peak_entry,
// peak_at_max_clock and fraction_of_max_clock_peak. A launch should last at
// least kLaunchTargetMs (size it with calibrate_trips).
using StampedLaunch = std::function<void(long long* stamps)>;
Measurement measure_throughput(const ProbeContext& ctx, const Work& work, const StampedLaunch& launch,
                               ThroughputOptions options = {});

// The sampling policy of the context's run level (standard or quick).
ThroughputOptions throughput_options(const ProbeContext& ctx);

// Turns a rate per second into a rate per SM and clock (`unit`, e.g.
// "op/clk/SM"): value, samples and the sampling interval divided by SMs x the
// SM clock measured during the probe, with a "per_clock" note. For pipes with
// no cited peak, judged as a measured minimum: per clock, boards that ran at
// different clocks compare. Throws when no clock was measured.
void express_per_sm_clock(Measurement& m, int sms_used, const std::string& unit);

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
