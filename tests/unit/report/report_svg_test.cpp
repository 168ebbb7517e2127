// SPDX-License-Identifier: Apache-2.0
// The drawing pieces of `gpuconform report` (report_svg.hpp): escaping, number formats,
// scales and ticks, the heat-map colours, and the SVG the charts are made of.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "gpuconform/report_svg.hpp"

namespace gpuconform::report {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

TEST(ReportEscape, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(html_escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
  EXPECT_EQ(html_escape("latency.alu.fma.rn.f32"), "latency.alu.fma.rn.f32");
}

TEST(ReportEscape, NoNetworkAddressSurvives) {
  EXPECT_EQ(html_escape("see https://x.invalid/a"), "see https&#58;//x.invalid/a");
  EXPECT_EQ(html_escape("HTTP:x Http:y"), "HTTP&#58;x Http&#58;y");
  EXPECT_EQ(html_escape("httpx: https"), "httpx: https");  // not a scheme
}

TEST(ReportEscape, ControlCharactersAreReplaced) {
  EXPECT_EQ(html_escape(std::string("a\x01" "b\tc\n", 6)), "a\xEF\xBF\xBD" "b\tc\n");
  EXPECT_EQ(html_escape(std::string("\0", 1)), "\xEF\xBF\xBD");
}

TEST(ReportFormat, BytesUseBinaryPrefixes) {
  EXPECT_EQ(format_quantity(50.0 * 1024 * 1024, "B"), "50 MiB");
  EXPECT_EQ(format_quantity(48 * 1024, "bytes"), "48 KiB");
  EXPECT_EQ(format_quantity(512, "B"), "512 B");
}

TEST(ReportFormat, RatesUseSiPrefixesOtherUnitsDoNot) {
  EXPECT_EQ(format_quantity(3.25e12, "B/s"), "3.25 TB/s");
  EXPECT_EQ(format_quantity(1975, "MHz"), "1975 MHz");
  EXPECT_EQ(format_quantity(4014, "FLOP/clk/SM"), "4014 FLOP/clk/SM");
  EXPECT_EQ(format_quantity(4.015625, "cycles"), "4.016 cycles");
  EXPECT_EQ(format_quantity(2500, ""), "2.5k");
  EXPECT_EQ(format_quantity(NAN, "cycles"), "n/a cycles");
}

TEST(ReportFormat, AxisNumbersLeaveTheUnitToTheAxisLabel) {
  EXPECT_EQ(axis_number(65536, "B"), "64 KiB");
  EXPECT_EQ(axis_number(3.3e12, "B/s"), "3.3T");
  EXPECT_EQ(axis_number(1976, "MHz"), "1976");
  EXPECT_EQ(axis_number(1979.5, "MHz"), "1979.5");
  EXPECT_EQ(axis_number(3441, "FLOP/clk/SM"), "3441");
}

TEST(ReportScale, LinearAndInvertedAxes) {
  const Scale x{0, 10, 100, 200, false};
  EXPECT_DOUBLE_EQ(x(0), 100);
  EXPECT_DOUBLE_EQ(x(5), 150);
  EXPECT_DOUBLE_EQ(x(10), 200);
  const Scale y{0, 10, 300, 20, false};  // grows upwards
  EXPECT_DOUBLE_EQ(y(10), 20);
  EXPECT_GT(y(2), y(8));
}

TEST(ReportScale, LogPutsTheGeometricMeanInTheMiddle) {
  const Scale x{1024, 1024 * 1024, 0, 100, true};
  EXPECT_NEAR(x(32 * 1024), 50, 1e-9);
  EXPECT_NEAR(x(1024), 0, 1e-9);
}

TEST(ReportTicks, NiceTicksAreRoundAndInside) {
  EXPECT_EQ(nice_ticks(0, 10, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{0.31, 0.93}, {-7, 13}, {280, 545}, {3e11, 3.3e12}}) {
    const auto t = nice_ticks(lo, hi, 6);
    ASSERT_GE(t.size(), 2u) << lo << " " << hi;
    EXPECT_LE(t.size(), 6u) << lo << " " << hi;
    for (double v : t) {
      EXPECT_GE(v, lo - 1e-9 * std::fabs(hi));
      EXPECT_LE(v, hi + 1e-9 * std::fabs(hi));
    }
    const double step = t[1] - t[0];
    const double mantissa = step / std::pow(10, std::floor(std::log10(step)));
    EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 5) < 1e-9)
        << "step " << step;
  }
  EXPECT_EQ(nice_ticks(4, 4), std::vector<double>{4});
}

TEST(ReportTicks, LogTicksArePowersOfTwoForBytes) {
  EXPECT_EQ(log_ticks(8192, 131072, true), (std::vector<double>{8192, 16384, 32768, 65536, 131072}));
  EXPECT_EQ(log_ticks(1, 1e6, false, 4), (std::vector<double>{1, 100, 1e4, 1e6}));
  EXPECT_TRUE(log_ticks(0, 10, false).empty());
}

TEST(ReportTicks, ByteTicksAreRoundInTheirUnit) {
  const auto t = byte_ticks(96 * 1024, 512 * 1024, 7);
  ASSERT_GE(t.size(), 2u);
  for (double v : t) EXPECT_EQ(std::fmod(v, 100 * 1024), 0) << v;  // 100 KiB, 200 KiB, ...
  EXPECT_TRUE(wants_log({8192, 131072}));
  EXPECT_FALSE(wants_log({100, 200}));
  EXPECT_FALSE(wants_log({0, 1e6}));
}

