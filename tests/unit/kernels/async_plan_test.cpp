// SPDX-License-Identifier: Apache-2.0
// Host plans of the issue-23 probes (kernels/latency/async_plan.hpp): chase
// orders, the ping-pong and chain arithmetic, the 2-D tensor-map tile plan.
#include "latency/async_plan.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "gpuconform/probe.hpp"
#include "latency/chase_plan.hpp"

namespace gpuconform::kernels::plan {
namespace {

TEST(AsyncPlan, OrderedCycleVisitsEveryNodeInOrder) {
  const auto next = ordered_cycle(5);
  EXPECT_EQ(next, (std::vector<std::uint32_t>{1, 2, 3, 4, 0}));
  EXPECT_TRUE(chase::is_single_cycle(next));
  EXPECT_EQ(chase::visit_order(next, 0), (std::vector<std::uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ordered_cycle(1), (std::vector<std::uint32_t>{0}));
  EXPECT_THROW(ordered_cycle(0), std::invalid_argument);
}

TEST(AsyncPlan, WarmNodesComeFirstAndNeverRepeatATimedLine) {
  const auto order = warm_then_timed({1024, 2048}, {128, 256, 384});
  EXPECT_EQ(order, (std::vector<unsigned long long>{1024, 2048, 128, 256, 384}));
  EXPECT_EQ(warm_then_timed({}, {128}), (std::vector<unsigned long long>{128}));
  EXPECT_THROW(warm_then_timed({256}, {128, 256}), std::invalid_argument);  // it would hit in L2
  EXPECT_THROW(warm_then_timed({0}, {}), std::invalid_argument);
  EXPECT_THROW(warm_then_timed({}, {128, 128}), std::invalid_argument);
  EXPECT_THROW(warm_then_timed({0, 0}, {128}), std::invalid_argument);
}

TEST(AsyncPlan, TlbWarmLinesAvoidTheSampledLinesAndSpreadOverTheRange) {
  std::vector<unsigned long long> sampled;
  for (unsigned long long l = 0; l < 1000; l += 2) sampled.push_back(l * 128);  // every even line
  const auto warm = lines_outside(1000 * 128, 128, 16, sampled);
  ASSERT_EQ(warm.size(), 16u);
  const std::set<unsigned long long> s(sampled.begin(), sampled.end());
  std::set<unsigned long long> seen;
  for (unsigned long long w : warm) {
    EXPECT_EQ(w % 128, 0u);
    EXPECT_LT(w, 1000u * 128);
    EXPECT_EQ(s.count(w), 0u) << w;
    EXPECT_TRUE(seen.insert(w).second) << w;
  }
  EXPECT_GT(warm.back() - warm.front(), 1000u * 128 / 2);  // spread, not clustered at the start
  // Too few free lines: an error, not a short list.
  EXPECT_THROW(lines_outside(10 * 128, 128, 8, {0, 128, 256, 384, 512}), std::invalid_argument);
  // Dense exclusion: still distinct free lines.
  const auto dense = lines_outside(10 * 128, 128, 5, {0, 128, 256, 384, 512});
  EXPECT_EQ(std::set<unsigned long long>(dense.begin(), dense.end()),
            (std::set<unsigned long long>{640, 768, 896, 1024, 1152}));
}

TEST(AsyncPlan, ChainAndPingPongArithmetic) {
  EXPECT_DOUBLE_EQ(per_step_cycles(1000, 1512, 128), 4.0);
  EXPECT_THROW(per_step_cycles(1000, 1000, 128), std::invalid_argument);
  EXPECT_THROW(per_step_cycles(1000, 2000, 0), std::invalid_argument);
  // 1024 round trips of 2 one-way hops each.
  EXPECT_DOUBLE_EQ(one_way_cycles(409600, 1024), 200.0);
  EXPECT_THROW(one_way_cycles(0, 1024), std::invalid_argument);
  EXPECT_THROW(one_way_cycles(100, 0), std::invalid_argument);
}

TEST(AsyncPlan, Tma2dPlanFollowsTheTensorMapRules) {
  // The probe's shape: 1 GiB of 4-byte elements, rows of 4096, 64 x 128 tiles.
  const auto p = plan_tma_2d(1ull << 30, 4, 4096, 64, 128);
  EXPECT_EQ(p.row_bytes, 16384u);
  EXPECT_EQ(p.tile_bytes, 32768u);
  EXPECT_EQ(p.tiles_x, 64u);
  EXPECT_EQ(p.height % 128, 0u);
  EXPECT_EQ(p.height, (1ull << 30) / 16384);
  EXPECT_EQ(p.bytes(), 1ull << 30);  // whole tiles cover the buffer exactly
  // A buffer that is not a whole number of tile rows: only whole rows of tiles.
  const auto q = plan_tma_2d((1ull << 30) + 5000, 4, 4096, 64, 128);
  EXPECT_EQ(q.bytes(), 1ull << 30);
  EXPECT_LE(q.height * q.row_bytes, (1ull << 30) + 5000);

  EXPECT_THROW(plan_tma_2d(1 << 20, 4, 4096, 2, 128), std::invalid_argument);  // 8 B inner box
  EXPECT_THROW(plan_tma_2d(1 << 20, 4, 4096, 512, 1), std::invalid_argument);  // box > 256
  EXPECT_THROW(plan_tma_2d(1 << 20, 4, 4096, 64, 0), std::invalid_argument);
  EXPECT_THROW(plan_tma_2d(1 << 20, 3, 4096, 64, 1), std::invalid_argument);           // element size
  EXPECT_THROW(plan_tma_2d(1 << 20, 4, 4100, 64, 1), std::invalid_argument);           // partial box per row
  EXPECT_THROW(plan_tma_2d(1 << 10, 4, 4096, 64, 128), std::invalid_argument);         // no full row of tiles
  EXPECT_THROW(plan_tma_2d(1ull << 44, 1, 1ull << 32, 64, 1), std::invalid_argument);  // width >= 2^32
}

TEST(AsyncPlan, TheLatencyChaseMapsOneLinePerRow) {
  // latency.tma.load.tensor_2d: L2/8 of an H100 (50 MiB L2) as rows of 32 4-byte elements.
  const unsigned long long footprint = (50ull << 20) / 8 / 128 * 128;
  const auto p = plan_tma_2d(footprint, 4, 32, 32, 1);
  EXPECT_EQ(p.row_bytes, 128u);
  EXPECT_EQ(p.tile_bytes, 128u);
  EXPECT_EQ(p.tiles_x, 1u);
  EXPECT_EQ(p.height, footprint / 128);
  EXPECT_EQ(p.bytes(), footprint);
}

TEST(AsyncPlan, TileCoordinatesAreRowMajorOverTiles) {
  const auto p = plan_tma_2d(64ull << 20, 4, 4096, 64, 128);
  unsigned x = 0, y = 0;
  tile_coordinates(p, 0, x, y);
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 0u);
  tile_coordinates(p, 1, x, y);
  EXPECT_EQ(x, 64u);
  EXPECT_EQ(y, 0u);
  tile_coordinates(p, p.tiles_x, x, y);
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 128u);
  tile_coordinates(p, p.tiles() - 1, x, y);
  EXPECT_EQ(x + p.box_w, p.width);
  EXPECT_EQ(y + p.box_h, p.height);
  EXPECT_THROW(tile_coordinates(p, p.tiles(), x, y), std::out_of_range);
}

TEST(NewProbes, Issue23IdsAreRegisteredWithTheirFamilies) {
  for (const char* id :
       {"latency.tma.load", "latency.tma.load.extra_over_ldg", "latency.tma.load.tensor_2d", "latency.cp_async",
        "latency.cp_async.extra_over_ldg", "latency.cp_async.ca", "latency.cp_async.ca.extra_over_ldg",
        "latency.cluster.sync.2", "latency.cluster.sync.4", "latency.cluster.sync.8", "latency.cluster.sync.16",
        "latency.dsmem.store", "latency.dsmem.atomic", "latency.mem.l2_miss.near", "latency.mem.l2_miss.far",
        "latency.wgmma_sp.m64n64k32.f32.f16", "latency.wgmma_sp.m64n256k32.f32.f16.issue_interval"}) {
    const Probe* p = Registry::instance().find(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_EQ(p->family, Family::latency) << id;
  }
  for (const char* id : {"throughput.tma.tensor_2d", "throughput.alu.dpx.viaddmax.s32",
                         "throughput.alu.dpx.viaddmin.s32", "throughput.alu.dpx.viaddmax.s16x2",
                         "throughput.alu.dpx.viaddmax.relu.s32", "throughput.alu.dpx.vimax.relu.s32",
                         "throughput.alu.dpx.vimin3.s16x2", "throughput.wgmma_sp.m64n256k32.f32.f16"}) {
    const Probe* p = Registry::instance().find(id);
    ASSERT_NE(p, nullptr) << id;
    EXPECT_EQ(p->family, Family::throughput) << id;
    EXPECT_GE(p->needs.min_cc, 90) << id;
  }
  // TMA, clusters and DPX exist from sm_90 on: none of these probes may run on an older GPU.
  for (const char* id : {"latency.tma.load", "latency.cluster.sync.16", "latency.dsmem.store", "latency.dsmem.atomic"})
    EXPECT_EQ(Registry::instance().find(id)->needs.min_cc, 90) << id;
}

}  // namespace
}  // namespace gpuconform::kernels::plan
