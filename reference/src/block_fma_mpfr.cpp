// SPDX-License-Identifier: Apache-2.0
// The block-FMA model again, on MPFR values rather than bits: the check on block_fma.cpp.
// It shares no code with it. Exponents come from MPFR's own exponent of each value, the
// alignment is trunc(p / 2^(E-F)) * 2^(E-F) on the product's value (the significand/
// exponent split only chooses E), the specials come from MPFR's IEEE semantics on the
// exact sum, and the final rounding is mpfr::round_to_format().
#include <mpfr.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "gpuconform/reference/mpfr_format.hpp"
#include "gpuconform/reference/mpfr_oracle.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "mpfr_tables.hpp"

namespace gpuconform::ref {
namespace {

constexpr int kMaxBlock = 64;

bool is_number(mpfr_srcptr x) { return !mpfr_nan_p(x) && !mpfr_inf_p(x); }

using mpfr::CodeValues;
using mpfr::ProductValues;

// Thread-local MPFR variables, initialised once: no allocation per dot product.
struct Workspace {
  mpfr_t c, sum, term, cut, ieee;
  mpfr_t a[kMaxBlock], b[kMaxBlock];  // decoded operands of formats without a CodeValues
  std::vector<std::unique_ptr<CodeValues>> codes;
  std::vector<std::unique_ptr<ProductValues>> products;

