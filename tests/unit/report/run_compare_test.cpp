// SPDX-License-Identifier: Apache-2.0
// compare_runs: what counts as moved, and in which order it is reported; the verdict rule,
// pairing boards, and the fleet outlier rule.
#include "gpuconform/run_compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "gpuconform/fleet_compare.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

RecordedRun run(const std::string& probe, double value, const std::string& unit, const std::string& verdict = "pass",
                const std::string& gpu = "GPU-test") {
  RecordedRun r;
  r.probe = probe;
  r.verdict = verdict;
  r.gpu = r.board = gpu;
  r.measurement.value = value;
  r.measurement.unit = unit;
  return r;
}

TEST(RunCompare, MovedMeansBeyondTheThresholdOrAnyExactDifference) {
  const std::vector<RecordedRun> base = {run("a", 100, "cycles"), run("b", 100, "cycles"),
                                         run("n", 0, "mismatches"), run("gone", 1, "cycles")};
  const std::vector<RecordedRun> cand = {run("a", 101, "cycles"), run("b", 90, "cycles", "fail"),
                                         run("n", 1, "mismatches", "fail"), run("new", 1, "cycles")};
  const RunComparison c = compare_runs(base, cand, 0.02);
  ASSERT_EQ(c.probes.size(), 3u);
  // n (exact) moved; b's -10% is AMBIGUOUS: one run, no samples, so its noise is unknown
  EXPECT_EQ(c.moved_count(), 1);
  // moved first, then largest change first: n (+1 from 0 counts as 100%), then b (-10%), then a
  EXPECT_EQ(c.probes[0].probe, "n");
  EXPECT_EQ(c.probes[1].probe, "b");
  EXPECT_NEAR(c.probes[1].relative, -0.10, 1e-12);
  EXPECT_EQ(c.probes[1].judgement, Judgement::Ambiguous);
  EXPECT_TRUE(c.probes[1].verdict_changed);
  EXPECT_EQ(c.probes[2].probe, "a");
  EXPECT_FALSE(c.probes[2].moved);  // +1% under a 2% threshold
  EXPECT_EQ(c.only_baseline, std::vector<std::string>{"gone"});
  EXPECT_EQ(c.only_candidate, std::vector<std::string>{"new"});
}

// A firmware upgrade between the runs shows in the two sides' setup lines.
TEST(RunCompare, EachSidesSetupNamesTheFirmwareWhereTheRecordHasIt) {
  RecordedRun before = run("a", 100, "cycles"), after = run("a", 100, "cycles");
  before.firmware = "VBIOS 96.00.74.00.01";
  after.firmware = "VBIOS 96.00.A5.00.1A";
  const RunComparison c = compare_runs({before}, {after}, 0.02);
  EXPECT_NE(c.baseline_setup.find(", VBIOS 96.00.74.00.01"), std::string::npos) << c.baseline_setup;
  EXPECT_NE(c.candidate_setup.find(", VBIOS 96.00.A5.00.1A"), std::string::npos) << c.candidate_setup;
  const RunComparison none = compare_runs({run("a", 100, "cycles")}, {run("a", 100, "cycles")}, 0.02);
  EXPECT_EQ(none.baseline_setup.find("VBIOS"), std::string::npos);
}

TEST(RunCompare, SeveralRunsCompareByMedianAndRecordedIsNoVerdict) {
  const std::vector<RecordedRun> base = {run("a", 100, "cycles", "recorded"), run("a", 200, "cycles", "recorded"),
                                         run("a", 101, "cycles", "recorded")};
  const std::vector<RecordedRun> cand = {run("a", 101, "cycles", "pass")};
  const RunComparison c = compare_runs(base, cand, 0.02);
  ASSERT_EQ(c.probes.size(), 1u);
  EXPECT_DOUBLE_EQ(c.probes[0].baseline, 101);
  EXPECT_EQ(c.probes[0].baseline_runs, 3);
  EXPECT_FALSE(c.probes[0].moved);
  EXPECT_FALSE(c.probes[0].verdict_changed);
}

