// SPDX-License-Identifier: Apache-2.0
// The arithmetic of throughput.tma.multicast.{l2_traffic,implicit_l2_traffic}.* (kernels/throughput/
// multicast_l2_math.hpp): L2 read bytes per delivered byte, and the coverage check that refuses a
// counter blind to TMA reads.
#include "throughput/multicast_l2_math.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace gpuconform::kernels::multicast_l2 {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

TEST(MulticastL2Math, IdealMulticastReadsTheBufferOnceForCDeliveries) {
  for (int c : {2, 4}) {
    const Traffic t = summarize(kGiB, c * kGiB, c, kGiB);  // implicit: no sharing at all
    EXPECT_DOUBLE_EQ(t.delivered_bytes, c * kGiB);
    EXPECT_DOUBLE_EQ(t.ideal, 1.0 / c);
    EXPECT_DOUBLE_EQ(t.explicit_per_byte, 1.0 / c);
    EXPECT_DOUBLE_EQ(t.implicit_per_byte, 1.0);
    EXPECT_DOUBLE_EQ(t.explicit_coverage, 1.0);
    EXPECT_DOUBLE_EQ(t.implicit_coverage, c);
    EXPECT_EQ(coverage_problem(t, "m"), "");
  }
}

// What an H100 does (2026-11-26, GPU-b08a9e40): the plain copies of a cluster cost the L2 the
// buffer once, like multicast.
TEST(MulticastL2Math, CoalescedPlainCopiesReadAsLittleAsMulticast) {
  const Traffic t = summarize(kGiB, kGiB, 4, kGiB);
  EXPECT_DOUBLE_EQ(t.explicit_per_byte, 0.25);
  EXPECT_DOUBLE_EQ(t.implicit_per_byte, 0.25);
  EXPECT_EQ(coverage_problem(t, "m"), "");
}

TEST(MulticastL2Math, ExtraTrafficRaisesTheBytesPerDeliveredByte) {
  const Traffic t = summarize(1.05 * kGiB, 1.5 * kGiB, 2, kGiB);
  EXPECT_NEAR(t.explicit_per_byte, 0.525, 1e-12);
  EXPECT_NEAR(t.implicit_per_byte, 0.75, 1e-12);
  EXPECT_NEAR(t.explicit_coverage, 1.05, 1e-12);
}

TEST(MulticastL2Math, ACounterThatMissesTheTmaReadsIsRefused) {
  const Traffic blind = summarize(1e3, 2e3, 4, kGiB);  // a few sectors of other traffic
  const std::string why = coverage_problem(blind, "lts__t_sectors_srcunit_tex_op_read.sum");
  EXPECT_NE(why.find("lts__t_sectors_srcunit_tex_op_read.sum saw"), std::string::npos) << why;
  EXPECT_NE(why.find("does not count these TMA reads"), std::string::npos) << why;
  // Half the buffer is the edge, on either launch.
  EXPECT_EQ(coverage_problem(summarize(0.5 * kGiB, kGiB, 4, kGiB), "m"), "");
  EXPECT_NE(coverage_problem(summarize(0.49 * kGiB, kGiB, 4, kGiB), "m"), "");
  EXPECT_NE(coverage_problem(summarize(kGiB, 0.49 * kGiB, 4, kGiB), "m"), "");
}

TEST(MulticastL2Math, NonsenseInputsThrow) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(summarize(-1, 1, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, -1, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(nan, 1, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, nan, 2, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, 1, 0, kGiB), std::invalid_argument);
  EXPECT_THROW(summarize(1, 1, 2, 0), std::invalid_argument);
  EXPECT_NO_THROW(summarize(0, 0, 2, kGiB));  // zeros are numbers; coverage_problem refuses them
}

}  // namespace
}  // namespace gpuconform::kernels::multicast_l2
