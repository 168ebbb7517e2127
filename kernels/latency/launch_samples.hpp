// SPDX-License-Identifier: Apache-2.0
#pragma once
// The sampling of the latency probes whose kernel times itself on clock64 and
// returns one value per launch (cluster barriers, DSMEM, wgmma): one untimed
// launch first (module load, instruction cache, the first touch of shared
// memory), then 3 launches at the quick level or 9 otherwise, each one sample;
// the value is their median in cycles, with the SM clock read right after.
// One place, so that these probes cannot drift apart in how they sample.
#include <functional>

#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/stats.hpp"
#include "gpuconform/timing.hpp"

namespace gpuconform::kernels {

inline Measurement median_cycles_of_launches(const ProbeContext& ctx, const std::function<double()>& one_launch) {
  one_launch();
  Measurement m;
  for (int r = 0; r < (ctx.quick ? 3 : 9); ++r) m.samples.push_back(one_launch());
  m.value = median(m.samples);
  m.unit = "cycles";
  m.sm_clock_mhz = measure_sm_clock_mhz(500);
  return m;
}

}  // namespace gpuconform::kernels
