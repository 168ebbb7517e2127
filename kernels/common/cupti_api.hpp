// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CUPTI entry points the hardware-counter probes call, as a table filled by
// dlsym (cupti_library.cpp): the suite never links libcupti, because CI
// machines and many GPU nodes have none at run time and a missing shared
// library would stop every run, not only the probes that count.
//
// The types come from the toolkit's own CUPTI headers (cupti_range_profiler.h,
// cupti_profiler_host.h, cupti_profiler_target.h, cupti_target.h: the range
// profiler of CUPTI 12.6 and later). A toolkit without them builds the table
// empty (GPUCONFORM_HAVE_CUPTI 0) and every count says so.
#if __has_include(<cupti_range_profiler.h>) && __has_include(<cupti_profiler_host.h>) && \
    __has_include(<cupti_target.h>)
#define GPUCONFORM_HAVE_CUPTI 1
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#else
#define GPUCONFORM_HAVE_CUPTI 0
#endif

namespace gpuconform::kernels::cupti {

#if GPUCONFORM_HAVE_CUPTI
// Each member is named after its function without the "cupti" prefix; every one is
// bound (cupti_library.cpp refuses a library that lacks any).
struct Api {
  decltype(&cuptiGetResultString) GetResultString = nullptr;
  decltype(&cuptiProfilerInitialize) ProfilerInitialize = nullptr;
  decltype(&cuptiProfilerDeInitialize) ProfilerDeInitialize = nullptr;
  decltype(&cuptiDeviceGetChipName) DeviceGetChipName = nullptr;
  decltype(&cuptiProfilerGetCounterAvailability) ProfilerGetCounterAvailability = nullptr;
  decltype(&cuptiProfilerHostInitialize) ProfilerHostInitialize = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) ProfilerHostDeinitialize = nullptr;
  decltype(&cuptiProfilerHostGetMetricProperties) ProfilerHostGetMetricProperties = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) ProfilerHostConfigAddMetrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) ProfilerHostGetConfigImageSize = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) ProfilerHostGetConfigImage = nullptr;
  decltype(&cuptiProfilerHostGetNumOfPasses) ProfilerHostGetNumOfPasses = nullptr;
  decltype(&cuptiProfilerHostEvaluateToGpuValues) ProfilerHostEvaluateToGpuValues = nullptr;
  decltype(&cuptiRangeProfilerEnable) RangeProfilerEnable = nullptr;
  decltype(&cuptiRangeProfilerDisable) RangeProfilerDisable = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataSize) RangeProfilerGetCounterDataSize = nullptr;
  decltype(&cuptiRangeProfilerCounterDataImageInitialize) RangeProfilerCounterDataImageInitialize = nullptr;
  decltype(&cuptiRangeProfilerSetConfig) RangeProfilerSetConfig = nullptr;
  decltype(&cuptiRangeProfilerStart) RangeProfilerStart = nullptr;
  decltype(&cuptiRangeProfilerStop) RangeProfilerStop = nullptr;
  decltype(&cuptiRangeProfilerPushRange) RangeProfilerPushRange = nullptr;
  decltype(&cuptiRangeProfilerPopRange) RangeProfilerPopRange = nullptr;
  decltype(&cuptiRangeProfilerDecodeData) RangeProfilerDecodeData = nullptr;
  decltype(&cuptiRangeProfilerGetCounterDataInfo) RangeProfilerGetCounterDataInfo = nullptr;
};
#else
struct Api {};
#endif

}  // namespace gpuconform::kernels::cupti
