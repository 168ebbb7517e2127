// SPDX-License-Identifier: Apache-2.0
// Internal to the discriminating vectors: a family writes its vectors as values (doubles)
// and VectorSink turns them into codes of the model's formats, dropping any vector with an
// operand the format cannot hold exactly, or longer than the shape allows.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuconform/reference/discriminating_vectors.hpp"

namespace gpuconform::ref::vectors {

// An expected D as a value on the model's result grid (NaN: the canonical NaN), and
// whether it was derived from the §2 model rather than published.
struct Expect {
  double value;
  bool computed;
};

class VectorSink {
 public:
  VectorSink(const TensorCoreModel& m, int k_limit, std::vector<DiscriminatingVector>& out)
      : m_(m), k_(k_limit), out_(out) {}

  const TensorCoreModel& model() const { return m_; }
  int k() const { return k_; }
  int F() const { return m_.fraction_bits; }
  int L() const { return m_.block_size; }
  bool f16_out() const { return m_.acc_format.man_bits == 10; }
  bool e8m13_out() const { return m_.round_format.man_bits == 13; }
  bool rz() const { return m_.rounding == Rounding::kRZ; }

  // Adds the vector if a.size() <= k() and every operand is exact; expected is a value
  // (NaN means the model's canonical NaN). Returns whether it was added.
  bool add(const std::string& name, const char* source, Expect expected,
           const std::vector<double>& a, const std::vector<double>& b, double c);
  // The same with raw codes.
  bool add_bits(const std::string& name, const char* source, bool computed,
                std::vector<std::uint64_t> a, std::vector<std::uint64_t> b, std::uint64_t c,
                std::uint64_t expected);

  // A product value p realised as a*b with both factors exact: `preferred` as a if that
  // works, else the largest power of two a that does. p must be a power of two times a
  // small odd number (the search is over powers of two for a).
  std::optional<std::pair<double, double>> factor(double p, double preferred = 1.0) const;

 private:
  const TensorCoreModel& m_;
  int k_;
  std::vector<DiscriminatingVector>& out_;
};

// Exact code of x in f, or nullopt (NaN and inf only where the format has them).
std::optional<std::uint64_t> exact_code(const FloatFormat& f, double x);

inline double pow2(int e) { return std::ldexp(1.0, e); }

// The families, one function each (vectors_*.cpp).
void add_alignment_vectors(VectorSink& s);  // extra bits, normalization, F, alignment rounding
void add_rounding_vectors(VectorSink& s);   // output rounding, carries, monotonicity, f16 RNE
void add_structure_vectors(VectorSink& s);  // block size, order and grouping, e_zero
void add_special_vectors(VectorSink& s);    // NaN/inf rules, overflow, subnormals, signed zero

}  // namespace gpuconform::ref::vectors
