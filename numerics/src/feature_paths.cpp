// SPDX-License-Identifier: Apache-2.0
// The judging half of the numeric.feature.* probes (feature_paths.hpp).
#include "gpuconform/numerics/feature_paths.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "gpuconform/reference/model_fit.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {

bool feature_applies(const VectorVariant& v, const std::string& property) {
  if (!fits_block_model(v)) return property == "model";
  if (property == "model") return false;
  if (property == "sparse_products") return v.sparse();
  if (property == "nan_canonical") return true;
  const bool fp8 = v.ab_type == ElementType::e4m3 || v.ab_type == ElementType::e5m2;
  if (property == "block_order") return fp8;
  for (const std::string& name : ref::parameter_names(*float_format(v.ab_type), *float_format(v.d_type)))
    if (name == property) return true;
  return false;
}

std::string feature_path_of(std::string_view variant) {
  for (const FeaturePath& fp : kFeaturePaths)
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

}  // namespace gpuconform::numerics
