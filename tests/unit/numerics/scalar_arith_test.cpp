// SPDX-License-Identifier: Apache-2.0
// The exact reference of numeric.scalar.<op>.<rnd>[.ftz].f32 (numerics/scalar_arith.hpp):
// against MPFR (24 bits, binary32's exponent range, subnormalised, the rounding direction of
// the row) on every class of operand tuples of every row; the operand classes produce what
// they are for (ties, subnormal results, overflow, signed zeros, NaNs); and a scan's
// Measurement judged against the invariant entry.
#include "gpuconform/numerics/scalar_arith.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <set>

#include "gpuconform/reference/float_format.hpp"
#include "gpuconform/verdict.hpp"
#include "mpfr_rounding.hpp"

namespace gpuconform::numerics {
namespace {

using test::mpfr_mode;

// The row's operation on MPFR numbers of the row's format: its precision and exponent range,
// subnormalised, with the row's rounding; .ftz flushes subnormal operands, and results that
// are tiny after rounding (rounded at an unbounded exponent, below the smallest normal).
class MpfrFormat {
 public:
  explicit MpfrFormat(const ref::FloatFormat& f) : f_(f) {
    old_emin_ = mpfr_get_emin();
    old_emax_ = mpfr_get_emax();
    mpfr_set_emin(f.emin() - f.man_bits + 1);  // the smallest subnormal 2^(emin - man) = 0.5 x 2^(that + 1)
    mpfr_set_emax(f.emax() + 1);
    mpfr_inits2(f.man_bits + 1, x_, y_, z_, r_, static_cast<mpfr_ptr>(nullptr));
  }
  ~MpfrFormat() {
    mpfr_clears(x_, y_, z_, r_, static_cast<mpfr_ptr>(nullptr));
    mpfr_set_emin(old_emin_);
    mpfr_set_emax(old_emax_);
  }
  MpfrFormat(const MpfrFormat&) = delete;
  MpfrFormat& operator=(const MpfrFormat&) = delete;

  std::uint32_t flush(std::uint32_t x) const {
    return ((x >> f_.man_bits) & f_.exp_field_max()) == 0 ? static_cast<std::uint32_t>(x & f_.sign_bit()) : x;
  }
  // .sat by its definition on values: NaN, and anything not above +0 but +0 itself (-0 too),
  // becomes +0; anything above 1 becomes 1.
  std::uint32_t eval(const ArithSpec& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    const std::uint32_t out = rounded(s, a, b, c);
    if (!s.sat) return out;
    const double v = ref::to_double(f_, out);
    if (std::isnan(v) || std::signbit(v)) return 0u;
    return v > 1.0 ? static_cast<std::uint32_t>(ref::from_double(f_, 1.0, ref::Rounding::kRNE)) : out;
  }
  std::uint32_t rounded(const ArithSpec& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (s.target.ftz) a = flush(a), b = flush(b), c = flush(c);
    const mpfr_rnd_t rnd = mpfr_mode(s.target.rounding);
    mpfr_set_d(x_, ref::to_double(f_, a), MPFR_RNDN);  // exact: the operands are of the format
    mpfr_set_d(y_, ref::to_double(f_, b), MPFR_RNDN);
    mpfr_set_d(z_, ref::to_double(f_, c), MPFR_RNDN);
    int inex = 0;
    if (s.target.ftz) mpfr_set_emin(mpfr_get_emin_min());  // the exponent unbounded below
    switch (s.op) {
      case ArithOp::add: inex = mpfr_add(r_, x_, y_, rnd); break;
      case ArithOp::sub: inex = mpfr_sub(r_, x_, y_, rnd); break;
      case ArithOp::mul: inex = mpfr_mul(r_, x_, y_, rnd); break;
      case ArithOp::fma: inex = mpfr_fma(r_, x_, y_, z_, rnd); break;
      case ArithOp::div: inex = mpfr_div(r_, x_, y_, rnd); break;
      case ArithOp::sqrt: inex = mpfr_sqrt(r_, x_, rnd); break;
      case ArithOp::rcp: inex = mpfr_ui_div(r_, 1, x_, rnd); break;
    }
    if (s.target.ftz) {
      mpfr_set_emin(f_.emin() - f_.man_bits + 1);
      // Tiny after rounding: |r| < 2^emin, i.e. MPFR's exponent (r = m 2^E, 1/2 <= |m| < 1) <= emin.
      if (mpfr_regular_p(r_) && mpfr_get_exp(r_) <= f_.emin())
        return mpfr_signbit(r_) ? static_cast<std::uint32_t>(f_.sign_bit()) : 0u;
    }
    inex = mpfr_check_range(r_, inex, rnd);
    mpfr_subnormalize(r_, inex, rnd);
    if (mpfr_nan_p(r_)) return s.target.canonical_nan;
    // Exact: r holds a value of the format (or +-inf).
    std::uint32_t out =
        static_cast<std::uint32_t>(ref::from_double(f_, mpfr_get_d(r_, MPFR_RNDN), ref::Rounding::kRNE));
    if (s.target.ftz && ((out >> f_.man_bits) & f_.exp_field_max()) == 0)
      out &= static_cast<std::uint32_t>(f_.sign_bit());
    return out;
  }
  std::uint32_t eval_packed(const ArithSpec& s, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (s.lanes == 1) return eval(s, a, b, c);
    return eval(s, a >> 16, b >> 16, c >> 16) << 16 | eval(s, a & 0xffffu, b & 0xffffu, c & 0xffffu);
  }

