// SPDX-License-Identifier: Apache-2.0
// One CUPTI range-profiler session (counter_session.hpp), in the order the
// CUPTI documentation gives for the range profiler (CUPTI 12.6+ "Range
// Profiling", the range_profiling sample): profiler initialise; chip name and
// counter availability; a host object that turns metric names into a config
// image (cupti_host.hpp); enable the range profiler on the context; a
// counter-data image for the ranges; set the config (user ranges, user
// replay); then per pass start, push/run/pop each range, stop, until every
// pass is submitted; decode; evaluate each range on the host. Each CUPTI
// object is released by a scope guard, so a refusal half-way leaves nothing
// enabled.
#include "common/counter_session.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "common/cupti_api.hpp"
#include "common/cupti_host.hpp"
#include "common/driver_entry.hpp"
#include "gpuconform/cuda_check.hpp"

namespace gpuconform::kernels::cupti {
namespace {

#if GPUCONFORM_HAVE_CUPTI

// The current device's primary context, through the runtime's driver entry points (the
// suite links no libcuda.so).
CUcontext current_context() {
  GC_CUDA_CHECK(cudaFree(nullptr));  // the primary context exists and is current
  void* p = driver_entry_point("cuCtxGetCurrent");
  if (!p) throw Refused("the driver gives no cuCtxGetCurrent");
  CUcontext ctx = nullptr;
  if (reinterpret_cast<CUresult (*)(CUcontext*)>(p)(&ctx) != CUDA_SUCCESS || !ctx)
    throw Refused("no current CUDA context to profile");
  return ctx;
}

// cuptiProfilerInitialize .. cuptiProfilerDeInitialize.
class ProfilerScope {
 public:
  explicit ProfilerScope(const Api& a) : a_(a) {
    CUpti_Profiler_Initialize_Params p{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    check(a_, a_.ProfilerInitialize(&p), "cuptiProfilerInitialize");
  }
  ~ProfilerScope() {
    CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
    a_.ProfilerDeInitialize(&p);
  }
  ProfilerScope(const ProfilerScope&) = delete;
  ProfilerScope& operator=(const ProfilerScope&) = delete;

 private:
  const Api& a_;
};

std::string chip_name(const Api& a, int device) {
  CUpti_Device_GetChipName_Params p{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  p.deviceIndex = static_cast<std::size_t>(device);
  check(a, a.DeviceGetChipName(&p), "cuptiDeviceGetChipName");
  return p.pChipName ? p.pChipName : "";
}

std::vector<std::uint8_t> counter_availability(const Api& a, CUcontext ctx) {
  CUpti_Profiler_GetCounterAvailability_Params p{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  p.ctx = ctx;
  check(a, a.ProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability (size)");
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  check(a, a.ProfilerGetCounterAvailability(&p), "cuptiProfilerGetCounterAvailability");
  return image;
}

// cuptiRangeProfilerEnable .. cuptiRangeProfilerDisable on one context, and what is done
// with the range profiler object in between.
class RangeProfiler {
 public:
  RangeProfiler(const Api& a, CUcontext ctx) : a_(a) {
    CUpti_RangeProfiler_Enable_Params p{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    p.ctx = ctx;
    check(a_, a_.RangeProfilerEnable(&p), "cuptiRangeProfilerEnable");
    object_ = p.pRangeProfilerObject;
  }
  ~RangeProfiler() {
    CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    a_.RangeProfilerDisable(&p);
  }
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  // An initialised counter-data image with room for `ranges` ranges of `metrics`.
  std::vector<std::uint8_t> counter_data(const std::vector<std::string>& metrics, std::size_t ranges) {
    std::vector<const char*> names = c_names(metrics);
    CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pRangeProfilerObject = object_;
    size.pMetricNames = names.data();
    size.numMetrics = names.size();
    size.maxNumOfRanges = ranges;
    size.maxNumRangeTreeNodes = static_cast<std::uint32_t>(ranges);
    check(a_, a_.RangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
    std::vector<std::uint8_t> image(size.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = object_;
    init.counterDataSize = image.size();
    init.pCounterData = image.data();
    check(a_, a_.RangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    return image;
  }

  // User ranges (one per push/pop, one nesting level), replayed by us (user replay).
  // CUPTI keeps both pointers: `config` and `data` must outlive this object.
  void set_config(const std::vector<std::uint8_t>& config, std::vector<std::uint8_t>& data, std::size_t ranges) {
    CUpti_RangeProfiler_SetConfig_Params p{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    p.configSize = config.size();
    p.pConfig = config.data();
    p.counterDataImageSize = data.size();
    p.pCounterDataImage = data.data();
    p.range = CUPTI_UserRange;
    p.replayMode = CUPTI_UserReplay;
    p.maxRangesPerPass = ranges;
    p.numNestingLevels = 1;
    p.minNestingLevel = 1;
    p.passIndex = 0;
    p.targetNestingLevel = 1;
    check(a_, a_.RangeProfilerSetConfig(&p), "cuptiRangeProfilerSetConfig");
  }

  // Runs every work in its range once per pass until CUPTI has all passes; the passes run.
  std::size_t replay(const std::vector<CountedWork>& works, std::size_t max_passes) {
    for (std::size_t pass = 1; pass <= max_passes; ++pass) {
      CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
      start.pRangeProfilerObject = object_;
      check(a_, a_.RangeProfilerStart(&start), "cuptiRangeProfilerStart");
      for (const CountedWork& w : works) {
        CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        push.pRangeProfilerObject = object_;
        push.pRangeName = w.name.c_str();
        check(a_, a_.RangeProfilerPushRange(&push), "cuptiRangeProfilerPushRange");
        w.run();
        GC_CUDA_CHECK(cudaDeviceSynchronize());  // the range ends after its work, not after its launch
        CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        pop.pRangeProfilerObject = object_;
        check(a_, a_.RangeProfilerPopRange(&pop), "cuptiRangeProfilerPopRange");
      }
      CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      stop.pRangeProfilerObject = object_;
      check(a_, a_.RangeProfilerStop(&stop), "cuptiRangeProfilerStop");
      if (stop.isAllPassSubmitted) return pass;
    }
    throw Refused(fmt::format("CUPTI still wanted passes after {} replays of the work", max_passes));
  }

  // Decodes the collected passes into the counter-data image; the ranges it holds.
  std::size_t decode(const std::vector<std::uint8_t>& data) {
    CUpti_RangeProfiler_DecodeData_Params p{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = object_;
    check(a_, a_.RangeProfilerDecodeData(&p), "cuptiRangeProfilerDecodeData");
    if (p.numOfRangeDropped != 0) throw Refused(fmt::format("CUPTI dropped {} ranges", p.numOfRangeDropped));
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    check(a_, a_.RangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    return info.numTotalRanges;
  }

 private:
  const Api& a_;
  CUpti_RangeProfiler_Object* object_ = nullptr;
};

// The whole session; Refused ends it. `out` collects what is known so far.
void run_session(const Api& a, const CounterRequest& request, const std::vector<CountedWork>& works,
                 CounterResult& out) {
  int device = 0;
  GC_CUDA_CHECK(cudaGetDevice(&device));
  const CUcontext ctx = current_context();
  ProfilerScope profiler(a);
  out.chip = chip_name(a, device);
  const std::vector<std::uint8_t> availability = counter_availability(a, ctx);
  Host host(a, out.chip, availability);
  std::string why_unknown;  // CUPTI's answer for the first required metric it refused
  const MetricPlan plan = plan_metrics(request, [&](const std::string& m) {
    std::string why;
    const bool known = host.knows(m, why);
    if (!known && why_unknown.empty() &&
        std::find(request.required.begin(), request.required.end(), m) != request.required.end())
      why_unknown = why;
    return known;
  });
  if (!plan.error.empty())
    throw Refused(fmt::format("{} (chip {}{}{})", plan.error, out.chip, why_unknown.empty() ? "" : ": ", why_unknown));
  out.metrics = plan.metrics;
  out.dropped = plan.dropped;
  std::vector<std::uint8_t> config = host.config_image(out.metrics);
  const std::size_t passes = host.passes(config);
  std::vector<std::uint8_t> data;  // declared before the profiler, which keeps a pointer to it
  RangeProfiler ranges(a, ctx);
  data = ranges.counter_data(out.metrics, works.size());
  ranges.set_config(config, data, works.size());
  out.passes = ranges.replay(works, passes + 1);
  const std::size_t counted = ranges.decode(data);
  if (counted != works.size())
    throw Refused(fmt::format("CUPTI returned {} ranges for {} pieces of work", counted, works.size()));
  for (std::size_t i = 0; i < works.size(); ++i) out.values.push_back(host.evaluate(data, i, out.metrics));
}

#endif

}  // namespace

CounterResult count(const Library& library, const CounterRequest& request, const std::vector<CountedWork>& works) {
  CounterResult out;
  if (!library.ok()) {
    out.error = library.error();
    return out;
  }
  if (works.empty()) throw std::invalid_argument("cupti::count: no work to count");
#if GPUCONFORM_HAVE_CUPTI
  out.library = library.path();
  try {
    run_session(library.api(), request, works, out);
  } catch (const Refused& e) {
    out.error = e.what();
    out.values.clear();
  }
#else
  (void)request;
  out.error = "this build had no CUPTI headers, so it reads no hardware counters";
#endif
  return out;
}

}  // namespace gpuconform::kernels::cupti
