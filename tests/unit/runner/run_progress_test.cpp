// SPDX-License-Identifier: Apache-2.0
// The live status line's arithmetic (run_progress.hpp): ETA from recorded seconds and
// the overhead seen between verdicts; the line fits the terminal.
#include <gtest/gtest.h>

#include "gpuconform/run_progress.hpp"

namespace gpuconform {
namespace {

TEST(EtaModel, RecordedSecondsPlusTheMedianOverheadBetweenVerdicts) {
  EtaModel m;
  m.begin({1.0, 1.0, 2.0, std::nullopt}, 100);  // the unknown entry counts as the median, 1
  EXPECT_DOUBLE_EQ(*m.eta(100), 5);
  EXPECT_DOUBLE_EQ(*m.eta(100.5), 4.5) << "the running probe has used part of its share";
  m.started("a", 100);
  EXPECT_EQ(m.current(), "a");
  m.finished(1.0, 101.5);  // the first gap includes the worker's start: no overhead from it
  EXPECT_DOUBLE_EQ(*m.eta(101.5), 4);
  m.finished(1.0, 103.0);  // 1.5 s for a 1 s probe: 0.5 s overhead
  EXPECT_DOUBLE_EQ(*m.eta(103.0), 3 + 2 * 0.5);
  m.finished(2.0, 105.0);  // no overhead this time; the median of {0.5, 0} is 0.25
  EXPECT_DOUBLE_EQ(*m.eta(105.0), 1 + 0.25);
  m.finished(1.0, 106.0);
  EXPECT_EQ(m.done(), m.total());
  EXPECT_DOUBLE_EQ(*m.eta(200), 0);
  EXPECT_DOUBLE_EQ(m.elapsed(106), 6);
}

TEST(EtaModel, NothingRecordedMeansNoEtaUntilTheRunShowsItsPace) {
  EtaModel m;
  m.begin({std::nullopt, std::nullopt, std::nullopt}, 0);
  EXPECT_FALSE(m.eta(0));
  m.finished(0, 1);
  EXPECT_FALSE(m.eta(1));
  m.finished(0, 3);  // 2 s a probe
  ASSERT_TRUE(m.eta(3));
  EXPECT_DOUBLE_EQ(*m.eta(3), 2);
}

TEST(ClockText, MinutesAndHours) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(65.4), "1:05");
  EXPECT_EQ(clock_text(3723), "1:02:03");
  EXPECT_EQ(clock_text(-3), "0:00");
}

TEST(StatusLine, ShowsProgressCurrentProbeEtaAndProblemsWithinTheWidth) {
  GpuStatus s;
  s.index = 3;
  s.label = "GPU-4250cf40";
  s.done = 45;
  s.total = 283;
  s.current = "latency.alu.fma.rn.f32";
  s.elapsed = 12;
  s.eta = 31;
  s.failed = 1;
  const std::string wide = status_line(s, 200);
  EXPECT_EQ(wide, "GPU 3 GPU-4250cf40 [###.................]  45/283 latency.alu.fma.rn.f32  0:12, ETA 0:31  1 fail");
  const std::string narrow = status_line(s, 80);
  EXPECT_LE(narrow.size(), 80u);
  EXPECT_NE(narrow.find("ETA 0:31  1 fail"), std::string::npos) << "the probe name gives way first: " << narrow;
  EXPECT_LE(status_line(s, 10).size(), 10u);
  s.eta.reset();
  EXPECT_NE(status_line(s, 200).find("ETA ?"), std::string::npos);
  s.finished = true;
  s.done = 283;
  EXPECT_EQ(status_line(s, 200), "GPU 3 GPU-4250cf40 [####################] 283/283  done in 0:12  1 fail");
  GpuStatus lost;
  lost.index = 2;
  lost.error = "GPU 2 could not be opened: fallen off the bus";
  EXPECT_NE(status_line(lost, 200).find("could not be opened"), std::string::npos);
}

}  // namespace
}  // namespace gpuconform
