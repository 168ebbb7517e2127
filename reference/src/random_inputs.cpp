// SPDX-License-Identifier: Apache-2.0
// Operand generator. Codes are assembled from fields, so every class reaches exactly the
// binades it names, whatever the format (fp16 to e2m1).
#include "gpuconform/reference/random_inputs.hpp"

#include <algorithm>

namespace gpuconform::ref {
namespace {

// One 64-bit draw feeds a whole code: bits 0..52 the mantissa, 53..62 the exponent
// choice, 63 the sign; the pad bits reuse the mantissa's neighbours. The generator is
// the cost of the random sweeps, so it is called once per code where possible.
int pick(std::uint64_t r, int lo, int hi) {
  const std::uint64_t range = static_cast<std::uint64_t>(hi - lo + 1);  // <= 1024 here
  return lo + static_cast<int>((((r >> 53) & 0x3ff) * range) >> 10);
}

template <class Engine>
int uniform_int(Engine& rng, int lo, int hi) {
  return pick(rng(), lo, hi);
}

std::uint64_t sign_of(const FloatFormat& f, std::uint64_t r) {
  return (r >> 63) != 0 ? f.sign_bit() : 0;
}

std::uint64_t pad_noise(const FloatFormat& f, std::uint64_t r) {
  return f.pad_bits == 0 ? 0 : (r >> 20) & ((std::uint64_t{1} << f.pad_bits) - 1);
}

// A finite code with unbiased exponent in [lo, hi] (clamped to the format's normal range)
// and a random mantissa and sign.
template <class Engine>
std::uint64_t with_exponent(const FloatFormat& f, int lo, int hi, Engine& rng) {
  const std::uint64_t r = rng();
  const int e = std::clamp(pick(r, lo, hi), f.emin(), f.emax());
  std::uint64_t mantissa = r & f.man_mask();
  if (f.specials == Specials::kFn && e == f.emax() && mantissa == f.man_mask())
    --mantissa;  // not NaN
  const std::uint64_t field = static_cast<std::uint64_t>(e + f.bias);
  return sign_of(f, r) | (((field << f.man_bits) | mantissa) << f.pad_bits) | pad_noise(f, r);
}

template <class Engine>
std::uint64_t subnormal_code(const FloatFormat& f, Engine& rng) {
  const std::uint64_t r = rng();
  const std::uint64_t mantissa = 1 + ((r >> 33) & 0x3fffffff) % f.man_mask();  // nonzero
  return sign_of(f, r) | (mantissa << f.pad_bits) | pad_noise(f, r);
}

template <class Engine>
std::uint64_t any_finite_code(const FloatFormat& f, Engine& rng) {
  const std::uint64_t mask =
      (f.width_bits() >= 64) ? ~std::uint64_t{0} : (std::uint64_t{1} << f.width_bits()) - 1;
  for (;;) {
    const std::uint64_t code = rng() & mask;  // pad bits included
    const std::uint64_t field = (code >> (f.pad_bits + f.man_bits)) & f.exp_field_max();
    const std::uint64_t mantissa = (code >> f.pad_bits) & f.man_mask();
    const bool top = field == f.exp_field_max();
    if (!top || f.specials == Specials::kFiniteOnly ||
        (f.specials == Specials::kFn && mantissa != f.man_mask()))
      return code;
  }
}

template <class Engine>
std::uint64_t special_code(const FloatFormat& f, Engine& rng) {
  const std::uint64_t r = rng();
  const bool negative = (r >> 63) != 0;
  switch (pick(r, 0, 4)) {
    case 0:
      return signed_zero(f, negative);
    case 1:
      return f.has_inf() ? infinity(f, negative) : max_finite(f, negative);
    case 2:
      return f.has_nan() ? quiet_nan(f, negative) : max_finite(f, negative);
    case 3:
      return max_finite(f, negative);
    default:
      return (negative ? f.sign_bit() : 0) | (std::uint64_t{1} << f.pad_bits);
  }
}

// C is drawn near the size of the products it is added to, so that it interacts.
template <class Engine>
std::uint64_t draw_accumulator(const TensorCoreModel& m, InputClass c, Engine& rng) {
  const FloatFormat& f = m.acc_format;
  const int emin_in = m.a_format.emin() + m.b_format.emin();
  const int emax_in = m.a_format.emax() + m.b_format.emax() + 1;
  switch (c) {
    case InputClass::kNormal:
      return with_exponent(f, -8, 8, rng);
    case InputClass::kWide: {
      if (uniform_int(rng, 0, 15) == 0) return signed_zero(f, false);
      const int e = uniform_int(rng, emin_in - 2 * m.a_format.man_bits, emax_in);
      return e < f.emin() ? subnormal_code(f, rng) : with_exponent(f, e, e, rng);
    }
    case InputClass::kSubnormal:
      if ((rng() & 1) != 0) return subnormal_code(f, rng);
      return with_exponent(f, emin_in - 2, emin_in + 6, rng);
    case InputClass::kCancel:
      return with_exponent(f, -4, 6, rng);
    case InputClass::kSpecial:
      if (uniform_int(rng, 0, 7) == 0) return special_code(f, rng);
      return with_exponent(f, -8, 8, rng);
  }
  return 0;
}

// The negation of code x with its lowest mantissa bit re-drawn: a near-cancelling partner.
std::uint64_t near_negation(const FloatFormat& f, std::uint64_t x, std::uint64_t r) {
  const std::uint64_t low = std::uint64_t{1} << f.pad_bits;
  return (x ^ f.sign_bit() ^ ((r & 1) != 0 ? low : 0));
}

template <class Engine>
std::uint64_t draw_value_impl(const FloatFormat& f, InputClass c, Engine& rng) {
  switch (c) {
    case InputClass::kNormal:
    case InputClass::kCancel:
      return with_exponent(f, -4, 4, rng);
    case InputClass::kWide:
      return any_finite_code(f, rng);
    case InputClass::kSubnormal:
      if ((rng() & 1) != 0) return subnormal_code(f, rng);
      return with_exponent(f, f.emin(), f.emin() + 3, rng);
    case InputClass::kSpecial:
      if (uniform_int(rng, 0, 7) == 0) return special_code(f, rng) | pad_noise(f, rng());
      return with_exponent(f, -4, 4, rng);
  }
  return 0;
}

template <class Engine>
void draw_mma_impl(const TensorCoreModel& m, InputClass c, int M, int N, int K, Engine& rng,
                   std::vector<std::uint64_t>& A, std::vector<std::uint64_t>& B,
                   std::vector<std::uint64_t>& C) {
  A.resize(static_cast<std::size_t>(M) * K);
  B.resize(static_cast<std::size_t>(K) * N);
  C.resize(static_cast<std::size_t>(M) * N);
  for (auto& x : A) x = draw_value_impl(m.a_format, c, rng);
  for (auto& x : B) x = draw_value_impl(m.b_format, c, rng);
  for (auto& x : C) x = draw_accumulator(m, c, rng);
  if (c != InputClass::kCancel) return;
  // Product k+1 cancels product k in every row-column pair: equal A, opposite B.
  for (int k = 1; k < K; k += 2) {
    for (int i = 0; i < M; ++i) A[i * K + k] = A[i * K + k - 1];
    const std::uint64_t r = rng();
    for (int j = 0; j < N; ++j)
      B[j * K + k] = near_negation(m.b_format, B[j * K + k - 1], r >> (j % 64));
  }
}

}  // namespace

std::string_view to_string(InputClass c) {
  switch (c) {
    case InputClass::kNormal:
      return "normal";
    case InputClass::kWide:
      return "wide";
    case InputClass::kSubnormal:
      return "subnormal";
    case InputClass::kCancel:
      return "cancel";
    case InputClass::kSpecial:
      return "special";
  }
  return "?";
}

const std::vector<InputClass>& all_input_classes() {
  static const std::vector<InputClass> kAll = {InputClass::kNormal, InputClass::kWide,
                                               InputClass::kSubnormal, InputClass::kCancel,
                                               InputClass::kSpecial};
  return kAll;
}

std::uint64_t draw_value(const FloatFormat& f, InputClass c, Rng& rng) {
  return draw_value_impl(f, c, rng);
}

std::uint64_t draw_value(const FloatFormat& f, InputClass c, std::mt19937_64& rng) {
  return draw_value_impl(f, c, rng);
}

void draw_mma(const TensorCoreModel& m, InputClass c, int M, int N, int K, Rng& rng,
              std::vector<std::uint64_t>& A, std::vector<std::uint64_t>& B,
              std::vector<std::uint64_t>& C) {
  draw_mma_impl(m, c, M, N, K, rng, A, B, C);
}

void draw_mma(const TensorCoreModel& m, InputClass c, int M, int N, int K, std::mt19937_64& rng,
              std::vector<std::uint64_t>& A, std::vector<std::uint64_t>& B,
              std::vector<std::uint64_t>& C) {
  draw_mma_impl(m, c, M, N, K, rng, A, B, C);
}

}  // namespace gpuconform::ref
