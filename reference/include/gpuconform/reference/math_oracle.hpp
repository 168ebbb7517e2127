// SPDX-License-Identifier: Apache-2.0
// Correctly rounded results of the C math library's functions by MPFR, the reference the
// scalar math-library probes and `gpuconform mathref` use. A result is the exact value
// f(x) rounded once to an IEEE format (binary32 or binary64) in any IEEE direction,
// subnormals and overflow included. Each function gives MPFR an enclosure [lo, hi] of
// f(x) at P bits; when both ends round to the same format value, so does f(x) (rounding
// is monotonic), else P doubles. No error analysis is needed, so composed functions
// (normcdf) are as exact as MPFR's own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/float_format.hpp"

namespace gpuconform::ref {

struct MathFunction;  // one row of the function table (math_oracle.cpp)

// A function by its C name: "exp", "atan2" (binary64) or "expf", "atan2f" (binary32).
struct MathCall {
  const MathFunction* function = nullptr;
  const FloatFormat* format = nullptr;
  std::string name;  // as given
  int arity() const;
};
std::optional<MathCall> find_math_function(std::string_view name);

// Every binary64 name the table holds, in table order (the binary32 ones add an 'f').
std::vector<std::string_view> math_function_names();

struct MathResult {
  std::uint64_t bits = 0;  // the correctly rounded result in call.format
  std::string exact;       // f(x) to 40 significant digits (decimal), "nan", "inf", "-0"
  bool exact_is_representable = false;  // f(x) is a value of the format: no rounding happened
};

// Whether math_reference may run on several threads at once (MPFR built thread-safe: its
// caches thread-local); the decision loops of numeric.math.* use every core only then.
bool math_reference_thread_safe();

// f(args...) correctly rounded with r. args are bit patterns of call.format, as many as
// call.arity(). Throws std::invalid_argument for a wrong number of arguments.
MathResult math_reference(const MathCall& call, Rounding r, const std::vector<std::uint64_t>& args);

}  // namespace gpuconform::ref