// A toolkit upgrade's math-library change (docs/toolkit-upgrade.md): one more ulp, or a
// real-valued error that moved by less than the threshold, is MOVED, never AMBIGUOUS or
// SAME; a maximum error is better lower. Timings keep the noise rule.
TEST(RunCompare, UlpAndNumericErrorsAreExact) {
  const auto max_kind = [](RecordedRun r) {
    r.expected_kind = "max";
    return r;
  };
  const std::vector<RecordedRun> base = {max_kind(run("numeric.math.expf", 2, "ulp")),
                                         max_kind(run("numeric.math.sinf", 1, "ulp")),
                                         max_kind(run("numeric.scalar.ex2.approx.f32", 2.0, "ulp")),
                                         max_kind(run("numeric.scalar.sin.approx.f32", 4.0e-7, "absolute error")),
                                         max_kind(run("numeric.profile.x", 1.0e-3, "abs error")),
                                         run("latency.x", 100, "cycles")};
  const std::vector<RecordedRun> cand = {max_kind(run("numeric.math.expf", 1, "ulp")),
                                         max_kind(run("numeric.math.sinf", 1, "ulp")),
                                         max_kind(run("numeric.scalar.ex2.approx.f32", 3.0, "ulp")),
                                         max_kind(run("numeric.scalar.sin.approx.f32", 4.001e-7, "absolute error")),
                                         max_kind(run("numeric.profile.x", 1.0e-3, "abs error")),
                                         run("latency.x", 101, "cycles")};
  const RunComparison c = compare_runs(base, cand, 0.02);
  ASSERT_EQ(c.probes.size(), 6u);
  EXPECT_EQ(c.moved_count(), 3);
  const auto at = [&](const std::string& probe) {
    return *std::find_if(c.probes.begin(), c.probes.end(), [&](const ProbeDelta& d) { return d.probe == probe; });
  };
  EXPECT_EQ(at("numeric.math.expf").change(), "BETTER");
  EXPECT_EQ(at("numeric.scalar.ex2.approx.f32").change(), "WORSE");
  EXPECT_EQ(at("numeric.scalar.sin.approx.f32").change(), "WORSE");  // +0.025%, under the 2% threshold
  EXPECT_EQ(at("numeric.math.sinf").change(), "SAME");
  EXPECT_EQ(at("numeric.profile.x").change(), "SAME");
  EXPECT_EQ(at("latency.x").change(), "SAME");  // +1% under the threshold
  EXPECT_TRUE(exact_value("throughput.x", "ulp"));
  EXPECT_FALSE(exact_value("throughput.x", "B/s"));
}

TEST(RunCompare, AChangedUnitIsAMove) {
  const RunComparison c = compare_runs({run("a", 1, "cycles")}, {run("a", 1, "ns")}, 0.02);
  ASSERT_EQ(c.probes.size(), 1u);
  EXPECT_TRUE(c.probes[0].moved);
}

}  // namespace
}  // namespace gpuconform

