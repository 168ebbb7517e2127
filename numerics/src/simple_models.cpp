// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/simple_models.hpp"

#include <mpfr.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace gpuconform::numerics {
namespace {

// A/B element as an integer: s8/s4 sign-extended, u8/u4 (and b1) as they are.
std::int64_t int_operand(ElementType t, std::uint64_t bits) {
  switch (t) {
    case ElementType::s8: return static_cast<std::int8_t>(bits);
    case ElementType::s4: return static_cast<std::int64_t>(bits & 0xF) - ((bits & 0x8) ? 16 : 0);
    case ElementType::u4: return static_cast<std::int64_t>(bits & 0xF);
    case ElementType::b1: return static_cast<std::int64_t>(bits & 1);
    default: return static_cast<std::int64_t>(bits & 0xFF);
  }
}

bool fits_integer(const VectorVariant& v) {
  return v.d_type == ElementType::s32 && (v.ab_type == ElementType::s8 || v.ab_type == ElementType::u8 ||
                                          v.ab_type == ElementType::s4 || v.ab_type == ElementType::u4);
}
bool fits_b1(const VectorVariant& v) { return v.d_type == ElementType::s32 && v.ab_type == ElementType::b1; }
bool fits_fp64(const VectorVariant& v) { return v.d_type == ElementType::f64 && v.ab_type == ElementType::f64; }

// What one k contributes: the product of integers, or for b1 one bit of (a XOR b) or (a AND b)
// (PTX .xor.popc / .and.popc: the popc of the bit vector is the sum of these bits).
enum class Term { kProduct, kXor, kAnd };

std::int64_t term(Term op, ElementType t, std::uint64_t a, std::uint64_t b) {
  switch (op) {
    case Term::kXor: return static_cast<std::int64_t>((a ^ b) & 1);
    case Term::kAnd: return static_cast<std::int64_t>(a & b & 1);
    case Term::kProduct: break;
  }
  return int_operand(t, a) * int_operand(t, b);
}

// The exact sum fits int64: |sum| <= K * 2^16 + 2^31.
template <Term kOp, bool kSaturate>
void integer_mma(const VectorVariant& v, const std::uint64_t* a, const std::uint64_t* b,
                 const std::uint64_t* c, std::uint64_t* d) {
  for (int i = 0; i < v.m; ++i)
    for (int j = 0; j < v.n; ++j) {
      std::int64_t sum = static_cast<std::int32_t>(c[i * v.n + j]);
      for (int k = 0; k < v.k; ++k) sum += term(kOp, v.ab_type, a[i * v.k + k], b[j * v.k + k]);
      if (kSaturate) {  // .satfinite: clamp the exact result once
        constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
        constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
        sum = sum < lo ? lo : sum > hi ? hi : sum;
      }
      d[i * v.n + j] = static_cast<std::uint64_t>(sum) & 0xFFFFFFFFu;  // two's-complement wrap
    }
}

double as_double(std::uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, 8);
  return x;
}

std::uint64_t as_bits(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, 8);
  return bits;
}

// One DFMA step of the chain, with the NaN rules IEEE 754 leaves open made explicit (the
// host's fma would otherwise pick by its own operand order). Measured on sm_90 DMMA
// (expectations/golden/sm_90/mma_m8n8k4_f64_f64): a NaN operand propagates quieted, b's
// before the accumulator's before a's; an invalid operation (inf*0, inf-inf) gives
// 0xFFF8000000000000.
std::uint64_t dfma_step(std::uint64_t a, std::uint64_t b, std::uint64_t acc) {
  constexpr std::uint64_t kQuietBit = 1ull << 51;
  constexpr std::uint64_t kDefaultNaN = 0xFFF8000000000000ull;
  for (const std::uint64_t x : {b, acc, a})
    if (std::isnan(as_double(x))) return x | kQuietBit;
  const double r = std::fma(as_double(a), as_double(b), as_double(acc));  // RNE
  return std::isnan(r) ? kDefaultNaN : as_bits(r);
}

void fp64_fma_chain(const VectorVariant& v, const std::uint64_t* a, const std::uint64_t* b,
                    const std::uint64_t* c, std::uint64_t* d) {
  for (int i = 0; i < v.m; ++i)
    for (int j = 0; j < v.n; ++j) {
      std::uint64_t acc = c[i * v.n + j];
      for (int k = 0; k < v.k; ++k) acc = dfma_step(a[i * v.k + k], b[j * v.k + k], acc);
      d[i * v.n + j] = acc;
    }
}

