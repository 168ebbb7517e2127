// SPDX-License-Identifier: Apache-2.0
#pragma once
// The arithmetic of the TMA multicast L2 traffic probes (tma_multicast_l2_traffic.cu),
// pure so the unit tests pin it: L2 read bytes per byte delivered into shared memory, for
// explicit multicast (one CTA's copy delivered to all C CTAs of a cluster) and for the
// implicit case (every CTA of the cluster loads the same data itself, with plain TMA
// copies), and how much of the bytes each launch had to read the counter saw.
//
// Why per delivered byte, not multicast over the plain copies: on an H100 the plain copies of
// a cluster to the same data cost the L2 no more than multicast does (the GPC's L2 request
// coalescer merges them: 1.0000 x the buffer in both launches, ncu agreeing), so their ratio
// says 1 where multicast does save (C - 1)/C of the reads that C independent loads would
// make. Seed 003 reports the same quantity for a B200: "the ideal 1 / cluster_size L2 bytes
// per SMEM byte" for explicit multicast, implicit multicast losing effectiveness past 64
// bytes in flight.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace gpuconform::kernels::multicast_l2 {

struct Traffic {
  double delivered_bytes = 0;    // into shared memory by either launch: C x the buffer
  double ideal = 0;              // 1 / C: each chunk read from L2 once for C deliveries
  double explicit_per_byte = 0;  // L2 read bytes / delivered byte, explicit multicast
  double implicit_per_byte = 0;  // the same for every CTA loading the same data itself
  // Counted / the buffer, which each launch must read from L2 at least once: near 1 when
  // the counter sees every TMA read and the reads are shared perfectly, C with no sharing.
  double explicit_coverage = 0;
  double implicit_coverage = 0;
};

// `buffer_bytes`: the buffer each launch streams; `cluster`: CTAs per cluster (C).
inline Traffic summarize(double explicit_bytes, double implicit_bytes, int cluster, double buffer_bytes) {
  if (cluster < 1) throw std::invalid_argument(fmt::format("multicast_l2::summarize: cluster of {}", cluster));
  if (!(buffer_bytes > 0)) throw std::invalid_argument("multicast_l2::summarize: no buffer");
  if (!(explicit_bytes >= 0) || !(implicit_bytes >= 0) || !std::isfinite(explicit_bytes) ||
      !std::isfinite(implicit_bytes))
    throw std::invalid_argument(
        fmt::format("multicast_l2::summarize: L2 read bytes explicit {} implicit {}", explicit_bytes, implicit_bytes));
  Traffic t;
  t.delivered_bytes = buffer_bytes * cluster;
  t.ideal = 1.0 / cluster;
  t.explicit_per_byte = explicit_bytes / t.delivered_bytes;
  t.implicit_per_byte = implicit_bytes / t.delivered_bytes;
  t.explicit_coverage = explicit_bytes / buffer_bytes;
  t.implicit_coverage = implicit_bytes / buffer_bytes;
  return t;
}

// The counter sees too little of the reads for the figures to mean anything: every byte of
// the buffer must come out of L2 at least once in either launch, and a count under half the
// buffer says the metric does not see these TMA reads (or sees only some). "" when it does.
inline constexpr double kMinCoverage = 0.5;
inline std::string coverage_problem(const Traffic& t, const char* metric) {
  const double seen = std::min(t.explicit_coverage, t.implicit_coverage);
  if (seen >= kMinCoverage) return "";
  return fmt::format(
      "{} saw {:.3g} of the {:.4g} B buffer that each launch must read from L2 at least once (under {}): it does "
      "not count these TMA reads, so the figures would mean nothing",
      metric, seen, t.delivered_bytes * t.ideal, kMinCoverage);
}

}  // namespace gpuconform::kernels::multicast_l2
