// SPDX-License-Identifier: Apache-2.0
// numeric.feature.<path>.<property>: one test per behaviour of a tensor-core path, beside
// the bit-exact numeric.<instruction>.<shape>... test. Each runs the variant's random
// classes and the §3 discriminating vectors on the GPU (the golden generator's recipe,
// through the same MmaVariant runner), fits the block-FMA model to the results
// (vector_infer.hpp) and compares ONE fitted parameter with the expectation:
//
//   [probe."numeric.feature.wgmma.f32.e4m3.fraction_bits"]
//   kind = "exact"
//   model = "param:fraction_bits=13"
//   unit = "mismatches"
//
// value = 0 when the fit gives that value (or the data cannot tell it from the fitted one:
// the value is among the ambiguous alternatives), 1 otherwise, plus every output the fitted
// model does not reproduce (a fit that explains only part of the data proves nothing about
// its parameters; a fit of no outputs counts 1); the notes carry the fitted
// value and the whole fit. So a new driver that widens F fails `...fraction_bits` by name,
// not only the bit-exact test. The fit runs once per variant and process: a path's
// properties share it. Recording (no expectation) writes `model = "param:NAME=VALUE"`.
#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <utility>

#include "gpuconform/probe.hpp"
#include "gpuconform/numerics/feature_paths.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/path_survey.hpp"
#include "gpuconform/numerics/vector_infer.hpp"

namespace gpuconform::kernels {
namespace {

using namespace gpuconform::numerics;

constexpr std::uint64_t kSeed = 0x6665617475726573ull;  // "features"

using FitKey = std::pair<std::string, int>;  // variant, device index

// The fits of this process, each computed once: a path's properties share it.
struct FitCache {
  std::mutex mutex;
  std::map<FitKey, std::shared_future<InferResult>> fits;
  std::set<int> planned_devices;  // devices whose planned paths were started
};

FitCache& fit_cache() {
  static FitCache cache;
  return cache;
}

// Runs the variant's survey on the GPU in this thread (the one with the device's context)
// and starts its fit on another: fits are CPU work, seconds each (FP8 and mma.sp FP8 the
// longest), so a run of many paths fits them side by side.
std::shared_future<InferResult> start_fit(const MmaVariant& v, const DeviceInfo& device) {
  std::vector<ref::MmaRecord> records;
  try {
    records = run_survey_instances(v, kSurveyInstancesPerClass, kSeed);
  } catch (...) {  // a failed layout self-test: the path's own probes report it, not the caller
    std::promise<InferResult> failed;
    failed.set_exception(std::current_exception());
    return failed.get_future().share();
  }
  return std::async(std::launch::async, [layout = v.layout, records = std::move(records), arch = device.arch()]() mutable {
           return infer_records(layout, std::move(records), arch);
         }).share();
}

// The fit of one variant on this GPU. The first call of a run also starts the fits of every
// other path whose feature probes the runner announced (set_planned_probes).
const InferResult& fit_on_gpu(const MmaVariant& v, const DeviceInfo& device) {
  FitCache& cache = fit_cache();
  std::shared_future<InferResult> fit;
  {
    const std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.planned_devices.insert(device.index).second) {
      const std::vector<std::string> planned = planned_probes();
      for (const FeaturePath& fp : kFeaturePaths) {
        const std::string prefix = fmt::format("numeric.feature.{}.", fp.path);
        const bool wanted = std::any_of(planned.begin(), planned.end(),
                                        [&](const std::string& id) { return id.rfind(prefix, 0) == 0; });
        const MmaVariant* w = wanted ? find_mma_variant(fp.variant) : nullptr;
        if (!w || !unsupported_reason(*w, device).empty()) continue;
        const FitKey key{w->name(), device.index};
        if (!cache.fits.count(key)) cache.fits.emplace(key, start_fit(*w, device));
      }
    }
    const FitKey key{v.name(), device.index};
    auto it = cache.fits.find(key);
    if (it == cache.fits.end()) it = cache.fits.emplace(key, start_fit(v, device)).first;
    fit = it->second;
  }
  // The cache keeps the shared state, so the reference outlives this call.
  return fit.get();
}

Measurement measure_feature(const ProbeContext& ctx, const FeaturePath& fp, const std::string& property) {
  const MmaVariant* v = find_mma_variant(fp.variant);
  if (!v) throw std::logic_error(std::string("feature probe for an unregistered MMA variant: ") + fp.variant);
  if (std::string why = unsupported_reason(*v, ctx.device); !why.empty()) throw ProbeSkipped(why);
  return feature_measurement(fit_on_gpu(*v, ctx.device), property, ctx.expectation);
}

template <std::size_t P, std::size_t Q>
Measurement run_feature(const ProbeContext& ctx) {
  return measure_feature(ctx, kFeaturePaths[P], kFeatureProperties[Q]);
}

template <std::size_t P, std::size_t... Q>
void register_path(std::index_sequence<Q...>) {
  const FeaturePath& fp = kFeaturePaths[P];
  std::string why;
  const auto v = parse_variant(fp.variant, why);
  if (!v) throw std::logic_error(why);
  const Requirements needs{fp.min_cc, fp.sm90a ? 90 : 0, fp.sm90a ? "sm_90a (wgmma)" : ""};
  auto add = [&](std::size_t q, ProbeFn fn) {
    const std::string property = kFeatureProperties[q];
    if (!feature_applies(*v, property)) return;
    register_probes({Probe{fmt::format("numeric.feature.{}.{}", fp.path, property),
                           Family::numeric,
                           fmt::format("{}: the fitted block-FMA {} equals the expected value", fp.variant, property),
                           needs,
                           {ExpectationKind::exact},
                           fn}});
  };
  (add(Q, &run_feature<P, Q>), ...);
}

template <std::size_t... P>
bool register_all(std::index_sequence<P...>) {
  (register_path<P>(std::make_index_sequence<kFeaturePropertyCount>{}), ...);
  return true;
}

const bool kRegistered = register_all(std::make_index_sequence<kFeaturePathCount>{});

}  // namespace
}  // namespace gpuconform::kernels
