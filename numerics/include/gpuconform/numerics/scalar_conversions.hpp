// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.scalar.cvt.*: PTX conversions checked bit for bit over every input on the GPU
// (kernels/numeric/scalar_convert.cu). The table of conversions (what each rounds to, from
// which format, which PTX ISA section states it), the reference every GPU thread computes
// (ConversionSpec + conversion_reference(): host and device, built on
// reference/scalar_round.hpp), and the host half that turns one scan's counts into a
// Measurement (value = mismatches, the first mismatching inputs in hex).
//
// Inputs of one scan: input_bits = 32 enumerates every binary32 pattern x; a two-lane
// instruction (cvt...x2.f32 d, a, b) gets a = x (upper lane) and b = x with its sign flipped
// (lower lane), so each lane sees all 2^32 inputs and the packing order is checked too.
// input_bits = 16 enumerates every f16 code (cvt.f32.f16) or every pair of FP8 codes
// (cvt.rn.f16x2.e4m3x2: upper byte -> upper half).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/reference/scalar_round.hpp"

namespace gpuconform::numerics {

// What a GPU thread needs to compute the expected result of one input (passed to the
// kernel by value).
struct ConversionSpec {
  ref::scalar::Target source;  // the input format (its fields only)
  ref::scalar::Target target;  // the result's format and the instruction's rounding
  int input_bits;              // 32 or 16
  int lanes;                   // 1, or 2 for the x2 forms
};

// The expected result bits of input x (lanes packed: upper lane in the high bits).
GC_SCALAR_HD std::uint32_t conversion_reference(const ConversionSpec& s, std::uint32_t x) {
  using ref::scalar::decode;
  using ref::scalar::round_to;
  if (s.lanes == 1) return round_to(s.target, decode(s.source, x));
  const int width = s.target.width_bits();
  const std::uint32_t hi_in = s.input_bits == 32 ? x : x >> 8;
  const std::uint32_t lo_in = s.input_bits == 32 ? x ^ 0x80000000u : x & 0xffu;
  return round_to(s.target, decode(s.source, hi_in)) << width | round_to(s.target, decode(s.source, lo_in));
}

// The class (ref::scalar::InputClass) a mismatch of input x is counted in: the upper lane's.
GC_SCALAR_HD int conversion_input_class(const ConversionSpec& s, std::uint32_t x) {
  return ref::scalar::input_class(s.source, s.lanes == 2 && s.input_bits == 16 ? x >> 8 : x);
}

// One row of the table.
struct ScalarConversion {
  std::string id;   // "numeric.scalar.cvt.rn.f16.f32"
  std::string ptx;  // "cvt.rn.f16.f32"
  ConversionSpec spec;
  int min_cc;             // 80 (bf16, tf32), 89 (FP8), 75 (f16)
  std::string semantics;  // the rounding in words, with the NaN rule and where it comes from
};

// Every conversion numeric.scalar.cvt.* checks, in registration order.
const std::vector<ScalarConversion>& scalar_conversions();
const ScalarConversion* find_scalar_conversion(std::string_view id);

// The PTX ISA section every conversion entry cites.
extern const char* const kCvtCitation;

// What one scan found.
struct ScalarMismatch {
  std::uint32_t input, got, want;
};
struct ScalarScan {
  std::uint64_t compared = 0;  // inputs (instructions) compared
  std::array<std::uint64_t, ref::scalar::kInputClasses> mismatches_by_class{};
  std::vector<ScalarMismatch> first;  // in no particular order (GPU threads race for the slots)
  double gpu_ms = 0;                  // the scan kernel's time
  std::uint64_t mismatches() const;
};

// How many inputs of each class one scan of `s` compares (by the upper lane's code).
std::array<std::uint64_t, ref::scalar::kInputClasses> class_totals(const ConversionSpec& s);

// "0x3f800001 (1.00000012)": an input code of the source format with its value.
std::string describe_input(const ConversionSpec& s, std::uint32_t x);

// value = mismatches (unit "mismatches"), compared = inputs; notes: instruction, reference,
// inputs, gpu_ms, mismatches_by_class, first_mismatch and mismatch_N (sorted by input), and
// on a mismatch "violations" (the verdict's reason quotes it).
Measurement scalar_measurement(const ScalarConversion& c, const ScalarScan& scan);

}  // namespace gpuconform::numerics
