// SPDX-License-Identifier: Apache-2.0
// Which verdicts a disturbed measurement changes (gpu_state.hpp).
#include <fmt/format.h>

#include "gpuconform/gpu_state.hpp"

namespace gpuconform {

// No default: a new family must choose.
bool family_times_things(Family family) {
  switch (family) {
    case Family::latency:
    case Family::throughput:
    case Family::topology:
    case Family::parallel:
    case Family::p2p:
      return true;
    case Family::health:
      return false;  // a reading of the node's state: another process cannot change it
    case Family::numeric:
      return false;  // bits do not depend on load
    case Family::selftest:
      return false;  // the suite's own fault drills: their verdicts must stay as they are
  }
  return true;  // an out-of-range value: treat it as timed, the cautious side
}

Verdict downgrade_for_disturbance(Verdict verdict, Family family, const Disturbance& disturbance,
                                  const ThrottlePolicy& policy) {
  if (!disturbance.any() || !family_times_things(family)) return verdict;
  std::string faults;
  for (const std::string& event : disturbance.clock_events)
    if (policy.is_fault(event)) faults += (faults.empty() ? "" : ", ") + event;
  if (!faults.empty() && verdict.outcome != Outcome::skip)
    return {Outcome::fail, fmt::format("clock event {} while the probe ran: a fault of the part by the throttle "
                                       "policy ({}), not how it works; the measurement would {}: {}",
                                       faults, policy.source, verdict.outcome == Outcome::fail ? "fail" : "pass",
                                       verdict.reason)};
  const bool failed = verdict.outcome == Outcome::fail;
  const bool shared_pass = verdict.outcome == Outcome::pass && disturbance.shared_gpu;
  if (!failed && !shared_pass) return verdict;
  return {Outcome::warn, fmt::format("measured under disturbance ({}); the measurement would {}: {}",
                                     disturbance.text(), failed ? "fail" : "pass", verdict.reason)};
}

}  // namespace gpuconform
