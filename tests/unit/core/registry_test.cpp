// SPDX-License-Identifier: Apache-2.0
// The registry is the test list: ids must be stable, well-formed and unique,
// and map to distinct gtest names.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include "gpuconform/probe.hpp"

namespace gpuconform {
namespace {

TEST(Registry, HasAProbeOfEachFoundationFamily) {
  const Registry& r = Registry::instance();
  EXPECT_NE(r.find("latency.alu.fma.rn.f32"), nullptr);
  EXPECT_NE(r.find("throughput.hbm.read"), nullptr);
  EXPECT_NE(r.find("numeric.mma_sync.m16n8k16.f32.f16"), nullptr);
}

TEST(Registry, IdsAreLowercaseDottedAndGtestNamesUnique) {
  std::set<std::string> names;
  for (const Probe& p : Registry::instance().all()) {
    for (char c : p.id)
      EXPECT_TRUE(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
                  c == '.' || c == '_')
          << p.id;
    EXPECT_TRUE(names.insert(test_suite_name(p) + "." + test_name(p)).second) << "gtest name clash: " << p.id;
    EXPECT_NE(p.run, nullptr) << p.id;
    EXPECT_FALSE(p.summary.empty()) << p.id;
  }
}

TEST(Registry, RejectsDuplicatesAndWrongFamilyPrefix) {
  Registry& r = Registry::instance();
  Probe dup = *r.find("latency.alu.fma.rn.f32");
  EXPECT_THROW(r.add(dup), std::logic_error);
  Probe wrong = dup;
  wrong.id = "throughput.misfiled";
  EXPECT_THROW(r.add(wrong), std::logic_error);
}

TEST(Registry, RegisterProbesIsAddForEveryRow) {
  // register_probes is the one registration form: a table with a registered id throws as add does.
  Probe dup = *Registry::instance().find("latency.alu.fma.rn.f32");
  EXPECT_THROW(register_probes({dup}), std::logic_error);
  EXPECT_TRUE(register_probes({}));
}

TEST(Registry, GtestNamesFollowTheIds) {
  const Probe* p = Registry::instance().find("latency.alu.fma.rn.f32");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(test_suite_name(*p), "Latency");
  EXPECT_EQ(test_name(*p), "alu_fma_rn_f32");
}

}  // namespace
}  // namespace gpuconform