TEST(ReportHeat, ColoursRunFromDarkToLightAndClamp) {
  EXPECT_EQ(heat_colour(0), "#440154");
  EXPECT_EQ(heat_colour(0.5), "#21918c");
  EXPECT_EQ(heat_colour(1), "#fde725");
  EXPECT_EQ(heat_colour(-3), heat_colour(0));
  EXPECT_EQ(heat_colour(7), heat_colour(1));
  EXPECT_EQ(heat_colour(NAN), "#bbbbbb");
  // Lighter as t grows (perceived brightness of the sRGB triple).
  auto luma = [](const std::string& c) {
    const int r = std::stoi(c.substr(1, 2), nullptr, 16), g = std::stoi(c.substr(3, 2), nullptr, 16),
              b = std::stoi(c.substr(5, 2), nullptr, 16);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  for (int i = 0; i < 10; ++i) EXPECT_LT(luma(heat_colour(i / 10.0)), luma(heat_colour((i + 1) / 10.0))) << i;
  EXPECT_DOUBLE_EQ(heat_fraction(5, 0, 10), 0.5);
  EXPECT_DOUBLE_EQ(heat_fraction(20, 0, 10), 1);
  EXPECT_DOUBLE_EQ(heat_fraction(3, 3, 3), 0.5);
}

TEST(ReportStrip, DomainHoldsTheBandAndEveryValue) {
  StripRow band;
  band.kind = "band";
  band.fail_lo = 3.75;
  band.fail_hi = 4.25;
  band.points = {{4.0, 0, ""}};
  auto [lo, hi] = strip_domain(band);
  EXPECT_LE(lo, 4.0 - 1.5 * 0.25);
  EXPECT_GE(hi, 4.0 + 1.5 * 0.25);
  band.points.push_back({9.0, 1, ""});  // far outside
  std::tie(lo, hi) = strip_domain(band);
  EXPECT_GT(hi, 9.0);
  StripRow min;
  min.kind = "fraction_of_peak";
  min.fail_lo = 0.7;
  min.drift_lo = 0.76;
  min.points = {{0.82, 0, ""}};
  std::tie(lo, hi) = strip_domain(min);
  EXPECT_LT(lo, 0.7);
  EXPECT_GT(hi, 0.82);
}

TEST(ReportStrip, SvgEscapesNamesAndTipsAndDrawsEveryPoint) {
  StripRow row;
  row.label = "topology.<b>clock</b>";
  row.kind = "min";
  row.fail_lo = 1900;
  row.drift_lo = 1979;
  row.points = {{1975, 0, "reason: <script>alert(1)</script> https://x"}, {1980, 1, "ok"}};
  row.value_text = "1975 MHz";
  row.verdict = "warn";
  const std::string svg = strip_chart_svg("topo\"logy", {row});
  EXPECT_NE(svg.find("topology.&lt;b&gt;clock&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(svg.find("data-family=\"topo&quot;logy\""), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("https:"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 2);
  EXPECT_NE(svg.find("class=\"pv v-warn\""), std::string::npos);
  EXPECT_TRUE(strip_chart_svg("x", {}).empty());
}

TEST(ReportLineChart, OnePolylinePerCurveAndMarkersLabelled) {
  Series axes{"staircase", "footprint", "B", "latency", "cycles", {}, {}};
  const std::vector<Curve> curves = {{"a", {8192, 65536, 262144}, {30, 31, 200}}, {"b", {8192, 16384}, {30, 32}}};
  const std::string svg = line_chart_svg("latency", "t<1>", axes, curves, {{20000, "edge <x>", true}, {31, "L1 hit", false}});
  EXPECT_EQ(count(svg, "<polyline"), 2);
  EXPECT_EQ(count(svg, "<circle"), 5);
  EXPECT_NE(svg.find("edge &lt;x&gt;"), std::string::npos);
  EXPECT_NE(svg.find("L1 hit"), std::string::npos);
  EXPECT_NE(svg.find("log scale"), std::string::npos);  // footprints over a factor of 32
  EXPECT_NE(svg.find("data-family=\"latency\""), std::string::npos);
  EXPECT_EQ(svg.find("xmlns"), std::string::npos);
  EXPECT_TRUE(line_chart_svg("latency", "empty", axes, {}, {}).empty());
}

TEST(ReportHeatMap, OneCellPerValueAndAKey) {
  Matrix m;
  m.name = "warps_x_ilp";
  m.row_name = "warps per SM";
  m.col_name = "ILP";
  m.value_name = "throughput";
  m.value_unit = "FLOP/clk/SM";
  m.rows = {1, 2, 4};
  m.cols = {1, 2};
  m.values = {1, 2, 3, 4, 5, 6};
  const std::string svg = heat_map_svg("throughput", "t", m);
  EXPECT_EQ(count(svg, "<rect"), 6 + 20);  // cells + the key's 20 steps
  EXPECT_NE(svg.find(heat_colour(0)), std::string::npos);  // the smallest value
  EXPECT_NE(svg.find(heat_colour(1)), std::string::npos);  // the largest
  m.values.pop_back();  // not rows x cols
  EXPECT_TRUE(heat_map_svg("throughput", "t", m).empty());
}

}  // namespace
}  // namespace gpuconform::report
