// SPDX-License-Identifier: Apache-2.0
#pragma once
// Robust summaries of repeated measurements. Medians and the median absolute
// deviation resist the occasional preempted or throttled sample that would
// drag a mean.
#include <cstddef>
#include <functional>
#include <vector>

namespace gpuconform {

struct Summary {
  std::size_t n = 0;
  double median = 0, mad = 0;   // MAD: median of |x - median|
  double p5 = 0, p95 = 0;       // linear-interpolated percentiles
  double min = 0, max = 0;
  double mean = 0, stddev = 0;
  double cv() const;            // stddev / |mean|; 0 when the mean is 0
};

// Percentile in [0, 100] of `samples` with linear interpolation; throws
// std::invalid_argument on an empty input or a percentile out of range.
double percentile(std::vector<double> samples, double pct);
double median(std::vector<double> samples);
Summary summarize(const std::vector<double>& samples);

// Stopping rule for repeated measurements: take at least `min_samples`, then
// stop once the relative spread (MAD / |median|) is at most `max_rel_mad`, or
// at `max_samples`.
struct RepeatPolicy {
  std::size_t min_samples = 5;
  std::size_t max_samples = 50;
  double max_rel_mad = 0.005;
};

std::vector<double> repeat_until_stable(const std::function<double()>& sample,
                                        const RepeatPolicy& policy = {});

}  // namespace gpuconform
