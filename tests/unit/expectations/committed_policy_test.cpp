// SPDX-License-Identifier: Apache-2.0
// The committed band policy must parse, state class numbers no smaller than the evidence
// shows, and the committed files must follow it: every measured entry's note says where its
// bands came from, the healthy boards the policy lists lie inside the fail bands, and every
// invariant (a violation count) allows exactly 0 in every file.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

#include "committed_evidence.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/peaks.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;
using test::committed_file;
using test::committed_policy;

bool measured_kind(const Probe& p) {
  return p.record.kind != ExpectationKind::exact && p.record.kind != ExpectationKind::info;
}

// Every probe x SKU of the usable evidence, in the unit its entry judges; a probe the policy
// splits by board part, per SKU and part (spread_group), as `record --from` counts it.
std::vector<ProbeEvidence> evidence_of_every_sku() {
  const BandPolicy& policy = committed_policy();
  std::vector<ProbeEvidence> out;
  std::set<std::string> skus;
  std::map<std::string, std::string> part_of;  // board -> board part
  for (const TimedRun& r : test::committed_runs()) {
    skus.insert(r.run.sku);
    part_of[r.run.gpu] = r.run.board_part;
  }
  for (const std::string& sku : skus)
    for (const auto& [id, boards] : test::usable_runs(sku)) {
      const Probe* probe = Registry::instance().find(id);
      if (!probe || !measured_kind(*probe)) continue;
      std::map<std::string, std::vector<BoardRuns>> per_group;
      for (const BoardRuns& b : boards)
        if (std::string group = spread_group(policy, sku, part_of[b.gpu], id); !group.empty())
          per_group[group].push_back(b);
      for (const auto& [group, group_boards] : per_group)
        out.push_back(ProbeEvidence{id, group, judged_values(*probe, group_boards)});
    }
  return out;
}

TEST(CommittedPolicy, ClassNumbersHoldWhatTheEvidenceShows) {
  const BandPolicy& policy = committed_policy();
  const std::vector<ProbeEvidence> evidence = evidence_of_every_sku();
  ASSERT_FALSE(evidence.empty());
  for (const ProbeEvidence& e : evidence)
    if (e.probe.rfind("health.", 0) != 0)  // node health readings are cited invariants or link facts
      EXPECT_TRUE(policy.class_for(e.probe) || policy.invariant_for(e.probe))
          << e.probe << " matches no class and no invariant of the band policy";
  const auto seen = class_spreads_from_evidence(policy, evidence);
  for (const PolicyClass& c : policy.classes) {
    const ClassSpread& s = seen.at(c.name);
    if (s.probe.empty()) {
      // No probe of the class on min_boards boards of one SKU yet: the stated spread must
      // hold at least what fewer boards show.
      EXPECT_GE(c.spread_rel, s.fewer_rel) << c.name << " (" << s.fewer_probe << " on " << s.fewer_boards << " boards)";
      continue;
    }
    // Stated = the evidence rounded up to three digits: never below it, never far above.
    EXPECT_GE(c.spread_rel, s.spread_rel) << c.name << " (" << s.probe << ", " << s.sku << ")";
    EXPECT_LE(c.spread_rel, s.spread_rel * 1.01) << c.name << " (" << s.probe << ", " << s.sku << ")";
    // The floor is at least the class's median spread: no entry claims to be more
    // reproducible than its class's typical member.
    EXPECT_GE(c.floor_rel, s.median_rel) << c.name << " (median over " << s.probes << " probes)";
  }
}

TEST(CommittedPolicy, EveryMeasuredEntrySaysWhereItsBandsCameFrom) {
  const BandPolicy& policy = committed_policy();
  std::vector<std::string> files = {"sm_90.toml"};
  for (const auto& entry : fs::recursive_directory_iterator(test::expectations_dir() + "/sku"))
    if (entry.path().extension() == ".toml")  // SKU overlays and their board-part overlays
      files.push_back(fs::relative(entry.path(), test::expectations_dir()).string());
  for (const std::string& path : files)
    for (const Expectation& e : committed_file(path).entries) {
      if (e.kind == ExpectationKind::exact || e.kind == ExpectationKind::info || e.source.rfind("run:", 0) != 0) continue;
      EXPECT_EQ(e.note.rfind("bands from ", 0), 0u) << path << " " << e.probe_id << ": " << e.note;
      EXPECT_TRUE(e.seconds) << path << " " << e.probe_id << ": the run records say how long it took";
      if (policy.invariant_for(e.probe_id)) {
        EXPECT_NE(e.note.find("[[invariant]]"), std::string::npos) << path << " " << e.probe_id << ": " << e.note;
        continue;
      }
      if (const PolicyClass* c = policy.class_for(e.probe_id)) {
        EXPECT_NE(e.note.find("(class " + c->name + ")"), std::string::npos) << path << " " << e.probe_id << ": " << e.note;
        EXPECT_NE(e.note.find("sigma = "), std::string::npos) << path << " " << e.probe_id << ": " << e.note;
      }
    }
}

