// SPDX-License-Identifier: Apache-2.0
// A node probe's entry holds for the node size its evidence comes from (node_gpus): on a node
// of another size the test is skipped with that reason, before anything touches a GPU.
#include <gtest/gtest.h>

#include "gpuconform/conformance.hpp"
#include "gpuconform/expectation.hpp"

namespace gpuconform {
namespace {

DeviceInfo gpu(int index) {
  DeviceInfo d;
  d.index = index;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.pci_device_id = 0x2335;
  return d;
}

// Reached only where a GPU exists (the unit tests run without one): the test needs only to
// see that the measurement was attempted.
Measurement attempted(const ProbeContext&) { throw ProbeSkipped("measured"); }

class NodeSize : public testing::Test {
 protected:
  NodeSize() {
    probe_.scope = Scope::node;
    Expectation e;
    e.probe_id = probe_.id;
    e.kind = ExpectationKind::fraction_of_peak;
    e.min_fraction = 0.8;
    e.unit = "B/s";
    e.source = "cite:test";
    e.node_gpus = 2;
    ExpectationFile f;
    f.entries.push_back(e);
    set_.apply(f);
  }
  TestResult run_on_node_of(int gpus) {
    RunOptions options;
    for (int i = 1; i < gpus; ++i) options.peers.push_back(gpu(i));
    return run_conformance_test(probe_, gpu(0), set_, options);
  }
  Probe probe_{"p2p.bandwidth.all_pairs_concurrent", Family::p2p, "s", {}, {}, &attempted};
  ExpectationSet set_;
};

TEST_F(NodeSize, ANodeOfAnotherSizeIsSkippedWithTheEntrysNodeSize) {
  const TestResult r = run_on_node_of(4);
  EXPECT_EQ(r.verdict.outcome, Outcome::skip);
  EXPECT_NE(r.verdict.reason.find("holds for nodes of 2 GPUs"), std::string::npos) << r.verdict.reason;
  EXPECT_NE(r.verdict.reason.find("this node has 4"), std::string::npos) << r.verdict.reason;
  EXPECT_FALSE(r.measurement.has_value());
}

TEST_F(NodeSize, ANodeOfTheEntrysSizeIsMeasured) {
  // Without a GPU the measurement fails at the device, with one it skips ("measured"): either
  // way it was attempted.
  const TestResult r = run_on_node_of(2);
  EXPECT_EQ(r.verdict.reason.find("holds for nodes of"), std::string::npos) << r.verdict.reason;
}

TEST_F(NodeSize, PerGpuAndPairProbesIgnoreIt) {
  probe_.scope = Scope::pair;
  const TestResult r = run_on_node_of(4);
  EXPECT_EQ(r.verdict.reason.find("holds for nodes of"), std::string::npos) << r.verdict.reason;
}

}  // namespace
}  // namespace gpuconform
