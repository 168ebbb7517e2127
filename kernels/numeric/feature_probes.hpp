#pragma once
// The judging half of the numeric.feature.* probes (feature_probes.cpp), apart from the
// GPU run so that it is unit-tested on the CPU.
#include <string>
#include <string_view>

#include "gpuconform/expectation.hpp"
#include "gpuconform/measurement.hpp"
#include "numeric/vector_infer.hpp"

namespace gpuconform::kernels {

// One fitted parameter of `fit` against `expectation` (model = "param:NAME=VALUE"):
// value 0 when the fit gives VALUE or cannot tell VALUE from what it gives (an ambiguous
// parameter), else 1; notes: the fitted value ("inferred"), the whole fit, and the
// `param:` string `record` writes. No expectation (recording): value 0. Throws
// std::runtime_error for an unusable fit or an expectation naming another parameter.
// The feature path a variant's numeric.feature.<path>.* tests run on ("mma_sync.f32.f16"
// for mma_m16n8k16_f32_f16); "" when none does (wgmma's A-in-registers twin, integers).
std::string feature_path_of(std::string_view variant);

Measurement feature_measurement(const InferResult& fit, const std::string& property, const Expectation* expectation);

}  // namespace gpuconform::kernels
