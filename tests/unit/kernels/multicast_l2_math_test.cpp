// SPDX-License-Identifier: Apache-2.0
// The arithmetic of throughput.tma.multicast.l2_traffic.* (kernels/throughput/multicast_l2_math.hpp):
// the ratio, the saved fraction, the coverage check that refuses a counter blind to TMA reads.
#include "throughput/multicast_l2_math.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace gpuconform::kernels::multicast_l2 {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

TEST(MulticastL2Math, IdealMulticastReadsOnceWhatUnicastReadsCTimes) {
  for (int c : {2, 4}) {
    const Traffic t = summarize(kGiB, c * kGiB, c, kGiB);
    EXPECT_DOUBLE_EQ(t.ratio, 1.0 / c);
    EXPECT_DOUBLE_EQ(t.ideal, 1.0 / c);
    EXPECT_DOUBLE_EQ(t.saved_fraction, 1.0 - 1.0 / c);
    EXPECT_DOUBLE_EQ(t.saved_bytes, (c - 1) * kGiB);
    EXPECT_DOUBLE_EQ(t.delivered_bytes, c * kGiB);
    EXPECT_DOUBLE_EQ(t.multicast_coverage, 1.0);
    EXPECT_DOUBLE_EQ(t.unicast_coverage, 1.0);
    EXPECT_EQ(coverage_problem(t, "m"), "");
  }
}

TEST(MulticastL2Math, NoSavingIsARatioOfOne) {
  const Traffic t = summarize(2 * kGiB, 2 * kGiB, 2, kGiB);
  EXPECT_DOUBLE_EQ(t.ratio, 1.0);
  EXPECT_DOUBLE_EQ(t.saved_fraction, 0.0);
  EXPECT_DOUBLE_EQ(t.saved_bytes, 0.0);
  EXPECT_DOUBLE_EQ(t.multicast_coverage, 2.0);  // multicast read the buffer twice
}

TEST(MulticastL2Math, PartialSavingAndExtraTraffic) {
  // 0.3 of the unicast bytes, with 5 % extra traffic on the unicast side.
  const Traffic t = summarize(0.3 * 4.2 * kGiB, 4.2 * kGiB, 4, kGiB);
  EXPECT_NEAR(t.ratio, 0.3, 1e-12);
  EXPECT_NEAR(t.saved_fraction, 0.7, 1e-12);
  EXPECT_NEAR(t.unicast_coverage, 1.05, 1e-12);
  EXPECT_NEAR(t.saved_bytes, 0.7 * 4.2 * kGiB, 1);
}

TEST(MulticastL2Math, ACounterThatMissesTheTmaReadsIsRefused) {
  const Traffic blind = summarize(1e3, 2e3, 4, kGiB);  // a few sectors of other traffic
  const std::string why = coverage_problem(blind, "lts__t_sectors_srcunit_tex_op_read.sum");
  EXPECT_NE(why.find("lts__t_sectors_srcunit_tex_op_read.sum saw"), std::string::npos) << why;
  EXPECT_NE(why.find("does not count these TMA reads"), std::string::npos) << why;
  // Half the reads is the edge: still accepted.
  EXPECT_EQ(coverage_problem(summarize(kGiB, 2 * kGiB, 4, kGiB), "m"), "");
  EXPECT_NE(coverage_problem(summarize(kGiB, 1.99 * kGiB, 4, kGiB), "m"), "");
}

TEST(MulticastL2Math, NonsenseInputsThrow) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(summarize(1, 0, 2, kGiB), std::invalid_argument);  // no unicast reads: no ratio
  EXPECT_THROW(summarize(-1, 1, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(nan, 1, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, nan, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, 1, 0, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, 1, 2, 0), std::invalid_argument);
  EXPECT_NO_THROW(summarize(0, 1, 2, kGiB));  // multicast that read nothing is a ratio of 0
}

}  // namespace
}  // namespace gpuconform::kernels::multicast_l2
