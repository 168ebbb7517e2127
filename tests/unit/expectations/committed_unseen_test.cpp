// SPDX-License-Identifier: Apache-2.0
// The committed files fail no healthy board nobody pooled (issue 19's "no false failure"):
// the standard runs of unseen boards in expectations/evidence/unseen/ (excerpts, never read by
// `record --from`), judged again by today's files as `gpuconform judge` judges them, give 0
// fails. A re-derivation that would fail one of them is caught here, before a fleet meets it.
// A line measured before a probe's fix ([[supersede]] in policy.toml) measured the old kernel,
// which today's entry no longer describes: it is left out, as every derivation leaves it out.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "committed_evidence.hpp"
#include "gpuconform/evidence_pool.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/numerics/xz_stream.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/recorded_judgement.hpp"

namespace gpuconform {
namespace {

namespace fs = std::filesystem;

const ExpectationSet& committed_set(const std::string& arch, const std::string& sku, const std::string& part) {
  static std::map<std::tuple<std::string, std::string, std::string>, ExpectationSet> sets;
  auto it = sets.find({arch, sku, part});
  if (it != sets.end()) return it->second;
  const Registry& reg = Registry::instance();
  ExpectationQuery q;
  q.dir = GPUCONFORM_TEST_EXPECTATIONS_DIR;
  q.arch = arch;
  q.sku = sku;
  q.board_part = part;  // as `run` applies a board-part overlay (the record's gpu_state names the part)
  q.known_probe = [&reg](const std::string& id) { return reg.find(id) != nullptr; };
  q.probe_ids = reg.ids();
  return sets.emplace(std::make_tuple(arch, sku, part), load_expectations(q)).first->second;
}

TEST(CommittedUnseen, HealthyBoardsNobodyPooledFailNothing) {
  const fs::path dir = fs::path(GPUCONFORM_TEST_EXPECTATIONS_DIR) / "evidence" / "unseen";
  std::map<std::string, std::set<std::string>> boards;  // SKU -> boards
  std::map<std::string, int> board_runs;                // SKU -> (board, record) pairs
  int judged = 0, superseded = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".xz") continue;
    std::set<std::string> in_file;
    for (const TimedRun& t : parse_timed_runs_text(read_whole_text(entry.path().string()), entry.path().string())) {
      const RecordedRun& r = t.run;
      if (in_file.insert(r.board).second) ++board_runs[r.sku];
      boards[r.sku].insert(r.board);
      if (test::committed_policy().superseded_by(r.probe, t.time)) {
        ++superseded;
        continue;
      }
      const RecordedJudgement j = judge_recorded(r, committed_set(r.arch, r.sku, r.board_part));
      judged += j.judged;
      EXPECT_NE(j.verdict.outcome, Outcome::fail) << entry.path().filename().string() << ":" << r.line << " " << r.board
                                                  << " " << r.probe << ": " << j.verdict.reason;
    }
  }
  // The bar, so that an emptied directory cannot pass: 20 runs on 4 H100s, 10 on 2 H200s.
  EXPECT_GE(board_runs["0x2330"], 20);
  EXPECT_GE(boards["0x2330"].size(), 4u);
  EXPECT_GE(board_runs["0x2335"], 10);
  EXPECT_GE(boards["0x2335"].size(), 2u);
  EXPECT_GT(judged, 30000);
  EXPECT_LT(superseded, judged / 10) << "most of the unseen runs measured kernels fixed since: run new boards";

  // Unseen means it: no run record the derivation reads (evidence/*.jsonl) names these boards.
  for (const auto& entry : fs::directory_iterator(dir.parent_path())) {
    if (entry.path().extension() != ".jsonl") continue;
    const std::string text = read_whole_text(entry.path().string());
    for (const auto& [sku, uuids] : boards)
      for (const std::string& uuid : uuids)
        EXPECT_EQ(text.find(uuid), std::string::npos)
            << uuid << " is in " << entry.path().filename().string() << ": it is pooled, not unseen";
  }
}

}  // namespace
}  // namespace gpuconform
