// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the reference unit tests (header only: the test folder's .cpp files
// are each a test source).
#pragma once

#include <fmt/core.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref::testing {

// GPUCONFORM_LONG_TESTS=1 runs the random sweeps 10x longer.
inline long scaled(long n) {
  const char* v = std::getenv("GPUCONFORM_LONG_TESTS");
  return v != nullptr && std::string_view(v) == "1" ? 10 * n : n;
}

inline std::string hex(const FloatFormat& f, std::uint64_t bits) {
  return fmt::format("0x{:0{}x}", bits, (f.width_bits() + 3) / 4);
}

inline std::string hex_list(const FloatFormat& f, const std::uint64_t* x, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? " " : "") + hex(f, x[i]);
  return s + "]";
}

// A seed from a name, the same on every platform (FNV-1a).
inline std::uint64_t seed_from(std::string_view name) {
  std::uint64_t h = 1469598103934665603ull;
  for (char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
  return h;
}

// gtest parameter names: sm_90.mma_sync.f32.bf16 -> sm_90_mma_sync_f32_bf16.
inline std::string test_name(std::string id) {
  for (char& ch : id)
    if (ch == '.' || ch == '-' || ch == '+') ch = '_';
  return id;
}

// Collects failures so a test reports the first few with all inputs and asserts once.
struct Mismatches {
  long count = 0;
  std::vector<std::string> first;
  void add(std::string what) {
    if (++count <= 8) first.push_back(std::move(what));
  }
  std::string report() const {
    std::string s = fmt::format("{} mismatches; first:", count);
    for (const auto& x : first) s += "\n  " + x;
    return s;
  }
};

}  // namespace gpuconform::ref::testing
