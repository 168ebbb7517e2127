// SPDX-License-Identifier: Apache-2.0
// The band policy: its strict parser, the rules that retire runs, the robust per-board
// statistics, and the two bands `record --from` derives with it.
#include "gpuconform/band_policy.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "gpuconform/board_spread.hpp"
#include "gpuconform/evidence_pool.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

const char* kPolicy = R"(
[meta]
z_warn = 3
z_fail = 5
min_boards = 5

[[class]]
name = "memory"
probes = ["latency.mem.*"]
spread_rel = 0.02
why = "test"

[[class]]
name = "throughput"
probes = ["throughput.*"]
spread_rel = 0.012
floor_rel = 0.002
why = "test"

[[exclude]]
gpu = "GPU-cccccccc"
probes = ["latency.mem.l2_*"]
reason = "measured before a fix"

[[supersede]]
probes = ["throughput.*"]
except = ["throughput.pcie.*"]
before = 2026-11-26T07:25:00Z
fix = "cb1d5ba"
reason = "older kernels"

[[supersede]]
probes = ["topology.gpc.sm_counts"]
before = 2026-11-25
fix = "3d44c78"
reason = "counted a violation the probe no longer makes"

[[invariant]]
probes = ["topology.gpc.sm_counts"]
why = "0 by definition"
)";

BandPolicy policy(const std::string& text = kPolicy) {
  std::vector<Diagnostic> diags;
  BandPolicy p = parse_band_policy_text(text, "policy.toml", diags);
  EXPECT_TRUE(diags.empty()) << (diags.empty() ? "" : diags.front().str());
  return p;
}

std::vector<Diagnostic> problems(const std::string& text) {
  std::vector<Diagnostic> diags;
  parse_band_policy_text(text, "policy.toml", diags);
  return diags;
}

const std::string kClass = "[[class]]\nname = \"x\"\nprobes = [\"a.*\"]\nspread_rel = 0.1\nwhy = \"w\"\n";

Measurement m(double v, std::optional<double> peak = std::nullopt) {
  Measurement x;
  x.value = v;
  x.unit = peak ? "B/s" : "cycles";
  x.peak = peak;
  return x;
}

Probe probe(const std::string& id, ExpectationKind kind, double min_tol = 0.25) {
  return Probe{id, Family::latency, "test", {}, {kind, min_tol, 0, 0.05}, nullptr};
}

BoardRuns board(const std::string& gpu, std::vector<Measurement> runs) {
  return BoardRuns{gpu, "run:" + gpu + ":1", std::move(runs), {}};
}

// Boards of one run each at these fractions of a peak of 100.
std::vector<BoardRuns> fractions(const std::vector<double>& values) {
  std::vector<BoardRuns> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    out.push_back(board("GPU-" + std::string(8, static_cast<char>('a' + i)), {m(values[i] * 100, 100.0)}));
  return out;
}

TEST(BandPolicy, FirstMatchingClassWins) {
  const BandPolicy p = policy();
  ASSERT_NE(p.class_for("latency.mem.l2_near"), nullptr);
  EXPECT_EQ(p.class_for("latency.mem.l2_near")->name, "memory");
  EXPECT_EQ(p.class_for("latency.alu.fma.rn.f32"), nullptr);
  EXPECT_DOUBLE_EQ(p.z_warn, 3);
  EXPECT_DOUBLE_EQ(p.z_fail, 5);
  EXPECT_EQ(p.min_boards, 5);
  EXPECT_DOUBLE_EQ(p.class_for("throughput.hbm.read")->floor_rel, 0.002);
  EXPECT_DOUBLE_EQ(p.class_for("latency.mem.hbm")->floor_rel, 0);
}

TEST(BandPolicy, ExclusionMatchesABoardPrefixAndAProbeGlob) {
  const BandPolicy p = policy();
  EXPECT_NE(p.exclusion_for("GPU-cccccccc-1111-2222", "latency.mem.l2_near"), nullptr);
  EXPECT_EQ(p.exclusion_for("GPU-cccccccc-1111-2222", "latency.mem.hbm"), nullptr);
  EXPECT_EQ(p.exclusion_for("GPU-dddddddd-1111-2222", "latency.mem.l2_near"), nullptr);
}

