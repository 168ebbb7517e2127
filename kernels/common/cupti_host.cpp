// SPDX-License-Identifier: Apache-2.0
// The CUPTI profiler host object (cupti_host.hpp).
#include "common/cupti_host.hpp"

#if GPUCONFORM_HAVE_CUPTI

#include <fmt/format.h>

#include "common/cupti_library.hpp"

namespace gpuconform::kernels::cupti {

void check(const Api& a, CUptiResult r, const char* call) {
  if (r == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  if (a.GetResultString(r, &text) != CUPTI_SUCCESS) text = nullptr;
  throw Refused(fmt::format("{} failed: {}", call, describe_result(static_cast<int>(r), text)));
}

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> out;
  for (const std::string& n : names) out.push_back(n.c_str());
  return out;
}

Host::Host(const Api& a, const std::string& chip, const std::vector<std::uint8_t>& availability) : a_(a) {
  CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip.c_str();
  p.pCounterAvailabilityImage = availability.data();
  check(a_, a_.ProfilerHostInitialize(&p), "cuptiProfilerHostInitialize");
  host_ = p.pHostObject;
}

Host::~Host() {
  CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  p.pHostObject = host_;
  a_.ProfilerHostDeinitialize(&p);
}

bool Host::knows(const std::string& metric, std::string& why) const {
  CUpti_Profiler_Host_GetMetricProperties_Params p{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
  p.pHostObject = host_;
  p.pMetricName = metric.c_str();
  try {
    check(a_, a_.ProfilerHostGetMetricProperties(&p), "cuptiProfilerHostGetMetricProperties");
  } catch (const Refused& e) {
    why = e.what();
    return false;
  }
  return true;
}

std::vector<std::uint8_t> Host::config_image(const std::vector<std::string>& metrics) {
  std::vector<const char*> names = c_names(metrics);
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = host_;
  add.ppMetricNames = names.data();
  add.numMetrics = names.size();
  check(a_, a_.ProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
  CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = host_;
  check(a_, a_.ProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
  std::vector<std::uint8_t> image(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params get{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  get.pHostObject = host_;
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  check(a_, a_.ProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
  return image;
}

std::size_t Host::passes(std::vector<std::uint8_t>& config) const {
  CUpti_Profiler_Host_GetNumOfPasses_Params p{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  p.configImageSize = config.size();
  p.pConfigImage = config.data();
  check(a_, a_.ProfilerHostGetNumOfPasses(&p), "cuptiProfilerHostGetNumOfPasses");
  return p.numOfPasses;
}

std::vector<double> Host::evaluate(const std::vector<std::uint8_t>& data, std::size_t range,
                                   const std::vector<std::string>& metrics) const {
  std::vector<const char*> names = c_names(metrics);
  std::vector<double> values(metrics.size());
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  p.pHostObject = host_;
  p.pCounterDataImage = data.data();
  p.counterDataImageSize = data.size();
  p.rangeIndex = range;
  p.ppMetricNames = names.data();
  p.numMetrics = names.size();
  p.pMetricValues = values.data();
  check(a_, a_.ProfilerHostEvaluateToGpuValues(&p), "cuptiProfilerHostEvaluateToGpuValues");
  return values;
}

}  // namespace gpuconform::kernels::cupti

#endif
