// SPDX-License-Identifier: Apache-2.0
// A failed timed value is measured again before it is called a fault of the part
// (conformance.hpp: confirms_failures, majority_verdict).
#include <gtest/gtest.h>

#include "gpuconform/conformance.hpp"

namespace gpuconform {
namespace {

TEST(FailureConfirmation, TimedFamiliesWithMeasuredBandsAreRemeasured) {
  for (Family f : {Family::latency, Family::throughput, Family::topology, Family::parallel, Family::p2p})
    for (ExpectationKind k :
         {ExpectationKind::band, ExpectationKind::min, ExpectationKind::max, ExpectationKind::fraction_of_peak})
      EXPECT_TRUE(confirms_failures(f, k)) << family_name(f) << " " << kind_name(k);
}

TEST(FailureConfirmation, BitsReadingsRecordsAndDrillsAreNot) {
  // A numeric mismatch is the same bits every time; a health reading is the node's state; a
  // drill's verdict must stay as the drill made it; an exact or info entry is no timing band.
  for (ExpectationKind k : {ExpectationKind::band, ExpectationKind::exact, ExpectationKind::min}) {
    EXPECT_FALSE(confirms_failures(Family::numeric, k));
    EXPECT_FALSE(confirms_failures(Family::health, k));
    EXPECT_FALSE(confirms_failures(Family::selftest, k));
  }
  EXPECT_FALSE(confirms_failures(Family::throughput, ExpectationKind::exact));
  EXPECT_FALSE(confirms_failures(Family::latency, ExpectationKind::info));
}

TEST(FailureConfirmation, TwoOfThreeFailuresFail) {
  const Verdict v = majority_verdict(2, 1, "0.850 (fail), 0.880 (pass), 0.851 (fail)", "expected >= 0.866 of peak");
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("failed in 2 of 3 measurements"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("expected >= 0.866 of peak"), std::string::npos) << v.reason;
  EXPECT_EQ(majority_verdict(2, 0, "a, b", "r").outcome, Outcome::fail);  // two in a row: no third needed
}

TEST(FailureConfirmation, OneFailureThenTwoPassesIsATransientWarn) {
  // The unseen H200 GPU-9bfc1e53's PCIe h2d: 0.850 of the link once, 0.880-0.881 twice.
  const Verdict v = majority_verdict(1, 2, "53.59 GB/s (fail), 55.44 GB/s (pass), 55.51 GB/s (pass)",
                                     "measured 0.850 of peak, expected >= 0.866 of peak");
  EXPECT_EQ(v.outcome, Outcome::warn);
  EXPECT_NE(v.reason.find("a transient: 1 of 3 measurements failed, 2 passed"), std::string::npos) << v.reason;
  EXPECT_NE(v.reason.find("53.59 GB/s (fail)"), std::string::npos) << v.reason;
}

TEST(FailureConfirmation, NoPassingMeasurementIsAFail) {
  // Only the first measurement exists (a caller that could not measure again): never a pass.
  EXPECT_EQ(majority_verdict(1, 0, "x (fail)", "r").outcome, Outcome::fail);
}

}  // namespace
}  // namespace gpuconform