  Workspace() {
    // One precision, 64 bits, keeps MPFR on its one-limb paths. It is exact for every
    // input (<= 24-bit significands), every product, and every partial sum: multiples of
    // 2^(E-F) below 2^(E+9) for the table's bounds (L <= 64, F <= 40). The IEEE sum is
    // only consulted for its class (NaN or which inf).
    mpfr_inits2(64, c, sum, term, cut, ieee, static_cast<mpfr_ptr>(nullptr));
    for (int k = 0; k < kMaxBlock; ++k) mpfr_inits2(64, a[k], b[k], static_cast<mpfr_ptr>(nullptr));
  }
  ~Workspace() {
    mpfr_clears(c, sum, term, cut, ieee, static_cast<mpfr_ptr>(nullptr));
    for (int k = 0; k < kMaxBlock; ++k) mpfr_clears(a[k], b[k], static_cast<mpfr_ptr>(nullptr));
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  const CodeValues* code_values(const FloatFormat& f) {
    if (!CodeValues::fits(f)) return nullptr;
    for (const auto& t : codes)
      if (mpfr::same_format(t->format(), f)) return t.get();
    codes.push_back(std::make_unique<CodeValues>(f));
    return codes.back().get();
  }

  const ProductValues* product_values(const FloatFormat& fa, const FloatFormat& fb) {
    if (!ProductValues::fits(fa, fb)) return nullptr;
    for (const auto& t : products)
      if (t->serves(fa, fb)) return t.get();
    products.push_back(std::make_unique<ProductValues>(*code_values(fa), *code_values(fb)));
    return products.back().get();
  }
};

// The value of one A or B register, tf32 rounding hypothesis included.
mpfr_srcptr input(mpfr_ptr scratch, const CodeValues* table, const TensorCoreModel& m,
                  const FloatFormat& f, std::uint64_t bits) {
  if (table != nullptr) return (*table)[bits];
  if (f.pad_bits > 0 && !m.tf32_truncation) {
    FloatFormat reg = f;  // the whole fp32 register, rounded RNE to the format
    reg.man_bits += f.pad_bits;
    reg.pad_bits = 0;
    mpfr::set_from_bits(scratch, reg, bits);
    bits = mpfr::round_to_format(f, scratch, Rounding::kRNE);  // RNE
  }
  mpfr::set_from_bits(scratch, f, bits);  // reads the top bits only: the tf32 truncation
  return scratch;
}

// dst := trunc(x / 2^lsb) * 2^lsb: x rounded toward zero to the bits from its leading one
// down to 2^lsb (zero if there are none).  // RZ
void truncate_to(mpfr_ptr dst, mpfr_srcptr x, long lsb) {
  const long bits = mpfr_get_exp(x) - lsb;
  if (bits <= 0) {
    mpfr_set_zero(dst, 1);
    return;
  }
  mpfr_set_prec(dst, std::min<long>(bits, 64));  // keeps its one limb: no reallocation
  mpfr_set(dst, x, MPFR_RNDZ);                   // RZ
}

// The exponent a term aligns on: floor(log2 |x|), never below the format's emin.
long split_exponent_of(mpfr_srcptr x, const FloatFormat& f) {
  return std::max<long>(mpfr_get_exp(x) - 1, f.emin());
}

struct Tables {
  const CodeValues* a;
  const CodeValues* b;
  const ProductValues* products;  // null unless both formats have at most 8 bits
};

std::uint64_t block(Workspace& w, Tables t, const TensorCoreModel& m, int n, const std::uint64_t* a,
                    const std::uint64_t* b, std::uint64_t acc_bits) {
  // 1. The operands as MPFR numbers, and E: the largest split exponent of a product or of
  //    C, with e_zero for zero terms.
  mpfr_srcptr pa[kMaxBlock];
  mpfr_srcptr pb[kMaxBlock];
  mpfr::set_from_bits(w.c, m.acc_format, acc_bits);
  bool all_numbers = is_number(w.c);
  long E = mpfr_zero_p(w.c) ? m.e_zero : split_exponent_of(w.c, m.acc_format);
  for (int k = 0; k < n; ++k) {
    pa[k] = input(w.a[k], t.a, m, m.a_format, a[k]);
    pb[k] = input(w.b[k], t.b, m, m.b_format, b[k]);
    if (!is_number(pa[k]) || !is_number(pb[k])) {
      all_numbers = false;
    } else if (mpfr_zero_p(pa[k]) || mpfr_zero_p(pb[k])) {
      E = std::max<long>(E, m.e_zero);
    } else {
      E = std::max(E, split_exponent_of(pa[k], m.a_format) + split_exponent_of(pb[k], m.b_format));
    }
  }

  // 2. Inf or NaN present: MPFR's IEEE evaluation of c + sum a*b decides (inf*0 and
  //    inf - inf are NaN there too).
  if (!all_numbers) {
    mpfr_set(w.ieee, w.c, MPFR_RNDN);
    for (int k = 0; k < n; ++k) {
      mpfr_mul(w.term, pa[k], pb[k], MPFR_RNDN);
      mpfr_add(w.ieee, w.ieee, w.term, MPFR_RNDN);
    }
    if (mpfr_nan_p(w.ieee)) return m.canonical_nan;
    return mpfr::round_to_format(m.acc_format, w.ieee, Rounding::kRNE);  // ±inf
  }

  // 3. The sum of every term truncated to a multiple of 2^(E-F).  // RZ per term
  //    A product has at most fa+fb+2 significant bits, so one whose exponent is high
  //    enough has no bit below 2^(E-F) and is added as is. The sum of multiples of
  //    2^(E-F) below 2^(E+9) is exact in 64 bits.
  const long lsb = E - m.fraction_bits;
  const long product_bits = m.a_format.man_bits + m.b_format.man_bits + 2;
  mpfr_set_zero(w.sum, 1);
  for (int k = 0; k < n; ++k) {
    if (mpfr_zero_p(pa[k]) || mpfr_zero_p(pb[k])) continue;
    mpfr_srcptr p = w.term;
    if (t.products != nullptr) {
      p = (*t.products)(a[k], b[k]);
    } else {
      mpfr_mul(w.term, pa[k], pb[k], MPFR_RNDN);  // exact
    }
    if (mpfr_get_exp(p) - product_bits < lsb) {
      truncate_to(w.cut, p, lsb);  // RZ
      p = w.cut;
    }
    mpfr_add(w.sum, w.sum, p, MPFR_RNDN);  // exact
  }
  if (!mpfr_zero_p(w.c)) {
    truncate_to(w.cut, w.c, lsb);  // RZ
    mpfr_add(w.sum, w.sum, w.cut, MPFR_RNDN);
  }

  // 4. One rounding; an exact zero is +0 whatever the signs of the terms.
  if (mpfr_zero_p(w.sum)) return 0;
  const std::uint64_t d = mpfr::round_to_format(m.round_format, w.sum, m.rounding, Overflow::kInfinity);
  // An underflow to zero is +0 as well (H100 golden vectors: f16 results).
  return d == signed_zero(m.round_format, true) ? signed_zero(m.round_format, false) : d;
}

}  // namespace

std::uint64_t dot_mpfr(const TensorCoreModel& m, int K, const std::uint64_t* a,
                       const std::uint64_t* b, std::uint64_t c) {
  // The edge-rule alternatives of TensorCoreModel exist for `vectors infer`'s search, in
  // dot() only; this independent version implements the measured rules and says so.
  if (!m.subnormal_inputs || !m.subnormal_outputs || m.ieee_zero_sign || m.overflow != Overflow::kInfinity)
    throw std::invalid_argument("dot_mpfr: " + m.id + ": only the default edge rules are implemented "
                                "(subnormals kept, +0 zeros, inf on overflow)");
  thread_local Workspace w;
  const Tables t{w.code_values(m.a_format), w.code_values(m.b_format),
                 w.product_values(m.a_format, m.b_format)};
  const int L = std::min(m.block_size, kMaxBlock);
  if (m.fp8_via_hmma_pair) {
    // The sm_90 FP8 lowering: products of k % 4 < 2 first, then the rest, chained from
    // +0; C joins through one IEEE RNE add in the accumulator format (MPFR oracle), NaN
    // canonical.
    std::vector<std::uint64_t> pa, pb;
    for (int pass = 0; pass < 2; ++pass)
      for (int k = 0; k < K; ++k)
        if (((k % 4) < 2) == (pass == 0)) {
          pa.push_back(a[k]);
          pb.push_back(b[k]);
        }
    std::uint64_t acc = 0;
    for (int k0 = 0; k0 < K; k0 += L)
      acc = block(w, t, m, std::min(L, K - k0), pa.data() + k0, pb.data() + k0, acc);
    const std::uint64_t d = ieee_op(m.acc_format, IeeeOp::kAdd, Rounding::kRNE, acc, c, 0);
    return decode(m.acc_format, d).cls == FpClass::kNaN ? m.canonical_nan : d;
  }
  std::uint64_t acc = c;
  for (int k0 = 0; k0 < K; k0 += L) acc = block(w, t, m, std::min(L, K - k0), a + k0, b + k0, acc);
  return acc;
}

}  // namespace gpuconform::ref
