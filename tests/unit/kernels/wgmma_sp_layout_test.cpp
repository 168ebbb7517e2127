// SPDX-License-Identifier: Apache-2.0
// wgmma.mma_async.sp in the kernels' variant table (kernels/numeric/wgmma_sp.cu), without a
// GPU: a warpgroup holds the metadata of its 64 rows as four mma.sp warps of 16 rows each
// (the selector's threads of every group of four), and the registers the launcher builds warp
// by warp read back through the table's own positions as the instance's nibbles.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"
#include "gpuconform/numerics/sparse_metadata.hpp"

namespace gpuconform::numerics {
namespace {

std::vector<const MmaVariant*> sparse_wgmma() {
  std::vector<const MmaVariant*> out;
  for (const MmaVariant& v : mma_variants())
    if (v.layout.instruction == "wgmmasp") out.push_back(&v);
  return out;
}

TEST(WgmmaSparseTable, RowsAreWarpgroupVariantsWithProbes) {
  const auto variants = sparse_wgmma();
  EXPECT_EQ(variants.size(), 11u);
  for (const MmaVariant* v : variants) {
    SCOPED_TRACE(v->name());
    EXPECT_TRUE(v->needs_sm90a);
    EXPECT_EQ(v->fragments.threads, 128);
    EXPECT_EQ(v->probe_id.rfind("numeric.wgmma_sp.", 0), 0u) << v->probe_id;
    EXPECT_NE(v->ptx.find("wgmma.mma_async.sp.sync.aligned.m64n"), std::string::npos) << v->ptx;
  }
  ASSERT_NE(find_mma_variant("wgmmasp_m64n64k32_f32_f16_sel0"), nullptr);  // the timing probes' instruction
}

TEST(WgmmaSparseTable, MetadataSlotsCoverEveryChunkOfTheWarpgroupOnce) {
  for (const MmaVariant* v : sparse_wgmma()) {
    SCOPED_TRACE(v->name());
    const int chunks = v->layout.k / sparse::chunk_width(element_bits(v->layout.ab_type));
    const int selector = v->layout.has("sel1") ? 1 : 0;
    std::set<std::pair<int, int>> seen;
    std::set<int> holders;
    for (int t = 0; t < 128; ++t)
      for (int n = 0; n < 8; ++n) {
        const RowCol rc = v->position('e', t, n);
        if (rc.row < 0) continue;
        holders.insert(t % 4);
        EXPECT_EQ(rc.row / 16, t / 32) << "a warp holds only its own 16 rows";
        EXPECT_TRUE(rc.row < 64 && rc.col >= 0 && rc.col < chunks);
        EXPECT_TRUE(seen.insert({rc.row, rc.col}).second) << "thread " << t << " nibble " << n;
      }
    EXPECT_EQ(static_cast<int>(seen.size()), 64 * chunks);
    const std::set<int> want = chunks == 16 ? std::set<int>{0, 1, 2, 3} : std::set<int>{2 * selector, 2 * selector + 1};
    EXPECT_EQ(holders, want);
  }
}

TEST(WgmmaSparseTable, LaunchersRegistersReadBackAsTheNibbles) {
  for (const MmaVariant* v : sparse_wgmma()) {
    SCOPED_TRACE(v->name());
    const int bits = element_bits(v->layout.ab_type), chunks = v->layout.k / sparse::chunk_width(bits);
    const int selector = v->layout.has("sel1") ? 1 : 0;
    ref::Rng rng(13);
    for (const MmaInstance& in : layout_instances(v->layout, 3, rng)) {
      const std::vector<std::uint8_t> nibbles = sparse_metadata(v->layout, in.a.data());
      std::vector<std::uint32_t> words(128);
      for (int w = 0; w < 4; ++w)  // as compress_sparse_a (mma_kernel.cuh) builds them
        metadata_words(v->layout.k, bits, selector, nibbles.data() + 16 * w * chunks, words.data() + 32 * w);
      std::vector<unsigned> back(nibbles.size(), 0xFFu);
      for (int t = 0; t < 128; ++t)
        for (int n = 0; n < 8; ++n) {
          const RowCol rc = v->position('e', t, n);
          if (rc.row >= 0) back[rc.row * chunks + rc.col] = words[t] >> (4 * n) & 0xFu;
        }
      EXPECT_EQ(back, std::vector<unsigned>(nibbles.begin(), nibbles.end()));
    }
  }
}

}  // namespace
}  // namespace gpuconform::numerics
