// SPDX-License-Identifier: Apache-2.0
// The model table against numerics.md §1, written out here as literals, and the lookups
// the GPU probes and vector files use.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

TEST(Models, IdsAreUniqueAndSpellTheirParts) {
  std::set<std::string> seen;
  for (const TensorCoreModel& m : models()) {
    SCOPED_TRACE(m.id);
    EXPECT_TRUE(seen.insert(m.id).second) << "duplicate id";
    const std::string d(m.acc_format.name);
    EXPECT_EQ(m.id, m.arch + "." + m.instruction + "." + d + "." + std::string(m.a_format.name));
    EXPECT_NE(m.citation.find("§"), std::string::npos) << "citation names no numerics.md section";
    EXPECT_FALSE(m.k_shapes.empty());
  }
  EXPECT_EQ(model_ids().size(), models().size());
}

// numerics.md §1, one line per table cell used: L, F, the result grid and its rounding,
// and e_zero (§1 "Zero-term exponent").
TEST(Models, MatchTheNumericsTable) {
  const struct {
    const char* id;
    int L, F;
    const FloatFormat* grid;
    Rounding r;
    int e_zero;
  } rows[] = {
      {"sm_70.mma_sync.f32.f16", 4, 23, &kFp32, Rounding::kRZ, -131},
      {"sm_70.mma_sync.f16.f16", 4, 23, &kFp16, Rounding::kRNE, -19},
      {"sm_75.mma_sync.f32.f16", 8, 24, &kFp32, Rounding::kRZ, -132},
      {"sm_80.mma_sync.f32.f16", 8, 24, &kFp32, Rounding::kRZ, -132},
      {"sm_80.mma_sync.f32.bf16", 8, 24, &kFp32, Rounding::kRZ, -132},
      {"sm_80.mma_sync.f16.f16", 8, 24, &kFp16, Rounding::kRNE, -20},
      {"sm_80.mma_sync.f32.tf32", 4, 24, &kFp32, Rounding::kRZ, -132},
      {"sm_86.mma_sync.f32.bf16", 8, 24, &kFp32, Rounding::kRZ, -132},
      {"sm_89.mma_sync.f32.tf32", 4, 24, &kFp32, Rounding::kRZ, -132},
      {"sm_89.mma_sync.f32.e4m3", 16, 13, &kE8M13, Rounding::kRZ, -132},
      {"sm_89.mma_sync.f16.e5m2", 16, 13, &kFp16, Rounding::kRNE, -20},
      {"sm_90.mma_sync.f32.f16", 16, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_90.mma_sync.f32.bf16", 16, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_90.mma_sync.f16.f16", 16, 25, &kFp16, Rounding::kRNE, -21},
      {"sm_90.mma_sync.f32.tf32", 8, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_90.wmma.f32.tf32", 4, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_90.wgmma.f32.bf16", 16, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_90.wgmma.f32.tf32", 8, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_90.wgmma.f32.e4m3", 32, 13, &kE8M13, Rounding::kRZ, -133},
      {"sm_90.wgmma.f16.e5m2", 32, 13, &kFp16, Rounding::kRNE, -21},
      {"sm_100.tcgen05.f32.f16", 16, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_100.tcgen05.f32.tf32", 8, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_100.tcgen05.f32.e4m3", 32, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_100.tcgen05.f32.e2m1", 32, 25, &kFp32, Rounding::kRZ, -133},
      {"sm_120.mma_sync.f32.e5m2", 32, 25, &kFp32, Rounding::kRZ, -133},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(r.id);
    const TensorCoreModel* m = find_model(r.id);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->block_size, r.L);
    EXPECT_EQ(m->fraction_bits, r.F);
    EXPECT_EQ(m->round_format.name, r.grid->name);
    EXPECT_EQ(m->rounding, r.r);
    EXPECT_EQ(m->e_zero, r.e_zero);
    EXPECT_EQ(m->canonical_nan, r.grid == &kFp16 ? 0x7FFFu : 0x7FFFFFFFu);
  }
}

