// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/mma_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <thread>

#include "gpuconform/reference/discriminating_vectors.hpp"
#include "gpuconform/numerics/mma_report.hpp"
#include "gpuconform/numerics/path_survey.hpp"
#include "gpuconform/numerics/vector_check.hpp"

namespace gpuconform::numerics {
namespace {

constexpr int kLayoutInstances = 64;
constexpr std::uint64_t kSeed = 0x6d6d612d66313620ull;  // "mma-f16 ": every probe replays the same draw
constexpr std::uint64_t kCheckedSeed = 0x636865636b656431ull;  // "checked1": every run replays the same draw

int checked_per_class(const VectorVariant& v, bool quick) {
  return scaled_per_class(quick ? kCheckedInstancesPerClass / 5 : kCheckedInstancesPerClass, v.c_count(), 5);
}

}  // namespace

const ref::TensorCoreModel* resolve_model(const ProbeContext& ctx, const std::string& variant) {
  if (ctx.expectation) {
    const ref::TensorCoreModel* m = ref::find_model(ctx.expectation->model);
    if (!m) {
      std::string known;
      for (const auto& id : ref::model_ids()) known += (known.empty() ? "" : ", ") + id;
      throw std::runtime_error(fmt::format("{}: unknown reference model '{}' (known: {})",
                                           ctx.expectation->where.str(), ctx.expectation->model, known));
    }
    return m;
  }
  const ref::TensorCoreModel* m = ref::default_model(ctx.device.arch(), variant);
  if (!m)
    throw ProbeSkipped(fmt::format("no reference model for {} on {}: add a row to reference/src/models.cpp",
                                   variant, ctx.device.arch()));
  return m;
}

void check_layout(const MmaVariant& v, const std::vector<MmaInstance>& instances) {
  const VectorVariant& s = v.layout;
  const std::vector<std::uint64_t> d = v.run(instances);
  for (std::size_t n = 0; n < instances.size(); ++n)
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.n; ++j) {
        const double exact = exact_result(s, instances[n], i, j);
        const std::uint64_t bits = d[n * s.c_count() + static_cast<std::size_t>(i) * s.n + j];
        if (element_value(s.d_type, bits) != exact)
          throw std::runtime_error(fmt::format(
              "{}: fragment layout self-test failed: instance {} D[{}][{}] = {:0{}x} but the exact "
              "result is {} (the kernel's operand layout does not match the PTX ISA for this shape)",
              s.name, n, i, j, bits, element_digits(s.d_type), exact));
      }
}

// D of every instance by the model, on every core: the model is what the numeric family
// spends its time on (a wgmma m64n8 probe evaluates 10^6 outputs), and ref::mma keeps its
// scratch per thread.
std::vector<std::uint64_t> model_results(const ref::TensorCoreModel& model, const VectorVariant& s,
                                         const std::vector<MmaInstance>& instances) {
  const std::size_t per = s.c_count();
  std::vector<std::uint64_t> want(instances.size() * per);
  const std::size_t workers =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, std::max<std::size_t>(1, instances.size() / 64));
  auto work = [&](std::size_t first) {
    for (std::size_t n = first; n < instances.size(); n += workers) {
      const MmaInstance& in = instances[n];
      ref::mma(model, s.m, s.n, s.k, in.a.data(), in.b.data(), in.c.data(), want.data() + n * per);
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (std::thread& t : threads) t.join();
  return want;
}

Measurement mismatch_measurement(const MismatchSummary& s) {
  Measurement m;
  m.unit = "mismatches";
  m.value = static_cast<double>(s.mismatches);
  m.compared = s.compared;
  m.note("model", s.model);
  if (!s.model_parameters.empty()) m.note("model_parameters", s.model_parameters);
  for (std::size_t i = 0; i < s.examples.size(); ++i) {
    if (i == 0) m.note("first_mismatch", s.examples[i]);
    m.note(fmt::format("mismatch_{}", i + 1), s.examples[i]);
  }
  m.note("mismatches_by_class", s.by_class);
  return m;
}

Measurement compare_with_model(const ref::TensorCoreModel& model, const MmaVariant& v,
                               const std::vector<MmaInstance>& instances) {
  const VectorVariant& s = v.layout;
  const std::vector<std::uint64_t> got = v.run(instances);
  const std::vector<std::uint64_t> want = model_results(model, s, instances);
  const std::size_t per = s.c_count();
  MismatchReport report(s);
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const MmaInstance& in = instances[n];
    report.compare(fmt::format("instance {}", n), in.klass, in.a, in.b, in.c, &got[n * per], &want[n * per],
                   "gpu", "model");
  }
  return mismatch_measurement(
      MismatchSummary{model.id, "", report.mismatches(), report.compared(), report.examples(), report.by_class()});
}

