// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host half of every bit-exact MMA probe (kernels/numeric/mma_probes.hpp registers them):
// choose the reference model, prove the fragment layout, add the literature's discriminating
// vectors, run through the variant's launcher, and compare every output bit with the model.
// Two recipes, one verdict: the block-FMA probes (measure_variant: 2000 instances a class
// against the model row) and the checked probes (measure_checked: the survey's instances,
// checked with the model `vectors check` uses); each reduces its comparison to a
// MismatchSummary, and mismatch_measurement() makes the Measurement of both. The golden-vector
// generator and the survey share the layout self-test.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {

// The model the expectation names, or this architecture's default while recording. Throws
// std::runtime_error for an unknown model id and ProbeSkipped when no model exists for
// this architecture.
const ref::TensorCoreModel* resolve_model(const ProbeContext& ctx, const std::string& variant);

// Runs layout instances and throws std::runtime_error naming the first element whose bits
// differ from the exact result (or that the kernel never wrote).
void check_layout(const MmaVariant& v, const std::vector<MmaInstance>& instances);

// What a numeric probe's comparison found: the model (id, and its parameters where the check
// names them), outputs compared and mismatched, the first mismatches with every input in hex,
// and mismatched/compared per input class.
struct MismatchSummary {
  std::string model;             // the id `record` writes as the entry's model
  std::string model_parameters;  // "" unless the check spells them out
  std::uint64_t mismatches = 0, compared = 0;
  std::vector<std::string> examples;
  std::string by_class;
};

// value = mismatches, unit "mismatches"; notes: model, model_parameters (when given),
// first_mismatch and mismatch_N, mismatches_by_class.
Measurement mismatch_measurement(const MismatchSummary& s);

// Runs and compares with the model row (value = output elements whose bits differ).
Measurement compare_with_model(const ref::TensorCoreModel& model, const MmaVariant& v,
                               const std::vector<MmaInstance>& instances);

// The block-FMA probe: skip unless the device runs the variant, resolve the model, self-test
// the layout, draw every class (2000 instances each, 400 when quick), add the
// discriminating vectors of the model, compare.
Measurement measure_variant(const ProbeContext& ctx, const MmaVariant& v);

// Random instances per input class of a checked probe: shapes with more than 1024 outputs
// take fewer, in proportion, down to 5 (wgmma m64n256: 6 a class, 16384 outputs each), so
// each probe stays under a second on an H100 (with 20 a class the m64n256 FP8 ones took
// 2.2-2.4 s).
constexpr int kCheckedInstancesPerClass = 100;

// The checked probe, for the variants without a block-FMA probe of their own (integer,
// fp64, wmma, 2:4 sparse, the shorter mma.sync shapes, wgmma at wide N): the survey's
// instances on the GPU (path_survey.hpp), every output checked with the model
// `gpuconform vectors check` would use: the expectation's `model`, else this architecture's
// default (a reference row, a `compressed:` row for mma.sp, or a simple model).
Measurement measure_checked(const ProbeContext& ctx, std::string_view variant);

// "mma_m16n8k16_f32_bf16" -> "numeric.mma_sync.m16n8k16.f32.bf16"; qualifiers follow.
std::string numeric_probe_id(std::string_view variant);

}  // namespace gpuconform::numerics
