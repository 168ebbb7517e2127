// SPDX-License-Identifier: Apache-2.0
// The committed architecture file and every SKU overlay, judged against their own evidence
// with the committed band policy (issue 19): each derived entry is what `record --from`
// derives from the usable runs today (so a new run record or a policy change without a
// re-derivation shows here), every overlay entry left out is one the base file holds, and
// no board on record fails (or, for a derived entry, warns) on its SKU's resolved entries.
#include <gtest/gtest.h>

#include <filesystem>

#include "committed_evidence.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;
using test::committed_file;
using test::committed_policy;
using test::derived_entry;
using test::expect_same_limits;

const std::string kBaseSku = "0x2330";  // sm_90.toml describes the H100 SXM5 (tools/rederive_expectations.sh)

const Expectation* find(const ExpectationFile& f, const std::string& id) {
  for (const Expectation& e : f.entries)
    if (e.probe_id == id) return &e;
  return nullptr;
}

std::vector<std::string> overlay_skus() {
  std::vector<std::string> skus;
  for (const auto& entry : fs::directory_iterator(test::expectations_dir() + "/sku"))
    if (entry.path().extension() == ".toml") skus.push_back(entry.path().stem().string());
  return skus;
}

const char* const kRederive =
    "; re-derive: tools/rederive_expectations.sh and tools/rederive_expectations.sh --sku 0x2335";

TEST(CommittedOverlay, BaseFileIsWhatItsEvidenceDerives) {
  const ExpectationFile base = committed_file("sm_90.toml");
  int compared = 0;
  for (const auto& [id, boards] : test::usable_runs(kBaseSku)) {
    const Expectation* committed = find(base, id);
    if (!committed || !derived_entry(*committed)) continue;  // cited or exact entries are kept by hand
    const Probe* probe = Registry::instance().find(id);
    ASSERT_NE(probe, nullptr) << id;
    try {
      expect_same_limits(*committed, derive_expectation_across(*probe, boards, committed_policy()),
                         "sm_90.toml " + id + kRederive);
      ++compared;
    } catch (const std::exception& e) {
      ADD_FAILURE() << id << ": " << e.what();
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(CommittedOverlay, EveryOverlayIsWhatItsSkusEvidenceDerives) {
  const ExpectationFile base = committed_file("sm_90.toml");
  for (const std::string& sku : overlay_skus()) {
    const std::string path = "sku/" + sku + ".toml";
    const ExpectationFile overlay = committed_file(path);
    EXPECT_EQ(overlay.sku, sku) << path;
    int own = 0, inherited = 0;
    for (const auto& [id, boards] : test::usable_runs(sku)) {
      const Probe* probe = Registry::instance().find(id);
      ASSERT_NE(probe, nullptr) << id;
      const Expectation* committed = find(overlay, id);
      const Expectation* in_base = find(base, id);
      if (committed && !derived_entry(*committed)) continue;
      if (!committed && (!in_base || !derived_entry(*in_base))) continue;  // cited in the base file
      if (probe->record.kind == ExpectationKind::exact || probe->record.kind == ExpectationKind::info) continue;
      try {
        const Expectation derived = derive_expectation_across(*probe, boards, committed_policy());
        if (committed) {
          expect_same_limits(*committed, derived, path + " " + id + kRederive);
          ++own;
        } else {
          EXPECT_FALSE(differs_beyond_drift(derived, *in_base, boards_seen(*probe, boards, committed_policy())))
              << path << " has no entry for " << id << ", but its boards need one" << kRederive;
          ++inherited;
        }
      } catch (const std::exception& e) {
        ADD_FAILURE() << path << " " << id << ": " << e.what();
      }
    }
    EXPECT_GT(own, 0) << path;
    EXPECT_GT(own + inherited, 100) << path << ": the SKU's boards are judged on most probes";
  }
}

// Every board on record passes the entries of its SKU (base file plus overlay): a derived
// entry without even a warn (its drift band holds the boards it came from), a cited one
// without a fail.
// A node-health threshold the base file cites (ECC on, the idle temperature margin, NVLink
// links up) holds for every SKU: an overlay that measured one would turn a SKU's healthy
// readings into its limit (an H200 node's 50-55 C idle margins failed the next H200 at 44-49 C).
TEST(CommittedOverlay, NoOverlayReplacesACitedHealthThreshold) {
  const ExpectationFile base = committed_file("sm_90.toml");
  for (const std::string& sku : overlay_skus()) {
    const ExpectationFile overlay = committed_file("sku/" + sku + ".toml");
    for (const Expectation& e : overlay.entries) {
      const Expectation* in_base = find(base, e.probe_id);
      if (e.probe_id.rfind("health.", 0) != 0 || !in_base || in_base->source.rfind("cite:", 0) != 0) continue;
      EXPECT_EQ(e.source.rfind("run:", 0), std::string::npos) << sku << " " << e.probe_id << " measured over a cited threshold";
    }
  }
}

TEST(CommittedOverlay, EveryBoardOnRecordPassesItsSkusEntries) {
  std::vector<std::string> skus = overlay_skus();
  skus.push_back(kBaseSku);
  for (const std::string& sku : skus) {
    ExpectationSet set;
    set.apply(committed_file("sm_90.toml"));
    if (sku != kBaseSku) set.apply(committed_file("sku/" + sku + ".toml"));
    const int judged = test::judge_board_medians(set, test::usable_runs(sku), sku);
    EXPECT_GT(judged, 300) << sku;
  }
}

}  // namespace
}  // namespace gpuconform
