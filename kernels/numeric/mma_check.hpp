#pragma once
// The host half of every bit-exact MMA probe: choose the reference model, prove the
// fragment layout, add the literature's discriminating vectors, run, and compare every
// output bit with the model. The golden-vector generator shares the layout self-test.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "numeric/mma_instances.hpp"
#include "numeric/mma_variant.hpp"

namespace gpuconform::kernels {

// The model the expectation names, or this architecture's default while recording. Throws
// std::runtime_error for an unknown model id and ProbeSkipped when no model exists for
// this architecture.
const ref::TensorCoreModel* resolve_model(const ProbeContext& ctx, const std::string& variant);

// Runs layout instances and throws std::runtime_error naming the first element whose bits
// differ from the exact result (or that the kernel never wrote).
void check_layout(const MmaVariant& v, const std::vector<MmaInstance>& instances);

// Runs and compares. value = number of output elements whose bits differ; notes carry the
// model, the first mismatches with every input in hex, and mismatches per class.
Measurement compare_with_model(const ref::TensorCoreModel& model, const MmaVariant& v,
                               const std::vector<MmaInstance>& instances);

// The whole probe: skip unless the device runs the variant, resolve the model, self-test
// the layout, draw every class (2000 instances each, 400 when quick), add the
// discriminating vectors of the model, compare.
Measurement measure_variant(const ProbeContext& ctx, const MmaVariant& v);

// "mma_m16n8k16_f32_bf16" -> "numeric.mma_sync.m16n8k16.f32.bf16"; qualifiers follow.
std::string numeric_probe_id(std::string_view variant);

// Registers numeric_probe_id(variant) as a probe running `fn`; for the tables' initialisers.
bool register_numeric_probe(std::string_view variant, Requirements needs, ProbeFn fn);

template <class V>
Measurement measure_mma_probe(const ProbeContext& ctx) {
  return measure_variant(ctx, *find_mma_variant(V::kName));
}

}  // namespace gpuconform::kernels
