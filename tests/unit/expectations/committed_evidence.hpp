// SPDX-License-Identifier: Apache-2.0
#pragma once
// The committed band policy and run records, read once per test binary, and the evidence a
// derivation may use, grouped as `record --from` groups it (evidence_pool.hpp): the tests
// of the committed files judge them against exactly what the derivation sees.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gpuconform/band_policy.hpp"
#include "gpuconform/board_spread.hpp"
#include "gpuconform/evidence_pool.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform::test {

inline const std::string& expectations_dir() {
  static const std::string dir = GPUCONFORM_TEST_EXPECTATIONS_DIR;
  return dir;
}

inline const BandPolicy& committed_policy() {
  static const BandPolicy policy = [] {
    std::vector<Diagnostic> diags;
    BandPolicy p = parse_band_policy_file(expectations_dir() + "/evidence/policy.toml", diags);
    for (const auto& d : diags) ADD_FAILURE() << d.str();
    return p;
  }();
  return policy;
}

// Every test line of the run records in evidence/ (the top level: what
// tools/rederive_expectations.sh derives from).
inline const std::vector<TimedRun>& committed_runs() {
  static const std::vector<TimedRun> runs = [] {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(expectations_dir() + "/evidence"))
      if (entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());  // the order rederive's glob gives
    std::vector<TimedRun> all;
    for (const std::string& f : files) {
      auto runs = read_timed_runs(f);
      all.insert(all.end(), std::make_move_iterator(runs.begin()), std::make_move_iterator(runs.end()));
    }
    return all;
  }();
  return runs;
}

// The runs of one SKU's boards that the policy lets a derivation use, per probe and board;
// with a board part, only the probes the policy splits by part, on boards of that part (what
// `record --from --sku S --board-part P` pools).
inline PooledRuns usable_runs(const std::string& sku, const std::string& board_part = "") {
  PooledRuns pool;
  const BandPolicy& policy = committed_policy();
  for (const TimedRun& r : committed_runs()) {
    if (r.run.sku != sku || !retired_because(policy, r).empty()) continue;
    if (!board_part.empty() && (r.run.board_part != board_part || !policy.splits_by_board_part(sku, r.run.probe)))
      continue;
    const Probe* probe = Registry::instance().find(r.run.probe);
    if (!probe || !is_selectable(*probe)) continue;
    add_to_pool(pool, r, [](const TimedRun& t) { return "run:" + t.run.file + ":" + std::to_string(t.run.line); });
  }
  return pool;
}

inline ExpectationFile committed_file(const std::string& relative) {
  std::vector<Diagnostic> diags;
  ExpectationFile f = parse_expectation_file(expectations_dir() + "/" + relative, diags);
  for (const auto& d : diags) ADD_FAILURE() << d.str();
  return f;
}

// A measured entry (not cited, exact or info): one a re-derivation writes.
inline bool derived_entry(const Expectation& e) {
  return e.source.rfind("run:", 0) == 0 && e.kind != ExpectationKind::exact && e.kind != ExpectationKind::info;
}

// The numbers of two entries (not their notes or sources, which name files relative to
// where they were written).
inline void expect_same_limits(const Expectation& committed, const Expectation& derived, const std::string& where) {
  EXPECT_EQ(committed.kind, derived.kind) << where;
  EXPECT_EQ(committed.value, derived.value) << where;
  EXPECT_EQ(committed.tol, derived.tol) << where;
  EXPECT_EQ(committed.drift_tol, derived.drift_tol) << where;
  EXPECT_EQ(committed.min, derived.min) << where;
  EXPECT_EQ(committed.drift_min, derived.drift_min) << where;
  EXPECT_EQ(committed.max, derived.max) << where;
  EXPECT_EQ(committed.drift_max, derived.drift_max) << where;
  EXPECT_EQ(committed.min_fraction, derived.min_fraction) << where;
  EXPECT_EQ(committed.drift_min_fraction, derived.drift_min_fraction) << where;
}

// Every board of `pool` judged by its median run against `set`'s entry for each probe (not
// exact or info ones): a derived entry passes without a warn (its drift band holds the boards it
// came from), a cited one does not fail. `label` names the files in messages. Returns how many
// board medians were judged.
inline int judge_board_medians(const ExpectationSet& set, const PooledRuns& pool, const std::string& label) {
  int judged = 0;
  for (const auto& [id, boards] : pool) {
    const Expectation* found = set.find(id);
    const Probe* probe = Registry::instance().find(id);
    if (!found || !probe || found->kind == ExpectationKind::exact || found->kind == ExpectationKind::info) continue;
    Expectation e = *found;
    e.at_max_clock = false;  // a board median has no clock; the per-clock fraction is what was derived
    const std::vector<std::vector<double>> values = judged_values(*probe, boards);
    for (std::size_t b = 0; b < boards.size(); ++b) {
      Measurement m;
      m.value = board_spread({values[b]}).centre;
      m.unit = e.unit;
      if (e.kind == ExpectationKind::fraction_of_peak) m.peak = 1.0;  // the value is the fraction
      const Verdict v = judge(m, e);
      ++judged;
      if (derived_entry(e))
        EXPECT_EQ(v.outcome, Outcome::pass) << label << " board " << boards[b].gpu << " " << id << ": " << v.reason;
      else
        EXPECT_NE(v.outcome, Outcome::fail) << label << " board " << boards[b].gpu << " " << id << ": " << v.reason;
    }
  }
  return judged;
}

}  // namespace gpuconform::test