// Hopper mma.sync FP8 has no native instruction: all four forms are the measured HMMA
// lowering on the Hopper mma.sync f16/bf16 parameters; unknown ids are not invented.
TEST(Models, Sm90Fp8MmaSyncIsTheHmmaLowering) {
  for (const char* id : {"sm_90.mma_sync.f32.e4m3", "sm_90.mma_sync.f32.e5m2", "sm_90.mma_sync.f16.e4m3",
                         "sm_90.mma_sync.f16.e5m2"}) {
    SCOPED_TRACE(id);
    const TensorCoreModel* m = find_model(id);
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(m->fp8_via_hmma_pair);
    EXPECT_EQ(m->block_size, 16);
    EXPECT_EQ(m->fraction_bits, 25);
  }
  EXPECT_FALSE(find_model("sm_90.wgmma.f16.e4m3")->fp8_via_hmma_pair);  // native QGMMA
  EXPECT_EQ(find_model("no.such.model"), nullptr);
}

// Each block's result is rounded onto a grid that is a truncation of the D register, so
// its codes are D codes (e8m13 is fp32 with 10 fewer fraction bits).
TEST(Models, RoundFormatIsAGridOfTheAccumulator) {
  for (const TensorCoreModel& m : models()) {
    SCOPED_TRACE(m.id);
    EXPECT_EQ(m.round_format.exp_bits, m.acc_format.exp_bits);
    EXPECT_EQ(m.round_format.bias, m.acc_format.bias);
    EXPECT_EQ(m.round_format.width_bits(), m.acc_format.width_bits());
    EXPECT_TRUE(m.tf32_truncation);
  }
}

TEST(Models, DefaultModelMapsVectorFileVariants) {
  const struct {
    const char* arch;
    const char* variant;
    const char* id;  // nullptr: no model
  } cases[] = {
      {"sm_80", "mma_m16n8k16_f32_f16", "sm_80.mma_sync.f32.f16"},
      {"sm_80", "mma_m16n8k8_f32_tf32", "sm_80.mma_sync.f32.tf32"},
      {"sm_80", "mma_m16n8k4_f32_tf32", "sm_80.mma_sync.f32.tf32"},
      {"sm_86", "mma_m16n8k16_f32_bf16", "sm_86.mma_sync.f32.bf16"},
      {"sm_89", "mma_m16n8k32_f32_e4m3", "sm_89.mma_sync.f32.e4m3"},
      {"sm_90", "mma_m16n8k16_f16_f16", "sm_90.mma_sync.f16.f16"},
      {"sm_90a", "wgmma_m64n8k16_f32_bf16", "sm_90.wgmma.f32.bf16"},
      {"sm_90", "wgmma_m64n256k32_f32_e5m2", "sm_90.wgmma.f32.e5m2"},
      {"sm_100a", "tcgen05_m128n8k16_f32_f16", "sm_100.tcgen05.f32.f16"},
      {"sm_90", "mma_m16n8k32_f32_e4m3", "sm_90.mma_sync.f32.e4m3"},  // measured lowering
      {"sm_90", "mma_m16n8k32_f16_e4m3", "sm_90.mma_sync.f16.e4m3"},  // measured lowering
      {"sm_90", "wmma_m16n16k16_f32_bf16", "sm_90.mma_sync.f32.bf16"},  // wmma: mma.sync's row
      {"sm_90", "wmma_m16n16k16_f16_f16", "sm_90.mma_sync.f16.f16"},
      {"sm_90", "wmma_m16n16k8_f32_tf32", "sm_90.wmma.f32.tf32"},       // ... unless it has its own
      {"sm_80", "wmma_m16n16k8_f32_tf32", "sm_80.mma_sync.f32.tf32"},
      {"sm_80", "mma_m16n8k32_f16_e4m3", nullptr},          // no FP8 on Ampere
      {"sm_80", "mma_m16n8k32_f32_f16", nullptr},           // no such shape
      {"sm_80", "mma_m16n8k32_s32_s8_satfinite", nullptr},  // integer, qualifier
      {"sm_80", "mmasp_m16n8k32_f32_f16", nullptr},         // sparse: not modelled
      {"sm_61", "mma_m16n8k16_f32_f16", nullptr},
      {"sm_80", "garbage", nullptr},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.arch) + " " + c.variant);
    const TensorCoreModel* m = default_model(c.arch, c.variant);
    if (c.id == nullptr) {
      EXPECT_EQ(m, nullptr);
    } else {
      ASSERT_NE(m, nullptr);
      EXPECT_EQ(m->id, c.id);
    }
  }
}

