// SPDX-License-Identifier: Apache-2.0
// mma.sp without a GPU: the compression of A and its metadata nibbles (sparse_a.hpp), the
// sparse instances, and the two model hypotheses a sparse file is checked and fitted against
// (sparse_mma.hpp), on --simulate data. Where the kernels' tables put each nibble, and the
// launcher's refusal of input that is not sparse: tests/unit/kernels/sparse_layout_test.cpp.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/golden_generator.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"
#include "gpuconform/numerics/vector_check.hpp"
#include "gpuconform/numerics/vector_infer.hpp"
#include "simulated_vectors.hpp"
#include "test_variants.hpp"

namespace gpuconform::numerics {
namespace {
namespace fs = std::filesystem;

VectorVariant parsed(const char* name) {
  std::string why;
  const auto v = parse_variant(name, why);
  if (!v) throw std::logic_error(why);
  return *v;
}

// Every zero / non-zero pattern of a chunk with at most `keep` non-zero elements.
std::vector<std::vector<std::uint64_t>> sparse_chunks(int width) {
  std::vector<std::vector<std::uint64_t>> out;
  for (unsigned mask = 0; mask < (1u << width); ++mask) {
    if (__builtin_popcount(mask) > width / 2) continue;
    std::vector<std::uint64_t> chunk(static_cast<std::size_t>(width));
    for (int p = 0; p < width; ++p) chunk[p] = (mask >> p & 1u) ? 0x10u + p : 0;
    out.push_back(chunk);
  }
  return out;
}

TEST(SparseA, EveryChunkRoundTripsThroughItsNibble) {
  for (int width : {4, 2}) {
    for (const auto& chunk : sparse_chunks(width)) {
      sparse::Kept kept{{0, 0}};
      ASSERT_TRUE(sparse::choose_kept(chunk.data(), width, kept));
      const unsigned nibble = sparse::nibble_of(width, kept);
      sparse::Kept back{{0, 0}};
      ASSERT_TRUE(sparse::kept_of(width, nibble, back)) << "nibble " << nibble;
      std::vector<std::uint64_t> rebuilt(static_cast<std::size_t>(width), 0);
      for (int j = 0; j < width / 2; ++j) rebuilt[back.pos[j]] = chunk[back.pos[j]];
      EXPECT_EQ(rebuilt, chunk) << "width " << width << " nibble " << nibble;
      if (width == 4) {  // the values the PTX ISA leaves undefined never come out
        for (unsigned invalid : {0x0u, 0x5u, 0xAu, 0xFu}) EXPECT_NE(nibble, invalid);
        EXPECT_LT(kept.pos[0], kept.pos[1]);
      } else {
        EXPECT_TRUE(nibble == 0x4u || nibble == 0xEu) << nibble;
      }
    }
  }
}

TEST(SparseA, FewerNonZerosFillWithTheLowestZeros) {
  const std::uint64_t only_three[4] = {0, 0, 0, 7};
  sparse::Kept kept{{0, 0}};
  ASSERT_TRUE(sparse::choose_kept(only_three, 4, kept));
  EXPECT_EQ(kept.pos[0], 0);
  EXPECT_EQ(kept.pos[1], 3);
  const std::uint64_t none[4] = {};
  ASSERT_TRUE(sparse::choose_kept(none, 4, kept));
  EXPECT_EQ(sparse::nibble_of(4, kept), 0x4u);  // positions 0, 1
  const std::uint64_t tf32_second[2] = {0, 0x3f800000};
  ASSERT_TRUE(sparse::choose_kept(tf32_second, 2, kept));
  EXPECT_EQ(sparse::nibble_of(2, kept), 0xEu);
}

TEST(SparseA, MoreNonZerosThanKeptIsNotSparse) {
  const std::uint64_t three[4] = {1, 0, 1, 1};
  sparse::Kept kept{{0, 0}};
  EXPECT_FALSE(sparse::choose_kept(three, 4, kept));
  const std::uint64_t negative_zero_counts[2] = {0x80000000u, 1};  // -0 is a non-zero bit pattern
  EXPECT_FALSE(sparse::choose_kept(negative_zero_counts, 2, kept));
  std::uint64_t row[8] = {1, 2, 0, 0, 1, 1, 1, 0}, kept_values[4];
  std::uint8_t nibbles[2];
  EXPECT_FALSE(sparse::compress_row(row, 8, 16, kept_values, nibbles, nullptr));
  row[6] = 0;
  int positions[4];
  ASSERT_TRUE(sparse::compress_row(row, 8, 16, kept_values, nibbles, positions));
  EXPECT_EQ(nibbles[0], 0x4u);
  EXPECT_EQ(nibbles[1], 0x4u);
  EXPECT_EQ(positions[2], 4);
  EXPECT_EQ(positions[3], 5);
}

// kColumnHalves is meta_at; every reading that fits a family covers each chunk once.
TEST(SparseA, DiagnosticReadingsAreBijectionsAndTheFirstIsMetaAt) {
  for (const auto& [k, bits, selectors] : {std::tuple{32, 16, 2}, std::tuple{16, 32, 2}, std::tuple{64, 8, 1},
                                           std::tuple{16, 16, 4}}) {
    const sparse::MetaFamily f = sparse::meta_family(k, bits);
    const int chunks = k / sparse::chunk_width(bits);
    for (int sel = 0; sel < selectors; ++sel)
      for (int l = 0; l < sparse::kMetaLayouts; ++l) {
        const auto layout = static_cast<sparse::MetaLayout>(l);
        std::set<std::pair<int, int>> seen;
        int held = 0;
        for (int lane = 0; lane < 32; ++lane)
          for (int n = 0; n < 8; ++n) {
            const sparse::MetaSlot s = sparse::meta_alternative(layout, f, lane, n, sel);
            if (l == 0) {
              const sparse::MetaSlot want = sparse::meta_at(f, lane, n, sel);
              EXPECT_EQ(s.row, want.row);
              EXPECT_EQ(s.chunk, want.chunk);
            }
            if (s.row < 0) continue;
            ++held;
            EXPECT_TRUE(s.row < 16 && s.chunk >= 0 && s.chunk < chunks);
            EXPECT_TRUE(seen.insert({s.row, s.chunk}).second) << sparse::meta_layout_name(layout);
          }
        EXPECT_TRUE(held == 0 || static_cast<int>(seen.size()) == 16 * chunks)
            << sparse::meta_layout_name(layout) << " k" << k << " bits " << bits;
      }
  }
}

TEST(SparseInstances, EveryClassIsSparseAndLayoutInstancesUseEveryKeptSet) {
  for (const char* name : {"mmasp_m16n8k32_f32_f16_sel0", "mmasp_m16n8k16_f32_tf32_sel1",
                           "mmasp_m16n8k64_f32_e4m3_sel0", "mmasp_m16n8k32_s32_s8_sel1"}) {
    SCOPED_TRACE(name);
    const VectorVariant v = parsed(name);
    ref::Rng rng(7);
    for (const std::string& klass : random_classes(v))
      for (const MmaInstance& in : draw_instances(v, klass, 3, rng))
        for (int i = 0; i < v.m; ++i) EXPECT_NO_THROW(kept_positions(v, in.a.data(), i)) << klass;
    const int width = sparse::chunk_width(element_bits(v.ab_type));
    std::set<unsigned> nibbles;
    for (const MmaInstance& in : layout_instances(v, 4, rng))
      for (int i = 0; i < v.m; ++i)
        for (int c = 0; c < v.k / width; ++c) {
          sparse::Kept kept{{0, 0}};
          int nonzero = 0;
          for (int p = 0; p < width; ++p) nonzero += in.a[i * v.k + c * width + p] != 0;
          EXPECT_EQ(nonzero, width / 2);  // the kept set is the data's, never a filler
          ASSERT_TRUE(sparse::choose_kept(&in.a[i * v.k + c * width], width, kept));
          nibbles.insert(sparse::nibble_of(width, kept));
        }
    EXPECT_EQ(nibbles.size(), width == 4 ? 6u : 2u);
  }
}

// A probe's compressed problem is the dense K/2 probe: the compressed model on the sparse
// instance gives what the K/2 model gives on the dense probe, output for output.
TEST(SparseInstances, ProbesCompressToTheDenseHalfProbes) {
  const VectorVariant v = parsed("mmasp_m16n8k32_f32_bf16_sel0");
  const VectorVariant half = compressed_variant(v);
  EXPECT_EQ(half.name, "mma_m16n8k16_f32_bf16");
  const std::vector<MmaInstance> probes = probe_instances(v), halves = probe_instances(half);
  ASSERT_EQ(probes.size(), halves.size());
  ASSERT_FALSE(probes.empty());
  const ref::TensorCoreModel* model = sparse_default_model("sm_90", v);
  ASSERT_NE(model, nullptr);
  std::set<std::vector<int>> placements;
  for (std::size_t p = 0; p < probes.size(); ++p) {
    SCOPED_TRACE(probes[p].klass);
    std::vector<std::uint64_t> got(v.c_count()), want(v.c_count());
    compressed_mma(*model, v, probes[p].a.data(), probes[p].b.data(), probes[p].c.data(), got.data());
    ref::mma(*model, half.m, half.n, half.k, halves[p].a.data(), halves[p].b.data(), halves[p].c.data(), want.data());
    EXPECT_EQ(got, want);
    placements.insert(kept_positions(v, probes[p].a.data(), 0));
  }
  EXPECT_GT(placements.size(), 1u);  // the kept positions vary between probes
  const std::vector<MmaInstance> ints = probe_instances(parsed("mmasp_m16n8k64_s32_s8_sel0"));
  EXPECT_EQ(ints.size(), probe_instances(parsed("mma_m16n8k32_s32_s8")).size());
}

// --simulate files of the default (compressed) hypothesis: the default check matches, the
// dense hypothesis of the same sm_90 row does not (its K = 32 products span two blocks of
// L = 16, the kept 16 one), --candidates offers both, and infer picks the compressed one.
class SparseSimulated : public SimulatedVectors {
 protected:
  void SetUp() override { simulate("sparse", "mmasp_m16n8k32_f32_f16_sel1", 60); }
};

TEST_F(SparseSimulated, TheHypothesesDisagreeAndCheckTellsThemApart) {
  const FileCheck def = check_vector_file(path_, CheckOptions{});
  ASSERT_EQ(def.status, CheckStatus::kMatched) << def.error;
  EXPECT_NE(def.model.find("compressed:sm_90.mma_sync.f32.f16"), std::string::npos) << def.model;
  CheckOptions o;
  o.model = "dense:sm_90.mma_sync.f32.f16";
  const FileCheck dense = check_vector_file(path_, o);
  EXPECT_EQ(dense.status, CheckStatus::kMismatched) << dense.error;
  o.model = "compressed:sm_90.mma_sync.f32.f16";
  EXPECT_EQ(check_vector_file(path_, o).status, CheckStatus::kMatched);
  o.model = "sm_90.mma_sync.f32.f16";  // no hypothesis named
  const FileCheck bare = check_vector_file(path_, o);
  EXPECT_EQ(bare.status, CheckStatus::kUnusable);
  EXPECT_NE(bare.error.find("name a block model as compressed:ID"), std::string::npos) << bare.error;
  const std::vector<std::string> ids = candidate_models(parsed("mmasp_m16n8k32_f32_f16_sel1"));
  EXPECT_NE(std::find(ids.begin(), ids.end(), "compressed:sm_80.mma_sync.f32.f16"), ids.end());
  EXPECT_NE(std::find(ids.begin(), ids.end(), "dense:sm_90.mma_sync.f32.f16"), ids.end());
}

TEST_F(SparseSimulated, InferNamesTheCompressedHypothesis) {
  const InferResult r = infer_vector_file(path_);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.matched, r.outputs);
  ASSERT_FALSE(r.params.empty());
  EXPECT_EQ(r.params.front().name, "sparse_products");
  EXPECT_EQ(r.params.front().value, "compressed");
  EXPECT_TRUE(r.params.front().alternatives.empty()) << infer_line(r);
  EXPECT_EQ(r.table_model, "sm_90.mma_sync.f32.f16");
  EXPECT_TRUE(r.differs.empty()) << infer_line(r);
  EXPECT_NE(r.hypotheses.find(", dense "), std::string::npos) << r.hypotheses;
  EXPECT_NE(infer_line(r).find("sparse hypotheses, each fitted: compressed "), std::string::npos) << infer_line(r);
}

TEST(SparseSimulatedInteger, BothHypothesesAreTheExactModel) {
  const fs::path dir = fs::temp_directory_path() / ("gpuconform_sparse_s8_" + std::to_string(::getpid()));
  GenerateOptions o;
  o.out_dir = dir.string();
  o.variant_glob = host_variant("mmasp_m16n8k64_s32_s8_sel0").name();
  o.count = 9;
  o.simulate_arch = "sm_90";
  const auto results = generate_golden(DeviceInfo{}, o, nullptr);
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].status, GenerateStatus::kWritten) << results[0].reason;
  const FileCheck r = check_vector_file(results[0].path, CheckOptions{});
  EXPECT_EQ(r.status, CheckStatus::kMatched) << r.error;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace gpuconform::numerics
