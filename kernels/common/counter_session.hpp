// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hardware counters over named pieces of GPU work, read in-process with CUPTI's
// range profiler (CUPTI 12.6+, loaded at run time: cupti_library.hpp). Each
// piece of work is one user range; the session replays them all once per pass
// the metrics need (user replay), so the work must give the same counts each
// time it runs (a kernel that only reads, or rewrites what it wrote).
//
// Anything CUPTI refuses (no library, a metric the chip does not know, counters
// restricted to administrators, another profiler holding them) ends the session
// with CounterResult::error, the reason a probe skips with; an exception thrown
// by the work itself (a failed launch) is not CUPTI's and propagates.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "common/cupti_library.hpp"

namespace gpuconform::kernels::cupti {

struct CountedWork {
  std::string name;           // the range's name
  std::function<void()> run;  // enqueues the work; the session synchronises after it
};

// The metrics to read, as Nsight Compute names them ("lts__t_sectors_op_read.sum").
// A required metric the chip does not know ends the session; an optional one is dropped.
struct CounterRequest {
  std::vector<std::string> required;
  std::vector<std::string> optional;
};

// What a request becomes on one chip (pure: `known` says whether the chip has a metric).
struct MetricPlan {
  std::vector<std::string> metrics;  // to read: the required, then the optional it knows
  std::vector<std::string> dropped;  // optional ones it does not know
  std::string error;                 // a required one unknown, a malformed or repeated name, none at all
};
MetricPlan plan_metrics(const CounterRequest& request, const std::function<bool(const std::string&)>& known);

// Why `name` cannot be a metric to evaluate: "" when it has the shape
// <unit>__<counter>.<rollup> with a rollup CUPTI evaluates (sum, avg, min, max),
// e.g. "dram__bytes_read.sum".
std::string metric_name_problem(const std::string& name);

struct CounterResult {
  std::string error;                        // empty when every range was counted
  std::string library;                      // the libcupti that counted
  std::string chip;                         // CUPTI's chip name, e.g. "GH100"
  std::size_t passes = 0;                   // replays of the work the metrics needed
  std::vector<std::string> metrics;         // read, in the order of each row of values
  std::vector<std::string> dropped;         // optional metrics the chip does not know
  std::vector<std::vector<double>> values;  // [work][metric]
  bool ok() const { return error.empty(); }
  // The value of `metric` in the range of works[index]; NaN when it was not read.
  double value(std::size_t index, const std::string& metric) const;
};

// Counts `request` over each of `works` (one range each, in order) on the current CUDA
// device, in its primary context. Never throws for a CUPTI refusal.
CounterResult count(const Library& library, const CounterRequest& request, const std::vector<CountedWork>& works);

}  // namespace gpuconform::kernels::cupti
