// SPDX-License-Identifier: Apache-2.0
// parse_worker_arguments, the one reader of a worker's command line (`gpuconform worker`
// and `gpuconform_gpu_tests worker`): whatever worker_arguments writes, and the
// supervisor's --own-pid, reads back to the same WorkerArgs; anything else is refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "gpuconform/runner.hpp"

namespace gpuconform {
namespace {

void expect_same(const WorkerArgs& a, const WorkerArgs& b) {
  EXPECT_EQ(a.report_fd, b.report_fd);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.expectations_dir, b.expectations_dir);
  EXPECT_EQ(a.overlays, b.overlays);
  EXPECT_EQ(a.quick, b.quick);
  EXPECT_EQ(a.describe, b.describe);
  EXPECT_EQ(a.probes, b.probes);
  EXPECT_EQ(a.peers, b.peers);
  EXPECT_EQ(a.own_pids, b.own_pids);
}

std::string refusal(const std::vector<std::string>& args) {
  try {
    parse_worker_arguments(args);
  } catch (const std::invalid_argument& err) {
    return err.what();
  }
  return "accepted";
}

TEST(WorkerArguments, EveryFieldRoundTrips) {
  WorkerArgs a;
  a.report_fd = 7;
  a.device = 3;
  a.expectations_dir = "/e x";  // a space stays inside its argument
  a.overlays = {"o1.toml", "o2.toml"};
  a.quick = true;
  a.describe = true;
  a.probes = {"latency.alu.fma.rn.f32", "p2p.bandwidth.read"};
  a.peers = {0, 5};
  expect_same(parse_worker_arguments(worker_arguments(a)), a);
}

TEST(WorkerArguments, TheDefaultsRoundTrip) {
  const WorkerArgs a;
  const std::vector<std::string> args = worker_arguments(a);
  EXPECT_EQ(args.size(), 4u) << "only the two required options";
  expect_same(parse_worker_arguments(args), a);
}

TEST(WorkerArguments, TheSupervisorsOwnPidsAndProbesAfterTheBaseArguments) {
  // run_one_worker (runner_supervisor.cpp) appends --own-pid and --probe to worker_arguments.
  WorkerArgs a;
  a.device = 1;
  std::vector<std::string> args = worker_arguments(a);
  for (const char* extra : {"--own-pid", "4242", "--own-pid", "17", "--probe", "x.y"}) args.push_back(extra);
  a.own_pids = {4242, 17};
  a.probes = {"x.y"};
  expect_same(parse_worker_arguments(args), a);
}

TEST(WorkerArguments, AcceptsOptionEqualsValue) {
  const WorkerArgs a = parse_worker_arguments({"--report-fd=4", "--device=2", "--probe=a.b", "--peer=0"});
  EXPECT_EQ(a.report_fd, 4);
  EXPECT_EQ(a.device, 2);
  EXPECT_EQ(a.probes, std::vector<std::string>{"a.b"});
  EXPECT_EQ(a.peers, std::vector<int>{0});
}

TEST(WorkerArguments, RefusesWhatTheRunnerNeverWrites) {
  EXPECT_NE(refusal({"--device", "0"}).find("--report-fd is required"), std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3"}).find("--device is required"), std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "0", "--bogus"}).find("unknown argument '--bogus'"),
            std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "0", "stray"}).find("unknown argument 'stray'"),
            std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device"}).find("--device needs a value"), std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "1x"}).find("--device 1x: not an integer"), std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "-1"}).find("not an integer in [0,"), std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "0", "--peer", ""}).find("--peer : not an integer"),
            std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "0", "--own-pid", "0"}).find("--own-pid 0"), std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "0", "--device", "1"}).find("--device given twice"),
            std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "3", "--device", "0", "--quick=1"}).find("--quick takes no value"),
            std::string::npos);
  EXPECT_NE(refusal({"--report-fd", "99999999999", "--device", "0"}).find("not an integer"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform
