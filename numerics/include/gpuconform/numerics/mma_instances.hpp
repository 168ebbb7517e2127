// SPDX-License-Identifier: Apache-2.0
#pragma once
// MMA test instances as raw bit patterns, drawn directly in the operand formats (no
// conversion loss), by class. Floating-point classes come from the reference's generator
// (normal, wide, subnormal, cancel, special: random_inputs.hpp), so a failure on the GPU
// replays on the CPU; integer variants have their own (normal, cancel, special = overflow).
// Literature probes (numerics.md §3) and layout instances complete the set.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/random_inputs.hpp"
#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {

struct MmaInstance {
  std::string klass;             // normal, wide, cancel, subnormal, special, probe:<name>, layout
  std::vector<std::uint64_t> a;  // M x K row-major
  std::vector<std::uint64_t> b;  // K x N column-major (element (k, j) at j*K + k)
  std::vector<std::uint64_t> c;  // M x N row-major, D's type
};

// The random classes a variant is drawn from, in file order.
std::vector<std::string> random_classes(const VectorVariant& v);

// `count` random instances of class `klass`. Throws std::invalid_argument on a class the
// variant does not have.
std::vector<MmaInstance> draw_instances(const VectorVariant& v, std::string_view klass, int count,
                                        ref::Rng& rng);

// The literature's discriminating vectors (numerics.md §3) that fit the variant, one per
// instance: row 0 of A holds a, column 0 of B holds b, C[0][0] holds c, the rest 0. For
// floating point: the vectors of every reference model with these formats, whatever its
// architecture, so one file can tell the candidate models apart; for s32 and f64 (no
// block-FMA model) the probes of simple_models.hpp.
std::vector<MmaInstance> probe_instances(const VectorVariant& v);

// Instances whose exact result is a small integer, exact under any rounding model: they
// check the fragment layout independently of the arithmetic.
std::vector<MmaInstance> layout_instances(const VectorVariant& v, int count, ref::Rng& rng);

// The exact value of element (i, j) of A*B + C (for b1: C plus the popc of the row of A
// XOR, or AND, the column of B), for layout instances (all values small integers, so
// double is exact).
double exact_result(const VectorVariant& v, const MmaInstance& in, int i, int j);
// An element's value; integers and formats up to fp64 are exact in double.
double element_value(ElementType t, std::uint64_t bits);

}  // namespace gpuconform::numerics
