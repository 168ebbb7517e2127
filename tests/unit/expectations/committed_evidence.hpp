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
#include "gpuconform/evidence_pool.hpp"
#include "gpuconform/expectation.hpp"
#include "gpuconform/probe.hpp"

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

// The runs of one SKU's boards that the policy lets a derivation use, per probe and board.
inline PooledRuns usable_runs(const std::string& sku) {
  PooledRuns pool;
  const BandPolicy& policy = committed_policy();
  for (const TimedRun& r : committed_runs()) {
    if (r.run.sku != sku || !retired_because(policy, r).empty()) continue;
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

}  // namespace gpuconform::test
