// SPDX-License-Identifier: Apache-2.0
// Finds libcupti, loads it with dlopen and binds the entry points of cupti_api.hpp.
#include "common/cupti_library.hpp"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <link.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <mutex>
#include <type_traits>
#include <utility>

#include "common/cupti_api.hpp"

namespace gpuconform::kernels::cupti {
namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

#if GPUCONFORM_HAVE_CUPTI
// Binds every entry point; the names of those the library lacks.
std::vector<std::string> bind_all(void* handle, Api& a) {
  std::vector<std::string> missing;
  auto bind = [&](const char* name, auto& fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
    if (!fn) missing.emplace_back(name);
  };
  bind("cuptiGetResultString", a.GetResultString);
  bind("cuptiProfilerInitialize", a.ProfilerInitialize);
  bind("cuptiProfilerDeInitialize", a.ProfilerDeInitialize);
  bind("cuptiDeviceGetChipName", a.DeviceGetChipName);
  bind("cuptiProfilerGetCounterAvailability", a.ProfilerGetCounterAvailability);
  bind("cuptiProfilerHostInitialize", a.ProfilerHostInitialize);
  bind("cuptiProfilerHostDeinitialize", a.ProfilerHostDeinitialize);
  bind("cuptiProfilerHostGetMetricProperties", a.ProfilerHostGetMetricProperties);
  bind("cuptiProfilerHostConfigAddMetrics", a.ProfilerHostConfigAddMetrics);
  bind("cuptiProfilerHostGetConfigImageSize", a.ProfilerHostGetConfigImageSize);
  bind("cuptiProfilerHostGetConfigImage", a.ProfilerHostGetConfigImage);
  bind("cuptiProfilerHostGetNumOfPasses", a.ProfilerHostGetNumOfPasses);
  bind("cuptiProfilerHostEvaluateToGpuValues", a.ProfilerHostEvaluateToGpuValues);
  bind("cuptiRangeProfilerEnable", a.RangeProfilerEnable);
  bind("cuptiRangeProfilerDisable", a.RangeProfilerDisable);
  bind("cuptiRangeProfilerGetCounterDataSize", a.RangeProfilerGetCounterDataSize);
  bind("cuptiRangeProfilerCounterDataImageInitialize", a.RangeProfilerCounterDataImageInitialize);
  bind("cuptiRangeProfilerSetConfig", a.RangeProfilerSetConfig);
  bind("cuptiRangeProfilerStart", a.RangeProfilerStart);
  bind("cuptiRangeProfilerStop", a.RangeProfilerStop);
  bind("cuptiRangeProfilerPushRange", a.RangeProfilerPushRange);
  bind("cuptiRangeProfilerPopRange", a.RangeProfilerPopRange);
  bind("cuptiRangeProfilerDecodeData", a.RangeProfilerDecodeData);
  bind("cuptiRangeProfilerGetCounterDataInfo", a.RangeProfilerGetCounterDataInfo);
  return missing;
}
#endif

// The names of cupti_result.h, and what a user can do about the ones a profiler
// commonly meets on a GPU node.
struct ResultText {
  int code;
  const char* name;
  const char* hint;
};
constexpr ResultText kResults[] = {
    {1, "CUPTI_ERROR_INVALID_PARAMETER", ""},
    {2, "CUPTI_ERROR_INVALID_DEVICE", ""},
    {3, "CUPTI_ERROR_INVALID_CONTEXT", ""},
    {7, "CUPTI_ERROR_INVALID_OPERATION", ""},
    {8, "CUPTI_ERROR_OUT_OF_MEMORY", ""},
    {9, "CUPTI_ERROR_HARDWARE", ""},
    {14, "CUPTI_ERROR_NOT_COMPATIBLE", ": this libcupti does not match the driver (a CUPTI newer than the driver?)"},
    {15, "CUPTI_ERROR_NOT_INITIALIZED", ""},
    {17, "CUPTI_ERROR_INVALID_METRIC_NAME", ": the metric is not one of this chip's"},
    {23, "CUPTI_ERROR_DISABLED", ""},
    {26, "CUPTI_ERROR_HARDWARE_BUSY", ": another process is using the GPU's performance counters"},
    {27, "CUPTI_ERROR_NOT_SUPPORTED", ""},
    {33, "CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED", ": no performance counters in this virtual machine"},
    {35, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES",
     ": the driver restricts GPU performance counters to administrators (module option "
     "NVreg_RestrictProfilingToAdminUsers=1); run as root or with CAP_SYS_ADMIN, or load the driver with that "
     "option set to 0 (https://developer.nvidia.com/ERR_NVGPUCTRPERM)"},
    {36, "CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED", ": the legacy event/metric API is in use in this process"},
    {39, "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED",
     ": another profiler (Nsight Compute, Nsight Systems, DCGM profiling) holds the counters"},
    {40, "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES",
     ": the hypervisor does not give this virtual GPU its performance counters"},
    {41, "CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED",
     ": no performance counters in confidential-computing mode"},
    {42, "CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED", ""},
    {43, "CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED", ": range profiling of a MIG instance is not supported"},
    {44, "CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED", ""},
    {45, "CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED", ""},
    {46, "CUPTI_ERROR_INVALID_CHIP_NAME", ": this libcupti does not know the GPU's chip (an older CUPTI?)"},
    {999, "CUPTI_ERROR_UNKNOWN", ""},
};

// The file a handle was loaded from ("libcupti.so.13 => /usr/local/cuda/lib64/libcupti.so.13"
// when `asked` was a bare soname), for the record's notes.
std::string loaded_from(void* handle, const std::string& asked) {
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || !map || !map->l_name || asked == map->l_name) return asked;
  return fmt::format("{} => {}", asked, map->l_name);
}

