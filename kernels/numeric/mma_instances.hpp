#pragma once
// MMA test instances as raw bit patterns, drawn directly in the input format
// (no conversion loss), by class: the classes stress alignment, cancellation,
// subnormals and special values, where tensor-core arithmetic departs from
// IEEE dot products.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace gpuconform::kernels {

struct MmaShape {
  int m, n, k;
};

// Bits of an IEEE-style binary format: sign, `exp_bits` exponent, `man_bits` fraction.
struct BitFormat {
  int exp_bits, man_bits;
  int width() const { return 1 + exp_bits + man_bits; }
};

struct MmaInstance {
  std::string klass;              // normal, wide, cancel, subnormal, special, probe, layout
  std::vector<std::uint64_t> a;   // M x K row-major
  std::vector<std::uint64_t> b;   // K x N column-major
  std::vector<std::uint64_t> c;   // M x N row-major (f32 bits)
};

// `count` random instances of class `klass` ("normal", "wide", "cancel",
// "subnormal", "special"). Throws std::invalid_argument on an unknown class.
std::vector<MmaInstance> draw_instances(const std::string& klass, int count, MmaShape shape, BitFormat in,
                                        std::mt19937_64& rng);

// Instances whose exact result is a small integer, for checking the
// fragment layout independently of any rounding model.
std::vector<MmaInstance> layout_instances(int count, MmaShape shape, BitFormat in, std::mt19937_64& rng);

// Decodes a small binary-format bit pattern to double (exact for f16/bf16/fp8).
double decode_bits(std::uint64_t bits, BitFormat f);
// Encodes a small integer exactly (the caller guarantees representability).
std::uint64_t encode_small_integer(int value, BitFormat f);

}  // namespace gpuconform::kernels
