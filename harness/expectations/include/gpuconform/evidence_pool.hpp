// SPDX-License-Identifier: Apache-2.0
#pragma once
// The evidence a derivation may use: the test lines of run records with the time each was
// measured, minus the runs the band policy retires ([[exclude]], [[supersede]]), grouped
// per probe and board. `record --from` and the committed-policy unit tests share it, so
// the tests judge the files against exactly what the derivation saw.
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/band_policy.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/run_record_reader.hpp"

namespace gpuconform {

struct TimedRun {
  RecordedRun run;
  std::string time;  // the line's "time" (when it was measured), else the last header's; "" when neither
};

// read_run_record() plus each line's time, and the measurement's `sampling` (its median's
// 95 % interval), which the reader leaves out. Throws as read_run_record does.
std::vector<TimedRun> read_timed_runs(const std::string& path);
// The same over record text already in memory (an .xz excerpt); `path` only names it in messages.
std::vector<TimedRun> parse_timed_runs_text(std::string_view text, const std::string& path);

// Why the policy keeps a run out of every derivation; "" when it may be used.
std::string retired_because(const BandPolicy& policy, const TimedRun& r);

// Which boards a probe's class spread is measured over: its SKU ("0x2335"), or, for a probe
// the policy splits by board part on that SKU, the SKU and the part ("0x2335/692-2G520-0282-001"):
// two kinds of board pooled together would measure the gap between the kinds, not a spread.
// "" for a split probe on a board whose part is unknown: it counts in no class spread.
std::string spread_group(const BandPolicy& policy, const std::string& sku, const std::string& board_part,
                         const std::string& probe_id);

// Runs of each probe, per board in order of first appearance. `source` names a board's
// first run in the entry ("run:PATH:LINE").
using PooledRuns = std::map<std::string, std::vector<BoardRuns>>;
void add_to_pool(PooledRuns& pool, const TimedRun& r, const std::function<std::string(const TimedRun&)>& source);

}  // namespace gpuconform
