// SPDX-License-Identifier: Apache-2.0
// How many L2 read bytes TMA multicast costs per byte it delivers (issue 23; seed 003's "L2
// bytes per SMEM byte"): the launch of throughput.tma.multicast.cluster<C> (tma_multicast.cuh:
// each chunk read with cp.async.bulk .multicast::cluster and delivered to all C CTAs of a
// cluster) and the implicit case, the same kernel with every CTA loading all C slices of the
// chunk itself with the same bulk copy without .multicast, so both deliver the same bytes to
// the same CTAs' shared memory. The L2 read bytes of each launch come from hardware counters
// in-process (CUPTI's range profiler, loaded at run time: common/l2_counters.hpp says which
// metric and why). throughput.tma.multicast.l2_traffic.cluster<C> reports the explicit
// launch's L2 read bytes per delivered byte (ideal 1/C: the chunk read once for C copies),
// .implicit_l2_traffic.cluster<C> the implicit one's (1 with no sharing, 1/C when the GPC's L2
// request coalescer merges the C loads; an H100 merged them all on 2026-11-26); each probe
// counts both launches and notes the other's figure, the request counts, the unfiltered L2
// sectors and the DRAM bytes.
//
// The buffer is the timed probe's: at least 1 GiB and 8 x the L2, so it lives in HBM and the
// counted launch is exactly the timed one. The count of L2 reads requested by the SMs does
// not depend on where the data lives (a hit and a miss are one request each).
//
// No CUPTI (no library, a chip or driver that refuses, counters restricted to administrators,
// another profiler holding them): each launch still runs once, uncounted (so an outside
// profiler such as the device batch's ncu sees them), and the probe skips with CUPTI's
// reason. A counter that saw under half of the buffer, which each launch must read from L2 at
// least once, does not count these TMA reads: that fails, naming the metric.
#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/l2_counters.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/sass.hpp"
#include "gpuconform/stats.hpp"
#include "throughput/multicast_l2_math.hpp"
#include "throughput/tma_multicast.cuh"