 private:
  const ref::FloatFormat& f_;
  mpfr_exp_t old_emin_, old_emax_;
  mpfr_t x_, y_, z_, r_;
};

const ref::FloatFormat& format_of(const ArithSpec& s) {
  return s.source.man_bits == 23 ? ref::kFp32 : s.source.man_bits == 10 ? ref::kFp16 : ref::kBf16;
}

TEST(ScalarArith, TableHasEveryOpRoundingAndFtz) {
  EXPECT_EQ(scalar_arith().size(), 7u * 4 * 2 + 4 * 6 + 4 * 4 + 4 * 4 * 2);  // binary32; 16-bit; f16 .sat; f32 .sat
  std::set<std::string> ids;
  for (const ScalarArith& r : scalar_arith()) {
    EXPECT_EQ(r.id, "numeric.scalar." + r.ptx);
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(r.spec.target.ftz, r.ptx.find(".ftz") != std::string::npos) << r.id;
    const bool f32 = r.ptx.size() > 4 && r.ptx.compare(r.ptx.size() - 4, 4, ".f32") == 0;
    EXPECT_EQ(r.spec.target.width_bits(), f32 ? 32 : 16) << r.id;
    EXPECT_EQ(r.spec.lanes, r.ptx.find("x2") != std::string::npos ? 2 : 1) << r.id;
    EXPECT_EQ(r.spec.all_pairs, !f32 && r.spec.op != ArithOp::fma) << r.id;
    EXPECT_EQ(arith_tuple_count(r.spec), r.spec.all_pairs ? std::uint64_t{1} << 32 : kArithTuples) << r.id;
    EXPECT_EQ(find_scalar_arith(r.id), &r);
  }
  EXPECT_EQ(find_scalar_arith("numeric.scalar.add.rn.bf16")->min_cc, 90);
  EXPECT_EQ(find_scalar_arith("numeric.scalar.sub.rn.bf16x2")->min_cc, 90);
  EXPECT_EQ(find_scalar_arith("numeric.scalar.sub.rn.ftz.f16")->spec.op, ArithOp::sub);
  EXPECT_EQ(find_scalar_arith("numeric.scalar.fma.rn.bf16x2")->min_cc, 80);
  EXPECT_EQ(find_scalar_arith("numeric.scalar.mul.rn.ftz.f16x2")->min_cc, 75);
  for (const char* id : {"numeric.scalar.div.rn.f32", "numeric.scalar.fma.rm.ftz.f32", "numeric.scalar.rcp.rp.f32",
                         "numeric.scalar.sqrt.rz.ftz.f32", "numeric.scalar.sub.rn.f32"})
    EXPECT_NE(find_scalar_arith(id), nullptr) << id;
  const ScalarArith& rm = *find_scalar_arith("numeric.scalar.add.rm.f32");
  EXPECT_EQ(rm.spec.target.rounding, ref::Rounding::kRD);
  EXPECT_EQ(find_scalar_arith("numeric.scalar.rp.rcp.f32"), nullptr);
}

// The reference is exact: equal to MPFR, bit for bit, on tuples of every class of every row.
TEST(ScalarArith, ReferenceEqualsMpfrOnEveryClassOfEveryRow) {
  const std::uint64_t per_row = 30000;
  for (const ScalarArith& r : scalar_arith()) {
    MpfrFormat mpfr(format_of(r.spec));
    long wrong = 0;
    std::string first;
    // 16-bit pairs: a step of 7919 x 40503 spreads the indices over all 2^32 pairs.
    const std::uint64_t step = r.spec.all_pairs ? 7919ull * 40503 : 7919;
    for (std::uint64_t i = 0; i < per_row; ++i) {
      const ArithOperands o = arith_operands(r.spec, (i * step) % arith_tuple_count(r.spec));
      const std::uint32_t got = arith_reference_packed(r.spec, o.a, o.b, o.c);
      const std::uint32_t want = mpfr.eval_packed(r.spec, o.a, o.b, o.c);
      if (got != want && wrong++ == 0)
        first = fmt::format("tuple {}: a 0x{:08x} b 0x{:08x} c 0x{:08x}: 0x{:08x}, MPFR 0x{:08x}", i * step, o.a, o.b,
                            o.c, got, want);
    }
    EXPECT_EQ(wrong, 0) << r.id << ": " << first;
  }
}

// Hand-picked cases with known answers, IEEE 754's signed zeros among them.
TEST(ScalarArith, KnownResults) {
  const auto ref = [](const char* id, std::uint32_t a, std::uint32_t b = 0, std::uint32_t c = 0) {
    return arith_reference(find_scalar_arith(id)->spec, a, b, c);
  };
  EXPECT_EQ(ref("numeric.scalar.add.rn.f32", 0x3f800000u, 0x33800000u), 0x3f800000u);  // 1 + 2^-24: tie to even
  EXPECT_EQ(ref("numeric.scalar.add.rn.f32", 0x3f800001u, 0x33800000u), 0x3f800002u);  // tie to even, upward
  EXPECT_EQ(ref("numeric.scalar.add.rp.f32", 0x3f800000u, 0x00000001u), 0x3f800001u);  // + min subnormal, up
  EXPECT_EQ(ref("numeric.scalar.add.rm.f32", 0x3f800000u, 0x80000001u), 0x3f7fffffu);
  EXPECT_EQ(ref("numeric.scalar.add.rn.f32", 0x3f800000u, 0xbf800000u), 0x00000000u);  // x - x = +0
  EXPECT_EQ(ref("numeric.scalar.add.rm.f32", 0x3f800000u, 0xbf800000u), 0x80000000u);  // ... -0 under .rm
  EXPECT_EQ(ref("numeric.scalar.add.rn.f32", 0x80000000u, 0x80000000u), 0x80000000u);  // -0 + -0
  EXPECT_EQ(ref("numeric.scalar.sub.rp.f32", 0x80000000u, 0x00000000u), 0x80000000u);  // -0 - +0
  EXPECT_EQ(ref("numeric.scalar.sub.rn.f16", 0x3c00u, 0x3c00u), 0x0000u);              // 1 - 1 = +0
  EXPECT_EQ(ref("numeric.scalar.sub.rn.f16", 0x8000u, 0x0000u), 0x8000u);              // -0 - +0 = -0
  EXPECT_EQ(ref("numeric.scalar.sub.rn.bf16", 0x3f80u, 0x3b80u), 0x3f7fu);             // 1 - 2^-8, exact
  EXPECT_EQ(ref("numeric.scalar.sub.rn.bf16", 0x3f80u, 0x3b00u), 0x3f80u);             // 1 - 2^-9: a tie, to even
  EXPECT_EQ(ref("numeric.scalar.sub.rn.ftz.f16", 0x0400u, 0x0001u), 0x0400u);          // the subnormal flushed
  EXPECT_EQ(ref("numeric.scalar.add.rn.sat.f16", 0x3c00u, 0x3c00u), 0x3c00u);          // 1 + 1 clamped to 1
  EXPECT_EQ(ref("numeric.scalar.add.rn.sat.f16", 0x3800u, 0x3400u), 0x3a00u);          // 0.5 + 0.25 inside [0, 1]
  EXPECT_EQ(ref("numeric.scalar.sub.rn.sat.f16", 0x0000u, 0x3c00u), 0x0000u);          // 0 - 1 clamped to +0
  EXPECT_EQ(ref("numeric.scalar.add.rn.sat.f16", 0x8000u, 0x8000u), 0x0000u);          // -0 + -0: +0
  EXPECT_EQ(ref("numeric.scalar.mul.rn.sat.f16", 0x7e00u, 0x3c00u), 0x0000u);          // NaN: +0
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.sat.f16", 0x3c00u, 0x3c00u, 0x7c00u), 0x3c00u);  // +inf: 1
  EXPECT_EQ(ref("numeric.scalar.add.rn.sat.f32", 0x3f800000u, 0x30800000u), 0x3f800000u);   // 1 + 2^-30: 1
  EXPECT_EQ(ref("numeric.scalar.add.rp.sat.f32", 0x3f7fffffu, 0x30800000u), 0x3f800000u);   // rounds up to 1
  EXPECT_EQ(ref("numeric.scalar.add.rz.sat.f32", 0x3f000000u, 0x3e800000u), 0x3f400000u);   // 0.75 kept
  EXPECT_EQ(ref("numeric.scalar.sub.rm.sat.f32", 0x3f800000u, 0x3f800000u), 0x00000000u);   // -0 under .rm: +0
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.sat.f32", 0x7fc00000u, 0x3f800000u), 0x00000000u);           // NaN: +0
  EXPECT_EQ(ref("numeric.scalar.fma.rz.sat.f32", 0xbf800000u, 0x3f800000u, 0x3f000000u), 0x00000000u);  // -0.5: +0
  EXPECT_EQ(ref("numeric.scalar.add.rn.f32", 0x7f7fffffu, 0x7f7fffffu), 0x7f800000u);  // overflow
  EXPECT_EQ(ref("numeric.scalar.add.rz.f32", 0x7f7fffffu, 0x7f7fffffu), 0x7f7fffffu);
  EXPECT_EQ(ref("numeric.scalar.add.rn.f32", 0x7f800000u, 0xff800000u), 0x7fffffffu);  // inf - inf
  EXPECT_EQ(ref("numeric.scalar.mul.rn.f32", 0x00800000u, 0x3f000000u), 0x00400000u);  // 2^-126 / 2: subnormal
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f32", 0x00800000u, 0x3f000000u), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f32", 0x80800000u, 0x3f000000u), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f32", 0x00400000u, 0x4b000000u), 0x00000000u);  // flushed operand
  EXPECT_EQ(ref("numeric.scalar.mul.rn.f32", 0x00400000u, 0x4b000000u), 0x0b800000u);      // 2^-127 x 2^23
  EXPECT_EQ(ref("numeric.scalar.mul.rn.f32", 0x00000001u, 0x3f000000u), 0x00000000u);      // 2^-150: tie to 0
  EXPECT_EQ(ref("numeric.scalar.mul.rp.f32", 0x00000001u, 0x3f000000u), 0x00000001u);
  EXPECT_EQ(ref("numeric.scalar.mul.rn.f32", 0x00000001u, 0x3f400000u), 0x00000001u);  // 0.75 x min: up
  EXPECT_EQ(ref("numeric.scalar.mul.rn.f32", 0x7f800000u, 0x00000000u), 0x7fffffffu);  // inf x 0
  EXPECT_EQ(ref("numeric.scalar.fma.rn.f32", 0x3f800001u, 0x3f800001u, 0xbf800002u),
            0x28800000u);  // (1+u)^2-(1+2u) = u^2
  EXPECT_EQ(ref("numeric.scalar.fma.rn.f32", 0x00000000u, 0x3f800000u, 0x80000000u), 0x00000000u);  // +0 + -0
  EXPECT_EQ(ref("numeric.scalar.fma.rm.f32", 0x00000000u, 0x3f800000u, 0x80000000u), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.f32", 0x80000000u, 0x3f800000u, 0x80000000u), 0x80000000u);  // -0 + -0
  EXPECT_EQ(ref("numeric.scalar.div.rn.f32", 0x3f800000u, 0x40400000u), 0x3eaaaaabu);               // 1/3
  EXPECT_EQ(ref("numeric.scalar.div.rz.f32", 0x3f800000u, 0x40400000u), 0x3eaaaaaau);
  EXPECT_EQ(ref("numeric.scalar.div.rm.f32", 0xbf800000u, 0x40400000u), 0xbeaaaaabu);
  EXPECT_EQ(ref("numeric.scalar.div.rn.f32", 0x3f800000u, 0x00000000u), 0x7f800000u);  // 1/0
  EXPECT_EQ(ref("numeric.scalar.div.rn.f32", 0x3f800000u, 0x80000000u), 0xff800000u);  // 1/-0
  EXPECT_EQ(ref("numeric.scalar.div.rn.f32", 0x00000000u, 0x00000000u), 0x7fffffffu);  // 0/0
  EXPECT_EQ(ref("numeric.scalar.rcp.rn.f32", 0x00000001u), 0x7f800000u);               // 2^149 overflows
  EXPECT_EQ(ref("numeric.scalar.rcp.rz.f32", 0x00000001u), 0x7f7fffffu);
  EXPECT_EQ(ref("numeric.scalar.rcp.rn.ftz.f32", 0x00000001u), 0x7f800000u);  // 1/+0
  EXPECT_EQ(ref("numeric.scalar.rcp.rn.f32", 0x7f7fffffu), 0x00200000u);      // subnormal result
  EXPECT_EQ(ref("numeric.scalar.rcp.rn.ftz.f32", 0x7f7fffffu), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.sqrt.rn.f32", 0x40000000u), 0x3fb504f3u);  // sqrt 2
  EXPECT_EQ(ref("numeric.scalar.sqrt.rp.f32", 0x40000000u), 0x3fb504f4u);
  EXPECT_EQ(ref("numeric.scalar.sqrt.rn.f32", 0x80000000u), 0x80000000u);  // sqrt -0 = -0
  EXPECT_EQ(ref("numeric.scalar.sqrt.rn.f32", 0xbf800000u), 0x7fffffffu);  // sqrt -1
  EXPECT_EQ(ref("numeric.scalar.sqrt.rn.f32", 0x00000001u), 0x1a3504f3u);  // sqrt 2^-149
  EXPECT_EQ(ref("numeric.scalar.sqrt.rn.f32", 0x7fc12345u), 0x7fffffffu);  // NaN in: canonical out
}

// .ftz flushes what is tiny after rounding (scalar_round.hpp): the mismatches the H100
// GPU-791fafea (CUDA 13.0, driver 580.159.04) showed against the earlier subnormal-grid
// reference, from its run record sm_90-0x2330-2026-11-26-scalar-gpu-791fafea.jsonl (operands
// -> the GPU's result, which the reference now gives).
TEST(ScalarArith, FtzResultsOfTheH100Record) {
  // The reference, and MPFR at an unbounded exponent (MpfrFormat) beside it.
  const auto ref = [](const char* id, std::uint32_t a, std::uint32_t b = 0, std::uint32_t c = 0) {
    const ArithSpec& s = find_scalar_arith(id)->spec;
    const std::uint32_t got = arith_reference_packed(s, a, b, c);
    MpfrFormat mpfr(format_of(s));
    EXPECT_EQ(mpfr.eval_packed(s, a, b, c), got) << id << std::hex << " a 0x" << a << " b 0x" << b << " c 0x" << c;
    return got;
  };
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f32", 0x3f7fffffu, 0x00800000u), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f32", 0x80800000u, 0x3f7fffffu), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.mul.rm.ftz.f32", 0x80800000u, 0x3f7fffffu), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.mul.rp.ftz.f32", 0x00800000u, 0x3f7fffffu), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f32", 0x33800000u, 0x80800000u, 0x00800000u), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f32", 0x3f7fffffu, 0x00800000u, 0x00000001u), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rm.ftz.f32", 0x33800000u, 0x00800001u, 0x80800000u), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rm.ftz.f32", 0x80800000u, 0x3f7fffffu, 0x007fffffu), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rp.ftz.f32", 0x00800000u, 0x3f7fffffu, 0x00000001u), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.div.rm.ftz.f32", 0x80800000u, 0x3f800001u), 0x80000000u);
  EXPECT_EQ(ref("numeric.scalar.div.rp.ftz.f32", 0x00800000u, 0x3f800001u), 0x00000000u);
  const std::uint32_t mul_f16[][3] = {{0x0413, 0xbbda, 0x8000}, {0x0420, 0x3bc1, 0x0000}, {0x0441, 0x3b85, 0x0000},
                                      {0x0445, 0x3b7e, 0x0000}, {0x0449, 0xbb77, 0x8000}, {0x0451, 0xbb69, 0x8000},
                                      {0x045a, 0x3b5a, 0x0000}, {0x0466, 0x3b46, 0x0000}};
  for (const auto& m : mul_f16) EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f16", m[0], m[1]), m[2]) << std::hex << m[0];
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f16x2", 0x0413bbdau, 0xbbda0413u), 0x80008000u);
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f16x2", 0x041c3bc9u, 0x3bc9041cu), 0x00000000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f16", 0x236a, 0x9771, 0x05b9), 0x0000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f16", 0x1608, 0x0858, 0x8403), 0x8000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f16", 0x0d8b, 0x2731, 0x849f), 0x8000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f16x2", 0x5821236au, 0x1b419771u, 0x79bd05b9u), 0x79bd0000u);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f16x2", 0x179e6f88u, 0x1cbe7c1du, 0x8490890cu), 0x80007fffu);
  EXPECT_EQ(ref("numeric.scalar.fma.rn.ftz.f16x2", 0x8a990adcu, 0xb1cdc2f4u, 0x86643031u), 0x8000302bu);
  // Not tiny after rounding: 1449/1024 * 2^-7 x 1447/1024 * 2^-8 = 2^-14 - 449 * 2^-35 rounds
  // to 2^-14 at 11 bits (before-rounding tininess would flush it: 40936 mismatches on the
  // exhaustive scan where the H100 showed 19376, the count of the after-rounding rule).
  EXPECT_EQ(ref("numeric.scalar.mul.rn.ftz.f16", 0x21a9, 0x1da7), 0x0400u);
}

