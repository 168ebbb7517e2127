// SPDX-License-Identifier: Apache-2.0
#pragma once
// What `gpuconform probe numerics` writes from its fits, apart from the GPU run so that it
// is unit-tested on the CPU: numeric.feature.<path>.<property> expectation entries (the
// `param:NAME=VALUE` form the feature tests read) and one row of the model table
// (reference/src/models.cpp kRows) per block-FMA path.
#include <string>
#include <vector>

#include "gpuconform/expectation.hpp"
#include "gpuconform/numerics/vector_infer.hpp"

namespace gpuconform::numerics {

struct PathFit {
  std::string feature_path;  // "mma_sync.f32.f16"; "" when no numeric.feature.* tests run on it
  std::string vectors;       // its vector file, relative to the expectation file; "" if not kept
  InferResult fit;
};

struct SurveyFacts {
  std::string arch;     // "sm_90"
  std::string device;   // "NVIDIA H100 80GB HBM3 (pci 0x2330)"
  std::string driver;   // "580.159.04"
  std::string nvcc;     // "13.0.88"
  std::string date;     // UTC timestamp of the run
};

// One entry per parameter of each fit that has a feature path and a registered test
// (`known_probe`), every output reproduced and no alternative value: an ambiguous
// parameter, or a fit that leaves an output unexplained, pins nothing. Each entry's source
// is its vector file ("golden:"), so a path without one gets no entry. `left_out` (optional)
// receives one line per parameter not written, and why.
ExpectationFile numerics_expectations(const std::vector<PathFit>& fits, const SurveyFacts& facts,
                                      const ProbeIdCheck& known_probe, std::vector<std::string>* left_out = nullptr);

// The text of the file `probe numerics --out` writes: the rendered entries under a preamble
// naming the survey (the renderer's own speaks of `record`) and the file to review them into.
std::string render_numerics_file(const ExpectationFile& file, const std::string& arch);

// The fit as a row of models.cpp's kRows, e.g.
//   {"sm_90", "mma_sync", Out::kF32, &kFp16, 16, 25, {16}, "measured: ..."},  // e_zero=-133
// the comment naming e_zero and every rule make_model() does not set by default. Integer and
// fp64 paths (no block-FMA row) and unusable fits give a comment line saying so.
std::string model_table_row(const PathFit& f, const SurveyFacts& facts);

}  // namespace gpuconform::numerics
