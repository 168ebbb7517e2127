// The committed band policy must parse, state class spreads no smaller than the evidence
// shows, and the committed sm_90.toml must follow it: every measured entry's note says
// where its bands came from, and the healthy boards the policy lists lie inside the fail
// bands.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "gpuconform/band_policy.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {
namespace fs = std::filesystem;

const std::string kDir = GPUCONFORM_TEST_EXPECTATIONS_DIR;

BandPolicy committed_policy() {
  std::vector<Diagnostic> diags;
  BandPolicy p = parse_band_policy_file(kDir + "/evidence/policy.toml", diags);
  for (const auto& d : diags) ADD_FAILURE() << d.str();
  return p;
}

ExpectationFile sm90() {
  std::vector<Diagnostic> diags;
  ExpectationFile f = parse_expectation_file(kDir + "/sm_90.toml", diags);
  for (const auto& d : diags) ADD_FAILURE() << d.str();
  return f;
}

TEST(CommittedPolicy, ClassSpreadsHoldWhatTheEvidenceShows) {
  const BandPolicy policy = committed_policy();
  std::map<std::string, std::map<std::string, std::vector<double>>> per_probe_board;  // probe -> board -> values
  // The spreads describe boards of sm_90.toml's SKU (the H100 SXM5); other SKUs' boards
  // have overlays of their own (tools/rederive_expectations.sh reads the same files).
  for (const auto& entry : fs::directory_iterator(kDir + "/evidence")) {
    if (entry.path().extension() != ".jsonl" || entry.path().filename().string().rfind("sm_90-0x2330-", 0) != 0)
      continue;
    for (const RecordedRun& r : read_run_record(entry.path().string())) {
      if (policy.exclusion_for(r.gpu, r.probe)) continue;
      const Probe* probe = Registry::instance().find(r.probe);
      if (!probe || probe->record.kind == ExpectationKind::exact) continue;
      const Measurement& m = r.measurement;
      per_probe_board[r.probe][r.gpu].push_back(
          probe->record.kind == ExpectationKind::fraction_of_peak && m.peak ? m.value / *m.peak : m.value);
    }
  }
  std::map<std::string, std::vector<std::vector<double>>> values;
  for (const auto& [probe, boards] : per_probe_board) {
    EXPECT_NE(policy.class_for(probe), nullptr) << probe << " matches no class of the band policy";
    for (const auto& [gpu, v] : boards) values[probe].push_back(v);
  }
  const auto seen = class_spreads_from_evidence(policy, values);
  for (const PolicyClass& c : policy.classes) {
    const ClassSpread& s = seen.at(c.name);
    ASSERT_FALSE(s.probe.empty()) << c.name << ": no probe of the class on " << policy.min_boards << " boards";
    // Stated = the evidence rounded up to three digits: never below it, never far above.
    EXPECT_GE(c.spread_rel, s.spread_rel) << c.name << " (" << s.probe << ")";
    EXPECT_LE(c.spread_rel, s.spread_rel * 1.01) << c.name << " (" << s.probe << ")";
  }
}

TEST(CommittedPolicy, EveryMeasuredSm90EntrySaysWhereItsBandsCameFrom) {
  const BandPolicy policy = committed_policy();
  for (const Expectation& e : sm90().entries) {
    if (e.kind == ExpectationKind::exact || e.kind == ExpectationKind::info || e.source.rfind("run:", 0) != 0) continue;
    EXPECT_EQ(e.note.rfind("bands from ", 0), 0u) << e.probe_id << ": " << e.note;
    const PolicyClass* c = policy.class_for(e.probe_id);
    ASSERT_NE(c, nullptr) << e.probe_id;
    EXPECT_NE(e.note.find("(class " + c->name + ")"), std::string::npos) << e.probe_id << ": " << e.note;
    // A class whose boards agree bit for bit (spread 0) has no margin: fail band = drift band.
    if (c->spread_rel > 0)
      EXPECT_TRUE(e.has_drift()) << e.probe_id << ": a class margin always leaves room for a drift band";
    EXPECT_TRUE(e.seconds) << e.probe_id << ": the run records say how long it took";
  }
}

TEST(CommittedPolicy, HealthyBoardsOfTheObservationsPassTheFailBands) {
  const BandPolicy policy = committed_policy();
  const ExpectationFile file = sm90();
  ASSERT_FALSE(policy.observations.empty());
  for (const PolicyObservation& o : policy.observations) {
    const Expectation* e = nullptr;
    for (const Expectation& x : file.entries)
      if (x.probe_id == o.probe) e = &x;
    ASSERT_NE(e, nullptr) << o.probe;
    Measurement m;
    m.value = o.measured;
    m.unit = e->unit;
    const Verdict v = judge(m, *e);
    EXPECT_NE(v.outcome, Outcome::fail) << o.where.str() << " " << o.board << ": " << v.reason;
  }
}

}  // namespace
}  // namespace gpuconform
