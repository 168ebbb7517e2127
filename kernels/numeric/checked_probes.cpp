#include "numeric/checked_probes.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "numeric/mma_check.hpp"
#include "numeric/mma_variant.hpp"
#include "numeric/path_survey.hpp"
#include "numeric/vector_check.hpp"

namespace gpuconform::kernels {
namespace {

constexpr std::uint64_t kSeed = 0x636865636b656431ull;  // "checked1": every run replays the same draw

int per_class(const VectorVariant& v, bool quick) {
  return scaled_per_class(quick ? kCheckedInstancesPerClass / 5 : kCheckedInstancesPerClass, v.c_count(), 5);
}

}  // namespace

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
      run_survey_instances(*v, per_class(v->layout, ctx.quick), kSeed, /*literature_probes=*/!wide);
  CheckOptions options;
  options.arch = arch;
  if (ctx.expectation) options.model = ctx.expectation->model;
  const FileCheck r = check_records(v->layout, records, options);
  if (r.status == CheckStatus::kNoModel) throw ProbeSkipped(r.error);
  if (r.status == CheckStatus::kUnusable)
    throw std::runtime_error(ctx.expectation ? fmt::format("{}: {}", ctx.expectation->where.str(), r.error) : r.error);
  Measurement m;
  m.unit = "mismatches";
  m.value = static_cast<double>(r.total - r.matched);
  m.compared = r.total;
  // The id alone (before the parameters in parentheses): what `record` writes as `model`.
  m.note("model", r.model.substr(0, r.model.find(' ')));
  m.note("model_parameters", r.model);
  for (std::size_t i = 0; i < r.mismatches.size(); ++i) {
    if (i == 0) m.note("first_mismatch", r.mismatches[i]);
    m.note(fmt::format("mismatch_{}", i + 1), r.mismatches[i]);
  }
  m.note("mismatches_by_class", r.by_class);
  return m;
}

bool register_checked_probe(std::string_view variant, Requirements needs, ProbeFn fn) {
  const MmaVariant* v = find_mma_variant(variant);
  if (!v) throw std::logic_error("numeric probe for an unregistered MMA variant: " + std::string(variant));
  return Registry::instance().add(Probe{numeric_probe_id(variant), Family::numeric,
                                        v->ptx + ": every output bit equals the model vectors check uses",
                                        std::move(needs), {ExpectationKind::exact}, fn});
}

}  // namespace gpuconform::kernels
