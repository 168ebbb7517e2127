// SPDX-License-Identifier: Apache-2.0
#pragma once
// L2 read traffic of pieces of GPU work, from hardware counters (CUPTI's range
// profiler, counter_session.hpp), in bytes.
//
// The metric the value rests on is lts__t_sectors_srcunit_tex_op_read.sum: the
// 32-byte sectors the L2 slices (lts) served to read requests whose source unit
// is the SMs' memory pipeline (srcunit_tex), where the bulk copies of an SM's TMA
// unit arrive as well. It counts each read an SM asks of L2 once, hit or miss,
// which is what multicast is meant to reduce. The unfiltered
// lts__t_sectors_op_read.sum also counts what the L2 slices request of each
// other over the fabric between the two L2 partitions of an H100
// (srcunit_ltcfabric), so a far-partition read can count twice there; it is read
// beside it, with the request count and the DRAM bytes, for the notes. That TMA
// reads land in srcunit_tex is checked on every run (the multicast probes refuse
// a count under half of the bytes the unicast control must read) and against
// Nsight Compute by tools/device/multicast_l2_batch.sh.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/counter_session.hpp"

namespace gpuconform::kernels::l2 {

inline constexpr const char* kReadSectors = "lts__t_sectors_srcunit_tex_op_read.sum";
inline constexpr const char* kReadRequests = "lts__t_requests_srcunit_tex_op_read.sum";
inline constexpr const char* kAllReadSectors = "lts__t_sectors_op_read.sum";
inline constexpr const char* kDramReadBytes = "dram__bytes_read.sum";
inline constexpr double kSectorBytes = 32;  // an L2 sector

// kReadSectors required; the others optional (dropped where a chip lacks them).
cupti::CounterRequest read_request();

// One piece of work's L2 reads.
struct Reads {
  double bytes = 0;                  // kReadSectors x 32
  std::optional<double> requests;    // kReadRequests
  std::optional<double> all_bytes;   // kAllReadSectors x 32
  std::optional<double> dram_bytes;  // kDramReadBytes
};

struct Counts {
  std::string error;         // why nothing was counted (the skip reason); empty when counted
  std::vector<Reads> reads;  // one per work, in order
  cupti::CounterResult raw;  // library, chip, passes, dropped metrics
  bool ok() const { return error.empty(); }
};

// The reads of a counted range (pure: from a CounterResult that holds kReadSectors).
Reads reads_of(const cupti::CounterResult& result, std::size_t index);

// Counts the L2 reads of each of `works` on the current device with the process's CUPTI.
Counts count_reads(const std::vector<cupti::CountedWork>& works);
Counts count_reads(const cupti::Library& library, const std::vector<cupti::CountedWork>& works);

// "lts__t_sectors_srcunit_tex_op_read.sum via CUPTI range profiler (libcupti.so.13, chip
// GH100, 1 pass); dropped: ..." for a record's notes.
std::string describe(const Counts& counts);

}  // namespace gpuconform::kernels::l2
