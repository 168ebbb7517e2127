// SPDX-License-Identifier: Apache-2.0
// dot() with its operands decoded once: for callers that evaluate the same output under
// many models (the parameter fit of model_fit.hpp), where decoding every operand on every
// call would cost half the time. Valid for any model whose formats and input rules
// (tf32_truncation, subnormal_inputs) equal those of the model the operands were decoded
// with; block_fma.cpp holds both functions, beside dot().
#pragma once

#include <cstdint>

#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {

// An operand as a block sees it: value = (-1)^negative * significand * 2^(split - man).
struct DecodedOperand {
  std::uint64_t significand;
  std::int32_t split;  // split exponent: unbiased, emin for subnormals (numerics.md §2)
  std::uint8_t flags;  // zero, inf, NaN (block_fma.cpp)
  bool negative;
};

// Decodes n codes of format f (m.a_format or m.b_format) as m's inputs.
void decode_operands(const TensorCoreModel& m, const FloatFormat& f, int n, const std::uint64_t* bits,
                     DecodedOperand* out);

// dot(m, K, a, b, c) on operands decode_operands() produced.
std::uint64_t dot_decoded(const TensorCoreModel& m, int K, const DecodedOperand* a, const DecodedOperand* b,
                          std::uint64_t c);

}  // namespace gpuconform::ref