TEST(CommittedPolicy, HealthyBoardsOfTheObservationsPassTheFailBands) {
  const BandPolicy& policy = committed_policy();
  ASSERT_FALSE(policy.observations.empty());
  int on_overlays = 0;
  for (const PolicyObservation& o : policy.observations) {
    ExpectationSet set;
    set.apply(committed_file("sm_90.toml"));
    if (!o.sku.empty()) {
      set.apply(committed_file("sku/" + o.sku + ".toml"));
      ++on_overlays;
    }
    const Expectation* e = set.find(o.probe);
    ASSERT_NE(e, nullptr) << o.probe;
    Measurement m;
    m.value = o.measured;
    m.unit = e->unit;
    const Verdict v = judge(m, *e);
    EXPECT_NE(v.outcome, Outcome::fail) << o.where.str() << " " << o.board << ": " << v.reason;
  }
  EXPECT_GE(on_overlays, 1) << "issue 19's H200 uniformity observations judge the overlay";
}

// Expectation files of every architecture and SKU (evidence/ holds the policy, peaks/ the
// peak tables).
std::vector<std::string> every_expectation_file() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(test::expectations_dir()))
    if (entry.path().extension() == ".toml" && entry.path().parent_path().filename() != "evidence" &&
        !is_peak_table_path(entry.path().string()))
      files.push_back(entry.path().string());
  return files;
}

TEST(CommittedPolicy, ViolationCountsAllowExactlyZeroInEveryFile) {
  const BandPolicy& policy = committed_policy();
  int invariants = 0;
  for (const std::string& path : every_expectation_file()) {
    std::vector<Diagnostic> diags;
    const ExpectationFile f = parse_expectation_file(path, diags);
    for (const Expectation& e : f.entries) {
      const bool counts_violations = e.unit == "violations";
      if (!counts_violations && !policy.invariant_for(e.probe_id)) continue;
      ++invariants;
      EXPECT_TRUE(policy.invariant_for(e.probe_id)) << path << " " << e.probe_id << " counts violations: list it in [[invariant]]";
      EXPECT_EQ(e.kind, ExpectationKind::max) << path << " " << e.probe_id;
      EXPECT_EQ(e.max.value_or(-1), 0) << path << " " << e.probe_id << ": an invariant allows exactly 0";
      EXPECT_FALSE(e.drift_max && *e.drift_max != 0) << path << " " << e.probe_id;
    }
  }
  EXPECT_GE(invariants, 7);
}

// A derivation refuses an invariant that a board broke, and the supersede rules keep the
// records made before the fixes out: the H200 overlay no longer tolerates the GPC and
// resident-block violations of 2026-11-25 (issue 19).
TEST(CommittedPolicy, RecordsBeforeTheFixesAreSuperseded) {
  const BandPolicy& policy = committed_policy();
  int superseded = 0;
  for (const TimedRun& r : test::committed_runs()) {
    const std::string why = retired_because(policy, r);
    if (why.find("[[supersede]]") != std::string::npos) ++superseded;
    if (policy.invariant_for(r.run.probe) && r.run.measurement.value != 0)
      EXPECT_FALSE(why.empty()) << r.run.file << ":" << r.run.line << " " << r.run.probe << " read "
                                << r.run.measurement.value << " and is used";
    // issue 18's kernels only; a board excluded as a whole ([[exclude]]) is retired for another reason
    if (r.run.probe.rfind("throughput.hbm.", 0) == 0 && why.find("[[exclude]]") == std::string::npos)
      EXPECT_EQ(why.empty(), r.time >= "2026-11-26T07:25") << r.run.file << ":" << r.run.line << " " << r.time;
  }
  EXPECT_GT(superseded, 0);
}

}  // namespace
}  // namespace gpuconform
