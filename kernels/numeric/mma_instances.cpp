#include "numeric/mma_instances.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gpuconform::kernels {
namespace {

std::uint64_t pack(std::uint64_t sign, std::uint64_t exp, std::uint64_t man, BitFormat f) {
  return (sign << (f.exp_bits + f.man_bits)) | (exp << f.man_bits) | man;
}

std::uint64_t random_bits(std::mt19937_64& rng, int bits) {
  return bits == 0 ? 0 : rng() & ((std::uint64_t(1) << bits) - 1);
}

// A finite value with biased exponent drawn from [lo, hi] (0 = subnormal).
std::uint64_t draw(std::mt19937_64& rng, BitFormat f, int lo, int hi) {
  std::uniform_int_distribution<int> e(lo, hi);
  std::uint64_t man = random_bits(rng, f.man_bits);
  int exp = e(rng);
  if (exp == 0 && man == 0) man = 1;  // never an exact zero: zeros hide layout errors
  return pack(rng() & 1, static_cast<std::uint64_t>(exp), man, f);
}

std::uint32_t f32_bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

int bias(BitFormat f) { return (1 << (f.exp_bits - 1)) - 1; }
int max_finite_exp(BitFormat f) { return (1 << f.exp_bits) - 2; }

std::uint64_t special(std::mt19937_64& rng, BitFormat f) {
  const std::uint64_t all_ones = (1u << f.exp_bits) - 1;
  switch (rng() % 4) {
    case 0: return pack(rng() & 1, all_ones, 0, f);                                   // ±inf
    case 1: return pack(rng() & 1, all_ones, random_bits(rng, f.man_bits) | 1, f);   // NaN
    case 2: return pack(1, 0, 0, f);                                                  // -0
    default: return pack(0, 0, 0, f);                                                 // +0
  }
}

}  // namespace

double decode_bits(std::uint64_t bits, BitFormat f) {
  const int e = static_cast<int>((bits >> f.man_bits) & ((1u << f.exp_bits) - 1));
  const double man = static_cast<double>(bits & ((std::uint64_t(1) << f.man_bits) - 1));
  const double sign = (bits >> (f.exp_bits + f.man_bits)) & 1 ? -1.0 : 1.0;
  if (e == 0) return sign * std::ldexp(man, 1 - bias(f) - f.man_bits);
  return sign * std::ldexp(1.0 + man / std::ldexp(1.0, f.man_bits), e - bias(f));
}

std::uint64_t encode_small_integer(int value, BitFormat f) {
  if (value == 0) return 0;
  const std::uint64_t sign = value < 0;
  int mag = std::abs(value), e = 0;
  while ((mag >> (e + 1)) != 0) ++e;
  if (e > f.man_bits) throw std::invalid_argument("integer not exactly representable");
  const std::uint64_t man = (static_cast<std::uint64_t>(mag) << (f.man_bits - e)) & ((std::uint64_t(1) << f.man_bits) - 1);
  return pack(sign, static_cast<std::uint64_t>(e + bias(f)), man, f);
}

std::vector<MmaInstance> draw_instances(const std::string& klass, int count, MmaShape s, BitFormat f,
                                        std::mt19937_64& rng) {
  const int b0 = bias(f), top = max_finite_exp(f);
  std::vector<MmaInstance> out;
  out.reserve(count);
  for (int n = 0; n < count; ++n) {
    MmaInstance in;
    in.klass = klass;
    in.a.resize(static_cast<std::size_t>(s.m) * s.k);
    in.b.resize(static_cast<std::size_t>(s.k) * s.n);
    in.c.resize(static_cast<std::size_t>(s.m) * s.n);
    std::normal_distribution<float> gauss(0.f, 1.f);
    if (klass == "normal") {
      for (auto& x : in.a) x = draw(rng, f, b0 - 3, b0 + 3);
      for (auto& x : in.b) x = draw(rng, f, b0 - 3, b0 + 3);
      for (auto& x : in.c) x = f32_bits(gauss(rng) * 4.f);
    } else if (klass == "wide") {
      // Products span the whole exponent range, including subnormal inputs.
      for (auto& x : in.a) x = draw(rng, f, 0, std::min(top, b0 + 8));
      for (auto& x : in.b) x = draw(rng, f, 0, std::min(top, b0 + 8));
      for (auto& x : in.c) x = f32_bits(std::ldexp(gauss(rng), static_cast<int>(rng() % 60) - 40));
    } else if (klass == "cancel") {
      // Pairs of products of equal magnitude and opposite sign, perturbed in
      // the last bits: the sum is decided by alignment and truncation.
      for (auto& x : in.a) x = draw(rng, f, b0 - 2, b0 + 2);
      for (auto& x : in.b) x = draw(rng, f, b0 - 2, b0 + 2);
      for (int i = 0; i < s.m; ++i)
        for (int k = 0; k + 1 < s.k; k += 2) in.a[i * s.k + k + 1] = in.a[i * s.k + k] ^ (rng() & 3);
      for (int j = 0; j < s.n; ++j)
        for (int k = 0; k + 1 < s.k; k += 2) {
          const std::uint64_t flip = std::uint64_t(1) << (f.exp_bits + f.man_bits);
          in.b[j * s.k + k + 1] = (in.b[j * s.k + k] ^ flip) ^ (rng() & 1);
        }
      for (auto& x : in.c) x = f32_bits(std::ldexp(gauss(rng), -static_cast<int>(rng() % 24)));
    } else if (klass == "subnormal") {
      for (auto& x : in.a) x = draw(rng, f, 0, 2);
      for (auto& x : in.b) x = draw(rng, f, b0 - 2, b0 + 2);
      for (auto& x : in.c) x = f32_bits(std::ldexp(gauss(rng), -130 - static_cast<int>(rng() % 16)));
    } else if (klass == "special") {
      for (auto& x : in.a) x = rng() % 16 == 0 ? special(rng, f) : draw(rng, f, b0 - 3, b0 + 3);
      for (auto& x : in.b) x = rng() % 16 == 0 ? special(rng, f) : draw(rng, f, b0 - 3, b0 + 3);
      for (auto& x : in.c) x = f32_bits(gauss(rng));
    } else {
      throw std::invalid_argument("unknown instance class '" + klass + "'");
    }
    out.push_back(std::move(in));
  }
  return out;
}

std::vector<MmaInstance> layout_instances(int count, MmaShape s, BitFormat f, std::mt19937_64& rng) {
  std::vector<MmaInstance> out;
  std::uniform_int_distribution<int> small(-4, 4), acc(-64, 64);
  for (int n = 0; n < count; ++n) {
    MmaInstance in;
    in.klass = "layout";
    for (int i = 0; i < s.m * s.k; ++i) in.a.push_back(encode_small_integer(small(rng), f));
    for (int i = 0; i < s.k * s.n; ++i) in.b.push_back(encode_small_integer(small(rng), f));
    for (int i = 0; i < s.m * s.n; ++i) in.c.push_back(f32_bits(static_cast<float>(acc(rng))));
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace gpuconform::kernels
