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
#include "numeric/feature_probes.hpp"
#include "numeric/mma_variant.hpp"
#include "numeric/path_survey.hpp"
#include "numeric/vector_infer.hpp"

namespace gpuconform::kernels {
namespace {

// A path (the model id without its arch), the vector-file variant that exercises it and
// what the GPU needs (as the variant's table row: the probes register before the variant
// tables of mma_sync.cu and wgmma.cu may have, so they cannot ask them).
struct FeaturePath {
  const char* path;
  const char* variant;
  int min_cc;
  bool sm90a;
};
constexpr FeaturePath kPaths[] = {
    {"mma_sync.f32.f16", "mma_m16n8k16_f32_f16", 80, false},   {"mma_sync.f32.bf16", "mma_m16n8k16_f32_bf16", 80, false},
    {"mma_sync.f16.f16", "mma_m16n8k16_f16_f16", 80, false},   {"mma_sync.f32.tf32", "mma_m16n8k8_f32_tf32", 80, false},
    {"mma_sync.f32.e4m3", "mma_m16n8k32_f32_e4m3", 89, false}, {"mma_sync.f32.e5m2", "mma_m16n8k32_f32_e5m2", 89, false},
    {"mma_sync.f16.e4m3", "mma_m16n8k32_f16_e4m3", 89, false}, {"mma_sync.f16.e5m2", "mma_m16n8k32_f16_e5m2", 89, false},
    {"wgmma.f32.f16", "wgmma_m64n8k16_f32_f16", 90, true},     {"wgmma.f32.bf16", "wgmma_m64n8k16_f32_bf16", 90, true},
    {"wgmma.f16.f16", "wgmma_m64n8k16_f16_f16", 90, true},     {"wgmma.f32.tf32", "wgmma_m64n8k8_f32_tf32", 90, true},
    {"wgmma.f32.e4m3", "wgmma_m64n8k32_f32_e4m3", 90, true},   {"wgmma.f32.e5m2", "wgmma_m64n8k32_f32_e5m2", 90, true},
    {"wgmma.f16.e4m3", "wgmma_m64n8k32_f16_e4m3", 90, true},   {"wgmma.f16.e5m2", "wgmma_m64n8k32_f16_e5m2", 90, true},
    // The shorter mma.sync shapes are other instructions (HMMA.1688 beside HMMA.16816): their
    // path names carry the shape, since the model id they share does not.
    {"mma_sync.m16n8k8.f32.f16", "mma_m16n8k8_f32_f16", 80, false},
    {"mma_sync.m16n8k8.f32.bf16", "mma_m16n8k8_f32_bf16", 80, false},
    {"mma_sync.m16n8k8.f16.f16", "mma_m16n8k8_f16_f16", 80, false},
    {"mma_sync.m16n8k4.f32.tf32", "mma_m16n8k4_f32_tf32", 80, false},
    {"wmma.f32.f16", "wmma_m16n16k16_f32_f16", 80, false},     {"wmma.f32.bf16", "wmma_m16n16k16_f32_bf16", 80, false},
    {"wmma.f16.f16", "wmma_m16n16k16_f16_f16", 80, false},     {"wmma.f32.tf32", "wmma_m16n16k8_f32_tf32", 80, false},
    // Integer and fp64 paths: the one property is which simple model fits (simple_models.hpp).
    {"mma_sync.s32.s8", "mma_m16n8k32_s32_s8", 80, false},     {"mma_sync.s32.u8", "mma_m16n8k32_s32_u8", 80, false},
    {"mma_sync.s32.s8.satfinite", "mma_m16n8k32_s32_s8_satfinite", 80, false},
    {"mma_sync.f64.f64", "mma_m8n8k4_f64_f64", 80, false},
    {"mma_sync.m16n8k16.f64.f64", "mma_m16n8k16_f64_f64", 90, false},
    {"wmma.s32.s8", "wmma_m16n16k16_s32_s8", 80, false},       {"wmma.f64.f64", "wmma_m8n8k4_f64_f64", 80, false},
    {"wgmma.s32.s8", "wgmma_m64n8k32_s32_s8", 90, true},
    {"wgmma.s32.s8.satfinite", "wgmma_m64n8k32_s32_s8_satfinite", 90, true},
    {"mma_sync.s32.s4", "mma_m16n8k64_s32_s4", 80, false},     {"mma_sync.s32.u4", "mma_m16n8k64_s32_u4", 80, false},
    {"mma_sync.s32.s4.satfinite", "mma_m16n8k64_s32_s4_satfinite", 80, false},
    {"mma_sync.s32.b1.xor", "mma_m16n8k256_s32_b1_xor", 80, false},
    {"mma_sync.s32.b1.and", "mma_m16n8k256_s32_b1_and", 80, false},
    {"wmma.s32.s4", "wmma_m8n8k32_s32_s4", 80, false},          {"wmma.s32.b1.xor", "wmma_m8n8k128_s32_b1_xor", 80, false},
    // 2:4 sparse mma.sp (selector 0): besides the block-FMA parameters, sparse_products says
    // whether each output sums only the kept products (compressed) or all K with the zeros.
    {"mma_sp.f32.f16", "mmasp_m16n8k32_f32_f16_sel0", 80, false},
    {"mma_sp.f32.bf16", "mmasp_m16n8k32_f32_bf16_sel0", 80, false},
    {"mma_sp.f16.f16", "mmasp_m16n8k32_f16_f16_sel0", 80, false},
    {"mma_sp.f32.tf32", "mmasp_m16n8k16_f32_tf32_sel0", 80, false},
    {"mma_sp.f32.e4m3", "mmasp_m16n8k64_f32_e4m3_sel0", 89, false},
    {"mma_sp.f32.e5m2", "mmasp_m16n8k64_f32_e5m2_sel0", 89, false},
    {"mma_sp.s32.s8", "mmasp_m16n8k32_s32_s8_sel0", 80, false},
};
// Every property a path may have; paths register those the fit reports for their formats.
constexpr const char* kProperties[] = {"lowering",         "block_order",       "block_size",    "fraction_bits",
                                       "final_rounding",   "accumulator_format", "e_zero",       "subnormal_inputs",
                                       "subnormal_outputs", "negative_zero",     "overflow",      "input_truncation",
                                       "nan_canonical",    "model",             "sparse_products"};
constexpr std::size_t kPathCount = sizeof(kPaths) / sizeof(kPaths[0]);
constexpr std::size_t kPropertyCount = sizeof(kProperties) / sizeof(kProperties[0]);

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
      for (const FeaturePath& fp : kPaths) {
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
  return measure_feature(ctx, kPaths[P], kProperties[Q]);
}

// Whether a path reports this property (the fit's parameter list for its formats).
bool applies(const VectorVariant& v, const std::string& property) {
  if (!fits_block_model(v)) return property == "model";
  if (property == "model") return false;
  if (property == "sparse_products") return v.instruction == "mmasp";
  if (property == "nan_canonical") return true;
  const bool fp8 = v.ab_type == ElementType::e4m3 || v.ab_type == ElementType::e5m2;
  if (property == "block_order") return fp8;
  for (const std::string& name : ref::parameter_names(*float_format(v.ab_type), *float_format(v.d_type)))
    if (name == property) return true;
  return false;
}

template <std::size_t P, std::size_t... Q>
void register_path(std::index_sequence<Q...>) {
  const FeaturePath& fp = kPaths[P];
  std::string why;
  const auto v = parse_variant(fp.variant, why);
  if (!v) throw std::logic_error(why);
  const Requirements needs{fp.min_cc, fp.sm90a ? 90 : 0, fp.sm90a ? "sm_90a (wgmma)" : ""};
  auto add = [&](std::size_t q, ProbeFn fn) {
    const std::string property = kProperties[q];
    if (!applies(*v, property)) return;
    Registry::instance().add(Probe{fmt::format("numeric.feature.{}.{}", fp.path, property), Family::numeric,
                                   fmt::format("{}: the fitted block-FMA {} equals the expected value", fp.variant,
                                               property),
                                   needs, {ExpectationKind::exact}, fn});
  };
  (add(Q, &run_feature<P, Q>), ...);
}

template <std::size_t... P>
bool register_all(std::index_sequence<P...>) {
  (register_path<P>(std::make_index_sequence<kPropertyCount>{}), ...);
  return true;
}

const bool kRegistered = register_all(std::make_index_sequence<kPathCount>{});

}  // namespace

std::string feature_path_of(std::string_view variant) {
  for (const FeaturePath& fp : kPaths)
    if (variant == fp.variant) return fp.path;
  return {};
}

Measurement feature_measurement(const InferResult& fit, const std::string& property, const Expectation* expectation) {
  if (!fit.error.empty()) throw std::runtime_error(fit.error);
  const ref::FitParameter* p = nullptr;
  for (const ref::FitParameter& q : fit.params)
    if (q.name == property) p = &q;
  if (!p) throw std::logic_error(fmt::format("the fit of {} has no parameter {}", fit.variant, property));
  Measurement m;
  m.unit = "mismatches";
  m.compared = fit.outputs;
  m.note("model", fmt::format("param:{}={}", property, p->value));  // what `record` writes
  m.note("inferred", fmt::format("{} = {}{}", property, p->value,
                                 p->alternatives.empty()
                                     ? ""
                                     : fmt::format(" (the data cannot tell it from {})", compact_values(p->alternatives))));
  m.note("fit", infer_line(fit));
  // A parameter is only as good as the fit it comes from: outputs the fitted model does
  // not reproduce are mismatches whatever the parameter's value (and recording refuses
  // them, record_writer.cpp: an exact entry needs 0).
  const std::uint64_t unmatched = fit.outputs - std::min(fit.matched, fit.outputs);
  if (unmatched > 0 || fit.outputs == 0)
    m.note("unmatched", fmt::format("the fitted model reproduces {} of {} outputs{}", fit.matched, fit.outputs,
                                    fit.first_mismatch.empty() ? "" : "; first: " + fit.first_mismatch));
  m.value = fit.outputs == 0 ? 1 : static_cast<double>(unmatched);
  if (expectation) {
    const std::string& s = expectation->model;
    const auto eq = s.find('=');
    if (s.rfind("param:", 0) != 0 || eq == std::string::npos || s.substr(6, eq - 6) != property)
      throw std::runtime_error(fmt::format("{}: a feature test expects model = \"param:{}=VALUE\", not '{}'",
                                           expectation->where.str(), property, s));
    const std::string want = s.substr(eq + 1);
    bool ok = p->value == want;
    for (const std::string& alt : p->alternatives) ok |= alt == want;
    m.value += ok ? 0 : 1;
  }
  return m;
}

}  // namespace gpuconform::kernels