TEST(BandPolicy, SupersedeJudgesTheRunsOwnTime) {
  const BandPolicy p = policy();
  EXPECT_NE(p.superseded_by("throughput.hbm.read", "2026-11-26T07:24:21Z"), nullptr);  // intermediate kernels
  EXPECT_EQ(p.superseded_by("throughput.hbm.read", "2026-11-26T07:27:59Z"), nullptr);  // the final ones
  EXPECT_EQ(p.superseded_by("throughput.hbm.read", "2026-11-26T07:25:00Z"), nullptr);  // `before` is exclusive
  EXPECT_EQ(p.superseded_by("throughput.pcie.h2d", "2026-11-25T03:00:00Z"), nullptr);  // not changed by the fix
  EXPECT_EQ(p.superseded_by("latency.mem.hbm", "2026-11-23T00:00:00Z"), nullptr);      // not covered
  EXPECT_NE(p.superseded_by("throughput.hbm.read", ""), nullptr);  // nothing shows it postdates the fix
  EXPECT_NE(p.superseded_by("throughput.hbm.read", "yesterday"), nullptr);
  // A TOML date is midnight UTC.
  EXPECT_NE(p.superseded_by("topology.gpc.sm_counts", "2026-11-24T23:59:59Z"), nullptr);
  EXPECT_EQ(p.superseded_by("topology.gpc.sm_counts", "2026-11-25T00:00:00.5+00:00"), nullptr);
  EXPECT_EQ(p.supersedes[0].fix, "cb1d5ba");
  EXPECT_EQ(p.supersedes[0].before, "2026-11-26T07:25:00Z");

  TimedRun r;
  r.run.probe = "throughput.hbm.read";
  r.run.gpu = "GPU-cccccccc-1";
  r.time = "2026-11-25T03:45:00Z";
  EXPECT_NE(retired_because(p, r).find("[[supersede]] before 2026-11-26T07:25:00Z (fix cb1d5ba)"), std::string::npos);
  r.time = "2026-11-26T09:00:00Z";
  EXPECT_EQ(retired_because(p, r), "");
  r.run.probe = "latency.mem.l2_near";
  EXPECT_NE(retired_because(p, r).find("[[exclude]] GPU-cccccccc"), std::string::npos);
}

TEST(BandPolicy, CanonicalUtcAcceptsOnlyUtcTimeStamps) {
  EXPECT_EQ(canonical_utc("2026-11-25T04:17:03Z"), "2026-11-25T04:17:03Z");
  EXPECT_EQ(canonical_utc("2026-11-25T04:17:03.25Z"), "2026-11-25T04:17:03Z");
  EXPECT_EQ(canonical_utc("2026-11-25T04:17:03+00:00"), "2026-11-25T04:17:03Z");
  EXPECT_EQ(canonical_utc("2026-11-25T04:17:03+01:00"), "");
  EXPECT_EQ(canonical_utc("2026-11-25 04:17:03Z"), "");
  EXPECT_EQ(canonical_utc("2026-11-25"), "");
}

