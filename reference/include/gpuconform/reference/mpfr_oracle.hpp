// SPDX-License-Identifier: Apache-2.0
// Correctly rounded IEEE 754 arithmetic by MPFR, for the scalar conformance tests
// (fma.rn.f32, div.rz.f64, sqrt.ru.f32, ...). Operands and results are bit patterns of an
// IEEE format (fp32 and fp64 are the intended ones; fp16 and bf16 work too). Subnormals
// are kept (no .ftz); every NaN result is the format's quiet NaN with positive sign, so
// compare NaN results by class, not payload.
#pragma once

#include <cstdint>
#include <string_view>

#include "gpuconform/reference/float_format.hpp"

namespace gpuconform::ref {

enum class IeeeOp : std::uint8_t { kAdd, kSub, kMul, kDiv, kSqrt, kFma };

std::string_view to_string(IeeeOp op);
std::string_view to_string(Rounding r);

// add/sub/mul/div: a op b; sqrt: sqrt(a); fma: a * b + c with one rounding.
std::uint64_t ieee_op(const FloatFormat& f, IeeeOp op, Rounding r, std::uint64_t a,
                      std::uint64_t b = 0, std::uint64_t c = 0);

}  // namespace gpuconform::ref
