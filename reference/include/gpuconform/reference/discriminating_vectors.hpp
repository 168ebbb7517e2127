// SPDX-License-Identifier: Apache-2.0
// The discriminating vectors of docs/numerics.md §3: short dot products whose D[0][0]
// exposes one parameter of the block-FMA model (F, L, output rounding, e_zero, tf32
// truncation, specials). discriminating_vectors(m) instantiates every vector whose
// operands are exact in m's formats and whose expected value under m is known, either
// published (computed == false) or derived by hand from §2 (computed == true, the §3 †).
//
// The GPU probe packs each vector as one MMA instance: row 0 of A holds a, column 0 of B
// holds b, C[0][0] = c, every other element 0; then D[0][0] must equal `expected`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {

struct DiscriminatingVector {
  std::string name;              // family.detail, e.g. "block_size.k7", "e_zero_f32.j9"
  std::string source;            // numerics.md §3 item and source keys
  bool computed;                 // true: derived from the §2 model, not a published measurement
  std::vector<std::uint64_t> a;  // A-format codes (tf32: full fp32 registers)
  std::vector<std::uint64_t> b;  // B-format codes, b.size() == a.size()
  std::uint64_t c;               // accumulator-format code
  std::uint64_t expected;        // D[0][0]
};

// Every vector that applies to m, with a.size() <= m.max_k().
std::vector<DiscriminatingVector> discriminating_vectors(const TensorCoreModel& m);

// Only vectors with a.size() <= k (for a shape shorter than the model's longest).
std::vector<DiscriminatingVector> discriminating_vectors(const TensorCoreModel& m, int k);

}  // namespace gpuconform::ref
