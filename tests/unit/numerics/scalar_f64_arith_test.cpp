// SPDX-License-Identifier: Apache-2.0
// The exact-rounding decider of numeric.scalar.<op>.<rnd>.f64 (numerics/scalar_f64_arith.hpp,
// scalar_f64_round.hpp): against MPFR (53 bits, binary64's exponent range, subnormalised, the
// row's direction) on every operand class of every row and on hand-picked hard cases (ties,
// results at and below the smallest subnormal, the overflow threshold, exact cancellation);
// the operand classes produce what they are for; a scan's measurement names a mismatch.
#include "gpuconform/numerics/scalar_f64_arith.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cstring>

#include "mpfr_rounding.hpp"

namespace gpuconform::numerics {
namespace {

using test::bit_copy;
using test::mpfr_mode;

// The row's operation in MPFR at binary64's precision and exponent range, subnormalised.
class MpfrBinary64 {
 public:
  MpfrBinary64() {
    old_emin_ = mpfr_get_emin();
    old_emax_ = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    mpfr_inits2(53, x_, y_, z_, r_, static_cast<mpfr_ptr>(nullptr));
  }
  ~MpfrBinary64() {
    mpfr_clears(x_, y_, z_, r_, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_emin(old_emin_);
    mpfr_set_emax(old_emax_);
  }
  std::uint64_t run(const F64ArithSpec& s, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    const mpfr_rnd_t rnd = mpfr_mode(s.rounding);
    mpfr_set_d(x_, bit_copy<double>(a), MPFR_RNDN);
    mpfr_set_d(y_, bit_copy<double>(b), MPFR_RNDN);
    mpfr_set_d(z_, bit_copy<double>(c), MPFR_RNDN);
    int t = 0;
    switch (s.op) {
      case ArithOp::add: t = mpfr_add(r_, x_, y_, rnd); break;
      case ArithOp::sub: t = mpfr_sub(r_, x_, y_, rnd); break;
      case ArithOp::mul: t = mpfr_mul(r_, x_, y_, rnd); break;
      case ArithOp::fma: t = mpfr_fma(r_, x_, y_, z_, rnd); break;
      case ArithOp::div: t = mpfr_div(r_, x_, y_, rnd); break;
      case ArithOp::sqrt: t = mpfr_sqrt(r_, x_, rnd); break;
      case ArithOp::rcp: t = mpfr_ui_div(r_, 1, x_, rnd); break;
    }
    mpfr_subnormalize(r_, t, rnd);
    return bit_copy<std::uint64_t>(mpfr_get_d(r_, rnd));
  }

 private:
  mpfr_t x_, y_, z_, r_;
  mpfr_exp_t old_emin_, old_emax_;
};

bool same(std::uint64_t got, std::uint64_t want) {
  return got == want || (f64::is_nan_bits(got) && f64::is_nan_bits(want));
}

TEST(ScalarF64Arith, TableHasEveryOpAndDirection) {
  EXPECT_EQ(scalar_f64_arith().size(), 28u);
  for (const char* id : {"numeric.scalar.add.rn.f64", "numeric.scalar.fma.rz.f64", "numeric.scalar.div.rm.f64",
                         "numeric.scalar.sqrt.rp.f64", "numeric.scalar.rcp.rn.f64"})
    EXPECT_NE(find_scalar_f64_arith(id), nullptr) << id;
  EXPECT_EQ(find_scalar_f64_arith("numeric.scalar.add.rn.ftz.f64"), nullptr);  // PTX has no .ftz on f64
}

TEST(ScalarF64Arith, ReferenceEqualsMpfrOnEveryClassOfEveryRow) {
  MpfrBinary64 mp;
  for (const ScalarF64Arith& row : scalar_f64_arith()) {
    int failures = 0;
    for (std::uint64_t i = 0; i < 6000 && failures < 5; ++i) {
      const F64Operands o = f64_operands(row.spec.op, i);
      const std::uint64_t got = f64_arith_reference(row.spec, o.a, o.b, o.c);
      const std::uint64_t want = mp.run(row.spec, o.a, o.b, o.c);
      if (!same(got, want)) {
        ++failures;
        ADD_FAILURE() << fmt::format(
            "{} tuple {} (class {}): a = {:#018x} b = {:#018x} c = {:#018x}: reference "
            "{:#018x}, MPFR {:#018x}",
            row.ptx, i, i % 5, o.a, o.b, o.c, got, want);
      }
    }
  }
}

// Cases chosen by hand, each at the edge one rounding rule decides.
TEST(ScalarF64Arith, HardCasesEqualMpfr) {
  const std::uint64_t one = 0x3ff0000000000000ull, eps53 = 0x3ca0000000000000ull /* 2^-53 */;
  const std::uint64_t min_sub = 1, max_sub = 0x000fffffffffffffull, min_norm = 0x0010000000000000ull;
  const std::uint64_t max = 0x7fefffffffffffffull, half = 0x3fe0000000000000ull;
  const std::uint64_t one_plus = 0x3ff0000000000001ull, one_minus = 0x3fefffffffffffffull;
  const std::uint64_t three_min_sub = 3;
  const struct {
    ArithOp op;
    std::uint64_t a, b, c;
  } cases[] = {
      {ArithOp::add, one, eps53, 0},                  // 1 + 2^-53: a tie, to even 1
      {ArithOp::add, one_plus, eps53, 0},             // a tie, to even 1 + 2^-51
      {ArithOp::sub, one, eps53 + (1ull << 52), 0},   // 1 - 2^-52: the finer binade below 1
      {ArithOp::add, max, 0x7ca0000000000000ull, 0},  // max + half its ulp: overflow threshold
      {ArithOp::add, max, 0x7c9fffffffffffffull, 0},  // just below the threshold
      {ArithOp::sub, one, one, 0},                    // exact cancellation: +0, -0 under .rm
      {ArithOp::mul, min_sub, half, 0},               // 2^-1075: a tie between 0 and 2^-1074
      {ArithOp::mul, three_min_sub, half, 0},         // 1.5 * 2^-1074
      {ArithOp::mul, min_norm, one_minus, 0},         // just below 2^-1022
      {ArithOp::mul, max_sub, 0x4000000000000000ull, 0},
      {ArithOp::mul, max, one_plus, 0},                            // overflow
      {ArithOp::fma, one_plus, one_minus, 0xbff0000000000000ull},  // exact tiny remainder
      {ArithOp::fma, one, one, 0x8000000000000001ull},             // 1 - 2^-1074: sticky
      {ArithOp::fma, min_sub, half, 0},                            // tie at the bottom
      {ArithOp::fma, one, eps53, one},                             // 1 + 2^-53 through fma
      {ArithOp::fma, 0x8000000000000000ull, one, 0},               // -0 + +0
      {ArithOp::div, one, 0x4008000000000000ull, 0},               // 1/3
      {ArithOp::div, three_min_sub, 0x4000000000000000ull, 0},     // 1.5 * 2^-1074 exactly
      {ArithOp::div, min_norm, 0x4330000000000001ull, 0},          // deep underflow
      {ArithOp::div, max, half, 0},                                // overflow
      {ArithOp::rcp, max, 0, 0},                                   // subnormal reciprocal
      {ArithOp::rcp, 0x8000000000000000ull, 0, 0},                 // -inf
      {ArithOp::sqrt, 0x4000000000000000ull, 0, 0},                // sqrt(2)
      {ArithOp::sqrt, one_minus, 0, 0},                            // below a power of 2
      {ArithOp::sqrt, min_sub, 0, 0},
      {ArithOp::sqrt, max, 0, 0},
      {ArithOp::sqrt, 0x8000000000000000ull, 0, 0},  // -0
  };
  MpfrBinary64 mp;
  for (const auto& c : cases)
    for (ref::Rounding r : {ref::Rounding::kRNE, ref::Rounding::kRZ, ref::Rounding::kRD, ref::Rounding::kRU}) {
      const F64ArithSpec s{c.op, r};
      for (int flip = 0; flip < 2; ++flip) {  // and with the first operand's sign flipped
        const std::uint64_t a = c.a ^ (flip ? f64::kSign : 0);
        EXPECT_TRUE(same(f64_arith_reference(s, a, c.b, c.c), mp.run(s, a, c.b, c.c)))
            << fmt::format("op {} rnd {} a = {:#018x} b = {:#018x} c = {:#018x}: reference {:#018x}, MPFR {:#018x}",
                           static_cast<int>(c.op), static_cast<int>(r), a, c.b, c.c,
                           f64_arith_reference(s, a, c.b, c.c), mp.run(s, a, c.b, c.c));
      }
    }
}

TEST(ScalarF64Arith, TiesAreDecidedFromTheExactValueNotTheRnResult) {
  // 1 + 2^-53 at .rn: the exact value is a midpoint; the decider rounds it itself (to even).
  const F64ArithSpec rn{ArithOp::add, ref::Rounding::kRNE};
  EXPECT_EQ(f64_arith_reference(rn, 0x3ff0000000000000ull, 0x3ca0000000000000ull, 0), 0x3ff0000000000000ull);
  // The remainder's classification: on a quarter, between quarters, beyond half an ulp.
  const double q = 0.25;
  const auto cls = [&](double e) {
    return f64::eighths(
        q, [&](double t) { return e < t; }, [&](double t) { return e == t; });
  };
  EXPECT_EQ(cls(0.0), 0);
  EXPECT_EQ(cls(0.1), 1);
  EXPECT_EQ(cls(0.25), 2);
  EXPECT_EQ(cls(0.5), 4);
  EXPECT_EQ(cls(-0.3), -3);
  EXPECT_EQ(cls(0.6), 99);
  EXPECT_EQ(cls(-0.51), 99);
}

TEST(ScalarF64Arith, OperandClassesReachTiesSubnormalsOverflowAndNaNs) {
  MpfrBinary64 mp;
  int subnormal = 0, overflow = 0, nan = 0, negzero = 0, ties = 0;
  for (ArithOp op : {ArithOp::add, ArithOp::mul, ArithOp::fma, ArithOp::div})
    for (std::uint64_t i = 0; i < 20000; ++i) {
      const F64Operands o = f64_operands(op, i);
      const F64ArithSpec rn{op, ref::Rounding::kRNE}, rz{op, ref::Rounding::kRZ};
      const std::uint64_t r = f64_arith_reference(rn, o.a, o.b, o.c);
      const std::uint64_t mag = r & ~f64::kSign;
      subnormal += mag != 0 && mag < 0x0010000000000000ull;
      overflow += mag == f64::kInf && i % 5 == kArithBoundary;
      nan += f64::is_nan_bits(r);
      negzero += r == f64::kSign;
      // A tie: .rn and .rz differ while the exact value is a midpoint (MPFR at 54 bits is exact).
      if (i % 5 == kArithTies && r != f64_arith_reference(rz, o.a, o.b, o.c)) {
        mpfr_t x;
        mpfr_init2(x, 200);
        mpfr_set_d(x, bit_copy<double>(o.a), MPFR_RNDN);
        mpfr_t y;
        mpfr_init2(y, 200);
        mpfr_set_d(y, bit_copy<double>(o.b), MPFR_RNDN);
        if (op == ArithOp::mul) mpfr_mul(x, x, y, MPFR_RNDN);
        if (op == ArithOp::add) mpfr_add(x, x, y, MPFR_RNDN);
        mpfr_t z;
        mpfr_init2(z, 54);
        ties += op != ArithOp::fma && op != ArithOp::div && mpfr_set(z, x, MPFR_RNDN) == 0 && mpfr_min_prec(x) == 54;
        mpfr_clears(x, y, z, static_cast<mpfr_ptr>(nullptr));
      }
    }
  (void)mp;
  EXPECT_GT(subnormal, 100);
  EXPECT_GT(overflow, 100);
  EXPECT_GT(nan, 100);
  EXPECT_GT(negzero, 10);
  EXPECT_GT(ties, 50);
}

TEST(ScalarF64Arith, MeasurementNamesTheFirstMismatch) {
  const ScalarF64Arith& row = *find_scalar_f64_arith("numeric.scalar.add.rm.f64");
  F64ArithScan scan;
  scan.compared = 1000;
  scan.mismatches_by_class[kArithTies] = 1;
  scan.first.push_back({7, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0, 0, f64::kSign});
  const Measurement m = f64_arith_measurement(row, scan);
  EXPECT_EQ(m.value, 1);
  ASSERT_NE(m.find_note("first_mismatch"), nullptr);
  EXPECT_NE(m.find_note("first_mismatch")->find("reference 0x8000000000000000"), std::string::npos);
  ASSERT_NE(m.find_note("violations"), nullptr);
  F64ArithScan clean;
  clean.compared = 1000;
  EXPECT_EQ(f64_arith_measurement(row, clean).value, 0);
  EXPECT_EQ(f64_arith_measurement(row, clean).find_note("violations"), nullptr);
}

}  // namespace
}  // namespace gpuconform::numerics
