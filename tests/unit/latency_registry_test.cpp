// SPDX-License-Identifier: Apache-2.0
// The latency suite as registered: the ids the issue fixes exist, the suite is
// large enough, and every id follows the naming rule (dotted, lowercase, PTX
// spellings), so expectation files and reports can rely on them.
#include <gtest/gtest.h>

#include <regex>

#include "gpuconform/probe.hpp"

namespace gpuconform {
namespace {

std::vector<const Probe*> latency_probes() {
  std::vector<const Probe*> out;
  for (const Probe& p : Registry::instance().all())
    if (p.family == Family::latency) out.push_back(&p);
  return out;
}

TEST(LatencySuite, HasTheRequiredIds) {
  for (const char* id : {"latency.mem.l1_hit", "latency.mem.l2_near", "latency.mem.l2_far", "latency.mem.hbm",
                         "latency.mem.shared_load", "latency.alu.fma.rn.f32", "latency.alu.fma.rn.f64",
                         "latency.alu.mad.lo.u32", "latency.mma_sync.m16n8k16.f32.f16"}) {
    const Probe* p = Registry::instance().find(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_EQ(p->family, Family::latency) << id;
  }
}

TEST(LatencySuite, HasAtLeast120Probes) { EXPECT_GE(latency_probes().size(), 120u); }

TEST(LatencySuite, IdsAreDottedLowercasePtxSpellings) {
  const std::regex rule(R"(latency(\.[a-z0-9_]+)+)");
  for (const Probe* p : latency_probes()) {
    EXPECT_TRUE(std::regex_match(p->id, rule)) << p->id;
    EXPECT_FALSE(p->summary.empty()) << p->id;
    EXPECT_NE(p->run, nullptr) << p->id;
  }
}

TEST(LatencySuite, ArchSpecificProbesSayWhatTheyNeed) {
  for (const Probe* p : latency_probes())
    if (p->id.rfind("latency.wgmma.", 0) == 0) {
      EXPECT_EQ(p->needs.exact_cc, 90) << p->id;
      EXPECT_NE(p->needs.feature.find("sm_90a"), std::string::npos) << p->id;
    }
}

// tlb_miss_penalty (SM 0's latency at 8 GiB minus at 32-64 MiB) is a few cycles that depend on
// where SM 0 sits: a band around it could not fail a slower page walk, so it is recorded only,
// and the same access timed in every SM at once is the judged latency.
TEST(LatencySuite, TheTlbLatencyIsJudgedAndItsSingleSmPenaltyRecorded) {
  const Probe* penalty = Registry::instance().find("latency.mem.tlb_miss_penalty");
  const Probe* latency = Registry::instance().find("latency.mem.l2_hit.tlb_miss");
  ASSERT_NE(penalty, nullptr);
  ASSERT_NE(latency, nullptr);
  EXPECT_EQ(penalty->record.kind, ExpectationKind::info);
  EXPECT_EQ(latency->record.kind, ExpectationKind::band);
}

}  // namespace
}  // namespace gpuconform
