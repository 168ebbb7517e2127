// SPDX-License-Identifier: Apache-2.0
// The end of a run (verdict_matrix.hpp): counts per probe group and GPU, then only the
// lines that need reading.
#include <gtest/gtest.h>

#include "gpuconform/verdict_matrix.hpp"

namespace gpuconform {
namespace {

const Probe kAluA{"latency.alu.a", Family::latency, "s", {}, {}, nullptr};
const Probe kAluB{"latency.alu.b", Family::latency, "s", {}, {}, nullptr};
const Probe kHbm{"throughput.hbm.read", Family::throughput, "s", {}, {}, nullptr};
const Probe kP2pBw{"p2p.bandwidth.read", Family::p2p, "s", {}, {}, nullptr, Scope::pair};
const Probe kP2pLat{"p2p.latency.read", Family::p2p, "s", {}, {}, nullptr, Scope::pair};

TestResult result(const Probe& p, Outcome o, const std::string& reason = "") {
  TestResult r;
  r.probe = &p;
  r.verdict = {o, reason};
  return r;
}

// A pair probe's result of the GPU it is filed under, to GPU `peer`.
TestResult to_peer(const Probe& p, int peer, Outcome o, const std::string& reason = "") {
  TestResult r = result(p, o, reason);
  DeviceInfo d;
  d.index = peer;
  d.uuid = "GPU-" + std::to_string(peer);
  r.peers = {d};
  return r;
}

GpuRun gpu(int index, std::vector<TestResult> results) {
  GpuRun g;
  g.index = index;
  DeviceInfo d;
  d.index = index;
  d.name = "NVIDIA H100";
  d.uuid = "GPU-" + std::to_string(index);
  d.pci_bus_id = "0000:0" + std::to_string(index) + ":00.0";
  g.device = d;
  g.results = std::move(results);
  return g;
}

TEST(VerdictMatrix, CountsPerGroupAndGpuWithAnUnopenedColumn) {
  GpuRun lost;
  lost.index = 2;
  lost.open_error = "GPU 2 could not be opened: gone";
  const std::vector<GpuRun> runs = {
      gpu(0, {result(kAluA, Outcome::pass), result(kAluB, Outcome::pass), result(kHbm, Outcome::pass)}),
      gpu(1, {result(kAluA, Outcome::fail, "measured 9"), result(kAluB, Outcome::warn, "drifted"),
              result(kHbm, Outcome::skip, "no entry")}),
      lost};
  const std::string m = verdict_matrix(runs);
  EXPECT_EQ(m,
            "verdicts per probe group and GPU (pass/fail/warn/skip)\n"
            "group             GPU 0    GPU 1       GPU 2\n"
            "latency.alu     2/0/0/0  0/1/1/0  not opened\n"
            "throughput.hbm  1/0/0/0  0/0/0/1  not opened\n"
            "all             3/0/0/0  0/1/1/1  not opened\n"
            "GPU 0: NVIDIA H100 GPU-0 (0000:00:00.0)\n"
            "GPU 1: NVIDIA H100 GPU-1 (0000:01:00.0)\n"
            "GPU 2: not opened\n");
  EXPECT_EQ(non_pass_lines(runs), (std::vector<std::string>{
                                      "GPU 2 fail GPU 2 could not be opened: gone",
                                      "GPU 1 fail latency.alu.a: measured 9",
                                      "GPU 1 warn latency.alu.b: drifted",
                                      "GPU 1 skip throughput.hbm.read: no entry",
                                  }));
}

TEST(VerdictMatrix, AllPassedLeavesNoLinesToRead) {
  const std::vector<GpuRun> runs = {gpu(0, {result(kAluA, Outcome::pass)})};
  EXPECT_TRUE(non_pass_lines(runs).empty());
  EXPECT_NE(verdict_matrix(runs).find("all          1/0/0/0"), std::string::npos) << verdict_matrix(runs);
}

// Pair results are about two GPUs: they leave the per-GPU columns (GPU 0 counts only its
// own latency.alu pass) for a table of pairs, and their lines name the pair.
TEST(VerdictMatrix, PairResultsHaveATableOfTheirOwn) {
  const std::vector<GpuRun> runs = {
      gpu(0, {result(kAluA, Outcome::pass), to_peer(kP2pBw, 1, Outcome::pass),
              to_peer(kP2pLat, 1, Outcome::fail, "measured 9 us")}),
      gpu(1, {result(kAluA, Outcome::pass), to_peer(kP2pBw, 0, Outcome::warn, "drifted")})};
  EXPECT_EQ(verdict_matrix(runs),
            "verdicts per probe group and GPU (pass/fail/warn/skip)\n"
            "group          GPU 0    GPU 1\n"
            "latency.alu  1/0/0/0  1/0/0/0\n"
            "all          1/0/0/0  1/0/0/0\n"
            "verdicts per probe group and GPU pair (pass/fail/warn/skip; GPU 0>1: from GPU 0 to GPU 1)\n"
            "group          GPU 0>1  GPU 1>0\n"
            "p2p.bandwidth  1/0/0/0  0/0/1/0\n"
            "p2p.latency    0/1/0/0  0/0/0/0\n"
            "all            1/1/0/0  0/0/1/0\n"
            "GPU 0: NVIDIA H100 GPU-0 (0000:00:00.0)\n"
            "GPU 1: NVIDIA H100 GPU-1 (0000:01:00.0)\n");
  EXPECT_EQ(non_pass_lines(runs), (std::vector<std::string>{
                                      "GPU 0>1 fail p2p.latency.read: measured 9 us",
                                      "GPU 1>0 warn p2p.bandwidth.read: drifted",
                                  }));
}

// A node result (every other GPU a peer) is one column of its own, named by all its GPUs.
TEST(VerdictMatrix, ANodeResultIsNamedByAllItsGpus) {
  TestResult node = to_peer(kP2pBw, 1, Outcome::fail, "link down");
  node.peers.push_back(node.peers.front());
  node.peers.back().index = 2;
  const std::vector<GpuRun> runs = {gpu(0, {node}), gpu(1, {}), gpu(2, {})};
  EXPECT_NE(verdict_matrix(runs).find("group          GPU 0>1,2\np2p.bandwidth    0/1/0/0\n"), std::string::npos)
      << verdict_matrix(runs);
  EXPECT_EQ(non_pass_lines(runs), std::vector<std::string>{"GPU 0>1,2 fail p2p.bandwidth.read: link down"});
}

}  // namespace
}  // namespace gpuconform
