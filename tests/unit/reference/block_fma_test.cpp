// SPDX-License-Identifier: Apache-2.0
// The integer block-FMA model against its MPFR twin on 10^6 random dot products per
// distinct parameter set (rows that differ only in arch or instruction name compute the
// same function; each set is run under its first id, and names the others). Inputs are
// drawn as codes of the input formats, cycling through every InputClass, with K the
// instruction's depth and, one time in 8, a shorter K that leaves a partial block. The
// fast side is mma() (dot() is the same code on one element; the vector tests use it).
// Plus the layout contract of mma() on a product small enough to check by hand.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/reference/random_inputs.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "reference_test_support.hpp"

namespace gpuconform::ref {
namespace {

using testing::hex;
using testing::hex_list;
using testing::Mismatches;

// Everything the arithmetic depends on; the id, arch and citation are not.
std::string signature(const TensorCoreModel& m) {
  return describe(m) + " " + std::string(m.a_format.name) + "x" + std::string(m.b_format.name) +
         "+" + std::string(m.acc_format.name) + " k" + std::to_string(m.max_k());
}

struct ParameterSet {
  const TensorCoreModel* first;
  std::vector<std::string> ids;
};

std::vector<ParameterSet> parameter_sets() {
  std::map<std::string, ParameterSet> by_signature;
  std::vector<std::string> order;
  for (const TensorCoreModel& m : models()) {
    const std::string s = signature(m);
    auto [it, fresh] = by_signature.try_emplace(s, ParameterSet{&m, {}});
    if (fresh) order.push_back(s);
    it->second.ids.push_back(m.id);
  }
  std::vector<ParameterSet> sets;
  for (const auto& s : order) sets.push_back(by_signature.at(s));
  return sets;
}

class FastVsMpfr : public ::testing::TestWithParam<ParameterSet> {};

TEST_P(FastVsMpfr, AgreeOnAMillionRandomDotProducts) {
  const TensorCoreModel& m = *GetParam().first;
  std::string ids;
  for (const auto& id : GetParam().ids) ids += id + " ";
  SCOPED_TRACE("models: " + ids + "(" + describe(m) + ")");
  RecordProperty("models", ids);

  // Each draw is a 4x4 MMA instance: 16 dot products, each a distinct row-column pair.
  // mma() computes them on the fast path; dot_mpfr() each one separately.
  constexpr int kM = 4, kN = 4;
  Rng rng(testing::seed_from(m.id));
  std::vector<std::uint64_t> A, B, C, D(kM * kN);
  const auto& classes = all_input_classes();
  Mismatches wrong;
  long dots = 0, nonzero = 0;
  const long n = testing::scaled(1'000'000);
  for (long instance = 0; dots < n; ++instance) {
    const InputClass cls = classes[static_cast<std::size_t>(instance) % classes.size()];
    const int K = instance % 8 == 7 ? 1 + static_cast<int>(rng() % m.max_k()) : m.max_k();
    draw_mma(m, cls, kM, kN, K, rng, A, B, C);
    mma(m, kM, kN, K, A.data(), B.data(), C.data(), D.data());
    for (int i = 0; i < kM; ++i) {
      for (int j = 0; j < kN; ++j, ++dots) {
        const std::uint64_t* a = &A[i * K];
        const std::uint64_t* b = &B[j * K];
        const std::uint64_t c = C[i * kN + j];
        const std::uint64_t fast = D[i * kN + j];
        const std::uint64_t exact = dot_mpfr(m, K, a, b, c);
        nonzero += fast != 0;
        if (fast != exact)
          wrong.add(fmt::format("{} K={} a={} b={} c={}: mma {} dot_mpfr {}", to_string(cls), K,
                                hex_list(m.a_format, a, K), hex_list(m.b_format, b, K),
                                hex(m.acc_format, c), hex(m.acc_format, fast),
                                hex(m.acc_format, exact)));
      }
    }
  }
  EXPECT_EQ(wrong.count, 0) << wrong.report();
  EXPECT_GT(nonzero, dots / 2) << "the random inputs mostly produce zero: the test would be weak";
}

INSTANTIATE_TEST_SUITE_P(ParameterSets, FastVsMpfr, ::testing::ValuesIn(parameter_sets()),
                         [](const auto& info) { return testing::test_name(info.param.first->id); });

// A: 2x2 row-major [[1,2],[3,4]]; B: 2x2 [[5,6],[7,8]] column-major; C all 1.
// D = A*B + C = [[20,23],[44,51]], exact in every model.
TEST(Mma, FollowsTheDocumentedLayouts) {
  for (const char* id :
       {"sm_90.mma_sync.f32.bf16", "sm_80.mma_sync.f16.f16", "sm_90.wgmma.f32.e4m3"}) {
    SCOPED_TRACE(id);
    ASSERT_NE(find_model(id), nullptr);
    const TensorCoreModel& m = *find_model(id);
    auto in = [&](double x) { return from_double(m.a_format, x, Rounding::kRNE); };
    auto acc = [&](double x) { return from_double(m.acc_format, x, Rounding::kRNE); };
    const std::uint64_t A[] = {in(1), in(2), in(3), in(4)};
    const std::uint64_t B[] = {in(5), in(7), in(6), in(8)};  // (k,j) at j*K + k
    const std::uint64_t C[] = {acc(1), acc(1), acc(1), acc(1)};
    std::uint64_t D[4] = {};
    mma(m, 2, 2, 2, A, B, C, D);
    EXPECT_EQ(D[0], acc(20));
    EXPECT_EQ(D[1], acc(23));
    EXPECT_EQ(D[2], acc(44));
    EXPECT_EQ(D[3], acc(51));
  }
}

// Every element of a random m16n8k16 equals dot() on row i of A and column j of B.
TEST(Mma, EachElementIsTheDotOfItsRowAndColumn) {
  ASSERT_NE(find_model("sm_80.mma_sync.f32.f16"), nullptr);
  const TensorCoreModel& m = *find_model("sm_80.mma_sync.f32.f16");
  Rng rng(7);
  std::vector<std::uint64_t> A, B, C, D(16 * 8);
  draw_mma(m, InputClass::kNormal, 16, 8, 16, rng, A, B, C);
  mma(m, 16, 8, 16, A.data(), B.data(), C.data(), D.data());
  Mismatches wrong;
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      if (D[i * 8 + j] != dot_mpfr(m, 16, &A[i * 16], &B[j * 16], C[i * 8 + j]))
        wrong.add(fmt::format("D[{}][{}]", i, j));
  EXPECT_EQ(wrong.count, 0) << wrong.report();
}

}  // namespace
}  // namespace gpuconform::ref