Measurement measure_variant(const ProbeContext& ctx, const MmaVariant& v) {
  if (std::string why = unsupported_reason(v, ctx.device); !why.empty()) throw ProbeSkipped(why);
  const ref::TensorCoreModel* model = resolve_model(ctx, v.layout.arithmetic_name());
  ref::Rng rng(kSeed);
  check_layout(v, layout_instances(v.layout, kLayoutInstances, rng));
  const int per_class = ctx.quick ? 400 : 2000;
  std::vector<MmaInstance> instances;
  for (const std::string& klass : random_classes(v.layout)) {
    auto drawn = draw_instances(v.layout, klass, per_class, rng);
    instances.insert(instances.end(), drawn.begin(), drawn.end());
  }
  for (const ref::DiscriminatingVector& dv : ref::discriminating_vectors(*model, v.layout.k)) {
    MmaInstance in;
    in.klass = "probe:" + dv.name;
    in.a.assign(v.layout.a_count(), 0);
    in.b.assign(v.layout.b_count(), 0);
    in.c.assign(v.layout.c_count(), 0);
    std::copy(dv.a.begin(), dv.a.end(), in.a.begin());  // row 0
    std::copy(dv.b.begin(), dv.b.end(), in.b.begin());  // column 0
    in.c[0] = dv.c;
    instances.push_back(std::move(in));
  }
  return compare_with_model(*model, v, instances);
}

std::string numeric_probe_id(std::string_view variant) {
  std::string why;
  const auto v = parse_variant(variant, why);
  if (!v) throw std::logic_error(why);
  // wgmma.mma_async.sp reads as the latency.wgmma_sp.* and throughput.wgmma_sp.* probes of the
  // same instruction do; mma.sp keeps the name its probes were committed under (mmasp).
  const std::string instruction = v->instruction == "mma"       ? "mma_sync"
                                  : v->instruction == "wgmmasp" ? "wgmma_sp"
                                                                : v->instruction;
  std::string id = fmt::format("numeric.{}.m{}n{}k{}.{}.{}", instruction, v->m, v->n, v->k, element_name(v->d_type),
                               element_name(v->ab_type));
  for (const std::string& q : v->qualifiers) id += "." + q;
  return id;
}

Measurement measure_checked(const ProbeContext& ctx, std::string_view variant) {
  const MmaVariant* v = find_mma_variant(variant);
  if (!v) throw std::logic_error("numeric probe for an unregistered MMA variant: " + std::string(variant));
  if (std::string why = unsupported_reason(*v, ctx.device); !why.empty()) throw ProbeSkipped(why);
  const std::string arch = ctx.device.arch();
  // The literature's vectors sit in row 0 and column 0 and test the arithmetic, which no
  // wide shape (wgmma N > 8) changes: their m64n8 probes carry them, and here they would be
  // most of the outputs to model (64 x N each).
  const bool wide = v->layout.c_count() > 1024;
  const std::vector<ref::MmaRecord> records =
      run_survey_instances(*v, checked_per_class(v->layout, ctx.quick), kCheckedSeed, /*literature_probes=*/!wide);
  CheckOptions options;
  options.arch = arch;
  if (ctx.expectation) options.model = ctx.expectation->model;
  const FileCheck r = check_records(v->layout, records, options);
  if (r.status == CheckStatus::kNoModel) throw ProbeSkipped(r.error);
  if (r.status == CheckStatus::kUnusable)
    throw std::runtime_error(ctx.expectation ? fmt::format("{}: {}", ctx.expectation->where.str(), r.error) : r.error);
  // The id alone (before the parameters in parentheses): what `record` writes as `model`.
  return mismatch_measurement(MismatchSummary{r.model.substr(0, r.model.find(' ')), r.model, r.total - r.matched,
                                              r.total, r.mismatches, r.by_class});
}

}  // namespace gpuconform::numerics
