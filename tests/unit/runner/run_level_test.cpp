// SPDX-License-Identifier: Apache-2.0
// Run levels (run_level.hpp): the quick rule per probe group, from the recorded seconds
// of each entry; the merge of a long run's repeats into one verdict and a spread.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>

#include "gpuconform/run_level.hpp"
#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

Probe probe(const std::string& id, int exact_cc = 0) {
  Probe p{id, Family::latency, "s", {}, {}, nullptr};
  p.needs.exact_cc = exact_cc;
  return p;
}

Expectation entry(const std::string& id, std::optional<double> seconds,
                  ExpectationKind kind = ExpectationKind::band) {
  Expectation e;
  e.probe_id = id;
  e.kind = kind;
  e.value = 1;
  e.tol = 1;
  e.unit = "cycles";
  e.source = "cite:test";
  e.seconds = seconds;
  return e;
}

DeviceInfo sm(int cc) {
  DeviceInfo d;
  d.cc_major = cc / 10;
  d.cc_minor = cc % 10;
  return d;
}

std::vector<std::string> ids(const std::vector<const Probe*>& probes) {
  std::vector<std::string> out;
  for (const Probe* p : probes) out.push_back(p->id);
  return out;
}

class QuickRule : public testing::Test {
 protected:
  void add(const std::string& id, std::optional<double> seconds, ExpectationKind kind = ExpectationKind::band,
           int exact_cc = 0) {
    probes_.push_back(probe(id, exact_cc));
    if (seconds || kind != ExpectationKind::band) file_.entries.push_back(entry(id, seconds, kind));
  }
  void add_without_entry(const std::string& id) { probes_.push_back(probe(id)); }
  std::vector<std::string> quick(int cc = 90) {
    ExpectationSet set;
    set.apply(file_);
    std::vector<const Probe*> ptrs;
    for (const Probe& p : probes_) ptrs.push_back(&p);
    return ids(select_for_level(ptrs, set, sm(cc), RunLevel::quick));
  }
  std::deque<Probe> probes_;  // stable addresses
  ExpectationFile file_;
};

TEST(RunLevel, NamesRoundTripAndGroupsAreTheFirstTwoFields) {
  for (RunLevel l : {RunLevel::quick, RunLevel::standard, RunLevel::long_run})
    EXPECT_EQ(parse_level(level_name(l)), l);
  EXPECT_FALSE(parse_level("fast"));
  EXPECT_EQ(probe_group("latency.alu.fma.rn.f32"), "latency.alu");
  EXPECT_EQ(probe_group("throughput.hbm.read"), "throughput.hbm");
  EXPECT_EQ(probe_group("fake.pass"), "fake.pass");
  EXPECT_EQ(probe_group("solo"), "solo");
}

TEST_F(QuickRule, TakesTheCheapestEntriesOfAGroupUpToThreeInRegistryOrder) {
  add("latency.alu.a", 0.5);
  add("latency.alu.b", 0.004);
  add("latency.alu.c", 0.003);
  add("latency.alu.d", 22);
  add("latency.alu.e", 0.002);
  EXPECT_EQ(quick(), (std::vector<std::string>{"latency.alu.b", "latency.alu.c", "latency.alu.e"}));
}

TEST_F(QuickRule, TakesEveryJudgedHealthCheck) {
  for (const char* id : {"health.ecc.enabled", "health.ecc.volatile_uncorrected", "health.ecc.other",
                         "health.ecc.fourth", "health.ecc.slow"}) {
    add(id, 0.01);
    probes_.back().family = Family::health;
  }
  file_.entries.back().seconds = 30;  // beyond a group's quick seconds: health still goes in whole
  EXPECT_EQ(quick().size(), 5u);
}

TEST_F(QuickRule, StopsWhenTheGroupWouldPassItsSecondsButAlwaysKeepsOne) {
  add("numeric.mma_sync.a", 0.43);
  add("numeric.mma_sync.b", 0.5);
  add("numeric.mma_sync.c", 0.55);
  add("numeric.wgmma.a", 1.8);
  add("numeric.wgmma.b", 1.5);
  EXPECT_EQ(quick(), (std::vector<std::string>{"numeric.mma_sync.a", "numeric.mma_sync.b", "numeric.wgmma.b"}));
}

