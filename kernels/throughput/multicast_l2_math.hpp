// SPDX-License-Identifier: Apache-2.0
#pragma once
// The arithmetic of the TMA multicast L2 traffic probes (tma_multicast_l2_traffic.cu),
// pure so the unit tests pin it: from the L2 read bytes a multicast launch and its
// unicast control caused, the ratio the probe reports, what multicast saved, and
// how much of the bytes each launch had to read the counter saw.
#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace gpuconform::kernels::multicast_l2 {

struct Traffic {
  double ratio = 0;            // multicast L2 read bytes / unicast L2 read bytes (the value)
  double ideal = 0;            // 1 / C: each chunk read once instead of C times
  double saved_fraction = 0;   // 1 - ratio: the share of the unicast reads multicast did not make
  double saved_bytes = 0;      // unicast - multicast
  double delivered_bytes = 0;  // into shared memory by either launch: C x the buffer
  // Counted / the bytes the launch must read at least: the buffer once (multicast),
  // C times (unicast). Near 1 when the counter sees every TMA read.
  double multicast_coverage = 0;
  double unicast_coverage = 0;
};

// `buffer_bytes`: the buffer each launch streams; `cluster`: CTAs per cluster (C).
inline Traffic summarize(double multicast_bytes, double unicast_bytes, int cluster, double buffer_bytes) {
  if (cluster < 1) throw std::invalid_argument(fmt::format("multicast_l2::summarize: cluster of {}", cluster));
  if (!(buffer_bytes > 0)) throw std::invalid_argument("multicast_l2::summarize: no buffer");
  if (!(unicast_bytes > 0) || !(multicast_bytes >= 0) || !std::isfinite(unicast_bytes) ||
      !std::isfinite(multicast_bytes))
    throw std::invalid_argument(
        fmt::format("multicast_l2::summarize: L2 read bytes multicast {} unicast {}", multicast_bytes, unicast_bytes));
  Traffic t;
  t.ratio = multicast_bytes / unicast_bytes;
  t.ideal = 1.0 / cluster;
  t.saved_fraction = 1.0 - t.ratio;
  t.saved_bytes = unicast_bytes - multicast_bytes;
  t.delivered_bytes = buffer_bytes * cluster;
  t.multicast_coverage = multicast_bytes / buffer_bytes;
  t.unicast_coverage = unicast_bytes / t.delivered_bytes;
  return t;
}

// The counter sees too little of the reads for the ratio to mean anything: the unicast
// control must read C x the buffer from L2, and a count under half of that says the
// metric does not see these TMA reads (or sees only some of them). "" when it does.
inline constexpr double kMinCoverage = 0.5;
inline std::string coverage_problem(const Traffic& t, const char* metric) {
  if (t.unicast_coverage >= kMinCoverage) return "";
  return fmt::format(
      "{} saw {:.3g} of the {:.4g} B the unicast control reads from L2 (under {}): it does not "
      "count these TMA reads, so the ratio would mean nothing",
      metric, t.unicast_coverage, t.delivered_bytes, kMinCoverage);
}

}  // namespace gpuconform::kernels::multicast_l2
