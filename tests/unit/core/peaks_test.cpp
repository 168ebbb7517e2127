// SPDX-License-Identifier: Apache-2.0
// The peak tables (peaks.hpp) and the throughput arithmetic (throughput.hpp):
// strict parsing with file:line errors, the derived peak and its formula, the
// in-kernel clock, and the convergence point of a warps x ILP sweep.
#include <gtest/gtest.h>

#include "gpuconform/peaks.hpp"
#include "gpuconform/throughput.hpp"

namespace gpuconform {
namespace {

PeakTable parse(const std::string& text, std::vector<Diagnostic>& diags) {
  return parse_peak_text(text, "peaks/sm_90.toml", diags);
}

const char* kValid = R"([meta]
arch = "sm_90"

[peak."fp32.fma"]
per_sm_per_clock = 256
unit = "FLOP/clk/SM"
source = "cite:CUDA C++ Programming Guide"
note = "128 FMA x 2"
)";

TEST(PeakTable, ParsesAValidTable) {
  std::vector<Diagnostic> diags;
  const PeakTable t = parse(kValid, diags);
  ASSERT_TRUE(diags.empty()) << diags.front().str();
  EXPECT_EQ(t.arch, "sm_90");
  const PeakEntry* e = t.find("fp32.fma");
  ASSERT_NE(e, nullptr);
  EXPECT_DOUBLE_EQ(e->per_sm_per_clock, 256);
  EXPECT_EQ(e->unit, "FLOP/clk/SM");
  EXPECT_EQ(e->where.line, 4);
  EXPECT_EQ(t.find("fp64.fma"), nullptr);
}

TEST(PeakTable, RejectsWithFileAndLine) {
  struct Case {
    const char* text;
    const char* message;
    int line;
  } cases[] = {
      {"[meta]\narch = \"sm_90\"\n[peak.x]\nper_sm_per_clock = 1\nunit = \"op/clk/SM\"\nsource = \"run:x.jsonl:1\"\n",
       "must be a citation", 6},
      {"[meta]\narch = \"sm_90\"\n[peak.x]\nper_sm_per_clock = 0\nunit = \"op/clk/SM\"\nsource = \"cite:x\"\n",
       "> 0", 4},
      {"[meta]\narch = \"sm_90\"\n[peak.x]\nper_sm_per_clock = 1\nunit = \"FLOP/s\"\nsource = \"cite:x\"\n",
       "unknown unit", 5},
      {"[meta]\narch = \"sm_90\"\n[peak.x]\nper_sm_per_clok = 1\nunit = \"op/clk/SM\"\nsource = \"cite:x\"\n",
       "did you mean 'per_sm_per_clock'", 4},
      {"[meta]\narch = \"sm_90\"\n[peak.x]\nper_sm_per_clock = \"1\"\nunit = \"op/clk/SM\"\nsource = \"cite:x\"\n",
       "must be a number", 4},
      {"[meta]\narch = \"sm_90\"\n[peak.x]\nper_sm_per_clock = 1\nunit = \"op/clk/SM\"\n", "needs 'source'", 3},
      {"[peak.x]\nper_sm_per_clock = 1\nunit = \"op/clk/SM\"\nsource = \"cite:x\"\n", "missing [meta]", 1},
      {"[meta]\narch = \"sm_90\"\n[probe.x]\n", "unknown top-level key 'probe'", 3},
  };
  for (const Case& c : cases) {
    std::vector<Diagnostic> diags;
    const PeakTable t = parse(c.text, diags);
    ASSERT_FALSE(diags.empty()) << c.text;
    EXPECT_NE(diags.front().message.find(c.message), std::string::npos) << diags.front().str();
    EXPECT_EQ(diags.front().where.line, c.line) << diags.front().str();
    EXPECT_EQ(diags.front().where.file, "peaks/sm_90.toml");
    // An invalid entry is dropped (a file with any diagnostic is never used: peak_table_for throws).
    if (diags.front().message.find("[meta]") == std::string::npos) EXPECT_EQ(t.find("x"), nullptr) << c.text;
  }
}

TEST(PeakTable, RateUnitsAndPaths) {
  EXPECT_EQ(rate_unit("FLOP/clk/SM"), "FLOP/s");
  EXPECT_EQ(rate_unit("B/clk/SM"), "B/s");
  EXPECT_EQ(rate_unit("op/clk/SM"), "op/s");
  EXPECT_TRUE(is_peak_table_path("expectations/peaks/sm_90.toml"));
  EXPECT_FALSE(is_peak_table_path("expectations/sm_90.toml"));
}

TEST(Throughput, DerivedPeakUsesTheMeasuredClock) {
  std::vector<Diagnostic> diags;
  const PeakTable t = parse(kValid, diags);
  const DerivedPeak d = derive_peak(*t.find("fp32.fma"), 132, 1755, 1980);
  EXPECT_DOUBLE_EQ(d.peak, 256.0 * 132 * 1755e6);
  EXPECT_DOUBLE_EQ(d.peak_at_max, 256.0 * 132 * 1980e6);
  EXPECT_NE(d.formula.find("256 FLOP/clk/SM x 132 SMs x 1755 MHz measured"), std::string::npos) << d.formula;
  EXPECT_NE(d.formula.find("peaks/sm_90.toml:4"), std::string::npos) << d.formula;
  const DerivedPeak one = derive_peak(*t.find("fp32.fma"), 1, 1000, 0);
  EXPECT_DOUBLE_EQ(one.peak, 256e9);
  EXPECT_EQ(one.peak_at_max, 0);
  EXPECT_NE(one.formula.find("x 1 SM x"), std::string::npos) << one.formula;
  EXPECT_THROW(derive_peak(*t.find("fp32.fma"), 0, 1000, 0), std::invalid_argument);
  EXPECT_THROW(derive_peak(*t.find("fp32.fma"), 1, 0, 0), std::invalid_argument);
}

TEST(Throughput, ClockFromStampsTakesTheMedianOfLongEnoughLaunches) {
  // {c0, t0, c1, t1}: 1.8e6 cycles in 1e6 ns = 1800 MHz; 2e6 in 1e6 = 2000; a
  // launch of 1 us (too short for %globaltimer) and an unwritten one are ignored.
  const std::vector<long long> q = {0, 0, 1800000, 1000000, 10, 5, 2000010, 1000005, 0, 0, 1700, 1000,
                                    0, 0, 0, 0, 100, 0, 1700100, 1000000};
  EXPECT_DOUBLE_EQ(clock_from_stamps(q), 1800);
  EXPECT_EQ(clock_from_stamps({0, 0, 0, 0}), 0);
  EXPECT_EQ(clock_from_stamps({}), 0);
}

Matrix sweep(std::vector<double> warps, std::vector<double> ilp, std::vector<double> values) {
  Matrix m;
  m.rows = std::move(warps);
  m.cols = std::move(ilp);
  m.values = std::move(values);
  return m;
}

TEST(Throughput, ConvergencePointIsTheCheapestCellWithin95Percent) {
  // Seed 001 Fig. 6 in miniature: 4 warps x ILP 3 reaches 90%, 8 x 2 the best.
  const Matrix m = sweep({1, 4, 8}, {1, 2, 3, 4},
                         {230, 230, 230, 230,    //
                          500, 800, 900, 900,    //
                          600, 1000, 1000, 990});
  const GridPoint best = best_point(m);
  EXPECT_EQ(best.row, 2u);
  EXPECT_EQ(best.col, 1u);
  const GridPoint c = convergence_point(m, 0.95);
  EXPECT_EQ(m.rows[c.row] * m.cols[c.col], 16);
  EXPECT_EQ(c.row, 2u);
  const GridPoint loose = convergence_point(m, 0.85);  // 900 >= 850: 4 warps x ILP 3 = 12
  EXPECT_EQ(loose.row, 1u);
  EXPECT_EQ(loose.col, 2u);
  // Ties in warps x ILP go to fewer warps.
  const Matrix tie = sweep({1, 2}, {1, 2}, {10, 100, 100, 100});
  const GridPoint t = convergence_point(tie, 0.95);
  EXPECT_EQ(t.row, 0u);
  EXPECT_EQ(t.col, 1u);
  EXPECT_THROW(best_point(sweep({1}, {1, 2}, {1})), std::invalid_argument);
}

}  // namespace
}  // namespace gpuconform