// Each operand class does what it is there for, on the reference's own results.
TEST(ScalarArith, OperandClassesReachTheHardCases) {
  const auto count = [](const char* id, auto pred) {
    const ScalarArith& r = *find_scalar_arith(id);
    ArithSpec rna = r.spec;
    rna.target.rounding = ref::Rounding::kRNA;
    long n = 0;
    for (std::uint64_t i = 0; i < 200000; ++i) {
      const ArithOperands o = arith_operands(r.spec.op, i);
      const std::uint32_t rn = arith_reference(r.spec, o.a, o.b, o.c);
      if (pred(rn, arith_reference(rna, o.a, o.b, o.c), o)) ++n;
    }
    return n;
  };
  const auto tie = [](std::uint32_t rn, std::uint32_t rna, const ArithOperands&) { return rn != rna; };
  const auto subnormal = [](std::uint32_t rn, std::uint32_t, const ArithOperands&) {
    return (rn & 0x7f800000u) == 0 && (rn & 0x7fffffu) != 0;
  };
  const auto overflow = [](std::uint32_t rn, std::uint32_t, const ArithOperands& o) {
    return (rn & 0x7fffffffu) == 0x7f800000u && (o.a & 0x7f800000u) != 0x7f800000u &&
           (o.b & 0x7f800000u) != 0x7f800000u;
  };
  const auto negative_zero = [](std::uint32_t rn, std::uint32_t, const ArithOperands&) { return rn == 0x80000000u; };
  const auto nan = [](std::uint32_t rn, std::uint32_t, const ArithOperands&) { return rn == 0x7fffffffu; };
  for (const char* id : {"numeric.scalar.add.rn.f32", "numeric.scalar.mul.rn.f32", "numeric.scalar.fma.rn.f32"}) {
    EXPECT_GT(count(id, tie), 100) << id << ": ties";
    EXPECT_GT(count(id, subnormal), 100) << id << ": subnormal results";
    EXPECT_GT(count(id, overflow), 100) << id << ": overflow";
    EXPECT_GT(count(id, negative_zero), 50) << id << ": -0";
    EXPECT_GT(count(id, nan), 100) << id << ": NaN";
  }
  EXPECT_GT(count("numeric.scalar.div.rn.f32", subnormal), 100);
  EXPECT_GT(count("numeric.scalar.div.rn.f32", overflow), 100);
  EXPECT_GT(count("numeric.scalar.rcp.rn.f32", subnormal), 100);
  EXPECT_GT(count("numeric.scalar.sqrt.rn.f32", nan), 100);
}