TEST_F(QuickRule, AGroupWithNothingToJudgeStillShowsUpWithItsFirstProbe) {
  add_without_entry("throughput.alu.x");
  add_without_entry("throughput.alu.y");
  add("throughput.hbm.read", 0.021);
  EXPECT_EQ(quick(), (std::vector<std::string>{"throughput.alu.x", "throughput.hbm.read"}))
      << "its skip verdict says why the group judged nothing";
}

TEST_F(QuickRule, PrefersEntriesThatCanFailAndProbesThisGpuCanRun) {
  add("latency.wgmma.info", 0.001, ExpectationKind::info);
  add("latency.wgmma.sm90a_only", 0.002, ExpectationKind::band, 90);
  add("latency.wgmma.any", 0.01);
  EXPECT_EQ(quick(90), (std::vector<std::string>{"latency.wgmma.sm90a_only", "latency.wgmma.any"}));
  EXPECT_EQ(quick(80), (std::vector<std::string>{"latency.wgmma.any"}));
}

TEST_F(QuickRule, AnEntryWithoutRecordedSecondsComesOnlyWhenNothingElseCan) {
  add("numeric.feature.a", std::nullopt, ExpectationKind::exact);
  add("numeric.feature.b", std::nullopt, ExpectationKind::exact);
  EXPECT_EQ(quick(), (std::vector<std::string>{"numeric.feature.a"})) << "unknown cost: one, not three";
  add("numeric.feature.c", 0.2, ExpectationKind::exact);
  EXPECT_EQ(quick(), (std::vector<std::string>{"numeric.feature.c"}));
}

TEST_F(QuickRule, RequiredProbesComeFirstWhateverTheyCostAndCountTowardTheGroup) {
  add("throughput.hbm.write", 0.01);
  add("throughput.hbm.copy", 0.02);
  add("throughput.hbm.triad", 0.03);
  add("throughput.hbm.read", 0.975);  // required: the most expensive, yet first
  EXPECT_EQ(quick(), (std::vector<std::string>{"throughput.hbm.write", "throughput.hbm.read"}))
      << "0.975 s of the group's 1 s is spent: only the cheapest still fits";
}

TEST_F(QuickRule, ARequiredProbeThisGpuCannotJudgeIsNotForced) {
  add("throughput.wgmma.m64n256k16.f32.f16", 0.03, ExpectationKind::band, 90);  // sm_90a only
  add("throughput.wgmma.other", 0.05);
  EXPECT_EQ(quick(80), (std::vector<std::string>{"throughput.wgmma.other"}));
  add("numeric.mma_sync.m16n8k16.f32.f16", 0.5, ExpectationKind::info);  // nothing to judge
  add("numeric.mma_sync.m16n8k8.f32.f16", 0.04, ExpectationKind::exact);
  EXPECT_EQ(quick(90), (std::vector<std::string>{"throughput.wgmma.m64n256k16.f32.f16", "throughput.wgmma.other",
                                                 "numeric.mma_sync.m16n8k8.f32.f16"}));
}

TEST_F(QuickRule, StandardAndLongSelectEverything) {
  add("latency.alu.a", 0.5);
  add_without_entry("latency.alu.b");
  ExpectationSet set;
  set.apply(file_);
  std::vector<const Probe*> ptrs;
  for (const Probe& p : probes_) ptrs.push_back(&p);
  EXPECT_EQ(select_for_level(ptrs, set, sm(90), RunLevel::standard), ptrs);
  EXPECT_EQ(select_for_level(ptrs, set, sm(90), RunLevel::long_run), ptrs);
}

// The committed H100 expectations: quick judges every group of the registry, within the rule.
TEST(RunLevel, QuickOnTheCommittedH100FileCoversEveryGroup) {
  DeviceInfo h100 = sm(90);
  h100.pci_device_id = 0x2330;
  const ExpectationSet set = load_device_expectations(h100, GPUCONFORM_TEST_EXPECTATIONS_DIR, {});
  const std::vector<const Probe*> all = select_probes({"*"});
  const std::vector<const Probe*> quick = select_for_level(all, set, h100, RunLevel::quick);
  std::set<std::string> groups, covered;
  for (const Probe* p : all) groups.insert(probe_group(p->id));
  std::map<std::string, std::pair<int, double>> per_group;
  for (const Probe* p : quick) {
    covered.insert(probe_group(p->id));
    auto& [n, seconds] = per_group[probe_group(p->id)];
    ++n;
    seconds += recorded_seconds(set, p->id).value_or(0);
  }
  EXPECT_EQ(covered, groups);
  for (const auto& [group, use] : per_group) {
    if (group.rfind("health.", 0) == 0) continue;  // health runs whole
    EXPECT_LE(use.first, static_cast<int>(kQuickProbesPerGroup)) << group;
    if (use.first > 1) EXPECT_LE(use.second, kQuickGroupSeconds) << group;
  }
  EXPECT_LT(quick.size(), all.size());
}