namespace gpuconform::kernels {
namespace {

template <int Cluster>
using Copies = tma_multicast::ClusterCopyLaunch<Cluster>;

// Runs both launches once, uncounted, then skips with `why`.
template <int Cluster>
[[noreturn]] void skip_after_uncounted(const Copies<Cluster>& copies, const std::string& why) {
  copies.template launch<true>();
  copies.template launch<false>();
  copies.check("copies");
  throw ProbeSkipped(why);
}

// "<what>: explicit X, implicit Y" for an optional reading, "" where the chip lacks it.
std::string both(const char* what, const l2::Reads& mc, const l2::Reads& uc, std::optional<double> l2::Reads::*field) {
  if (!(mc.*field) || !(uc.*field)) return "";
  return fmt::format("{}: explicit {:.0f}, implicit {:.0f}", what, *(mc.*field), *(uc.*field));
}

// The notes of the median repeat (`mc`: explicit, `uc`: implicit, `t` their summary).
template <int Cluster>
void note_traffic(Measurement& m, const l2::Reads& mc, const l2::Reads& uc, const multicast_l2::Traffic& t,
                  std::size_t buffer) {
  m.note("l2_read_bytes", fmt::format("explicit multicast {:.0f} B = {:.4f} x the {} B buffer; implicit (every CTA "
                                      "loads the same data) {:.0f} B = {:.4f} x the buffer",
                                      mc.bytes, t.explicit_coverage, buffer, uc.bytes, t.implicit_coverage));
  m.note("per_delivered_byte",
         fmt::format("explicit {:.4f}, implicit {:.4f} L2 read bytes per byte into shared memory (ideal 1/{} = {:.4f}; "
                     "{:.0f} B delivered per launch, {} CTAs x {} B)",
                     t.explicit_per_byte, t.implicit_per_byte, Cluster, t.ideal, t.delivered_bytes, Cluster, buffer));
  for (const auto& [key, text] :
       {std::pair{"l2_read_requests", both(l2::kReadRequests, mc, uc, &l2::Reads::requests)},
        std::pair{"l2_all_read_bytes", both("lts__t_sectors_op_read.sum x 32 B", mc, uc, &l2::Reads::all_bytes)},
        std::pair{"dram_read_bytes", both(l2::kDramReadBytes, mc, uc, &l2::Reads::dram_bytes)}})
    if (!text.empty()) m.note(key, text);
}

// Explicit = true: the multicast launch's figure; false: the implicit launch's.
template <int Cluster, bool Explicit>
Measurement measure_l2_traffic(const ProbeContext& ctx) {
  const Copies<Cluster> copies(ctx.device);
  const auto library = cupti::process_library();
  if (!library->ok()) skip_after_uncounted(copies, library->error());
  const int repeats = ctx.quick ? 1 : 3;
  std::vector<cupti::CountedWork> works;
  for (int r = 0; r < repeats; ++r) {
    works.push_back({fmt::format("multicast.{}", r), [&] { copies.template launch<true>(); }});
    works.push_back({fmt::format("unicast.{}", r), [&] { copies.template launch<false>(); }});
  }
  const l2::Counts counts = l2::count_reads(*library, works);
  copies.check("copies");
  if (!counts.ok()) skip_after_uncounted(copies, counts.error);

  Measurement m;
  std::vector<multicast_l2::Traffic> traffic;
  for (int r = 0; r < repeats; ++r) {
    traffic.push_back(multicast_l2::summarize(counts.reads[2 * r].bytes, counts.reads[2 * r + 1].bytes, Cluster,
                                              static_cast<double>(copies.bytes())));
    if (std::string why = multicast_l2::coverage_problem(traffic.back(), l2::kReadSectors); !why.empty())
      throw std::runtime_error(why);
    m.samples.push_back(Explicit ? traffic.back().explicit_per_byte : traffic.back().implicit_per_byte);
  }
  m.value = median(m.samples);
  m.unit = "B/B";
  std::size_t mid = 0;  // the repeat nearest the median, for the raw counts
  for (std::size_t r = 1; r < traffic.size(); ++r)
    if (std::abs(m.samples[r] - m.value) < std::abs(m.samples[mid] - m.value)) mid = r;
  m.note("method",
         fmt::format("{} MiB streamed by {} clusters of {} CTAs (one warp each, {} stages x {} B) twice per "
                     "repeat: explicit multicast (each CTA issues a 1/{} slice of every chunk with "
                     "cp.async.bulk .multicast::cluster) and implicit (each CTA loads all {} slices itself "
                     "with the same bulk copy); one CUPTI range per launch; value = the {} launch's L2 read "
                     "bytes / bytes delivered into shared memory, median of {} repeats",
                     copies.bytes() >> 20, copies.clusters(), Cluster, tma_multicast::kStages,
                     tma_multicast::kChunkBytes, Cluster, Cluster, Explicit ? "explicit" : "implicit", repeats));
  m.note("metric", l2::describe(counts));
  note_traffic<Cluster>(m, counts.reads[2 * mid], counts.reads[2 * mid + 1], traffic[mid], copies.bytes());
  m.note("sass_unicast",
         sass::timed_region_note(reinterpret_cast<const void*>(&tma_multicast::tma_cluster_copy_kernel<false>),
                                 ctx.device.arch()));
  return m;
}

const Requirements kClusters{90, 0, "TMA multicast (thread-block clusters)"};

const bool kRegistered = register_probes({
    Probe{"throughput.tma.multicast.l2_traffic.cluster2", Family::throughput,
          "L2 read bytes per byte TMA multicast delivers into the shared memory of clusters of 2 (hardware counters "
          "through CUPTI; ideal 1/2); max",
          kClusters, kMaxHint, &measure_l2_traffic<2, true>},
    Probe{"throughput.tma.multicast.l2_traffic.cluster4", Family::throughput,
          "L2 read bytes per byte TMA multicast delivers into the shared memory of clusters of 4 (hardware counters "
          "through CUPTI; ideal 1/4); max",
          kClusters, kMaxHint, &measure_l2_traffic<4, true>},
    Probe{"throughput.tma.multicast.implicit_l2_traffic.cluster2", Family::throughput,
          "L2 read bytes per delivered byte when both CTAs of a cluster of 2 load the same data with plain TMA "
          "copies (the L2 request coalescer's share; 1 with no sharing, 1/2 fully merged); max",
          kClusters, kMaxHint, &measure_l2_traffic<2, false>},
    Probe{"throughput.tma.multicast.implicit_l2_traffic.cluster4", Family::throughput,
          "L2 read bytes per delivered byte when all 4 CTAs of a cluster load the same data with plain TMA copies "
          "(the L2 request coalescer's share; 1 with no sharing, 1/4 fully merged); max",
          kClusters, kMaxHint, &measure_l2_traffic<4, false>},
});

}  // namespace
}  // namespace gpuconform::kernels