// One rounding (RNE) of the exact c + sum a[k]*b[k]: products are exact in 106 bits, mpfr_sum
// rounds the exact sum once, and subnormalize brings it to binary64's range without double
// rounding (it reads the ternary value of the first rounding).
void fp64_exact_sum(const VectorVariant& v, const std::uint64_t* a, const std::uint64_t* b,
                    const std::uint64_t* c, std::uint64_t* d) {
  constexpr int kMaxTerms = 257;  // K <= 256 products and C
  mpfr_t terms[kMaxTerms], result;
  mpfr_ptr ptrs[kMaxTerms];
  const int n = v.k + 1;
  for (int t = 0; t < n; ++t) mpfr_init2(terms[t], 106), ptrs[t] = terms[t];
  mpfr_init2(result, 53);
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  for (int i = 0; i < v.m; ++i)
    for (int j = 0; j < v.n; ++j) {
      mpfr_set_emin(mpfr_get_emin_min());
      mpfr_set_emax(mpfr_get_emax_max());
      for (int k = 0; k < v.k; ++k) {
        mpfr_set_d(terms[k], as_double(a[i * v.k + k]), MPFR_RNDN);  // exact
        mpfr_t y;
        mpfr_init2(y, 53);
        mpfr_set_d(y, as_double(b[j * v.k + k]), MPFR_RNDN);
        mpfr_mul(terms[k], terms[k], y, MPFR_RNDN);  // exact: 106 bits
        mpfr_clear(y);
      }
      mpfr_set_d(terms[v.k], as_double(c[i * v.n + j]), MPFR_RNDN);
      int inexact = mpfr_sum(result, ptrs, static_cast<unsigned long>(n), MPFR_RNDN);  // RNE
      mpfr_set_emin(-1073);  // binary64: 0.1b x 2^-1073 = 2^-1074, the least subnormal
      mpfr_set_emax(1024);
      inexact = mpfr_check_range(result, inexact, MPFR_RNDN);
      mpfr_subnormalize(result, inexact, MPFR_RNDN);
      const double x = mpfr_get_d(result, MPFR_RNDN);
      std::memcpy(&d[i * v.n + j], &x, 8);
    }
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
  for (int t = 0; t < n; ++t) mpfr_clear(terms[t]);
  mpfr_clear(result);
}

}  // namespace

const std::vector<SimpleModel>& simple_models() {
  static const std::vector<SimpleModel> kModels = {
      {"exact.s32.wrap", "integer MMA: exact sum, wrapped to 32 bits (two's complement)", &fits_integer,
       &integer_mma<Term::kProduct, false>},
      {"exact.s32.satfinite", "integer MMA: exact sum, clamped once to the s32 range", &fits_integer,
       &integer_mma<Term::kProduct, true>},
      // b1: both bit operations fit every b1 file, so `vectors infer` names the one the
      // hardware did; the default is the one the variant's name asks for.
      {"popc.xor.s32.wrap", "b1 MMA: c + popc(a XOR b) over k, wrapped to 32 bits", &fits_b1,
       &integer_mma<Term::kXor, false>},
      {"popc.and.s32.wrap", "b1 MMA: c + popc(a AND b) over k, wrapped to 32 bits", &fits_b1,
       &integer_mma<Term::kAnd, false>},
      {"popc.xor.s32.satfinite", "b1 MMA: c + popc(a XOR b) over k, clamped once to the s32 range", &fits_b1,
       &integer_mma<Term::kXor, true>},
      {"popc.and.s32.satfinite", "b1 MMA: c + popc(a AND b) over k, clamped once to the s32 range", &fits_b1,
       &integer_mma<Term::kAnd, true>},
      {"ieee.f64.fma_chain", "fp64 MMA: d = fma(a[k], b[k], d) for k ascending from d = c, RNE; NaN: b, then d, then a, "
       "quieted; invalid: 0xFFF8000000000000",
       &fits_fp64,
       &fp64_fma_chain},
      {"ieee.f64.exact_sum", "fp64 MMA: c + sum of a[k]*b[k] computed exactly, rounded once RNE", &fits_fp64,
       &fp64_exact_sum},
  };
  return kModels;
}

const SimpleModel* find_simple_model(std::string_view id) {
  for (const SimpleModel& m : simple_models())
    if (m.id == id) return &m;
  return nullptr;
}

const SimpleModel* default_simple_model(const VectorVariant& v) {
  if (fits_integer(v)) return find_simple_model(v.has("satfinite") ? "exact.s32.satfinite" : "exact.s32.wrap");
  if (fits_b1(v)) return find_simple_model(v.has("and") ? "popc.and.s32.wrap" : "popc.xor.s32.wrap");
  if (fits_fp64(v)) return find_simple_model("ieee.f64.fma_chain");
  return nullptr;
}

}  // namespace gpuconform::numerics