TEST(ScalarArith, MismatchFailsNamingTheOperands) {
  const ScalarArith& r = *find_scalar_arith("numeric.scalar.div.rn.f32");
  ArithScan scan;
  scan.compared = kArithTuples;
  Expectation e;
  e.probe_id = r.id;
  e.kind = ExpectationKind::max;
  e.max = 0;
  e.unit = "mismatches";
  e.source = "cite:test";
  EXPECT_EQ(judge(arith_measurement(r, scan), e).outcome, Outcome::pass);
  scan.mismatches_by_class[kArithTies] = 1;
  scan.first.push_back({42, 0x3f800000u, 0x40400000u, 0, 0x3eaaaaaau, 0x3eaaaaabu});
  const Measurement m = arith_measurement(r, scan);
  EXPECT_EQ(m.value, 1);
  const Verdict v = judge(m, e);
  EXPECT_EQ(v.outcome, Outcome::fail);
  EXPECT_NE(v.reason.find("div.rn.f32 a = 0x3f800000 (1), b = 0x40400000 (3) -> gpu 0x3eaaaaaa (0.333333313), "
                          "reference 0x3eaaaaab (0.333333343) (tuple 42)"),
            std::string::npos)
      << v.reason;
  EXPECT_NE(v.reason.find("ties 1/"), std::string::npos) << v.reason;
}

}  // namespace
}  // namespace gpuconform::numerics
