// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/mma_instances.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <tuple>

#include "gpuconform/reference/discriminating_vectors.hpp"
#include "gpuconform/reference/random_inputs.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

namespace gpuconform::numerics {
namespace {

bool is_integer(ElementType t) { return !float_format(t); }

// The range of an integer A/B type: s8 [-128, 127], u8 [0, 255], s4 [-8, 7], u4 [0, 15], b1 [0, 1].
struct IntRange {
  std::int64_t lo, hi;
  bool is_signed() const { return lo < 0; }
};
IntRange int_range(ElementType t) {
  const int bits = element_bits(t);
  if (t == ElementType::s8 || t == ElementType::s4) return {-(std::int64_t{1} << (bits - 1)), (std::int64_t{1} << (bits - 1)) - 1};
  return {0, (std::int64_t{1} << bits) - 1};
}

// An integer element's value: the signed types sign-extended from their width.
std::int64_t int_value(ElementType t, std::uint64_t bits) {
  const int width = element_bits(t);
  const std::uint64_t m = width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
  const bool is_signed = t == ElementType::s8 || t == ElementType::s4 || t == ElementType::s32;
  const std::uint64_t x = bits & m;
  if (is_signed && width < 64 && (x >> (width - 1)) & 1) return static_cast<std::int64_t>(x) - (std::int64_t{1} << width);
  return static_cast<std::int64_t>(x);
}

std::uint64_t mask(ElementType t) {
  const int bits = element_bits(t);
  return bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

std::uint64_t int_bits(ElementType t, std::int64_t x) { return static_cast<std::uint64_t>(x) & mask(t); }

// Uniform in [lo, hi] without std distributions, whose streams differ between libraries.
std::int64_t uniform(ref::Rng& rng, std::int64_t lo, std::int64_t hi) {
  return lo + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
}

MmaInstance empty_instance(const VectorVariant& v, std::string klass) {
  MmaInstance in;
  in.klass = std::move(klass);
  in.a.assign(v.a_count(), 0);
  in.b.assign(v.b_count(), 0);
  in.c.assign(v.c_count(), 0);
  return in;
}

// A model carrying only the formats, for the reference's operand generator.
ref::TensorCoreModel drawing_model(const VectorVariant& v) {
  ref::TensorCoreModel m{};
  m.a_format = m.b_format = *float_format(v.ab_type);
  m.acc_format = m.round_format = *float_format(v.d_type);
  return m;
}

ref::InputClass float_class(std::string_view klass) {
  for (ref::InputClass c : ref::all_input_classes())
    if (ref::to_string(c) == klass) return c;
  throw std::invalid_argument("unknown instance class '" + std::string(klass) + "'");
}

// Integer operands: full range (normal), pairwise cancelling (cancel), or extremes with C
// near the s32 limits so that the sum overflows (special). b1 has no negative term to cancel
// with: its cancel class copies rows of A into the columns of B (a XOR b = 0 there).
void draw_integer(const VectorVariant& v, std::string_view klass, ref::Rng& rng, MmaInstance& in) {
  const IntRange r = int_range(v.ab_type);
  const bool is_signed = r.is_signed();
  const std::int64_t lo = r.lo, hi = r.hi;
  auto any = [&](ref::Rng& g) { return uniform(g, lo, hi); };
  auto small_c = [](ref::Rng& g) { return uniform(g, -(1 << 20), 1 << 20); };
  // C within reach of the limit: 2^20 for 8-bit operands (as drawn since the first s8 files),
  // the largest |sum| the products can reach for sub-byte ones, so that some sums overflow.
  const std::int64_t max_product = std::max(lo * lo, hi * hi);
  const std::int64_t reach = element_bits(v.ab_type) >= 8 ? (1 << 20) : v.k * max_product;
  auto margin = [&](ref::Rng& g) { return uniform(g, 0, reach); };
  const std::int64_t extremes[] = {lo, lo + 1, hi, hi - 1, is_signed ? -1 : 1, 1};
  auto extreme = [&] { return extremes[rng() % std::size(extremes)]; };
  if (klass == "normal" || klass == "cancel") {
    for (auto& x : in.a) x = int_bits(v.ab_type, any(rng));
    for (auto& x : in.b) x = int_bits(v.ab_type, any(rng));
    for (auto& x : in.c) x = int_bits(v.d_type, small_c(rng));
    if (klass == "cancel" && is_signed)
      for (int k = 1; k < v.k; k += 2) {  // product k cancels product k-1 (up to lo -> hi)
        for (int i = 0; i < v.m; ++i) in.a[i * v.k + k] = in.a[i * v.k + k - 1];
        for (int j = 0; j < v.n; ++j) {
          const std::int64_t negated = -int_value(v.ab_type, in.b[j * v.k + k - 1]);
          in.b[j * v.k + k] = int_bits(v.ab_type, std::min<std::int64_t>(negated, hi));
        }
      }
    if (klass == "cancel" && v.ab_type == ElementType::b1)
      for (int j = 0; j < v.n; ++j)
        std::copy_n(in.a.begin() + (j % v.m) * v.k, v.k, in.b.begin() + j * v.k);
  } else if (klass == "special") {
    for (auto& x : in.a) x = int_bits(v.ab_type, extreme());
    for (auto& x : in.b) x = int_bits(v.ab_type, extreme());
    for (auto& x : in.c) {
      const std::int64_t edge = (rng() & 1) ? INT32_MAX - margin(rng) : INT32_MIN + margin(rng);
      x = int_bits(v.d_type, edge);
    }
  } else {
    throw std::invalid_argument("unknown instance class '" + std::string(klass) + "' for " + v.name);
  }
}

// b1 probes: every k contributing a 1 (a XOR b, or a AND b, by the name) with C near the
// top, so the sum wraps or saturates; and the two inputs that tell XOR from AND apart.
std::vector<MmaInstance> b1_probes(const VectorVariant& v) {
  std::vector<MmaInstance> out;
  auto add = [&](std::string name, std::uint64_t a, std::uint64_t b, std::int64_t c) {
    MmaInstance in = empty_instance(v, "probe:" + name);
    for (int k = 0; k < v.k; ++k) in.a[k] = a, in.b[k] = b;  // row 0 of A, column 0 of B
    in.c[0] = int_bits(v.d_type, c);
    out.push_back(std::move(in));
  };
  add("s32_overflow_up", 1, v.has("and") ? 1 : 0, INT32_MAX - v.k / 2);
  add("b1_ones_both", 1, 1, 0);     // xor: 0, and: K
  add("b1_ones_in_a", 1, 0, 0);     // xor: K, and: 0
  add("s32_exact_max_sum", 1, v.has("and") ? 1 : 0, -1);
  return out;
}

// Integer MMA probes: overflow with and without saturation, and whether saturation acts on
// the exact sum or on partial sums (C near the limit, then +p and -p).
std::vector<MmaInstance> integer_probes(const VectorVariant& v) {
  if (v.ab_type == ElementType::b1) return b1_probes(v);
  const IntRange r = int_range(v.ab_type);
  const bool is_signed = r.is_signed();
  const std::int64_t top = r.hi;
  std::vector<MmaInstance> out;
  auto add = [&](std::string name, auto fill) {
    MmaInstance in = empty_instance(v, "probe:" + name);
    fill(in);
    out.push_back(std::move(in));
  };
  add("s32_overflow_up", [&](MmaInstance& in) {
    for (int k = 0; k < v.k; ++k) in.a[k] = in.b[k] = int_bits(v.ab_type, top);
    in.c[0] = int_bits(v.d_type, INT32_MAX - 100);
  });
  if (is_signed) {
    add("s32_overflow_down", [&](MmaInstance& in) {
      for (int k = 0; k < v.k; ++k) {
        in.a[k] = int_bits(v.ab_type, r.lo);
        in.b[k] = int_bits(v.ab_type, r.hi);
      }
      in.c[0] = int_bits(v.d_type, INT32_MIN + 100);
    });
  }
  for (int k : {1, v.k / 2, v.k - 1}) {  // +p at k=0, -p at k: partial-sum saturation shows
    add("s32_partial_saturation.k" + std::to_string(k), [&](MmaInstance& in) {
      in.a[0] = in.b[0] = int_bits(v.ab_type, top);
      in.a[k] = int_bits(v.ab_type, top);
      in.b[k] = int_bits(v.ab_type, is_signed ? -top : 0);
      in.c[0] = int_bits(v.d_type, INT32_MAX - 10);
    });
  }
  add("s32_exact_max_product", [&](MmaInstance& in) {
    for (int k = 0; k < v.k; ++k) in.a[k] = in.b[k] = int_bits(v.ab_type, is_signed ? r.lo : r.hi);
    in.c[0] = int_bits(v.d_type, -1);
  });
  return out;
}

double pow2(int e) { return std::ldexp(1.0, e); }

// fp64 DMMA probes: is each output one rounding of the exact sum, or a chain of fma in some
// order? Values are a 1 and two halves of an ulp of 1 (2^-53), placed in every order, with
// C taking the role of the 1 or of a half ulp.
std::vector<MmaInstance> fp64_probes(const VectorVariant& v) {
  std::vector<MmaInstance> out;
  auto bits = [](double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, 8);
    return u;
  };
  const double half_ulp = pow2(-53);
  for (int one_at = 0; one_at < v.k; ++one_at) {
    MmaInstance in = empty_instance(v, "probe:f64_order.one_at_k" + std::to_string(one_at));
    for (int k = 0; k < v.k; ++k) {
      in.a[k] = bits(k == one_at ? 1.0 : half_ulp);
      in.b[k] = bits(1.0);
    }
    out.push_back(std::move(in));
  }
  MmaInstance c_one = empty_instance(v, "probe:f64_order.one_in_c");
  for (int k = 0; k < 2 && k < v.k; ++k) {  // two products of 2^-27 * 2^-26 = 2^-53
    c_one.a[k] = bits(pow2(-27));
    c_one.b[k] = bits(pow2(-26));
  }
  c_one.c[0] = bits(1.0);
  out.push_back(std::move(c_one));
  MmaInstance c_half = empty_instance(v, "probe:f64_order.half_ulp_in_c");
  c_half.a[0] = c_half.b[0] = bits(1.0);
  c_half.a[1] = bits(half_ulp);
  c_half.b[1] = bits(1.0);
  c_half.c[0] = bits(half_ulp);
  out.push_back(std::move(c_half));
  return out;
}

}  // namespace

std::vector<std::string> random_classes(const VectorVariant& v) {
  if (is_integer(v.ab_type)) return {"normal", "cancel", "special"};
  std::vector<std::string> out;
  for (ref::InputClass c : ref::all_input_classes()) out.emplace_back(ref::to_string(c));
  // tf32 operands arrive as fp32 registers; "rounded" has the low 13 bits clear, as after
  // cvt.rna.tf32.f32, the other classes carry random low bits.
  if (v.ab_type == ElementType::tf32) out.emplace_back("rounded");
  return out;
}

std::vector<MmaInstance> draw_instances(const VectorVariant& v, std::string_view klass, int count,
                                        ref::Rng& rng) {
  std::vector<MmaInstance> out;
  out.reserve(static_cast<std::size_t>(count));
  const bool integer = is_integer(v.ab_type);
  const bool rounded = klass == "rounded";
  const ref::TensorCoreModel model = integer ? ref::TensorCoreModel{} : drawing_model(v);
  const ref::InputClass fclass =
      integer ? ref::InputClass::kNormal : float_class(rounded ? "normal" : klass);
  for (int n = 0; n < count; ++n) {
    MmaInstance in = empty_instance(v, std::string(klass));
    if (integer) {
      draw_integer(v, klass, rng, in);
    } else {
      ref::draw_mma(model, fclass, v.m, v.n, v.k, rng, in.a, in.b, in.c);
      if (rounded) {
        for (auto& x : in.a) x &= ~std::uint64_t{0x1FFF};
        for (auto& x : in.b) x &= ~std::uint64_t{0x1FFF};
      }
    }
    if (is_sparse(v)) sparsify(v, in.a, rng);  // mma.sp: the class's values, then 2:4 (tf32 1:2) zeros
    out.push_back(std::move(in));
  }
  return out;
}

std::vector<MmaInstance> probe_instances(const VectorVariant& v) {
  if (is_sparse(v)) {  // the dense K/2 probes as the compressed operand, at varied kept positions
    std::vector<MmaInstance> out;
    int pattern = 0;
    for (const MmaInstance& half : probe_instances(compressed_variant(v))) out.push_back(scatter_probe(v, half, pattern++));
    return out;
  }
  if (is_integer(v.ab_type)) return integer_probes(v);
  if (v.ab_type == ElementType::f64) return fp64_probes(v);
  const ref::FloatFormat& ab = *float_format(v.ab_type);
  const ref::FloatFormat& acc = *float_format(v.d_type);
  std::vector<MmaInstance> out;
  std::set<std::tuple<std::vector<std::uint64_t>, std::vector<std::uint64_t>, std::uint64_t>> seen;
  for (const ref::TensorCoreModel& m : ref::models()) {
    if (m.a_format.name != ab.name || m.acc_format.name != acc.name) continue;
    for (const ref::DiscriminatingVector& dv : ref::discriminating_vectors(m, v.k)) {
      if (static_cast<int>(dv.a.size()) > v.k || !seen.insert({dv.a, dv.b, dv.c}).second) continue;
      std::string name = dv.name;  // a class is one printable word in a vector file
      for (char& ch : name)
        if (ch <= ' ' || ch > '~') ch = '_';
      MmaInstance in = empty_instance(v, "probe:" + name);
      std::copy(dv.a.begin(), dv.a.end(), in.a.begin());  // row 0
      std::copy(dv.b.begin(), dv.b.end(), in.b.begin());  // column 0
      in.c[0] = dv.c;
      out.push_back(std::move(in));
    }
  }
  return out;
}

double element_value(ElementType t, std::uint64_t bits) {
  if (const ref::FloatFormat* f = float_format(t)) return ref::to_double(*f, bits);
  return static_cast<double>(int_value(t, bits));
}

std::vector<MmaInstance> layout_instances(const VectorVariant& v, int count, ref::Rng& rng) {
  // |A|, |B| <= 4 and |C| <= 64: every partial sum is an integer below 2^11, exact in f16,
  // in the 13-bit FP8 accumulator and in each input format (e5m2 holds 3 = 1.1b x 2^1).
  // Unsigned types draw from 0, b1 its two values (random bits: a wrong position changes
  // the popc of almost every output).
  const bool is_unsigned = v.ab_type == ElementType::u8 || v.ab_type == ElementType::u4;
  const int lo = is_unsigned || v.ab_type == ElementType::b1 ? 0 : -4;
  const int hi = v.ab_type == ElementType::b1 ? 1 : 4;
  auto small = [&](ref::Rng& r) { return static_cast<int>(uniform(r, lo, hi)); };
  auto acc = [](ref::Rng& r) { return static_cast<int>(uniform(r, -64, 64)); };
  auto encode = [](ElementType t, int x) {
    if (const ref::FloatFormat* f = float_format(t)) return ref::from_double(*f, x, ref::Rounding::kRNE);
    return int_bits(t, x);
  };
  // mma.sp: every chunk keeps a drawn set of positions (all of them occur) with non-zero
  // values, so a metadata bit or thread the kernel places wrongly pairs A with the wrong B.
  const std::vector<KeptSet> sets = is_sparse(v) ? kept_sets(v) : std::vector<KeptSet>{};
  auto nonzero = [&](ref::Rng& r) {
    const int x = static_cast<int>(uniform(r, 1, 4));
    return lo < 0 && (r() & 1) ? -x : x;
  };
  std::vector<MmaInstance> out;
  for (int n = 0; n < count; ++n) {
    MmaInstance in = empty_instance(v, "layout");
    for (auto& x : in.a) x = encode(v.ab_type, small(rng));
    if (!sets.empty()) {
      const int width = sparse::chunk_width(element_bits(v.ab_type));
      for (int i = 0; i < v.m; ++i)
        for (int c = 0; c < v.k / width; ++c) {
          const KeptSet& s = sets[rng() % sets.size()];
          for (int p = 0; p < width; ++p) {
            const bool kept = p == s.pos[0] || p == s.pos[s.count - 1];
            in.a[static_cast<std::size_t>(i) * v.k + c * width + p] = kept ? encode(v.ab_type, nonzero(rng)) : 0;
          }
        }
    }
    for (auto& x : in.b) x = encode(v.ab_type, small(rng));
    for (auto& x : in.c) x = encode(v.d_type, acc(rng));
    out.push_back(std::move(in));
  }
  return out;
}

double exact_result(const VectorVariant& v, const MmaInstance& in, int i, int j) {
  double sum = element_value(v.d_type, in.c[static_cast<std::size_t>(i) * v.n + j]);
  for (int k = 0; k < v.k; ++k) {
    const std::uint64_t a = in.a[static_cast<std::size_t>(i) * v.k + k], b = in.b[static_cast<std::size_t>(j) * v.k + k];
    if (v.ab_type == ElementType::b1)  // popc of a XOR b or a AND b: one bit per k
      sum += static_cast<double>(v.has("and") ? (a & b & 1) : ((a ^ b) & 1));
    else
      sum += element_value(v.ab_type, a) * element_value(v.ab_type, b);
  }
  return sum;
}

}  // namespace gpuconform::numerics