namespace gpuconform {
namespace {

// A board's run of probe "p" in cycles with these samples; the value is their median.
RecordedRun sampled(const std::string& gpu, std::vector<double> samples, int index = 0) {
  RecordedRun r;
  r.probe = "p";
  r.gpu = r.board = gpu;
  r.device_index = index;
  r.verdict = "pass";
  r.measurement.unit = "cycles";
  r.measurement.samples = samples;
  r.measurement.value = median(samples);
  return r;
}

// A pair probe's run "from `board` (device `index`) to `peer` (device `peer_index`)", filed
// as the reader files it.
RecordedRun pair_of(const std::string& board, const std::string& peer, std::vector<double> samples, int index = 0,
                    int peer_index = 1) {
  RecordedRun r = sampled(board, std::move(samples), index);
  r.probe = "p2p";
  r.peers = {peer};
  r.peer_indices = {peer_index};
  r.gpu = board_key(board, r.peers);
  return r;
}

Spread spread(double median, double noise, int n) { return Spread{median, noise, n}; }

TEST(CompareJudge, SameWithinTheQuieterNoisePlusThreshold) {
  // tol = 2% of 100 = 2; quieter noise 1: |diff| <= 3 is SAME
  EXPECT_EQ(judge(spread(100, 1, 7), spread(103, 5, 7), false, 0.02), Judgement::Same);
  EXPECT_EQ(judge(spread(100, 0, 7), spread(102, 0, 7), false, 0.02), Judgement::Same);
}

TEST(CompareJudge, MovedBeyondTheNoisierNoisePlusThreshold) {
  EXPECT_EQ(judge(spread(100, 1, 7), spread(108.5, 5, 7), false, 0.02), Judgement::Moved);
  EXPECT_EQ(judge(spread(4.015625, 0, 7), spread(6.015625, 0, 7), false, 0.02), Judgement::Moved);
}

TEST(CompareJudge, AmbiguousBetweenTheNoisesOrWithTooFewSamples) {
  // beyond 1 + 2 but within 5 + 2
  EXPECT_EQ(judge(spread(100, 1, 7), spread(106, 5, 7), false, 0.02), Judgement::Ambiguous);
  // far beyond any noise, but 2 samples cannot tell the noise
  EXPECT_EQ(judge(spread(100, 0, 2), spread(150, 0, 7), false, 0.02), Judgement::Ambiguous);
}

TEST(CompareJudge, ExactCountsMoveOnAnyChange) {
  EXPECT_EQ(judge(spread(0, 0, 1), spread(1, 0, 1), true, 0.5), Judgement::Moved);
  EXPECT_EQ(judge(spread(3, 0, 1), spread(3, 0, 1), true, 0.5), Judgement::Same);
}

TEST(CompareSpread, OneRunUsesItsSamplesSeveralRunsTheirValues) {
  const RecordedRun a = sampled("g", {10, 10, 10, 10, 30});  // MAD 0, p95 - p5 = 16
  EXPECT_DOUBLE_EQ(spread_of({&a}).median, 10);
  EXPECT_EQ(spread_of({&a}).n, 5);
  EXPECT_NEAR(spread_of({&a}).noise, 8, 1e-9);
  const RecordedRun b = sampled("g", {12}), c = sampled("g", {14});
  const Spread s = spread_of({&a, &b, &c});  // run values 10, 12, 14
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.median, 12);
  EXPECT_NEAR(s.noise, 1.4826 * 2, 1e-9);  // MAD 2 beats (p95 - p5) / 2 = 1.8
}

const std::vector<double> kQuiet = {100, 100, 100, 100, 100};
const std::vector<double> kRaised = {150, 150, 150, 150, 150};

TEST(ComparePairing, PairsByUuidAndNamesTheBoardThatMoved) {
  const std::vector<RecordedRun> before = {sampled("GPU-a", kQuiet), sampled("GPU-b", kQuiet),
                                           sampled("GPU-gone", kQuiet)};
  const std::vector<RecordedRun> after = {sampled("GPU-b", kRaised), sampled("GPU-a", kQuiet),
                                          sampled("GPU-new", kQuiet)};
  const PairedComparison p = compare_boards(before, after, 0.02, {});
  ASSERT_EQ(p.pairs.size(), 2u);
  EXPECT_EQ(p.pairs[0].baseline_gpu, "GPU-a");
  EXPECT_EQ(p.pairs[0].candidate_gpu, "GPU-a");
  EXPECT_EQ(p.pairs[0].comparison.moved_count(), 0);
  EXPECT_EQ(p.pairs[1].candidate_gpu, "GPU-b");
  EXPECT_EQ(p.pairs[1].comparison.moved_count(), 1);
  EXPECT_EQ(p.moved_count(), 1);
  EXPECT_EQ(p.only_baseline_gpus, std::vector<std::string>{"GPU-gone"});
  EXPECT_EQ(p.only_candidate_gpus, std::vector<std::string>{"GPU-new"});
}

TEST(ComparePairing, ExplicitPairsByPrefixAndByIndex) {
  const std::vector<RecordedRun> before = {sampled("GPU-aaaa", kQuiet, 0), sampled("GPU-bbbb", kQuiet, 1)};
  const std::vector<RecordedRun> after = {sampled("GPU-cccc", kRaised, 0), sampled("GPU-dddd", kQuiet, 1)};
  EXPECT_TRUE(compare_boards(before, after, 0.02, {}).pairs.empty());  // no UUID in common
  Pairing swapped;
  swapped.explicit_pairs = {{"GPU-a", "GPU-d"}};
  const PairedComparison p = compare_boards(before, after, 0.02, swapped);
  ASSERT_EQ(p.pairs.size(), 1u);
  EXPECT_EQ(p.pairs[0].candidate_gpu, "GPU-dddd");
  EXPECT_EQ(p.moved_count(), 0);
  Pairing by_index;
  by_index.by_index = true;
  const PairedComparison q = compare_boards(before, after, 0.02, by_index);
  ASSERT_EQ(q.pairs.size(), 2u);
  EXPECT_EQ(q.pairs[0].candidate_gpu, "GPU-cccc");
  EXPECT_EQ(q.moved_count(), 1);
  Pairing unknown;
  unknown.explicit_pairs = {{"GPU-", "GPU-c"}};  // two baseline boards match
  EXPECT_THROW(compare_boards(before, after, 0.02, unknown), std::invalid_argument);
}

// Two records of different single boards are not paired by themselves (compare refuses
// them unless --pair or --by-index says so); the report's --baseline asks for it.
TEST(ComparePairing, TwoSingleBoardRecordsPairOnlyWhenAskedTo) {
  const PairedComparison refused = compare_boards({sampled("GPU-x", kQuiet)}, {sampled("GPU-y", kRaised)}, 0.02, {});
  EXPECT_TRUE(refused.pairs.empty());
  EXPECT_EQ(refused.only_baseline_gpus, std::vector<std::string>{"GPU-x"});
  EXPECT_EQ(refused.only_candidate_gpus, std::vector<std::string>{"GPU-y"});
  Pairing single;
  single.pair_single_boards = true;
  const PairedComparison p = compare_boards({sampled("GPU-x", kQuiet)}, {sampled("GPU-y", kRaised)}, 0.02, single);
  ASSERT_EQ(p.pairs.size(), 1u);
  EXPECT_EQ(p.moved_count(), 1);
}

// BETTER / WORSE from the entry's direction; MOVED for a two-sided band or a new unit.
TEST(CompareDirection, FromTheEntrysKind) {
  EXPECT_EQ(direction_of("throughput.hbm.read", "fraction_of_peak"), Direction::higher_is_better);
  EXPECT_EQ(direction_of("health.pcie.link", "min"), Direction::higher_is_better);
  EXPECT_EQ(direction_of("health.ecc.uncorrected", "max"), Direction::lower_is_better);
  EXPECT_EQ(direction_of("latency.mem.l2_hit", "band"), Direction::lower_is_better);
  EXPECT_EQ(direction_of("latency.mem.l2_hit", ""), Direction::lower_is_better);
  EXPECT_EQ(direction_of("topology.sm.count", "band"), Direction::two_sided);
  EXPECT_EQ(direction_of("numeric.mma_sync.x", "exact"), Direction::two_sided);
  std::vector<RecordedRun> before = {sampled("GPU-x", kQuiet)}, after = {sampled("GPU-x", kRaised)};
  before[0].expected_kind = after[0].expected_kind = "fraction_of_peak";
  const RunComparison up = compare_runs(before, after, 0.02);
  ASSERT_EQ(up.probes.size(), 1u);
  ASSERT_TRUE(up.probes[0].moved);
  EXPECT_EQ(up.probes[0].change(), "BETTER");
  EXPECT_EQ(compare_runs(after, before, 0.02).probes[0].change(), "WORSE");
  before[0].expected_kind = after[0].expected_kind = "max";
  EXPECT_EQ(compare_runs(before, after, 0.02).probes[0].change(), "WORSE");
  before[0].expected_kind = after[0].expected_kind = "band";
  EXPECT_EQ(compare_runs(before, after, 0.02).probes[0].change(), "MOVED");
  EXPECT_EQ(compare_runs(before, before, 0.02).probes[0].change(), "SAME");
}

// The unit of a pair result is the ordered pair of boards: A>B compares with A>B, and
// neither with A alone nor with B>A, the other direction of the same link.
TEST(ComparePairing, APairComparesWithTheSamePairInTheSameDirection) {
  const std::vector<RecordedRun> before = {sampled("GPU-a", kQuiet), pair_of("GPU-a", "GPU-b", kQuiet),
                                           pair_of("GPU-b", "GPU-a", kQuiet, 1, 0)};
  const std::vector<RecordedRun> after = {pair_of("GPU-b", "GPU-a", kQuiet, 1, 0), sampled("GPU-a", kQuiet),
                                          pair_of("GPU-a", "GPU-b", kRaised)};
  const PairedComparison p = compare_boards(before, after, 0.02, {});
  ASSERT_EQ(p.pairs.size(), 3u);
  EXPECT_EQ(p.pairs[0].candidate_gpu, "GPU-a");
  EXPECT_EQ(p.pairs[0].comparison.probes.size(), 1u);  // "p" only: the board's pair results are not the board's
  EXPECT_EQ(p.pairs[1].baseline_gpu, "GPU-a>GPU-b");
  EXPECT_EQ(p.pairs[1].candidate_gpu, "GPU-a>GPU-b");
  EXPECT_EQ(p.pairs[1].comparison.moved_count(), 1);
  EXPECT_EQ(p.pairs[2].candidate_gpu, "GPU-b>GPU-a");
  EXPECT_EQ(p.pairs[2].comparison.moved_count(), 0);

  // Only the other direction on the other side: nothing to compare it with.
  const std::vector<RecordedRun> forth = {sampled("GPU-a", kQuiet), pair_of("GPU-a", "GPU-b", kQuiet)};
  const std::vector<RecordedRun> back = {sampled("GPU-a", kQuiet), pair_of("GPU-b", "GPU-a", kQuiet, 1, 0)};
  const PairedComparison q = compare_boards(forth, back, 0.02, {});
  ASSERT_EQ(q.pairs.size(), 1u);
  EXPECT_EQ(q.pairs[0].candidate_gpu, "GPU-a");
  EXPECT_EQ(q.only_baseline_gpus, std::vector<std::string>{"GPU-a>GPU-b"});
  EXPECT_EQ(q.only_candidate_gpus, std::vector<std::string>{"GPU-b>GPU-a"});
  // Nor does a lone pair fall back to pairing with a lone board or the lone reverse pair.
  EXPECT_TRUE(compare_boards({pair_of("GPU-a", "GPU-b", kQuiet)}, {sampled("GPU-a", kQuiet)}, 0.02, {}).pairs.empty());
  EXPECT_TRUE(
      compare_boards({pair_of("GPU-a", "GPU-b", kQuiet)}, {pair_of("GPU-b", "GPU-a", kQuiet)}, 0.02, {}).pairs.empty());
}

// Two nodes: --pair renames boards, so A=C and B=D also pair A>B with C>D (not D>C); by
// index, 0>1 pairs with 0>1.
TEST(ComparePairing, PairResultsFollowExplicitPairsAndIndices) {
  const std::vector<RecordedRun> before = {sampled("GPU-aaaa", kQuiet, 0), sampled("GPU-bbbb", kQuiet, 1),
                                           pair_of("GPU-aaaa", "GPU-bbbb", kQuiet, 0, 1),
                                           pair_of("GPU-bbbb", "GPU-aaaa", kQuiet, 1, 0)};
  const std::vector<RecordedRun> after = {sampled("GPU-cccc", kQuiet, 0), sampled("GPU-dddd", kQuiet, 1),
                                          pair_of("GPU-dddd", "GPU-cccc", kQuiet, 1, 0),
                                          pair_of("GPU-cccc", "GPU-dddd", kRaised, 0, 1)};
  Pairing renamed;
  renamed.explicit_pairs = {{"GPU-a", "GPU-c"}, {"GPU-b", "GPU-d"}};  // each prefix: one board, not its pairs too
  Pairing by_index;
  by_index.by_index = true;
  for (const Pairing& how : {renamed, by_index}) {
    const PairedComparison p = compare_boards(before, after, 0.02, how);
    ASSERT_EQ(p.pairs.size(), 4u);
    const auto it = std::find_if(p.pairs.begin(), p.pairs.end(),
                                 [](const BoardPair& x) { return x.baseline_gpu == "GPU-aaaa>GPU-bbbb"; });
    ASSERT_NE(it, p.pairs.end());
    EXPECT_EQ(it->candidate_gpu, "GPU-cccc>GPU-dddd");
    EXPECT_EQ(p.moved_count(), 1);
  }
  // A record of pair results only: --pair names a board that is only ever a peer there.
  Pairing peers_only;
  peers_only.explicit_pairs = {{"GPU-b", "GPU-d"}};
  const PairedComparison q =
      compare_boards({pair_of("GPU-aaaa", "GPU-bbbb", kQuiet)}, {pair_of("GPU-aaaa", "GPU-dddd", kRaised)}, 0.02,
                     peers_only);
  ASSERT_EQ(q.pairs.size(), 1u);
  EXPECT_EQ(q.pairs[0].candidate_gpu, "GPU-aaaa>GPU-dddd");
}

// A pair probe pools every pair of every node; the outlier it names is the pair.
TEST(CompareFleet, PoolsAPairProbeOverTheNodesPairsAndNamesThePair) {
  std::vector<RecordedRun> runs;
  for (const std::string node : {"1", "2", "3"}) {
    const std::string a = "GPU-" + node + "a", b = "GPU-" + node + "b";
    runs.push_back(sampled(a, kQuiet));
    runs.push_back(pair_of(a, b, {100, 100.5, 101}));
    runs.push_back(pair_of(b, a, node == "3" ? std::vector<double>{80, 80.5, 81} : std::vector<double>{100.5, 101}));
  }
  const FleetComparison f = compare_fleet(runs, 0.02);
  EXPECT_EQ(f.gpus.size(), 9u);
  EXPECT_EQ(f.pairs, 6);
  EXPECT_EQ(f.probes_judged, 1);  // "p2p" over 6 pairs; "p" has only 3 boards
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0].probe, "p2p");
  EXPECT_EQ(f.outliers[0].gpu, "GPU-3b>GPU-3a");
  EXPECT_DOUBLE_EQ(f.outliers[0].value, 80.5);
}