TEST(Models, DescribeNamesTheParameters) {
  EXPECT_EQ(describe(*find_model("sm_90.mma_sync.f32.bf16")), "L=16 F=25 RZ-f32 e_zero=-133");
  EXPECT_EQ(describe(*find_model("sm_90.wgmma.f32.e4m3")), "L=32 F=13 RZ-e8m13 e_zero=-133");
  EXPECT_EQ(describe(*find_model("sm_80.mma_sync.f32.tf32")),
            "L=4 F=24 RZ-f32 e_zero=-132 tf32-truncate");
}

}  // namespace
}  // namespace gpuconform::ref

namespace gpuconform::ref {
namespace {

// The sm_90 FP8 mma.sync lowering adds C last with an fp32 RNE add. Six products of
// 2^-18 (e4m3 2^-9 squared) sum exactly to 1.5 * 2^-16 before C = 256 joins: more than
// half an ulp of 256, so RNE rounds up to 256 + 2^-15. A block-FMA chain with C in the
// first block (F = 25 bits below 2^8) would truncate each product to zero: 256.
TEST(Models, Sm90Fp8MmaSyncAddsCLastWithRne) {
  const TensorCoreModel* m = find_model("sm_90.mma_sync.f32.e4m3");
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(m->fp8_via_hmma_pair);
  const std::uint64_t tiny = 0x01;  // e4m3 2^-9
  std::vector<std::uint64_t> a(32, 0), b(32, 0);
  for (int k : {0, 1, 4, 5, 8, 9}) a[k] = b[k] = tiny;
  const std::uint64_t c = 0x43800000;  // 256.0f
  EXPECT_EQ(dot(*m, 32, a.data(), b.data(), c), 0x43800001u);
  EXPECT_EQ(dot_mpfr(*m, 32, a.data(), b.data(), c), 0x43800001u);
  const TensorCoreModel* wgmma = find_model("sm_90.wgmma.f32.e4m3");
  ASSERT_NE(wgmma, nullptr);
  EXPECT_EQ(dot(*wgmma, 32, a.data(), b.data(), c), 0x43800000u);  // C inside the block
}

// The f16-D form of the same lowering also adds C last, with an f16 RNE add. One product
// of 1.0 in each HMMA block (k = 0 and k = 2) and C = 2048, where the f16 ulp is 2: the
// products sum to 2 and 2048 + 2 = 2050 exactly. Chaining the blocks from C instead would
// round 2048 + 1 to even (2048) twice: 2048. The H100 golden vectors give the former.
TEST(Models, Sm90Fp8MmaSyncF16AddsCLastInF16) {
  const TensorCoreModel* m = find_model("sm_90.mma_sync.f16.e4m3");
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(m->fp8_via_hmma_pair);
  const std::uint64_t one = 0x38;  // e4m3 1.0
  std::vector<std::uint64_t> a(32, 0), b(32, 0);
  for (int k : {0, 2}) a[k] = b[k] = one;
  const std::uint64_t c = 0x6800;  // f16 2048
  EXPECT_EQ(dot(*m, 32, a.data(), b.data(), c), 0x6801u);
  EXPECT_EQ(dot_mpfr(*m, 32, a.data(), b.data(), c), 0x6801u);
}

}  // namespace
}  // namespace gpuconform::ref