// dlopen's text for a file that is not there, as glibc words it.
bool not_found(const char* why) { return why && std::string(why).find("No such file") != std::string::npos; }

}  // namespace

SearchPlace process_search_place() {
  SearchPlace p;
  p.override_path = env("GPUCONFORM_CUPTI_LIBRARY");
  p.cuda_home = env("CUDA_HOME");
  if (p.cuda_home.empty()) p.cuda_home = env("CUDA_PATH");
  p.cuda_major = CUDART_VERSION / 1000;
  p.cuda_minor = CUDART_VERSION % 1000 / 10;
  return p;
}

std::vector<std::string> library_candidates(const SearchPlace& place) {
  if (!place.override_path.empty()) return {place.override_path};
  const std::string soname = fmt::format("libcupti.so.{}", place.cuda_major);
  std::vector<std::string> out{soname};
  std::vector<std::string> homes;
  if (!place.cuda_home.empty()) homes.push_back(place.cuda_home);
  homes.push_back("/usr/local/cuda");
  homes.push_back(fmt::format("/usr/local/cuda-{}.{}", place.cuda_major, place.cuda_minor));
  for (const std::string& home : homes)
    for (const char* dir : {"extras/CUPTI/lib64", "lib64", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"})
      out.push_back(fmt::format("{}/{}/{}", home, dir, soname));
  out.push_back("libcupti.so");
  return out;
}

std::string describe_result(int code, const char* library_text) {
  for (const ResultText& r : kResults) {
    if (r.code != code) continue;
    std::string s = fmt::format("{} ({}){}", r.name, code, r.hint);
    if (library_text && *library_text && std::string(library_text) != r.name) s += fmt::format(" [{}]", library_text);
    return s;
  }
  if (library_text && *library_text) return fmt::format("{} (CUptiResult {})", library_text, code);
  return fmt::format("CUptiResult {}", code);
}

std::shared_ptr<const Library> Library::failure(std::string why) {
  auto lib = std::make_shared<Library>();
  lib->error_ = std::move(why);
  return lib;
}

std::shared_ptr<const Library> Library::load(const std::vector<std::string>& candidates) {
#if !GPUCONFORM_HAVE_CUPTI
  (void)candidates;
  return failure("this build had no CUPTI headers (cupti_range_profiler.h), so it reads no hardware counters");
#else
  std::vector<std::string> absent, refused;  // not there; there but unusable (with why)
  for (const std::string& path : candidates) {
    dlerror();
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char* why = dlerror();
      if (not_found(why))
        absent.push_back(path);
      else
        refused.push_back(fmt::format("{} ({})", path, why ? why : "dlopen failed"));
      continue;
    }
    auto api = std::make_shared<Api>();
    const std::vector<std::string> missing = bind_all(handle, *api);
    if (!missing.empty()) {
      // An older CUPTI or another library by that name; nothing in it was called, so it
      // can be closed again.
      refused.push_back(fmt::format("{} (lacks {}: the range profiler came with CUPTI 12.6)", path, missing.front()));
      dlclose(handle);
      continue;
    }
    auto lib = std::make_shared<Library>();
    lib->path_ = loaded_from(handle, path);
    lib->api_ = std::move(api);
    return lib;
  }
  std::string why;
  if (!absent.empty()) why = "not found as " + fmt::format("{}", fmt::join(absent, ", "));
  if (!refused.empty()) why += (why.empty() ? "" : "; ") + fmt::format("{}", fmt::join(refused, "; "));
  return failure(
      fmt::format("CUPTI not loaded, so no hardware counters (GPUCONFORM_CUPTI_LIBRARY names a "
                  "libcupti.so of CUDA 12.6 or newer): {}",
                  why.empty() ? "no candidate" : why));
#endif
}

std::shared_ptr<const Library> process_library() {
  static std::once_flag once;
  static std::shared_ptr<const Library> lib;
  std::call_once(once, [] { lib = Library::load(library_candidates(process_search_place())); });
  return lib;
}

}  // namespace gpuconform::kernels::cupti
