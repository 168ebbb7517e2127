// SPDX-License-Identifier: Apache-2.0
// How many L2 read bytes TMA multicast saves (issue 23): the launch of
// throughput.tma.multicast.cluster<C> (tma_multicast.cuh: each chunk read once
// with cp.async.bulk .multicast::cluster and delivered to all C CTAs of a
// cluster) against its unicast control (the same kernel, each CTA reading all
// C slices of the chunk itself with the same bulk copy without .multicast), so
// both deliver the same bytes to the same CTAs' shared memory. The L2 read
// bytes of each launch are read from hardware counters in-process (CUPTI's
// range profiler, loaded at run time: common/l2_counters.hpp says which metric
// and why). The value is L2 read bytes (multicast) / L2 read bytes (unicast),
// ideally 1/C; the notes give the raw bytes, the bytes delivered, the saved
// fraction and, where the chip has them, the request count, the unfiltered L2
// sectors and the DRAM bytes of both launches.
//
// The buffer is the timed probe's: at least 1 GiB and 8 x the L2, so it lives
// in HBM. The count of L2 reads requested by the SMs does not depend on where
// the data lives (a hit and a miss are one request each), so an L2-resident
// buffer would give the same ratio; this one makes the counted launch exactly
// the timed one, and its DRAM bytes then show where the saving is: both launches
// read the buffer from HBM about once (the C CTAs of a cluster read a chunk
// within one round, so the unicast duplicates hit in L2), so multicast saves L2
// and crossbar bandwidth, not HBM bandwidth.
//
// No CUPTI (no library, a chip or driver that refuses, counters restricted to
// administrators, another profiler holding them): each launch still runs once,
// uncounted (so an outside profiler such as the device batch's ncu sees them),
// and the probe skips with CUPTI's reason. A counter that saw under half of the
// bytes the unicast control must read does not count these TMA reads: that
// fails, naming the metric, rather than report a meaningless ratio.
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

// "<what>: multicast X, unicast Y (ratio X/Y)" for an optional reading, "" where the chip lacks it.
std::string both(const char* what, const l2::Reads& mc, const l2::Reads& uc, std::optional<double> l2::Reads::*field) {
  if (!(mc.*field) || !(uc.*field)) return "";
  return fmt::format("{}: multicast {:.0f}, unicast {:.0f} (ratio {:.4f})", what, *(mc.*field), *(uc.*field),
                     *(mc.*field) / *(uc.*field));
}

// The notes of the median repeat (`mc`, `uc`, its summary `t`).
template <int Cluster>
void note_traffic(Measurement& m, const l2::Reads& mc, const l2::Reads& uc, const multicast_l2::Traffic& t,
                  std::size_t buffer) {
  m.note("l2_read_bytes",
         fmt::format("multicast {:.0f} B = {:.4f} x the {} B buffer; unicast {:.0f} B = {:.4f} x "
                     "the {:.0f} B delivered ({} x the buffer)",
                     mc.bytes, t.multicast_coverage, buffer, uc.bytes, t.unicast_coverage, t.delivered_bytes, Cluster));
  m.note("delivered_bytes", fmt::format("{:.0f} B into shared memory per launch, either mode ({} CTAs x {} B)",
                                        t.delivered_bytes, Cluster, buffer));
  m.note("saved",
         fmt::format("multicast saved {:.0f} B = {:.4f} of the unicast L2 read bytes (ideal 1 - 1/{} = {:.4f})",
                     t.saved_bytes, t.saved_fraction, Cluster, 1.0 - t.ideal));
  m.note("ideal_ratio", fmt::format("{:.4f} (1/{})", t.ideal, Cluster));
  for (const auto& [key, text] :
       {std::pair{"l2_read_requests", both(l2::kReadRequests, mc, uc, &l2::Reads::requests)},
        std::pair{"l2_all_read_bytes", both("lts__t_sectors_op_read.sum x 32 B", mc, uc, &l2::Reads::all_bytes)},
        std::pair{"dram_read_bytes", both(l2::kDramReadBytes, mc, uc, &l2::Reads::dram_bytes)}})
    if (!text.empty()) m.note(key, text);
}

template <int Cluster>
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
    m.samples.push_back(traffic.back().ratio);
  }
  m.value = median(m.samples);
  m.unit = "ratio";
  std::size_t mid = 0;  // the repeat whose ratio is nearest the median, for the raw counts
  for (std::size_t r = 1; r < traffic.size(); ++r)
    if (std::abs(traffic[r].ratio - m.value) < std::abs(traffic[mid].ratio - m.value)) mid = r;
  m.note("method", fmt::format("{} MiB streamed by {} clusters of {} CTAs (one warp each, {} stages x {} B) twice per "
                               "repeat: multicast (each CTA issues a 1/{} slice of every chunk with cp.async.bulk "
                               ".multicast::cluster: the chunk read once) and the unicast control (each CTA reads all "
                               "{} slices itself with the same bulk copy: the chunk read {} times); one CUPTI range "
                               "per launch; value = L2 read bytes multicast / unicast, median of {} repeats",
                               copies.bytes() >> 20, copies.clusters(), Cluster, tma_multicast::kStages,
                               tma_multicast::kChunkBytes, Cluster, Cluster, Cluster, repeats));
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
          "L2 read bytes of TMA multicast to clusters of 2 over those of a unicast control delivering the same "
          "bytes (hardware counters through CUPTI; ideal 1/2); max",
          kClusters, kMaxHint, &measure_l2_traffic<2>},
    Probe{"throughput.tma.multicast.l2_traffic.cluster4", Family::throughput,
          "L2 read bytes of TMA multicast to clusters of 4 over those of a unicast control delivering the same "
          "bytes (hardware counters through CUPTI; ideal 1/4); max",
          kClusters, kMaxHint, &measure_l2_traffic<4>},
});

}  // namespace
}  // namespace gpuconform::kernels
