// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/reference/erf_inverse_start.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace gpuconform::ref {
namespace {

double from_bits(std::uint64_t b) {
  double d = 0;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

std::uint64_t to_bits(double d) {
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

}  // namespace

double erf_inverse_start(bool complement, double t) {
  std::uint64_t lo = 0, hi = to_bits(30.0);
  while (hi - lo > 1) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const double y = from_bits(mid);
    const bool root_above = complement ? std::erfc(y) > t : std::erf(y) < t;
    (root_above ? lo : hi) = mid;
  }
  return from_bits(lo);
}

}  // namespace gpuconform::ref
