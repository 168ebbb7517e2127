// SPDX-License-Identifier: Apache-2.0
// The strips of the report (issue 21): an exact entry (0 mismatches) that every board met
// is a green strip, not a dot at the edge of a red one; a record-only row shows its
// values, not dots pinned to both ends of a scale made of those values; a band keeps its
// dots.
#include <gtest/gtest.h>

#include <string>

#include "gpuconform/report_svg.hpp"

namespace gpuconform::report {
namespace {

std::size_t count(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) ++n;
  return n;
}

StripRow exact_row(double a, double b) {
  StripRow r;
  r.label = "numeric.mma_sync.f32.f16";
  r.kind = "exact";
  r.fail_lo = r.fail_hi = 0;
  r.unit = "mismatches";
  r.points = {{a, 0, "GPU-a"}, {b, 1, "GPU-b"}};
  r.verdict = a == 0 && b == 0 ? "pass" : "fail";
  return r;
}

TEST(ReportStrips, AnExactEntryEveryBoardMetIsGreenWithoutDots) {
  const std::string svg = strip_chart_svg("numeric", {exact_row(0, 0)});
  EXPECT_EQ(count(svg, "class=\"bf\""), 0u) << "no red strip under a pass: " << svg;
  EXPECT_EQ(count(svg, "class=\"bp\""), 1u) << svg;
  EXPECT_EQ(count(svg, "<circle"), 0u) << svg;
  EXPECT_NE(svg.find("= expected: "), std::string::npos) << svg;
}

TEST(ReportStrips, AnExactEntryABoardMissedIsRedAndSaysTheValues) {
  const std::string svg = strip_chart_svg("numeric", {exact_row(0, 3)});
  EXPECT_EQ(count(svg, "class=\"bf\""), 1u) << svg;
  EXPECT_NE(svg.find("3 mismatches"), std::string::npos) << svg;
}

TEST(ReportStrips, ARecordOnlyRowShowsValuesNotPinnedDots) {
  StripRow r;
  r.label = "topology.tpc.count";
  r.unit = "TPCs";
  r.points = {{66, 0, "GPU-a"}, {57, 1, "GPU-b"}};
  r.verdict = "recorded";
  const std::string svg = strip_chart_svg("topology", {r});
  EXPECT_EQ(count(svg, "<circle"), 0u) << svg;
  EXPECT_NE(svg.find("recorded: "), std::string::npos) << svg;
  EXPECT_NE(svg.find(">66 TPCs</tspan>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">57 TPCs</tspan>"), std::string::npos) << svg;
}

TEST(ReportStrips, ABandKeepsItsDots) {
  StripRow r;
  r.label = "latency.alu.fma.rn.f32";
  r.kind = "band";
  r.fail_lo = 3.7;
  r.fail_hi = 4.3;
  r.unit = "cycles";
  r.points = {{4.016, 0, "GPU-a"}, {4.0, 1, "GPU-b"}};
  r.verdict = "pass";
  const std::string svg = strip_chart_svg("latency", {r});
  EXPECT_EQ(count(svg, "<circle"), 2u) << svg;
}

}  // namespace
}  // namespace gpuconform::report
