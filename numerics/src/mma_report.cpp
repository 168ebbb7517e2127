// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/mma_report.hpp"

#include <fmt/format.h>

namespace gpuconform::numerics {
namespace {

std::string hex_run(const std::vector<std::uint64_t>& v, std::size_t first, std::size_t count,
                    std::size_t step, int digits) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += fmt::format("{:0{}x}", v[first + i * step], digits);
  return out;
}

}  // namespace

void MismatchReport::compare(std::string_view where, std::string_view klass,
                             const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                             const std::vector<std::uint64_t>& c, const std::uint64_t* got,
                             const std::uint64_t* want, std::string_view got_name,
                             std::string_view want_name) {
  const std::size_t per = v_.c_count();
  std::uint64_t bad = 0;
  for (std::size_t e = 0; e < per; ++e) {
    if (got[e] == want[e]) continue;
    ++bad;
    if (examples_.size() >= shown_) continue;
    const int i = static_cast<int>(e) / v_.n, j = static_cast<int>(e) % v_.n;
    const int ab = element_digits(v_.ab_type), cd = element_digits(v_.d_type);
    examples_.push_back(fmt::format(
        "{} ({}) D[{}][{}]: {} {:0{}x} {} {:0{}x}; a(row {}) {} b(col {}) {} c {:0{}x}", where, klass, i, j,
        got_name, got[e], cd, want_name, want[e], cd, i,
        hex_run(a, static_cast<std::size_t>(i) * v_.k, static_cast<std::size_t>(v_.k), 1, ab), j,
        hex_run(b, static_cast<std::size_t>(j) * v_.k, static_cast<std::size_t>(v_.k), 1, ab), c[e], cd));
  }
  mismatches_ += bad;
  compared_ += per;
  const std::string_view family = klass.substr(0, klass.find(':'));
  auto it = classes_.find(family);
  if (it == classes_.end()) it = classes_.emplace(std::string(family), std::pair<std::uint64_t, std::uint64_t>{}).first;
  it->second.first += bad;
  it->second.second += per;
}

std::string MismatchReport::by_class() const {
  std::string out;
  for (const auto& [klass, counts] : classes_)
    out += fmt::format("{}{}: {}/{}", out.empty() ? "" : ", ", klass, counts.first, counts.second);
  return out;
}

}  // namespace gpuconform::numerics
