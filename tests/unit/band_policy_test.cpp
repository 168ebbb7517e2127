// The band policy: its strict parser, and the two bands `record --from` derives with it.
#include "gpuconform/band_policy.hpp"

#include <gtest/gtest.h>

#include "gpuconform/record_writer.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {
namespace {

const char* kPolicy = R"(
[meta]
noise_factor = 3
min_boards = 3

[[class]]
name = "memory"
probes = ["latency.mem.*"]
spread_rel = 0.02
k = 2
why = "test"

[[class]]
name = "throughput"
probes = ["throughput.*"]
spread_rel = 0.05
k = 1
why = "test"

[[exclude]]
gpu = "GPU-cccccccc"
probes = ["latency.mem.l2_*"]
reason = "measured before a fix"
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

TEST(BandPolicy, FirstMatchingClassWins) {
  const BandPolicy p = policy();
  ASSERT_NE(p.class_for("latency.mem.l2_near"), nullptr);
  EXPECT_EQ(p.class_for("latency.mem.l2_near")->name, "memory");
  EXPECT_EQ(p.class_for("latency.alu.fma.rn.f32"), nullptr);
  EXPECT_DOUBLE_EQ(p.noise_factor, 3);
  EXPECT_EQ(p.min_boards, 3);
}

TEST(BandPolicy, ExclusionMatchesABoardPrefixAndAProbeGlob) {
  const BandPolicy p = policy();
  EXPECT_NE(p.exclusion_for("GPU-cccccccc-1111-2222", "latency.mem.l2_near"), nullptr);
  EXPECT_EQ(p.exclusion_for("GPU-cccccccc-1111-2222", "latency.mem.hbm"), nullptr);
  EXPECT_EQ(p.exclusion_for("GPU-dddddddd-1111-2222", "latency.mem.l2_near"), nullptr);
}

TEST(BandPolicy, StrictParserNamesThePlaceAndWhatIsMissing) {
  auto d = problems("[[class]]\nname = \"x\"\nprobes = [\"a.*\"]\nspread_rel = 0.1\nk = 2\nwhy = \"w\"\nmargin = 3\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].str().rfind("policy.toml:7:1: unknown key 'margin'", 0), 0u) << d[0].str();
  d = problems("[[class]]\nname = \"x\"\nprobes = [\"a.*\"]\nk = 2\nwhy = \"w\"\n");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NE(d[0].message.find("needs 'spread_rel'"), std::string::npos);
  EXPECT_EQ(problems("[[class]]\nname = \"x\"\nprobes = [\"a.*\"]\nspread_rel = -1\nk = 2\nwhy = \"w\"\n").size(), 1u);
  EXPECT_EQ(problems("[[exclude]]\ngpu = \"3ba2\"\nprobes = [\"a\"]\nreason = \"r\"\n").size(), 2u);  // bad gpu, no class
  EXPECT_EQ(problems("[meta]\nnoise_factor = 3\n").size(), 1u);  // a policy with no class
}

TEST(BandPolicy, BoardSpreadUsesPerBoardMedians) {
  const BoardSpread s = board_spread({{99, 100, 101}, {110}, {104}});
  EXPECT_DOUBLE_EQ(s.centre, 105);
  EXPECT_DOUBLE_EQ(s.half_spread, 5);
  EXPECT_DOUBLE_EQ(s.noise, 1);
  EXPECT_DOUBLE_EQ(s.relative(), 5.0 / 105);
}

TEST(BandPolicy, ClassSpreadCountsOnlyProbesOnEnoughBoards) {
  const BandPolicy p = policy();
  const auto spreads = class_spreads_from_evidence(
      p, {{"latency.mem.hbm", {{100}, {102}, {104}}},       // 3 boards: 2 / 102
          {"latency.mem.l2_near", {{200}, {240}}},          // 2 boards: too few
          {"latency.alu.fma.rn.f32", {{4}, {4}, {5}}}});    // no class
  EXPECT_EQ(spreads.at("memory").probe, "latency.mem.hbm");
  EXPECT_DOUBLE_EQ(spreads.at("memory").spread_rel, 2.0 / 102);
  EXPECT_EQ(spreads.at("memory").boards, 3);
  EXPECT_TRUE(spreads.at("throughput").probe.empty());
}

TEST(BandPolicy, BandGetsATightDriftBandAndAFailBandWiderByTheClassMargin) {
  // Boards at 275.2 (noise 0.5), 276.1 and 275.4: centre 275.65, half-spread 0.45;
  // drift = 3 x 0.5 + 0.45 = 1.95 -> 2; fail = 1.95 + 2 x 0.02 x 275.65 = 12.976 -> 13.
  const Expectation e = derive_expectation_across(
      probe("latency.mem.l2_near", ExpectationKind::band),
      {BoardRuns{"GPU-dddddddd-1", "run:d:1", {m(274.7), m(275.2), m(275.7)}, {}},
       BoardRuns{"GPU-eeeeeeee-1", "run:e:1", {m(276.1)}, {}}, BoardRuns{"GPU-ffffffff-1", "run:f:1", {m(275.4)}, {}}},
      policy());
  EXPECT_DOUBLE_EQ(*e.value, 275.65);
  EXPECT_DOUBLE_EQ(*e.drift_tol, 2);
  EXPECT_DOUBLE_EQ(*e.tol, 13);
  EXPECT_NE(e.note.find("3 boards (dddddddd 275.2 (median of 3), eeeeeeee 276.1, ffffffff 275.4); noise 0.5 cycles"),
            std::string::npos)
      << e.note;
  EXPECT_NE(e.note.find("fail = drift + 2 x 2% x |centre| = drift + 11.03 cycles (class memory)"), std::string::npos)
      << e.note;
  // A fourth board 4.8 cycles above the others drifts but does not fail.
  EXPECT_EQ(judge(m(280.5), e).outcome, Outcome::warn);
}

TEST(BandPolicy, FractionGetsADriftFloorAndAFailFloorBelowIt) {
  // Fractions 0.90 and 0.86 (each one run): lowest board 0.86, noise 0; drift floor 0.86,
  // fail floor 0.86 - 1 x 0.05 x 0.88 = 0.816 -> 0.81.
  const Expectation e = derive_expectation_across(
      probe("throughput.hbm.read", ExpectationKind::fraction_of_peak),
      {BoardRuns{"GPU-a", "run:a:1", {m(90, 100.0)}, {}}, BoardRuns{"GPU-b", "run:b:1", {m(86, 100.0)}, {}}}, policy());
  EXPECT_DOUBLE_EQ(*e.drift_min_fraction, 0.86);
  EXPECT_DOUBLE_EQ(*e.min_fraction, 0.81);
  EXPECT_NE(e.note.find("fail = drift - 1 x 5% x |centre|"), std::string::npos) << e.note;
}

TEST(BandPolicy, MinAndMaxLimitsMoveAwayFromTheBoards) {
  BandPolicy p = policy();
  p.classes[0].probes = {"*"};
  const std::vector<BoardRuns> boards = {BoardRuns{"GPU-a", "run:a:1", {m(100)}, {}},
                                         BoardRuns{"GPU-b", "run:b:1", {m(110)}, {}}};
  const Expectation lo = derive_expectation_across(probe("latency.mem.x", ExpectationKind::min), boards, p);
  EXPECT_DOUBLE_EQ(*lo.drift_min, 100);
  EXPECT_DOUBLE_EQ(*lo.min, 100 - 2 * 0.02 * 105);
  const Expectation hi = derive_expectation_across(probe("latency.mem.x", ExpectationKind::max), boards, p);
  EXPECT_DOUBLE_EQ(*hi.drift_max, 110);
  EXPECT_DOUBLE_EQ(*hi.max, 110 + 2 * 0.02 * 105);
}

TEST(BandPolicy, SkuOverlayNeedsAnEntryOnlyOutsideTheBaseDriftBand) {
  Expectation base;
  base.kind = ExpectationKind::band;
  base.value = 700;
  base.tol = 60;
  base.drift_tol = 13;
  Expectation derived = base;
  derived.value = 710;
  EXPECT_FALSE(differs_beyond_drift(derived, base));
  derived.value = 666.4;
  EXPECT_TRUE(differs_beyond_drift(derived, base));
  base.drift_tol.reset();  // without a drift band the fail band decides
  EXPECT_FALSE(differs_beyond_drift(derived, base));
  Expectation fb;
  fb.kind = ExpectationKind::fraction_of_peak;
  fb.min_fraction = 0.79;
  fb.drift_min_fraction = 0.85;
  Expectation fd = fb;
  fd.drift_min_fraction = 0.9;
  EXPECT_FALSE(differs_beyond_drift(fd, fb));  // a faster SKU still meets the base floor
  fd.drift_min_fraction = 0.8;
  EXPECT_TRUE(differs_beyond_drift(fd, fb));
}

}  // namespace
}  // namespace gpuconform
