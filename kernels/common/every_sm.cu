// SPDX-License-Identifier: Apache-2.0
// Host side of the one-measuring-block-per-SM launch (every_sm.cuh).
#include "common/every_sm.cuh"

#include <fmt/format.h>

#include <stdexcept>

#include "gpuconform/cuda_check.hpp"

namespace gpuconform::kernels::every_sm {

SlotSet::SlotSet(int sm_count)
    : sm_count_(sm_count),
      claims_(static_cast<std::size_t>(sm_count)),
      counters_(3),
      starts_(static_cast<std::size_t>(sm_count)),
      last_(static_cast<std::size_t>(sm_count)),
      cycles_(static_cast<std::size_t>(sm_count)),
      ns_(static_cast<std::size_t>(sm_count)) {
  if (sm_count < 1) throw std::invalid_argument("every_sm::SlotSet: no SM");
}

Slots SlotSet::arm(const std::vector<unsigned long long>& starts) {
  if (starts.size() != static_cast<std::size_t>(sm_count_))
    throw std::invalid_argument(fmt::format("every_sm: {} starting nodes for {} SMs", starts.size(), sm_count_));
  claims_.poison(0);
  counters_.poison(0);
  cycles_.poison(0xFF);  // -1: an SM that never measured
  ns_.poison(0xFF);
  starts_.upload(starts);
  Slots s;
  s.claims = claims_.get();
  s.claimed = counters_.get();
  s.outside = counters_.get() + 1;
  s.starts = starts_.get();
  s.cycles = cycles_.get();
  s.ns = ns_.get();
  s.last = last_.get();
  s.failed = counters_.get() + 2;
  s.sm_count = static_cast<unsigned>(sm_count_);
  return s;
}

namespace {
placement::Launch per_hop(const std::vector<long long>& timed, int hops, int sm_count, int outside) {
  if (hops <= 0) throw std::invalid_argument("every_sm: no timed hops");
  placement::Launch l;
  l.expected = sm_count;
  l.outside = outside;
  for (int sm = 0; sm < sm_count; ++sm)
    if (timed[sm] >= 0) l.readings.push_back({sm, sm, static_cast<double>(timed[sm]) / hops, fmt::format("SM {}", sm)});
  return l;
}
}  // namespace

placement::Launch SlotSet::collect(int hops) const {
  return per_hop(cycles_.download(), hops, sm_count_, static_cast<int>(counters_.download()[1]));
}

placement::Launch SlotSet::collect_ns(int hops) const {
  return per_hop(ns_.download(), hops, sm_count_, static_cast<int>(counters_.download()[1]));
}

unsigned SlotSet::failed() const { return counters_.download()[2]; }

}  // namespace gpuconform::kernels::every_sm
