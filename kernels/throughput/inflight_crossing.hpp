// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a bandwidth-against-bytes-in-flight curve (inflight_curve.hpp) first
// reaches a threshold, pure so the unit tests pin it. The sweep's points are
// powers of two or near them (2, 4, 8 ... 192 KiB per SM), so the first point at
// or above the threshold can only say "somewhere in the last factor of two":
// a board whose latency rose 5 % needs 5 % more bytes in flight, which moves
// that point only when it crosses a step, and a band around it must be a whole
// step wide. Below saturation bandwidth grows in proportion to the bytes in
// flight (Little's law), so the crossing is interpolated linearly between the
// last point below the threshold and the first at or above it.
#include <cstddef>
#include <vector>

namespace gpuconform::kernels {

struct Crossing {
  double x = 0;               // the interpolated bytes in flight; 0 when no point reaches the threshold
  bool interpolated = false;  // false: the first point already reaches it (x is that point)
};

// x ascending, y the rate at each x; the crossing of `threshold`.
inline Crossing first_crossing(const std::vector<double>& x, const std::vector<double>& y, double threshold) {
  Crossing c;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (y[i] < threshold) continue;
    if (i == 0) {
      c.x = x[i];
      return c;
    }
    const double t = (threshold - y[i - 1]) / (y[i] - y[i - 1]);
    c.x = x[i - 1] + t * (x[i] - x[i - 1]);
    c.interpolated = true;
    return c;
  }
  return c;
}

}  // namespace gpuconform::kernels
