// SPDX-License-Identifier: Apache-2.0
// Inferring the block-FMA model's parameters from recorded MMA results (the CPU half of
// `gpuconform vectors infer` and of the numeric.feature.* probes).
//
// The search never tries every parameter combination on every output. It works on a
// sample of outputs: the literature probes of numerics.md §3 first (the discriminating
// instances), then a few outputs of every instance of each random class, interleaved, then
// every zero result (the rare outputs that decide the zero-sign and flush rules). Every
// candidate's mismatch count is abandoned as soon as it exceeds the best so far: a wrong
// candidate usually dies on its first probe.
//   1. Structure, jointly on the finite, well-scaled outputs: lowering (native or the
//      sm_90 FP8 HMMA pair), L, F, the rounding direction and the accumulator grid.
//   2. The edge rules (e_zero; subnormal inputs and outputs together; zero sign; overflow;
//      tf32 truncation), then each structural parameter again, on the whole sample, until
//      a whole round passes without a change.
//   3. Ties: a value that matches the sample as well as the chosen one makes that
//      parameter ambiguous; the chosen value is then the canonical model's (the table row),
//      if given. Ties are per parameter (or per jointly scanned group): two parameters that
//      can imitate each other only together are not reported.
// The caller verifies the fit on every output (count_matches): the sample only steers
// the search, and an output the fit misses is reported, never fitted away.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {

// One recorded instance, the layouts of mma(): D = A*B + C.
struct MmaRecord {
  std::string klass;  // normal, wide, cancel, subnormal, special, rounded, probe:<name>
  std::vector<std::uint64_t> a, b, c, d;
};

struct FitInput {
  int m = 0, n = 0, k = 0;
  FloatFormat ab_format{};   // A and B (tf32: the fp32 register)
  FloatFormat acc_format{};  // C and D: kFp32 or kFp16
  std::vector<MmaRecord> records;
  // The table's model for this variant, if any: it breaks ties (the canonical parameter
  // set) but is never the starting point of the search.
  const TensorCoreModel* canonical = nullptr;
  std::size_t sample_per_class = 4096;  // outputs per random class in the search sample
};

struct FitParameter {
  std::string name;                      // block_size, fraction_bits, final_rounding, ...
  std::string value;                     // "16", "rz", "kept", "0x7fffffff", ...
  std::vector<std::string> alternatives; // other values that match the sample as well
};

struct FitResult {
  TensorCoreModel model;                 // the fitted parameters as a model (id "fitted")
  std::vector<FitParameter> params;      // in a fixed order, see parameter_names()
  std::uint64_t sample_outputs = 0;      // outputs the search used
  std::uint64_t sample_mismatches = 0;   // of those, outputs the fitted model misses

  const FitParameter* find(const std::string& name) const;
  bool ambiguous() const;
};

// The parameters fit_block_fma() reports, in order (input_truncation only for tf32,
// lowering only for 8-bit float inputs).
std::vector<std::string> parameter_names(const FloatFormat& ab, const FloatFormat& acc);

// Throws std::invalid_argument when the formats have no block-FMA model (integer, fp64)
// or the records do not have the shape's sizes.
FitResult fit_block_fma(const FitInput& in);

// The value of one parameter in a model, as fit_block_fma() spells it ("" if unknown):
// how an expectation's `param:NAME=VALUE` is compared with a table model.
std::string parameter_value(const TensorCoreModel& m, const std::string& name);

// Outputs of `records` the model reproduces bit for bit, and the total: the verification.
// `first_mismatch` (optional) receives the index record * M*N + i*N + j of the first miss.
std::pair<std::uint64_t, std::uint64_t> count_matches(const TensorCoreModel& m, const FitInput& in,
                                                      std::uint64_t* first_mismatch = nullptr);

}  // namespace gpuconform::ref