TEST(CompareFleet, NamesTheBoardOutsideTheOthersSpread) {
  std::vector<RecordedRun> runs = {sampled("GPU-1", {100, 100.5, 101}), sampled("GPU-2", {100.5, 101, 101.5}),
                                   sampled("GPU-3", {99.5, 100, 100.5}), sampled("GPU-4", {101, 101.5, 102})};
  EXPECT_TRUE(compare_fleet(runs, 0.02).outliers.empty());
  runs.push_back(sampled("GPU-5", {110, 110.5, 111}));
  const FleetComparison f = compare_fleet(runs, 0.02);
  EXPECT_EQ(f.probes_judged, 1);
  ASSERT_EQ(f.outliers.size(), 1u);
  EXPECT_EQ(f.outliers[0].gpu, "GPU-5");
  EXPECT_DOUBLE_EQ(f.outliers[0].value, 110.5);
  EXPECT_DOUBLE_EQ(f.outliers[0].others_min, 100);
  EXPECT_DOUBLE_EQ(f.outliers[0].others_max, 101.5);
}

TEST(CompareFleet, FewerThanFourBoardsIsNotJudged) {
  const FleetComparison f =
      compare_fleet({sampled("GPU-1", kQuiet), sampled("GPU-2", kQuiet), sampled("GPU-3", kRaised)}, 0.02);
  EXPECT_EQ(f.probes_judged, 0);
  EXPECT_TRUE(f.outliers.empty());
}

}  // namespace
}  // namespace gpuconform
