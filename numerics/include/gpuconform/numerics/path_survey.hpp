// SPDX-License-Identifier: Apache-2.0
#pragma once
// The GPU half shared by the numeric.feature.* probes and `gpuconform probe numerics`: run
// one MMA variant on the discriminating instances a fit needs and hand back the records.
// The recipe is the golden generator's (layout self-test, every random input class, then
// the literature probes of numerics.md §3: Fasi et al. 2021, MMA-Sim and the suite's own),
// with fewer random instances: enough to pin every parameter the golden files pin.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpuconform/device_info.hpp"

#include "gpuconform/reference/model_fit.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {

constexpr int kSurveyInstancesPerClass = 400;

// Random instances a class for a shape of `outputs` outputs: `per_class` up to 1024 outputs
// (an m64n8 wgmma), in inverse proportion beyond (an m64n256 is 32 times the outputs), never
// fewer than `floor` nor more than `per_class`: each path then costs about the same.
inline int scaled_per_class(int per_class, std::size_t outputs, int floor) {
  if (outputs <= 1024) return per_class;
  return std::min(per_class, std::max(floor, static_cast<int>(per_class * 1024 / outputs)));
}

// Runs the fragment-layout self-test (throws std::runtime_error when it fails), then
// `per_class` random instances of every class of the variant and (unless `literature_probes`
// is false) its probe instances, on the current device. Throws CudaError.
std::vector<ref::MmaRecord> run_survey_instances(const MmaVariant& v, int per_class, std::uint64_t seed,
                                                 bool literature_probes = true);

// The same instances with D from `arch`'s model instead of a GPU, for testing the pipeline
// (never golden data). Throws std::invalid_argument when `arch` has no model of the variant.
std::vector<ref::MmaRecord> simulate_survey_instances(const MmaVariant& v, int per_class, std::uint64_t seed,
                                                      const std::string& arch);

// The `# key: value` provenance lines of a survey's vector files: the golden files' keys,
// so `vectors check` and `vectors infer` read them back. `device` nullptr: simulated.
std::vector<std::pair<std::string, std::string>> survey_header(const DeviceInfo* device, const std::string& arch,
                                                               std::uint64_t seed);

// Writes the records as a vector file (xz when `path` ends in .xz). Throws
// std::runtime_error on an I/O error.
void write_survey_vectors(const std::string& path, const MmaVariant& v, const std::vector<ref::MmaRecord>& records,
                          const std::vector<std::pair<std::string, std::string>>& header);

}  // namespace gpuconform::numerics
