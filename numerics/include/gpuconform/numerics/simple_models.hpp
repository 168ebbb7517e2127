// SPDX-License-Identifier: Apache-2.0
#pragma once
// Candidate models for the MMA paths that are not block-FMA and have no row in
// reference/models.cpp: integer MMA (s8/u8/s4/u4: exact products and sum, then wrapped or
// saturated once; b1: popc of a XOR b or a AND b over k plus C, wrapped or saturated)
// and fp64 DMMA (a chain of IEEE fma in ascending k from C, or one rounding of the exact
// sum). numerics.md §1 lists int8 as "not studied → measure" and says nothing of fp64: these
// are the simplest hypotheses, which the golden files confirm or refute (their probe
// classes tell the alternatives apart), not established results.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {

struct SimpleModel {
  std::string id;           // "exact.s32.wrap", "popc.xor.s32.wrap", "ieee.f64.fma_chain", ...
  std::string description;  // one line, for reports
  bool (*fits)(const VectorVariant&);
  // D = A*B + C on bit patterns, the layouts of vector_file.hpp.
  void (*mma)(const VectorVariant&, const std::uint64_t* a, const std::uint64_t* b,
              const std::uint64_t* c, std::uint64_t* d);
};

const std::vector<SimpleModel>& simple_models();
const SimpleModel* find_simple_model(std::string_view id);
// The default for a variant (satfinite -> saturating, other s32 -> wrapping, b1 -> the popc
// of the bit operation its name says, wrapping; f64 -> fma chain); nullptr for the
// floating-point variants of the reference.
const SimpleModel* default_simple_model(const VectorVariant& v);

}  // namespace gpuconform::numerics
