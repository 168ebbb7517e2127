// SPDX-License-Identifier: Apache-2.0
// The committed board-part overlays (sku/<sku>/<board part>.toml) held to the band policy and
// their evidence: each holds exactly the probes policy.toml's [[board_part]] splits on its
// SKU that boards of the part measured, each entry is what `record --from --sku S
// --board-part P` derives from those boards today, and every board of the part passes its
// SKU's entries with the part's on top without a warn.
#include <gtest/gtest.h>

#include <filesystem>

#include "committed_evidence.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/record_writer.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;
using test::committed_file;
using test::committed_policy;
using test::expect_same_limits;

struct PartOverlay {
  std::string sku, part, path;  // path relative to the expectations directory
};

std::vector<PartOverlay> part_overlays() {
  std::vector<PartOverlay> out;
  for (const auto& dir : fs::directory_iterator(test::expectations_dir() + "/sku")) {
    if (!dir.is_directory()) continue;
    const std::string sku = dir.path().filename().string();
    for (const auto& f : fs::directory_iterator(dir.path()))
      if (f.path().extension() == ".toml")
        out.push_back({sku, f.path().stem().string(), "sku/" + sku + "/" + f.path().filename().string()});
  }
  return out;
}

const Expectation* find(const ExpectationFile& f, const std::string& id) {
  for (const Expectation& e : f.entries)
    if (e.probe_id == id) return &e;
  return nullptr;
}

const char* const kRederive = "; re-derive: tools/rederive_expectations.sh --sku SKU --board-part PART";

// A split the policy states has overlays to show for it, and no overlay exists without one.
TEST(CommittedBoardPart, EveryOverlayBelongsToAPolicySplitAndEverySplitHasOne) {
  const std::vector<PartOverlay> overlays = part_overlays();
  for (const PolicyBoardPart& split : committed_policy().board_parts)
    EXPECT_TRUE(std::any_of(overlays.begin(), overlays.end(), [&](const PartOverlay& o) { return o.sku == split.sku; }))
        << split.where.str() << ": SKU " << split.sku << " has no board-part overlay" << kRederive;
  for (const PartOverlay& o : overlays)
    EXPECT_TRUE(std::any_of(committed_policy().board_parts.begin(), committed_policy().board_parts.end(),
                            [&](const PolicyBoardPart& b) { return b.sku == o.sku; }))
        << o.path << ": policy.toml has no [[board_part]] for SKU " << o.sku;
}

TEST(CommittedBoardPart, EachOverlayIsWhatItsPartsBoardsDerive) {
  for (const PartOverlay& o : part_overlays()) {
    const ExpectationFile file = committed_file(o.path);
    EXPECT_EQ(file.sku, o.sku) << o.path;
    EXPECT_EQ(file.board_part, o.part) << o.path;
    const PooledRuns pool = test::usable_runs(o.sku, o.part);
    int derived = 0;
    for (const auto& [id, boards] : pool) {
      const Probe* probe = Registry::instance().find(id);
      ASSERT_NE(probe, nullptr) << id;
      if (probe->record.kind == ExpectationKind::exact || probe->record.kind == ExpectationKind::info) continue;
      const Expectation* committed = find(file, id);
      if (!committed) {
        ADD_FAILURE() << o.path << " has no entry for " << id << ", which boards of the part measured" << kRederive;
        continue;
      }
      try {
        expect_same_limits(*committed, derive_expectation_across(*probe, boards, committed_policy()),
                           o.path + " " + id + kRederive);
        ++derived;
      } catch (const std::exception& e) {
        ADD_FAILURE() << o.path << " " << id << ": " << e.what();
      }
    }
    for (const Expectation& e : file.entries) {
      EXPECT_TRUE(committed_policy().splits_by_board_part(o.sku, e.probe_id))
          << o.path << " " << e.probe_id << ": policy.toml's [[board_part]] does not split it";
      EXPECT_TRUE(pool.count(e.probe_id)) << o.path << " " << e.probe_id << ": no board of the part measured it";
    }
    EXPECT_GE(derived, 3) << o.path << ": the memory latencies, at least";
  }
}

TEST(CommittedBoardPart, EveryBoardOfThePartPassesItsEntries) {
  for (const PartOverlay& o : part_overlays()) {
    ExpectationSet set;
    set.apply(committed_file("sm_90.toml"));
    set.apply(committed_file("sku/" + o.sku + ".toml"));
    set.apply(committed_file(o.path));
    const int judged = test::judge_board_medians(set, test::usable_runs(o.sku, o.part), o.path);
    EXPECT_GE(judged, 5 * 3) << o.path << ": five boards' memory latencies, at least";
  }
}

}  // namespace
}  // namespace gpuconform
