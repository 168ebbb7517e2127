// SPDX-License-Identifier: Apache-2.0
// The pure half of counter_session.hpp: metric names checked and a request
// planned against what a chip knows, before any CUPTI call that needs a GPU.
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <regex>
#include <set>

#include "common/counter_session.hpp"

namespace gpuconform::kernels::cupti {

std::string metric_name_problem(const std::string& name) {
  // <unit>__<counter>.<rollup>[.<submetric>...]: Nsight Compute's metric grammar
  // ("Metrics Structure" in its Profiling Guide); a counter without a rollup has no value.
  static const std::regex kShape(R"(^[a-z0-9]+__[a-z0-9_]+\.(sum|avg|min|max)(\.[a-z0-9_]+)*$)");
  if (name.empty()) return "an empty metric name";
  if (!std::regex_match(name, kShape))
    return fmt::format("'{}' is not <unit>__<counter>.<sum|avg|min|max> (e.g. dram__bytes_read.sum)", name);
  return "";
}

MetricPlan plan_metrics(const CounterRequest& request, const std::function<bool(const std::string&)>& known) {
  MetricPlan plan;
  std::set<std::string> seen;
  for (const auto* list : {&request.required, &request.optional})
    for (const std::string& name : *list) {
      if (std::string why = metric_name_problem(name); !why.empty()) {
        plan.error = why;
        return plan;
      }
      if (!seen.insert(name).second) {
        plan.error = fmt::format("metric {} is requested twice", name);
        return plan;
      }
    }
  if (request.required.empty() && request.optional.empty()) {
    plan.error = "no metric requested";
    return plan;
  }
  for (const std::string& name : request.required) {
    if (!known(name)) {
      plan.error = fmt::format("metric {} is not one of this chip's", name);
      return plan;
    }
    plan.metrics.push_back(name);
  }
  for (const std::string& name : request.optional) (known(name) ? plan.metrics : plan.dropped).push_back(name);
  if (plan.metrics.empty()) plan.error = "the chip knows none of the requested metrics";
  return plan;
}

double CounterResult::value(std::size_t index, const std::string& metric) const {
  for (std::size_t m = 0; m < metrics.size(); ++m)
    if (metrics[m] == metric && index < values.size() && m < values[index].size()) return values[index][m];
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace gpuconform::kernels::cupti