// Issue 19 item 7: on the H100 and the H200 files quick judges one L2 and one HBM latency,
// hbm.read, l2.read, an all-SM wgmma, the f16 -> f32 mma.sync numeric path and every
// judged health check.
TEST(RunLevel, QuickOnTheCommittedFilesRunsTheRequiredProbesAndEveryHealthCheck) {
  const std::vector<const Probe*> all = select_probes({"*"});
  for (std::uint32_t sku : {0x2330u, 0x2335u}) {
    DeviceInfo gpu = sm(90);
    gpu.pci_device_id = sku;
    const ExpectationSet set = load_device_expectations(gpu, GPUCONFORM_TEST_EXPECTATIONS_DIR, {});
    std::set<std::string> quick;
    for (const Probe* p : select_for_level(all, set, gpu, RunLevel::quick)) quick.insert(p->id);
    for (const std::string& id : quick_required_probes()) {
      EXPECT_NE(Registry::instance().find(id), nullptr) << id << " is no probe";
      const Expectation* e = set.find(id);
      ASSERT_NE(e, nullptr) << id << " has no entry for " << std::hex << sku;
      EXPECT_NE(e->kind, ExpectationKind::info) << id;
      EXPECT_TRUE(quick.count(id)) << id << " not at quick level on " << std::hex << sku;
    }
    for (const Probe* p : all) {
      const Expectation* e = set.find(p->id);
      if (p->family == Family::health && e && e->kind != ExpectationKind::info)
        EXPECT_TRUE(quick.count(p->id)) << p->id;
    }
  }
}

TestResult run(Outcome o, std::optional<double> value, const std::string& reason = "r") {
  TestResult r;
  r.verdict = {o, reason};
  r.seconds = 1;
  if (value) {
    Measurement m;
    m.value = *value;
    m.unit = "cycles";
    r.measurement = m;
  }
  return r;
}

TEST(AggregateRuns, TheWorstRunIsTheVerdictAndTheSpreadCoversEveryMeasuredRun) {
  const RepeatedResult r = aggregate_runs(
      {run(Outcome::pass, 10), run(Outcome::fail, 14, "measured 14"), run(Outcome::pass, 11), run(Outcome::fail, std::nullopt, "timed out")});
  EXPECT_EQ(r.runs, 4);
  EXPECT_EQ(r.result.verdict.outcome, Outcome::fail);
  EXPECT_EQ(r.result.verdict.reason, "fail in 2 of 4 runs: measured 14");
  ASSERT_TRUE(r.spread);
  EXPECT_EQ(r.spread->n, 3u);
  EXPECT_DOUBLE_EQ(r.spread->median, 11);
  EXPECT_DOUBLE_EQ(r.spread->min, 10);
  EXPECT_DOUBLE_EQ(r.spread->max, 14);
  EXPECT_DOUBLE_EQ(r.spread->mad, 1);
  EXPECT_EQ(r.values, (std::vector<double>{10, 14, 11}));
  ASSERT_TRUE(r.result.measurement);
  EXPECT_DOUBLE_EQ(r.result.measurement->value, 11) << "the median run's measurement";
  EXPECT_DOUBLE_EQ(r.result.seconds, 4);
}

TEST(AggregateRuns, AgreeingRunsKeepTheirReasonAndAWarnOutranksAPass) {
  EXPECT_EQ(aggregate_runs({run(Outcome::pass, 1, "a"), run(Outcome::pass, 1, "b")}).result.verdict.reason, "a");
  const RepeatedResult w = aggregate_runs({run(Outcome::pass, 1), run(Outcome::warn, 2, "drifted")});
  EXPECT_EQ(w.result.verdict.outcome, Outcome::warn);
  EXPECT_EQ(w.result.verdict.reason, "warn in 1 of 2 runs: drifted");
  const RepeatedResult s = aggregate_runs({run(Outcome::skip, std::nullopt), run(Outcome::skip, std::nullopt)});
  EXPECT_EQ(s.result.verdict.outcome, Outcome::skip);
  EXPECT_FALSE(s.spread);
  EXPECT_EQ(aggregate_runs({}).runs, 0);
}

}  // namespace
}  // namespace gpuconform
