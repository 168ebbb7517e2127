// SPDX-License-Identifier: Apache-2.0
// The exact companion entries of the math probes (scalar_math_worst.hpp).
#include "gpuconform/numerics/scalar_math_worst.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace gpuconform::numerics {
namespace {

constexpr std::string_view kPrefix = "param:max_at=";

struct Stash {
  std::mutex mutex;
  std::map<std::pair<std::string, int>, Measurement> kept;
};
Stash& stash() {
  static Stash s;
  return s;
}

}  // namespace

std::string worst_id(std::string_view primary_id) { return std::string(primary_id) + ".worst"; }

std::string worst_model(double value, const std::string& input) {
  return fmt::format("{}{:.9g}@{}", kPrefix, value, input);
}

Measurement worst_measurement(const Measurement& primary, const Expectation* entry) {
  const std::string* model = primary.find_note("model");
  if (!model) throw std::logic_error("a numeric.math probe did not name its maximum (no `model` note)");
  // The primaries' maxima are finite (a NaN mismatch is kMathBeyondBound, inputs outside the
  // bound's domain are excluded): an infinite one is a probe defect, never an entry to record.
  if (model->find("=inf@") != std::string::npos || model->find("=nan@") != std::string::npos ||
      model->find("=-inf@") != std::string::npos)
    throw std::logic_error("a numeric.math probe named a non-finite maximum (" + *model + "): a probe defect");
  Measurement m;
  m.unit = "mismatches";
  m.compared = primary.compared;
  m.note("model", *model);  // what `record` writes
  if (const std::string* w = primary.find_note("worst_input")) m.note("worst_input", *w);
  if (const std::string* r = primary.find_note("max_real_ulp_error")) m.note("max_real_ulp_error", *r);
  m.value = 0;
  if (entry) {
    if (entry->model.compare(0, kPrefix.size(), kPrefix) != 0)
      throw std::runtime_error(fmt::format("{}: a numeric.math .worst test expects model = \"{}VALUE@INPUT\", not '{}'",
                                           entry->where.str(), kPrefix, entry->model));
    if (entry->model != *model) {
      m.value = 1;
      m.note("first_mismatch", fmt::format("measured {}, the entry holds {} (the library or the GPU changed)",
                                           model->substr(kPrefix.size()), entry->model.substr(kPrefix.size())));
    }
  }
  return m;
}

void stash_for_worst(const std::string& primary_id, int device, const Measurement& m) {
  std::lock_guard<std::mutex> lock(stash().mutex);
  stash().kept[{primary_id, device}] = m;
}

std::optional<Measurement> take_for_worst(const std::string& primary_id, int device) {
  std::lock_guard<std::mutex> lock(stash().mutex);
  const auto it = stash().kept.find({primary_id, device});
  if (it == stash().kept.end()) return std::nullopt;
  Measurement m = std::move(it->second);
  stash().kept.erase(it);
  return m;
}

}  // namespace gpuconform::numerics
