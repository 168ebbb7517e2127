// SPDX-License-Identifier: Apache-2.0
#pragma once
// `gpuconform vectors infer` and the numeric.feature.* probes: fit the tensor-core model's
// parameters to recorded MMA results (reference/model_fit.hpp), verify the fit on every
// output, and compare it with the model the table names (the one `vectors check` uses).
// Integer and fp64 variants have no block-FMA parameters: their candidates are the simple
// models (simple_models.hpp), and the fit names the one that matches.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuconform/reference/model_fit.hpp"
#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {

struct InferResult {
  std::string path;
  std::string variant;
  std::string error;             // non-empty: the file was unusable ("file:line: reason")
  std::string fitted;            // the fitted model in words (ref::describe or a simple model)
  std::string table_model;       // the model `vectors check` uses; "" when none
  std::vector<std::string> differs;  // parameters where the fit and the table disagree
  std::vector<ref::FitParameter> params;
  std::uint64_t outputs = 0, matched = 0;
  std::uint64_t sample_outputs = 0;
  std::string first_mismatch;    // "instance N (line L) D[i][j]: file 0x.., fit 0x.."
  std::string hypotheses;        // sparse: "compressed M/N (fit), dense M/N (fit)"; "" otherwise
  double seconds = 0;
};

// Fits one variant's records; `arch` picks the table model ("" for none). The records are
// moved into the fit. `metadata` (sparse variants): one nibble vector per record, as a vector
// file holds them; empty: the launcher's rule (records of an in-memory GPU run). Never throws
// for bad data: the reason goes to `error`.
InferResult infer_records(const VectorVariant& v, std::vector<ref::MmaRecord> records, const std::string& arch,
                          const std::vector<std::vector<std::uint8_t>>& metadata = {});

// Whether the variant is fitted with the block-FMA model (floating-point inputs and an f32 or
// f16 D); otherwise among the simple models (integer, fp64), whose one parameter is `model`.
bool fits_block_model(const VectorVariant& v);

// Reads a vector file (its `# arch:` header, unless `arch` is given) and fits it.
InferResult infer_vector_file(const std::string& path, const std::string& arch = "");

// One line: "variant: L=16 F=25 rz ... 268032/268032 outputs, 0.41 s"; JSON: one object.
std::string infer_line(const InferResult& r);
std::string infer_json(const InferResult& r);
// "-160..-134,-132" for integers, "a,b" otherwise: a parameter's alternatives in messages.
std::string compact_values(const std::vector<std::string>& values);

}  // namespace gpuconform::numerics
