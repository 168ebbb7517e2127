// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checking vector files against models on the CPU: the logic of `gpuconform vectors check`
// and of the unit test over expectations/golden/. For each file: read it line by line,
// find the model (named, or the architecture's default for the file's variant), evaluate
// it on every instance and compare every output bit with the file.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuconform/reference/model_fit.hpp"
#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {

struct CheckOptions {
  std::string arch;        // "sm_90"; "" takes the file's `# arch:` header
  std::string model;       // a reference or simple_models.hpp id; "" picks the default
  std::size_t shown = 5;   // mismatches printed in full
};

enum class CheckStatus {
  kMatched,     // every output equals the model's
  kMismatched,  // at least one output differs
  kNoModel,     // the file is valid but no model exists for its variant on this arch
  kUnusable,    // unreadable, malformed, or the named model does not fit
};

struct FileCheck {
  std::string path;
  std::string variant;  // "" when the file never named one
  std::string model;    // id and parameters of the model used
  CheckStatus status = CheckStatus::kUnusable;
  std::uint64_t instances = 0, matched = 0, total = 0;
  std::vector<std::string> mismatches;  // the first `shown`, every input in hex
  std::string by_class;                 // "normal: 0/51200, probe: 1/3072"
  std::string error;                    // kUnusable: "file:line: reason"; kNoModel: why
};

FileCheck check_vector_file(const std::string& path, const CheckOptions& options);
FileCheck check_vectors(VectorReader& reader, const CheckOptions& options);
// The same for instances in memory (a GPU survey's): `path` stays empty, and options.arch
// must name the architecture unless options.model names the model.
FileCheck check_records(const VectorVariant& v, const std::vector<ref::MmaRecord>& records,
                        const CheckOptions& options);

// Every model whose formats fit the variant, whatever its architecture: the reference rows
// (by their K shapes too) and the simple models. `vectors check --candidates` tries each,
// which is how a variant without a model (sm_90 mma.sync FP8) finds the one it follows.
std::vector<std::string> candidate_models(const VectorVariant& v);

// Output elements per second the model computes on one core, over about `seconds` of
// random instances of `variant` (the figure of `gpuconform vectors bench`).
struct BenchResult {
  std::string model;
  std::uint64_t outputs = 0;
  double seconds = 0;
  double outputs_per_second() const { return seconds > 0 ? outputs / seconds : 0; }
};
BenchResult bench_model(const std::string& model_id, const std::string& variant, double seconds);

}  // namespace gpuconform::numerics
