// SPDX-License-Identifier: Apache-2.0
// Turning §3's vectors, written as values, into codes of a model's formats.
#include "gpuconform/reference/discriminating_vectors.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "vector_sink.hpp"

namespace gpuconform::ref {
namespace vectors {

std::optional<std::uint64_t> exact_code(const FloatFormat& f, double x) {
  if (std::isnan(x)) return f.has_nan() ? std::optional(quiet_nan(f)) : std::nullopt;
  if (std::isinf(x)) return f.has_inf() ? std::optional(infinity(f, x < 0)) : std::nullopt;
  const std::uint64_t code = from_double(f, x, Rounding::kRZ);
  const double back = to_double(f, code);
  if (back != x || std::signbit(back) != std::signbit(x)) return std::nullopt;
  return code;
}

bool VectorSink::add(const std::string& name, const char* source, Expect expected,
                     const std::vector<double>& a, const std::vector<double>& b, double c) {
  if (static_cast<int>(a.size()) > k_ || a.size() != b.size()) return false;
  std::vector<std::uint64_t> a_codes, b_codes;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto x = exact_code(m_.a_format, a[i]);
    const auto y = exact_code(m_.b_format, b[i]);
    if (!x || !y) return false;
    a_codes.push_back(*x);
    b_codes.push_back(*y);
  }
  const auto c_code = exact_code(m_.acc_format, c);
  if (!c_code) return false;
  std::uint64_t d = m_.canonical_nan;
  if (!std::isnan(expected.value)) {
    // Expected values must lie on the result grid: anything else is a bug in a family.
    const auto code = exact_code(m_.round_format, expected.value);
    if (!code)
      throw std::logic_error("discriminating vector " + name + ": expected value off grid");
    d = *code;
  }
  out_.push_back(
      {name, source, expected.computed, std::move(a_codes), std::move(b_codes), *c_code, d});
  return true;
}

bool VectorSink::add_bits(const std::string& name, const char* source, bool computed,
                          std::vector<std::uint64_t> a, std::vector<std::uint64_t> b,
                          std::uint64_t c, std::uint64_t expected) {
  if (static_cast<int>(a.size()) > k_ || a.size() != b.size()) return false;
  out_.push_back({name, source, computed, std::move(a), std::move(b), c, expected});
  return true;
}

std::optional<std::pair<double, double>> VectorSink::factor(double p, double preferred) const {
  auto fits = [&](double x, double y) {
    return exact_code(m_.a_format, x).has_value() && exact_code(m_.b_format, y).has_value();
  };
  if (fits(preferred, p / preferred)) return std::pair(preferred, p / preferred);
  for (int e = m_.a_format.emax(); e >= m_.a_format.emin() - m_.a_format.man_bits; --e) {
    const double x = pow2(e);
    if (fits(x, p / x)) return std::pair(x, p / x);
  }
  return std::nullopt;
}

}  // namespace vectors

std::vector<DiscriminatingVector> discriminating_vectors(const TensorCoreModel& m, int k) {
  std::vector<DiscriminatingVector> out;
  // The literature's expected values assume one block-FMA chain with C inside the first
  // block; the sm_90 FP8 lowering adds C last and reorders k, so they do not apply.
  if (m.fp8_via_hmma_pair) return out;
  vectors::VectorSink sink(m, std::min(k, m.max_k()), out);
  vectors::add_alignment_vectors(sink);
  vectors::add_rounding_vectors(sink);
  vectors::add_structure_vectors(sink);
  vectors::add_special_vectors(sink);
  return out;
}

std::vector<DiscriminatingVector> discriminating_vectors(const TensorCoreModel& m) {
  return discriminating_vectors(m, m.max_k());
}

}  // namespace gpuconform::ref
