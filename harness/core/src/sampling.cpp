// SPDX-License-Identifier: Apache-2.0
// The sampling decisions of the throughput measurement policy (sampling.hpp):
// pure functions of the samples, so the CPU tests pin them down.
#include "gpuconform/sampling.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gpuconform {

SamplingPolicy sampling_policy(bool quick) {
  SamplingPolicy p;
  if (quick) {
    p.target_rel_half_width = 0.01;
    p.warmup_agreement = 0.02;
    p.max_warmup_batches = 6;
    p.min_samples = 6;
    p.max_samples = 60;
    p.time_cap_ms = 400;
  }
  return p;
}

double MedianInterval::rel_half_width() const {
  if (!valid || median == 0) return std::numeric_limits<double>::infinity();
  return std::max(median - low, high - median) / std::fabs(median);
}

MedianInterval median_ci95(std::vector<double> samples) {
  MedianInterval ci;
  const std::size_t n = samples.size();
  if (n == 0) return ci;
  std::sort(samples.begin(), samples.end());
  ci.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  ci.low = ci.high = ci.median;
  if (n < 6) return ci;  // below 6 no pair of order statistics covers the median with 95 %
  // Ranks (1-based) of the normal approximation to the binomial(n, 1/2):
  // n/2 - 1.96 sqrt(n)/2 and 1 + n/2 + 1.96 sqrt(n)/2.
  const double half = 1.959964 * std::sqrt(static_cast<double>(n)) / 2.0;
  const auto lo_rank = static_cast<std::size_t>(std::max(1.0, std::floor(n / 2.0 - half)));
  const auto hi_rank = static_cast<std::size_t>(std::min(static_cast<double>(n), std::ceil(1.0 + n / 2.0 + half)));
  ci.low = samples[lo_rank - 1];
  ci.high = samples[hi_rank - 1];
  ci.valid = true;
  return ci;
}

bool batches_agree(const std::vector<double>& batch_medians, double agreement) {
  if (batch_medians.size() < 2) return false;
  const double a = batch_medians[batch_medians.size() - 2], b = batch_medians.back();
  if (!(a > 0) || !(b > 0)) return false;
  return std::fabs(a - b) <= agreement * std::max(a, b);
}

const char* stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::kContinue: return "continue";
    case StopReason::kConverged: return "converged";
    case StopReason::kTimeCap: return "time cap";
    case StopReason::kSampleCap: return "sample cap";
  }
  return "?";
}

StopReason sampling_decision(const std::vector<double>& samples, double elapsed_ms, const SamplingPolicy& policy) {
  if (policy.min_samples < 6 || policy.max_samples < policy.min_samples || !(policy.target_rel_half_width > 0))
    throw std::invalid_argument("sampling policy: min_samples >= 6, max_samples >= min_samples and a positive "
                                "target half-width are required");
  const auto n = static_cast<int>(samples.size());
  if (n >= policy.min_samples && median_ci95(samples).rel_half_width() <= policy.target_rel_half_width)
    return StopReason::kConverged;
  if (n >= policy.max_samples) return StopReason::kSampleCap;
  // The time cap never cuts below the minimum: a value needs an interval.
  if (n >= policy.min_samples && elapsed_ms >= policy.time_cap_ms) return StopReason::kTimeCap;
  return StopReason::kContinue;
}

SampledValues sample_until_stopped(const std::function<double()>& one, const SamplingPolicy& policy) {
  SampledValues out;
  const auto t0 = std::chrono::steady_clock::now();
  StopReason stop = StopReason::kContinue;
  while (stop == StopReason::kContinue) {
    out.samples.push_back(one());
    const double elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    stop = sampling_decision(out.samples, elapsed_ms, policy);
  }
  out.sampling.interval = median_ci95(out.samples);
  out.sampling.target_rel_half_width = policy.target_rel_half_width;
  out.sampling.stopped = stop_reason_name(stop);
  return out;
}

}  // namespace gpuconform
