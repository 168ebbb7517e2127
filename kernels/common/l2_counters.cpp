// SPDX-License-Identifier: Apache-2.0
// L2 read bytes from the counters of counter_session.hpp (l2_counters.hpp).
#include "common/l2_counters.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>

namespace gpuconform::kernels::l2 {
namespace {

std::optional<double> optional_value(const cupti::CounterResult& r, std::size_t index, const char* metric) {
  const double v = r.value(index, metric);
  if (std::isnan(v)) return std::nullopt;
  return v;
}

}  // namespace

cupti::CounterRequest read_request() { return {{kReadSectors}, {kReadRequests, kAllReadSectors, kDramReadBytes}}; }

Reads reads_of(const cupti::CounterResult& result, std::size_t index) {
  Reads r;
  r.bytes = result.value(index, kReadSectors) * kSectorBytes;
  r.requests = optional_value(result, index, kReadRequests);
  if (auto s = optional_value(result, index, kAllReadSectors)) r.all_bytes = *s * kSectorBytes;
  r.dram_bytes = optional_value(result, index, kDramReadBytes);
  return r;
}

Counts count_reads(const cupti::Library& library, const std::vector<cupti::CountedWork>& works) {
  Counts c;
  c.raw = cupti::count(library, read_request(), works);
  c.error = c.raw.error;
  if (!c.ok()) return c;
  for (std::size_t i = 0; i < works.size(); ++i) {
    c.reads.push_back(reads_of(c.raw, i));
    if (std::isnan(c.reads.back().bytes)) {  // cannot happen when the session kept the required metric
      c.error = fmt::format("no {} for {}", kReadSectors, works[i].name);
      c.reads.clear();
      return c;
    }
  }
  return c;
}

Counts count_reads(const std::vector<cupti::CountedWork>& works) {
  return count_reads(*cupti::process_library(), works);
}

std::string describe(const Counts& counts) {
  const cupti::CounterResult& r = counts.raw;
  std::string s = fmt::format(
      "{} (x {} B) via the CUPTI range profiler ({}, chip {}, {} pass{}, user ranges and "
      "replay); also read: {}",
      kReadSectors, kSectorBytes, r.library, r.chip, r.passes, r.passes == 1 ? "" : "es",
      fmt::join(r.metrics.begin() + (r.metrics.empty() ? 0 : 1), r.metrics.end(), ", "));
  if (!r.dropped.empty()) s += fmt::format("; not on this chip: {}", fmt::join(r.dropped, ", "));
  return s;
}

}  // namespace gpuconform::kernels::l2
