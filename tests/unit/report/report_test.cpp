// SPDX-License-Identifier: Apache-2.0
// `gpuconform report` on records: what it reads (every test line, other record kinds
// skipped, staircases out of the notes), what it marks on a staircase, and what the HTML
// and Markdown hold. The fixture report_curves.jsonl holds real H100 latency.mem lines
// (with their staircase notes) and synthetic curves and matrices for drawing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "gpuconform/report.hpp"
#include "gpuconform/report_model.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "test_paths.hpp"

namespace gpuconform::report {
namespace {

std::string fixture_path() { return test::fixture("evidence/report_curves.jsonl"); }

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

const std::string kLine =
    R"({"probe":"latency.alu.fma.rn.f32","verdict":"pass","measured":{"value":4.016,"unit":"cycles"},)"
    R"("expected":{"kind":"band","value":4.0,"tol":0.27,"drift_tol":0.25,"unit":"cycles"},)"
    R"("device":{"arch":"sm_90","uuid":"GPU-a"}})";

TEST(ReportRecord, ReadsTestLinesAndSkipsOtherKinds) {
  const std::string text = R"({"record":"header","schema_version":2,"host":"n1"})" "\n" + kLine + "\n" +
                           R"({"record":"gpu_state","schema_version":2})" "\n" +
                           R"({"probe":"numeric.x","verdict":"skip","reason":"no","device":{"arch":"sm_90","uuid":"GPU-b"}})" "\n";
  const RecordData r = parse_record_text(text, "mem.jsonl");
  ASSERT_EQ(r.entries.size(), 2u);
  EXPECT_EQ(r.other_lines, 2);
  EXPECT_EQ(r.gpus, (std::vector<std::string>{"GPU-a", "GPU-b"}));
  EXPECT_EQ(r.entries[0].family, "latency");
  EXPECT_TRUE(r.entries[0].measured);
  EXPECT_EQ(r.entries[0].expected.kind, "band");
  EXPECT_EQ(*r.entries[0].expected.drift_tol, 0.25);
  EXPECT_FALSE(r.entries[1].measured);  // a skip is counted, not drawn
  EXPECT_EQ(r.entries[1].line, 4);
}

TEST(ReportRecord, ACutLastLineIsDroppedAndTheRestDrawn) {
  const RecordData r = parse_record_text(kLine + "\n" + kLine.substr(0, 30), "crashed.jsonl");
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.entries[0].line, 1);
}

TEST(ReportRecord, StaircaseNotesBecomeSeries) {
  const std::string text =
      R"({"probe":"latency.mem.l2_capacity_edge","verdict":"pass","device":{"arch":"sm_90","uuid":"GPU-a","l2_bytes":52428800},)"
      R"("measured":{"value":0.5,"unit":"ratio","notes":{"staircase":"{\"bytes\":[1048576,67108864],\"cycles\":[283.0,540.5]}","edge":"text"}}})";
  const RecordData r = parse_record_text(text, "mem.jsonl");
  ASSERT_EQ(r.entries.at(0).m.series.size(), 1u);
  const Series& s = r.entries[0].m.series[0];
  EXPECT_EQ(s.name, "staircase");
  EXPECT_EQ(s.x_unit, "B");
  EXPECT_EQ(s.y, (std::vector<double>{283.0, 540.5}));
  EXPECT_EQ(*r.entries[0].l2_bytes, 52428800);
}

TEST(ReportRecord, MalformedCurvesNameTheLine) {
  const std::string bad_series =
      kLine.substr(0, kLine.find(R"("unit":"cycles"},)")) +
      R"("unit":"cycles","series":[{"name":"s","x":{"values":[1,2]},"y":{"values":[1]}}]},"device":{"arch":"sm_90"}})";
  try {
    parse_record_text("\n" + bad_series + "\n", "bad.jsonl");
    FAIL() << "a series with 2 x and 1 y values was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.jsonl:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2 x values but 1 y values"), std::string::npos) << e.what();
  }
  const std::string bad_matrix =
      R"({"probe":"throughput.m","verdict":"pass","device":{"arch":"sm_90"},"measured":{"value":1,"unit":"x",)"
      R"("matrices":[{"name":"m","rows":{"values":[1,2]},"cols":{"values":[1]},"values":{"data":[[1]]}}]}})";
  EXPECT_THROW(parse_record_text(bad_matrix, "bad.jsonl"), std::runtime_error);
  EXPECT_THROW(parse_record_text(R"({"schema_version":99,"probe":"x"})", "new.jsonl"), std::runtime_error);
  EXPECT_THROW(parse_record_text("not json", "x.jsonl"), std::runtime_error);
}

TEST(ReportModel, StripRowsCarryTheBands) {
  const std::string frac =
      R"({"probe":"throughput.hbm.read","verdict":"pass","device":{"arch":"sm_90","uuid":"GPU-a"},)"
      R"("measured":{"value":2.8,"unit":"B/s","peak":3.5},"expected":{"kind":"fraction_of_peak","min_fraction":0.7,"drift_min_fraction":0.76}})";
  const RecordData r = parse_record_text(kLine + "\n" + frac + "\n", "m.jsonl");
  const auto lat = strip_rows(r, "latency");
  ASSERT_EQ(lat.size(), 1u);
  EXPECT_DOUBLE_EQ(*lat[0].fail_lo, 4.0 - 0.27);
  EXPECT_DOUBLE_EQ(*lat[0].drift_hi, 4.0 + 0.25);
  EXPECT_EQ(lat[0].verdict, "pass");
  EXPECT_EQ(band_text(lat[0], "cycles"), "4 cycles ± 0.27 cycles (drift ± 0.25 cycles)");
  EXPECT_EQ(position_text(lat[0], 4.016), "inside the drift band");
  EXPECT_EQ(position_text(lat[0], 4.26), "between drift and fail band");
  EXPECT_EQ(position_text(lat[0], 3.5), "outside the fail band");
  const auto tp = strip_rows(r, "throughput");
  ASSERT_EQ(tp.size(), 1u);
  EXPECT_DOUBLE_EQ(tp[0].points.at(0).value, 0.8);  // drawn as its fraction of peak
  EXPECT_FALSE(tp[0].fail_hi);
  EXPECT_EQ(band_text(tp[0], ""), "≥ 0.7 of peak (drift ≥ 0.76)");
}

