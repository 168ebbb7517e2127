// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/recorded_judgement.hpp"

#include <fmt/format.h>

#include "gpuconform/sass.hpp"

namespace gpuconform {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The reasons conformance.cpp and the throttle policy (nvml/src/disturbance.cpp) give when the
// run, not the value, decided: a majority of re-measurements, a forgiven disturbance, a fault.
bool run_downgraded(const RecordedRun& run) {
  return run.verdict == "warn" &&
         (starts_with(run.reason, "a transient:") || starts_with(run.reason, "measured under disturbance ("));
}
bool run_fault(const RecordedRun& run) { return run.verdict == "fail" && starts_with(run.reason, "clock event "); }

}  // namespace

RecordedJudgement judge_recorded(const RecordedRun& run, const ExpectationSet& expectations) {
  RecordedJudgement out;
  const Expectation* expected = expectations.find(run.probe);
  if (!expected) {
    out.verdict = {Outcome::skip, fmt::format("no entry for {} in these files", run.probe)};
    return out;
  }
  // As the runner skips it (conformance.cpp): a node entry holds for nodes of its size only.
  const int gpus = static_cast<int>(run.peers.size()) + 1;
  if (expected->node_gpus && !run.peers.empty() && gpus != *expected->node_gpus) {
    out.verdict = {Outcome::skip, fmt::format("the entry for {} holds for nodes of {} GPUs; this line's node has {}",
                                              run.probe, *expected->node_gpus, gpus)};
    return out;
  }
  out.judged = true;
  Verdict v = judge(run.measurement, *expected, judge_options_for(expectations, run.level == "quick"));
  if (v.outcome == Outcome::pass)
    if (std::string why = sass::check_expected_opcodes(*expected, run.measurement); !why.empty())
      v = {Outcome::fail, why};
  v = apply_waiver(v, expectations.waiver_for(run.probe, run.sku));
  if (run_fault(run)) {
    v = {Outcome::fail, "as the run found it: " + run.reason};
    out.kept_from_run = true;
  } else if (v.outcome == Outcome::fail && run_downgraded(run)) {
    v = {Outcome::warn, fmt::format("{}; the run called it a warn: {}", v.reason, run.reason)};
    out.kept_from_run = true;
  }
  out.verdict = v;
  return out;
}

}  // namespace gpuconform