TEST(BandPolicy, StrictParserNamesThePlaceAndWhatIsWrong) {
  auto d = problems(kClass + "margin = 3\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].str().rfind("policy.toml:6:1: unknown key 'margin'", 0), 0u) << d[0].str();
  d = problems("[[class]]\nname = \"x\"\nprobes = [\"a.*\"]\nwhy = \"w\"\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("needs 'spread_rel'"), std::string::npos);
  EXPECT_EQ(problems("[[class]]\nname = \"x\"\nprobes = [\"a.*\"]\nspread_rel = -1\nwhy = \"w\"\n").size(), 1u);
  EXPECT_EQ(problems("[[exclude]]\ngpu = \"3ba2\"\nprobes = [\"a\"]\nreason = \"r\"\n").size(), 2u);  // bad gpu, no class
  EXPECT_EQ(problems("[meta]\nz_warn = 3\n").size(), 1u);                                          // a policy with no class
  EXPECT_EQ(problems("[meta]\nnoise_factor = 3\n" + kClass).size(), 1u);  // v1's key is gone
  EXPECT_EQ(problems("[meta]\nz_warn = 5\nz_fail = 5\n" + kClass).size(), 1u);  // fail must lie beyond warn
  EXPECT_EQ(problems("[meta]\nmin_boards = 4.5\n" + kClass).size(), 1u);

  const std::string supersede = "[[supersede]]\nprobes = [\"a.*\"]\nfix = \"cb1d5ba\"\nreason = \"r\"\n";
  d = problems(kClass + supersede + "before = \"2026-11-26\"\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].str().rfind("policy.toml:10:10: 'before' must be a TOML date", 0), 0u) << d[0].str();
  EXPECT_EQ(problems(kClass + supersede + "before = 2026-11-26T07:25:00+01:00\n").size(), 1u);  // not UTC
  EXPECT_EQ(problems(kClass + supersede + "before = 2026-11-26T07:25:00\n").size(), 1u);        // no offset
  EXPECT_TRUE(problems(kClass + supersede + "before = 2026-11-26T07:25:00Z\n").empty());
  d = problems(kClass + "[[supersede]]\nprobes = [\"a.*\"]\nbefore = 2026-11-26\nfix = \"HEAD\"\nreason = \"r\"\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("the fixing commit"), std::string::npos);
  d = problems(kClass + "[[supersede]]\nprobes = [\"a.*\"]\nbefore = 2026-11-26\n");
  ASSERT_EQ(d.size(), 2u);  // no fix, no reason
  EXPECT_NE(d[0].message.find("[[supersede]] needs 'fix'"), std::string::npos);
  EXPECT_EQ(problems(kClass + "[[invariant]]\nprobes = [\"a.*\"]\n").size(), 1u);
  EXPECT_EQ(problems(kClass + "[[observation]]\nprobe = \"a\"\nmeasured = 1\nboard = \"b\"\nsource = \"s\"\nsku = \"2335\"\n")
                .size(),
            1u);
}

// [[board_part]] names the probes whose healthy values split by board part on one SKU.
TEST(BandPolicy, BoardPartSplitsOnlyItsProbesOnItsSku) {
  const BandPolicy p = policy(kClass +
                              "[[board_part]]\nsku = \"0x2335\"\nprobes = [\"latency.mem.hbm\", "
                              "\"throughput.hbm.*\"]\nwhy = \"two kinds\"\n");
  ASSERT_EQ(p.board_parts.size(), 1u);
  EXPECT_TRUE(p.splits_by_board_part("0x2335", "latency.mem.hbm"));
  EXPECT_TRUE(p.splits_by_board_part("0x2335", "throughput.hbm.read"));
  EXPECT_FALSE(p.splits_by_board_part("0x2335", "latency.mem.l2_hit"));
  EXPECT_FALSE(p.splits_by_board_part("0x2330", "latency.mem.hbm"));
  auto d = problems(kClass + "[[board_part]]\nsku = \"0x2335\"\nprobes = [\"a\"]\n");
  ASSERT_EQ(d.size(), 1u);  // no why
  EXPECT_NE(d[0].message.find("[[board_part]] needs 'why'"), std::string::npos) << d[0].str();
  EXPECT_EQ(problems(kClass + "[[board_part]]\nsku = \"2335\"\nprobes = [\"a\"]\nwhy = \"w\"\n").size(), 1u);
  EXPECT_EQ(problems(kClass + "[[board_part]]\nsku = \"0x2335\"\nprobes = [\"a\"]\nwhy = \"w\"\npart = \"x\"\n").size(),
            1u);  // unknown key
}

TEST(BandPolicy, BoardSpreadIsRobustToOneOddBoardAndOneNoisyRun) {
  // Medians 100, 110, 104, 102, 160: centre 104, |deviations| 4, 6, 0, 2, 56 -> MAD 4.
  const BoardSpread s = board_spread({{99, 100, 101}, {110}, {104}, {102, 102, 120}, {160}});
  EXPECT_DOUBLE_EQ(s.centre, 104);
  EXPECT_DOUBLE_EQ(s.sigma, kMadToSigma * 4);
  EXPECT_DOUBLE_EQ(s.lowest, 100);
  EXPECT_DOUBLE_EQ(s.highest, 160);
  // Boards with two or more runs: largest deviations 1 and 18; their median is 9.5.
  EXPECT_DOUBLE_EQ(s.noise, 9.5);
  EXPECT_DOUBLE_EQ(s.relative(), kMadToSigma * 4 / 104);
  EXPECT_DOUBLE_EQ(board_spread({{5}}).sigma, 0);  // one board has no spread
}

TEST(BandPolicy, ClassSpreadCountsOwnSpreadsOnEnoughBoardsOfOneSku) {
  const BandPolicy p = policy();
  const auto spreads = class_spreads_from_evidence(
      p, {{"latency.mem.hbm", "0x2330", {{100}, {102}, {104}, {106}, {108}}},  // MAD 2 of 104
          {"latency.mem.l2_hit", "0x2330", {{200}, {201}, {202}, {203}, {204}}},  // MAD 1 of 202
          {"latency.mem.l2_near", "0x2330", {{200}, {240}}},                   // 2 boards: too few
          {"latency.mem.hbm", "0x2335", {{660}, {670}}},                       // another SKU's 2 boards
          {"topology.gpc.sm_counts", "0x2330", {{0}, {1}, {0}, {0}, {0}}},     // an invariant
          {"latency.alu.fma.rn.f32", "0x2330", {{4}, {4}, {5}, {4}, {4}}}});   // no class
  const ClassSpread& memory = spreads.at("memory");
  EXPECT_EQ(memory.probe, "latency.mem.hbm");
  EXPECT_EQ(memory.sku, "0x2330");
  EXPECT_DOUBLE_EQ(memory.spread_rel, kMadToSigma * 2 / 104);
  EXPECT_EQ(memory.boards, 5);
  EXPECT_EQ(memory.probes, 2);
  EXPECT_DOUBLE_EQ(memory.median_rel, (kMadToSigma * 2 / 104 + kMadToSigma * 1 / 202) / 2);
  EXPECT_EQ(memory.fewer_probe, "latency.mem.l2_near (0x2330)");
  EXPECT_DOUBLE_EQ(memory.fewer_rel, kMadToSigma * 20 / 220);
  EXPECT_TRUE(spreads.at("throughput").probe.empty());
}

TEST(BandPolicy, FiveBoardsGiveAnEntryItsOwnRobustSpread) {
  // 0.950, 0.952, 0.954, 0.956 and an odd 0.990: centre 0.954, MAD 0.002, sigma 0.0029652
  // (the class's 1.2 % is not used). Drift = min(0.954 - 3 sigma, lowest 0.950) = 0.9451044
  // -> 0.9451; fail = drift - (5 - 3) sigma = 0.9391740 -> 0.9391 (four digits, rounded down).
  const Expectation e = derive_expectation_across(probe("throughput.hbm.read", ExpectationKind::fraction_of_peak),
                                                  fractions({0.950, 0.952, 0.954, 0.956, 0.990}), policy());
  EXPECT_DOUBLE_EQ(*e.drift_min_fraction, 0.9451);
  EXPECT_DOUBLE_EQ(*e.min_fraction, 0.9391);
  EXPECT_NE(e.note.find("1.4826 x MAD of the 5 board medians"), std::string::npos) << e.note;
  EXPECT_NE(e.note.find("(class throughput)"), std::string::npos) << e.note;
}

TEST(BandPolicy, FewerThanFiveBoardsBorrowTheClassSpread) {
  // Centre 0.954; sigma = 1.2 % x 0.954 = 0.011448; drift = 0.954 - 0.034344 = 0.919656
  // -> 0.9196; fail = 0.919656 - 0.022896 = 0.89676 -> 0.8967.
  const Expectation e = derive_expectation_across(probe("throughput.hbm.read", ExpectationKind::fraction_of_peak),
                                                  fractions({0.950, 0.954, 0.956}), policy());
  EXPECT_DOUBLE_EQ(*e.drift_min_fraction, 0.9196);
  EXPECT_DOUBLE_EQ(*e.min_fraction, 0.8967);
  EXPECT_NE(e.note.find("class spread 1.2% x |centre| 0.01145 (3 boards, fewer than 5)"), std::string::npos) << e.note;
}

TEST(BandPolicy, TheClassFloorRaisesASpreadOfZero) {
  // Five boards that agree exactly: sigma = floor 0.2 % x 0.954 = 0.001908; drift 0.948276
  // -> 0.9482; fail 0.94446 -> 0.9444.
  const Expectation e = derive_expectation_across(probe("throughput.hbm.read", ExpectationKind::fraction_of_peak),
                                                  fractions({0.954, 0.954, 0.954, 0.954, 0.954}), policy());
  EXPECT_DOUBLE_EQ(*e.drift_min_fraction, 0.9482);
  EXPECT_DOUBLE_EQ(*e.min_fraction, 0.9444);
  EXPECT_NE(e.note.find("raised to the class floor 0.2%"), std::string::npos) << e.note;
}

TEST(BandPolicy, TheRunsOwnIntervalAddsInQuadrature) {
  // Five boards at 0.95 whose runs report a 95 % interval of +-0.392 %: one run's sigma is
  // 0.392 % / 1.96 x 0.95 = 0.0019; the boards agree, so their sigma is the class floor
  // 0.2 % x 0.95 = 0.0019 too: sigma = hypot(0.0019, 0.0019) = 0.002687.
  std::vector<BoardRuns> boards = fractions({0.95, 0.95, 0.95, 0.95, 0.95});
  for (BoardRuns& b : boards) {
    Sampling s;
    s.interval = MedianInterval{95, 95 * (1 - 0.00392), 95 * (1 + 0.00392), true};
    b.runs[0].sampling = s;
  }
  const Expectation e =
      derive_expectation_across(probe("throughput.hbm.read", ExpectationKind::fraction_of_peak), boards, policy());
  const double sigma = std::hypot(0.002 * 0.95, 0.00392 * 0.95 / 1.959964);
  EXPECT_NEAR(*e.drift_min_fraction, 0.95 - 3 * sigma, 1e-4);
  EXPECT_NEAR(*e.min_fraction, 0.95 - 5 * sigma, 1e-4);
  EXPECT_LT(*e.drift_min_fraction, 0.95 - 3 * 0.0019);  // wider than either part alone
  EXPECT_NEAR(run_interval_half_width(boards[0].runs[0]), 95 * 0.00392, 1e-12);
  EXPECT_DOUBLE_EQ(run_interval_half_width(m(95)), 0);  // no interval reported
}

TEST(BandPolicy, BandHoldsEveryBoardAndAddsTheRunNoise) {
  // Boards 275.2 (runs 274.7-275.7: noise 0.5), 276.1 and 275.4: centre 275.4; 3 boards, so
  // the class's 2 % stands in: sigma = hypot(5.508, 0.5) = 5.53065; drift = 3 sigma = 16.592
  // -> 16.6 (rounded up); fail = drift + 2 sigma = 27.653 -> 27.66.
  const Expectation e = derive_expectation_across(
      probe("latency.mem.l2_near", ExpectationKind::band),
      {board("GPU-dddddddd-1", {m(274.7), m(275.2), m(275.7)}), board("GPU-eeeeeeee-1", {m(276.1)}),
       board("GPU-ffffffff-1", {m(275.4)})},
      policy());
  EXPECT_DOUBLE_EQ(*e.value, 275.4);
  EXPECT_DOUBLE_EQ(*e.drift_tol, 16.6);
  EXPECT_DOUBLE_EQ(*e.tol, 27.66);
  EXPECT_NE(e.note.find("3 boards (dddddddd 275.2 (median of 3), eeeeeeee 276.1, ffffffff 275.4); noise 0.5 cycles"),
            std::string::npos)
      << e.note;
  EXPECT_NE(e.note.find("fail = drift + (5 - 3) x sigma = +- 27.66 (class memory)"), std::string::npos) << e.note;
  EXPECT_EQ(judge(m(280.5), e).outcome, Outcome::pass);  // issue 9's healthy 7th board
}

TEST(BandPolicy, ABoardFarFromTheCentreStaysInsideTheDriftBand) {
  // Five boards, one 10 cycles out: the robust sigma ignores it, the band still holds it.
  const Expectation e = derive_expectation_across(
      probe("latency.mem.hbm", ExpectationKind::band),
      {board("GPU-a", {m(690)}), board("GPU-b", {m(690.5)}), board("GPU-c", {m(689.5)}), board("GPU-d", {m(690)}),
       board("GPU-e", {m(700)})},
      policy());
  EXPECT_DOUBLE_EQ(*e.value, 690);
  EXPECT_GE(*e.drift_tol, 10);
  EXPECT_EQ(judge(m(700), e).outcome, Outcome::pass);
}

// Deterministic readings (no run noise): the drift limit is drawn exactly through the far
// board, and rounding it to four digits must not leave that board a hair outside
// (two H200s read latency.alu.sad.u64 25.875 where eight read 22.078125, 2026-11-26).
TEST(BandPolicy, ALimitDrawnThroughABoardStillHoldsItAfterRounding) {
  std::vector<BoardRuns> boards;
  for (const char* g : {"GPU-a", "GPU-b", "GPU-c", "GPU-d", "GPU-e", "GPU-f", "GPU-g", "GPU-h"})
    boards.push_back(board(g, {m(22.078125)}));
  boards.push_back(board("GPU-i", {m(25.875)}));
  boards.push_back(board("GPU-j", {m(25.875)}));
  const Expectation e = derive_expectation_across(probe("latency.alu.sad.u64", ExpectationKind::band), boards, policy());
  EXPECT_DOUBLE_EQ(*e.value, 22.078);
  EXPECT_GE(e.drift_tol.value_or(*e.tol), 25.875 - 22.078);
  EXPECT_EQ(judge(m(25.875), e).outcome, Outcome::pass);
  EXPECT_EQ(judge(m(22.078125), e).outcome, Outcome::pass);
}

TEST(BandPolicy, ACountKeepsTheProbesStepAsItsFailMargin) {
  // Block sawtooth: every board's median 0 and the typical run deviation 0 (one board saw
  // one mismatched step once): drift max 0, fail one step above.
  const Expectation e = derive_expectation_across(
      probe("throughput.sched.block_sawtooth", ExpectationKind::max, 1),
      {board("GPU-a", {m(0), m(0), m(0)}), board("GPU-b", {m(0), m(1), m(0)}), board("GPU-c", {m(0), m(0)})}, policy());
  EXPECT_DOUBLE_EQ(*e.max, 1);
  EXPECT_DOUBLE_EQ(*e.drift_max, 0);
  EXPECT_NE(e.note.find("the probe's step 1"), std::string::npos) << e.note;
}

TEST(BandPolicy, AnInvariantIsExactlyZeroAndRefusesABoardThatBrokeIt) {
  const Probe sm_counts = probe("topology.gpc.sm_counts", ExpectationKind::max, 0);
  const Expectation e =
      derive_expectation_across(sm_counts, {board("GPU-a", {m(0), m(0)}), board("GPU-b", {m(0)})}, policy());
  EXPECT_DOUBLE_EQ(*e.max, 0);
  EXPECT_FALSE(e.drift_max);
  EXPECT_NE(e.note.find("[[invariant]]"), std::string::npos) << e.note;
  try {
    derive_expectation_across(sm_counts, {board("GPU-a", {m(0)}), board("GPU-bbbbbbbb-2", {m(1), m(0)})}, policy());
    FAIL() << "a violated invariant must not become a tolerance";
  } catch (const std::runtime_error& err) {
    EXPECT_NE(std::string(err.what()).find("bbbbbbbb read 1"), std::string::npos) << err.what();
    EXPECT_NE(std::string(err.what()).find("supersede or exclude"), std::string::npos) << err.what();
  }
  EXPECT_THROW(derive_expectation_across(probe("topology.gpc.sm_counts", ExpectationKind::band),
                                         {board("GPU-a", {m(0)})}, policy()),
               std::runtime_error);  // an invariant is a max entry
}

TEST(BandPolicy, MinAndMaxLimitsMoveAwayFromTheBoards) {
  BandPolicy p = policy();
  p.classes[0].probes = {"*"};
  const std::vector<BoardRuns> boards = {board("GPU-a", {m(100)}), board("GPU-b", {m(110)})};
  // Centre 105, class sigma 2.1: min drift = min(105 - 6.3, 100) = 98.7, fail 98.7 - 4.2 = 94.5.
  const Expectation lo = derive_expectation_across(probe("latency.mem.x", ExpectationKind::min, 0), boards, p);
  EXPECT_DOUBLE_EQ(*lo.drift_min, 98.7);
  EXPECT_DOUBLE_EQ(*lo.min, 94.5);
  const Expectation hi = derive_expectation_across(probe("latency.mem.x", ExpectationKind::max, 0), boards, p);
  EXPECT_DOUBLE_EQ(*hi.drift_max, 111.3);
  EXPECT_DOUBLE_EQ(*hi.max, 115.5);
}

TEST(BandPolicy, SkuOverlayNeedsAnEntryWhereItsBoardsWarnOnTheBaseOrWhereItIsFaster) {
  Expectation base;
  base.kind = ExpectationKind::band;
  base.value = 700;
  base.tol = 60;
  base.drift_tol = 13;
  Expectation derived = base;  // the SKU's own entry: as wide, it has fewer boards
  derived.value = 710;
  EXPECT_FALSE(differs_beyond_drift(derived, base, {706, 712}));  // its boards sit in the base drift band
  EXPECT_TRUE(differs_beyond_drift(derived, base, {706, 714}));   // one would warn on the base
  derived.value = 666.4;
  EXPECT_TRUE(differs_beyond_drift(derived, base, {664, 668}));   // the H200's HBM latency
  base.drift_tol.reset();  // without a drift band the fail band decides
  EXPECT_FALSE(differs_beyond_drift(derived, base, {664, 668}));
  derived.value = 700;
  derived.tol = 20;  // a band's width stays the base's (a cited policy band holds for every SKU)
  EXPECT_FALSE(differs_beyond_drift(derived, base, {695, 705}));

  Expectation fb;
  fb.kind = ExpectationKind::fraction_of_peak;
  fb.min_fraction = 0.79;
  fb.drift_min_fraction = 0.85;
  Expectation fd = fb;
  fd.min_fraction = 0.78;  // a class margin: looser than the base
  EXPECT_FALSE(differs_beyond_drift(fd, fb, {0.86, 0.9}));  // the base holds the SKU's boards
  EXPECT_TRUE(differs_beyond_drift(fd, fb, {0.84, 0.9}));   // slower: its boards would warn on the base
  fd.min_fraction = 0.86;
  EXPECT_TRUE(differs_beyond_drift(fd, fb, {0.9, 0.92}));   // faster: it gets its own, tighter floor
  Expectation mb;
  mb.kind = ExpectationKind::min;
  mb.min = 10e12;
  Expectation md = mb;
  md.min = 10.5e12;  // an H200's L2 floor above the H100's
  EXPECT_TRUE(differs_beyond_drift(md, mb, {11e12, 11.3e12}));
  Expectation xb;
  xb.kind = ExpectationKind::max;
  xb.max = 0;
  EXPECT_FALSE(differs_beyond_drift(xb, xb, {0, 0}));  // an invariant the SKU also keeps at 0
  EXPECT_TRUE(differs_beyond_drift(xb, xb, {0, 1}));
}

TEST(BandPolicy, BoardsSeenSpanTheBoardsAndThreeRunSigmas) {
  // Medians 0.95 and 0.96 of peak; runs +-0.392 % (sigma 0.2 % of the value) on every board.
  std::vector<BoardRuns> boards = fractions({0.95, 0.96});
  for (BoardRuns& b : boards) {
    Sampling s;
    const double v = b.runs[0].value;
    s.interval = MedianInterval{v, v * (1 - 0.00392), v * (1 + 0.00392), true};
    b.runs[0].sampling = s;
  }
  const BoardsSeen seen = boards_seen(probe("throughput.hbm.read", ExpectationKind::fraction_of_peak), boards, policy());
  const double run = 0.00392 * 0.955 / 1.959964;  // the typical (median) interval of the two runs
  EXPECT_NEAR(seen.low, 0.95 - 3 * run, 1e-9);
  EXPECT_NEAR(seen.high, 0.96 + 3 * run, 1e-9);
}

}  // namespace
}  // namespace gpuconform
