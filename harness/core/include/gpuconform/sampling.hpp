// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one measurement policy of every throughput probe (issue 18; nvbench's
// stopping criterion is the model):
//
//   1. launch length: a probe sizes its launch with calibrate_trips() so that
//      one launch runs at least kLaunchTargetMs; the few microseconds a launch
//      costs are then < 0.2 % of it;
//   2. warm-up: optional untimed busy time first (device memory needs tens of
//      ms to reach its sustained rate), then batches of timed launches until
//      two consecutive batch medians agree within `warmup_agreement`;
//   3. sampling: one timed launch at a time until the 95 % confidence interval
//      of the median (order statistics, distribution-free) is at most
//      `target_rel_half_width` of the median on either side, or the time or
//      sample cap is reached.
//
// The decisions are pure functions of the samples so far (unit-tested on the
// CPU); measure_throughput() (throughput.hpp) drives them with real launches
// and keeps the outcome in Measurement::sampling.
#include <functional>
#include <string>
#include <vector>

namespace gpuconform {

// One launch of a throughput probe lasts at least this long: a launch costs
// 3-10 us of the event interval, < 0.2 % of 5 ms.
inline constexpr double kLaunchTargetMs = 5.0;

struct SamplingPolicy {
  double target_rel_half_width = 0.003;  // stop when the median's 95 % CI is within +-0.3 %
  double warmup_agreement = 0.01;        // consecutive warm-up batch medians within 1 %
  int warmup_batch = 3;                  // timed launches per warm-up batch
  int max_warmup_batches = 12;           // then sampling starts anyway, "did not settle" is noted
  int min_samples = 8;                   // the smallest n with a 95 % order-statistic interval is 6
  int max_samples = 300;
  double time_cap_ms = 1500;             // sampling time per probe (launches included)
  double min_warmup_ms = 0;              // untimed busy time before the first warm-up batch
};

// The policy of a run level: standard +-0.3 % and 1.5 s per probe, quick +-1 % and 0.4 s.
SamplingPolicy sampling_policy(bool quick);

// 95 % confidence interval of the median from order statistics: the ranks
// n/2 -+ 1.96 sqrt(n)/2 of the sorted samples. `valid` is false below 6 samples.
struct MedianInterval {
  double median = 0, low = 0, high = 0;
  bool valid = false;
  double rel_half_width() const;  // max(median - low, high - median) / |median|; infinity when invalid
};
MedianInterval median_ci95(std::vector<double> samples);

// Warm-up: do the last two batch medians agree within `agreement` (relative)?
bool batches_agree(const std::vector<double>& batch_medians, double agreement);

// Why sampling stopped, or kContinue while it should go on.
enum class StopReason { kContinue, kConverged, kTimeCap, kSampleCap };
const char* stop_reason_name(StopReason r);  // "converged", "time cap", "sample cap"
StopReason sampling_decision(const std::vector<double>& samples, double elapsed_ms, const SamplingPolicy& policy);

// What the record keeps about how a value was sampled (run record "sampling").
struct Sampling {
  MedianInterval interval;            // in the measurement's unit
  double target_rel_half_width = 0;
  int warmup_batches = 0;             // timed warm-up batches run
  bool warmup_settled = false;        // two consecutive batches agreed
  double launch_ms = 0;               // median launch time
  std::string stopped;                // stop_reason_name()
};

// Loop trips for which one call of run(trips) keeps the GPU busy for at least
// `target_ms`: doubles `start_trips` until a launch takes a quarter of the
// target (so launch overhead no longer dominates the estimate), then scales
// linearly with 5 % headroom; clamped to [start_trips, max_trips]. `run`
// enqueues one launch; it is timed with events.
// Samples `one()` (one value per call, already warmed up) until sampling_decision()
// stops, timing the loop on the host clock: the loop of measure_throughput(), for
// probes whose value is not a launch's rate (host-timed bursts, re-measured curve
// points). The Sampling it returns holds the interval, the target and why it
// stopped (no warm-up, launch_ms 0).
struct SampledValues {
  std::vector<double> samples;
  Sampling sampling;
};
SampledValues sample_until_stopped(const std::function<double()>& one, const SamplingPolicy& policy);

int calibrate_trips(const std::function<void(int trips)>& run, double target_ms = kLaunchTargetMs,
                    int start_trips = 1, int max_trips = 1 << 30);

}  // namespace gpuconform