TEST(ReportModel, StaircaseMarksTheReportedL2AndTheMeasuredEdge) {
  const RecordData r = load_record(fixture_path());
  const auto charts = curve_charts(r, "latency");
  const auto l2 = std::find_if(charts.begin(), charts.end(),
                               [](const CurveChart& c) { return c.probe == "latency.mem.l2_capacity_edge"; });
  ASSERT_NE(l2, charts.end());
  double edge = 0, size = 0;
  for (const Marker& m : l2->markers) {
    if (m.label.rfind("measured edge", 0) == 0) edge = m.at;
    if (m.label.rfind("L2 size", 0) == 0) size = m.at;
  }
  // The probe records its edge over the reported L2 size: the marker is their product.
  double ratio = 0, l2_bytes = 0;
  for (const Entry& e : r.entries)
    if (e.probe == "latency.mem.l2_capacity_edge") ratio = e.m.value, l2_bytes = *e.l2_bytes;
  EXPECT_DOUBLE_EQ(size, l2_bytes);
  EXPECT_DOUBLE_EQ(edge, ratio * l2_bytes);
  EXPECT_GT(size, edge);
}

TEST(ReportHtml, SelfContainedWithAChartPerFamily) {
  const RecordData r = load_record(fixture_path());
  const std::string html = render_html(r, {});
  const std::string low = lower(html);
  EXPECT_EQ(low.find("http:"), std::string::npos);
  EXPECT_EQ(low.find("https:"), std::string::npos);
  EXPECT_EQ(low.find("<script"), std::string::npos);  // the fixture's reason holds one, escaped
  EXPECT_EQ(low.find("xmlns"), std::string::npos);
  for (const std::string f : {"latency", "throughput", "numeric", "topology"})
    EXPECT_NE(html.find("class=\"chart strips\" data-family=\"" + f + "\""), std::string::npos) << f;
  EXPECT_NE(html.find("class=\"chart heat\" data-family=\"throughput\""), std::string::npos);  // warps x ILP
  EXPECT_NE(html.find("class=\"chart heat\" data-family=\"topology\""), std::string::npos);
  const auto staircase = html.find("<section id=\"staircase\">");
  ASSERT_NE(staircase, std::string::npos);
  EXPECT_LT(html.find("<svg class=\"chart\" data-family=\"latency\"", staircase), html.find("</section>", staircase));
  EXPECT_NE(html.find("Absent: no --baseline record given"), std::string::npos);
  EXPECT_NE(html.find("topology.sm.&lt;b&gt;clock&lt;/b&gt;"), std::string::npos);
  EXPECT_NE(html.find("parallel.streams.overlap"), std::string::npos);  // a skip is listed
}

TEST(ReportHtml, SaysWhatIsAbsent) {
  const RecordData r = parse_record_text(kLine + "\n", "one.jsonl");
  const std::string html = render_html(r, {});
  EXPECT_NE(html.find("Absent: no latency probe kept a curve"), std::string::npos);
  EXPECT_NE(html.find("Absent: no throughput probe kept a Matrix"), std::string::npos);
  EXPECT_NE(html.find("Absent: the record holds no numeric.* probe"), std::string::npos);
}

TEST(ReportHtml, BaselineDeltasNameTheMovedProbe) {
  const auto before = parse_run_record_text(kLine + "\n", "before.jsonl");
  std::string moved = kLine;
  moved.replace(moved.find("4.016"), 5, "6.016");
  const RecordData r = parse_record_text(moved + "\n", "after.jsonl");
  Options o;
  o.baseline_path = "before.jsonl";
  o.baseline = compare_boards(before, parse_run_record_text(moved + "\n", "after.jsonl"), 0.02, Pairing{});
  const std::string html = render_html(r, o);
  EXPECT_NE(html.find("<section id=\"deltas\"><h2>Baseline deltas</h2>"), std::string::npos);
  EXPECT_NE(html.find("+49.80%"), std::string::npos);
  const std::string md = render_markdown(r, o);
  EXPECT_NE(md.find("| `latency.alu.fma.rn.f32` | 4.016"), std::string::npos) << md;
}

TEST(ReportMarkdown, TablesForEverySection) {
  const RecordData r = load_record(fixture_path());
  const std::string md = render_markdown(r, {});
  for (const std::string h : {"## Per-family summary", "## Measured against bands", "## Latency staircase",
                              "## Tensor-core sweeps (warps × ILP)", "## Per-SM maps (topology)", "## Numeric models",
                              "## Baseline deltas\n\nAbsent"})
    EXPECT_NE(md.find(h), std::string::npos) << h;
  EXPECT_NE(md.find("| `numeric.mma_sync.m16n8k16.f32.f16` |"), std::string::npos);
  EXPECT_NE(md.find("- marked: L2 size (reported) 50 MiB"), std::string::npos);
  EXPECT_NE(md.find("drifted: &lt;script&gt;"), std::string::npos);  // no raw HTML through a Markdown viewer
  EXPECT_NE(md.find("| `topology.sm.<b>clock</b>` |"), std::string::npos);  // a code span shows text as it is
}

}  // namespace
}  // namespace gpuconform::report
