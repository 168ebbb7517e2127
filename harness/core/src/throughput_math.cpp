// SPDX-License-Identifier: Apache-2.0
// The arithmetic of throughput verdicts: derived peaks, the in-kernel clock
// and the convergence point of a sweep. No CUDA here, so all of it is unit-tested.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "gpuconform/stats.hpp"
#include "gpuconform/throughput.hpp"

namespace gpuconform {

DerivedPeak derive_peak(const PeakEntry& entry, int sms_used, double measured_mhz, double max_mhz) {
  if (sms_used <= 0) throw std::invalid_argument("derive_peak: no SMs used");
  if (!(measured_mhz > 0)) throw std::invalid_argument("derive_peak: no measured SM clock");
  DerivedPeak d;
  d.peak = entry.per_sm_per_clock * sms_used * measured_mhz * 1e6;
  d.peak_at_max = max_mhz > 0 ? entry.per_sm_per_clock * sms_used * max_mhz * 1e6 : 0;
  d.formula = fmt::format("{:g} {} x {} SM{} x {:.0f} MHz measured ({}:{}, {})", entry.per_sm_per_clock, entry.unit,
                          sms_used, sms_used == 1 ? "" : "s", measured_mhz, entry.where.file, entry.where.line,
                          entry.source);
  return d;
}

double clock_from_stamps(const std::vector<long long>& q, double min_ns) {
  std::vector<double> mhz;
  for (std::size_t i = 0; i + 3 < q.size(); i += 4) {
    const double cycles = static_cast<double>(q[i + 2] - q[i]);
    const double ns = static_cast<double>(q[i + 3] - q[i + 1]);
    if (ns >= min_ns && cycles > 0) mhz.push_back(cycles / ns * 1e3);
  }
  return mhz.empty() ? 0.0 : median(mhz);
}

GridPoint best_point(const Matrix& m) {
  if (m.values.empty() || m.values.size() != m.rows.size() * m.cols.size())
    throw std::invalid_argument("best_point: matrix shape and values disagree");
  const auto it = std::max_element(m.values.begin(), m.values.end());
  const std::size_t k = static_cast<std::size_t>(it - m.values.begin());
  return {k / m.cols.size(), k % m.cols.size()};
}

GridPoint convergence_point(const Matrix& m, double fraction) {
  const GridPoint best = best_point(m);
  const double threshold = fraction * m.at(best.row, best.col);
  GridPoint found = best;
  double found_cost = m.rows[best.row] * m.cols[best.col];
  for (std::size_t r = 0; r < m.rows.size(); ++r)
    for (std::size_t c = 0; c < m.cols.size(); ++c) {
      if (!(m.at(r, c) >= threshold)) continue;
      const double cost = m.rows[r] * m.cols[c];
      if (cost < found_cost || (cost == found_cost && m.rows[r] < m.rows[found.row])) {
        found = {r, c};
        found_cost = cost;
      }
    }
  return found;
}

}  // namespace gpuconform
