// SPDX-License-Identifier: Apache-2.0
// mma.sp in the kernels' variant tables, without a GPU: where each metadata nibble sits in
// the threads' metadata registers (the selector's threads, the PTX ISA's figures), that the
// registers the launcher builds read back only under their own layout, and the launcher's
// refusal of input that is not sparse.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

namespace gpuconform::numerics {
namespace {

// The metadata nibbles of a selector cover every (row, chunk) of A exactly once, held only
// by the threads the PTX ISA names for it (selector s: thread s; pair 2s, 2s+1; all four).
TEST(SparseA, MetadataSlotsCoverEveryChunkOnce) {
  int sparse_variants = 0;
  for (const MmaVariant& v : mma_variants()) {
    if (v.layout.instruction != "mmasp") continue;
    ++sparse_variants;
    SCOPED_TRACE(v.name());
    const int chunks = v.layout.k / sparse::chunk_width(element_bits(v.layout.ab_type));
    const int selector = v.layout.has("sel1") ? 1 : 0;
    std::set<std::pair<int, int>> seen;
    std::set<int> holders;
    for (int t = 0; t < 32; ++t)
      for (int n = 0; n < 8; ++n) {
        const RowCol rc = v.position('e', t, n);
        if (rc.row < 0) continue;
        holders.insert(t % 4);
        EXPECT_TRUE(rc.row < v.layout.m && rc.col >= 0 && rc.col < chunks) << t << " " << n;
        EXPECT_TRUE(seen.insert({rc.row, rc.col}).second) << "thread " << t << " nibble " << n << " taken twice";
      }
    EXPECT_EQ(static_cast<int>(seen.size()), v.layout.m * chunks);
    const std::set<int> want = chunks == 16 ? std::set<int>{0, 1, 2, 3} : std::set<int>{2 * selector, 2 * selector + 1};
    EXPECT_EQ(holders, want);
  }
  EXPECT_EQ(sparse_variants, 12);
  // Read off the family rules: lane 6 (group 1, thread 2) under selector 1 holds chunks 0..3
  // of rows 1 (nibbles 0..3) and 9 (4..7); under m16n8k64 it holds chunks 8..11.
  const RowCol pair = find_mma_variant("mmasp_m16n8k32_f32_f16_sel1")->position('e', 6, 5);
  EXPECT_EQ(pair.row, 9);
  EXPECT_EQ(pair.col, 1);
  EXPECT_EQ(find_mma_variant("mmasp_m16n8k32_f32_f16_sel0")->position('e', 6, 5).row, -1);
  const RowCol four = find_mma_variant("mmasp_m16n8k64_s32_s8_sel0")->position('e', 6, 2);
  EXPECT_EQ(four.row, 1);
  EXPECT_EQ(four.col, 10);
}

// The nibbles a metadata register set means under the variant's own layout (fragment
// position 'e', i.e. sparse::meta_at): what the hardware reads if the PTX ISA reading is right.
std::vector<unsigned> read_back(const MmaVariant& v, const std::uint32_t* words) {
  const int chunks = v.layout.k / sparse::chunk_width(element_bits(v.layout.ab_type));
  std::vector<unsigned> nibbles(static_cast<std::size_t>(v.layout.m * chunks), 0xFFu);
  for (int t = 0; t < 32; ++t)
    for (int n = 0; n < 8; ++n) {
      const RowCol rc = v.position('e', t, n);
      if (rc.row >= 0) nibbles[rc.row * chunks + rc.col] = words[t] >> (4 * n) & 0xFu;
    }
  return nibbles;
}

// The registers the launcher builds read back as the instance's nibbles; under any other
// reading of the figures, or the other selector, they do not: the layout self-test on the GPU
// (these instances, exact results) fails when the kernel's reading is not the hardware's.
TEST(SparseA, MetadataRegistersReadBackOnlyUnderTheirOwnLayout) {
  ASSERT_EQ(metadata_layout(), sparse::MetaLayout::kColumnHalves);
  for (const MmaVariant& v : mma_variants()) {
    if (v.layout.instruction != "mmasp") continue;
    SCOPED_TRACE(v.name());
    const int bits = element_bits(v.layout.ab_type), width = sparse::chunk_width(bits), chunks = v.layout.k / width;
    const int selector = v.layout.has("sel1") ? 1 : 0;
    ref::Rng rng(11);
    const std::vector<MmaInstance> instances = layout_instances(v.layout, 8, rng);
    std::vector<std::vector<unsigned>> truth;
    std::vector<std::vector<std::uint32_t>> words;
    for (const MmaInstance& in : instances) {
      std::vector<std::uint8_t> nibbles(static_cast<std::size_t>(v.layout.m * chunks));
      std::vector<std::uint64_t> kept(static_cast<std::size_t>(v.layout.k / 2));
      for (int i = 0; i < v.layout.m; ++i)
        ASSERT_TRUE(sparse::compress_row(&in.a[i * v.layout.k], v.layout.k, bits, kept.data(), &nibbles[i * chunks],
                                         nullptr));
      truth.emplace_back(nibbles.begin(), nibbles.end());
      words.emplace_back(32);
      metadata_words(v.layout.k, bits, selector, nibbles.data(), words.back().data());
      EXPECT_EQ(read_back(v, words.back().data()), truth.back());
    }
    for (int l = 1; l < sparse::kMetaLayouts; ++l) {
      const auto layout = static_cast<sparse::MetaLayout>(l);
      set_metadata_layout(layout);
      bool differs = false, fits = false;
      for (std::size_t n = 0; n < instances.size(); ++n) {
        std::vector<std::uint8_t> nibbles(truth[n].begin(), truth[n].end());
        std::vector<std::uint32_t> other(32);
        metadata_words(v.layout.k, bits, selector, nibbles.data(), other.data());
        differs |= read_back(v, other.data()) != truth[n];
        fits |= other != words[n];
      }
      set_metadata_layout(sparse::MetaLayout::kColumnHalves);
      EXPECT_TRUE(differs || !fits) << sparse::meta_layout_name(layout);
    }
    // The other selector's threads carry decoys, which read back wrong.
    if (sparse::max_selector(sparse::meta_family(v.layout.k, bits)) == 1) {
      std::vector<std::uint8_t> nibbles(truth[0].begin(), truth[0].end());
      std::vector<std::uint32_t> other(32);
      metadata_words(v.layout.k, bits, 1 - selector, nibbles.data(), other.data());
      EXPECT_NE(read_back(v, other.data()), truth[0]);
    }
    // A nibble with its two indices swapped names no valid kept set.
    if (width == 4)
      for (unsigned nibble : truth[0]) {
        sparse::Kept k{{0, 0}};
        EXPECT_FALSE(sparse::kept_of(4, (nibble >> 2) | (nibble & 3u) << 2, k)) << nibble;
      }
  }
}

TEST(SparseLauncher, RefusesAnAThatIsNotSparseNamingTheInstance) {
  const MmaVariant* v = find_mma_variant("mmasp_m16n8k32_f32_f16_sel0");
  ASSERT_NE(v, nullptr);
  ref::Rng rng(3);
  MmaInstance in = draw_instances(v->layout, "normal", 1, rng).front();
  in.a[5 * v->layout.k + 0] = in.a[5 * v->layout.k + 1] = in.a[5 * v->layout.k + 2] = 0x3c00;  // three of four
  in.klass = "normal";
  try {
    v->run({in});  // compresses on the host before any CUDA call
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mmasp_m16n8k32_f32_f16_sel0: instance 0 (normal) row 5"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpuconform::numerics
