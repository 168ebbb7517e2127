// The end of a run (verdict_matrix.hpp): counts per probe group and GPU, then only the
// lines that need reading.
#include <gtest/gtest.h>

#include "gpuconform/verdict_matrix.hpp"

namespace gpuconform {
namespace {

const Probe kAluA{"latency.alu.a", Family::latency, "s", {}, {}, nullptr};
const Probe kAluB{"latency.alu.b", Family::latency, "s", {}, {}, nullptr};
const Probe kHbm{"throughput.hbm.read", Family::throughput, "s", {}, {}, nullptr};

TestResult result(const Probe& p, Outcome o, const std::string& reason = "") {
  TestResult r;
  r.probe = &p;
  r.verdict = {o, reason};
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

}  // namespace
}  // namespace gpuconform
