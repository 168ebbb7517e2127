#pragma once
// The host half of every bit-exact MMA probe: choose the reference model,
// prove the fragment layout, add the literature's discriminating vectors,
// run, and compare every output bit with the model.
#include <cstdint>
#include <functional>
#include <vector>

#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "numeric/mma_instances.hpp"

namespace gpuconform::kernels {

// Runs the instances on the GPU and returns D (M x N row-major bit patterns per instance).
using MmaRunner = std::function<std::vector<std::uint64_t>(const std::vector<MmaInstance>&)>;

// The model the expectation names, or this architecture's default while
// recording. Throws std::runtime_error for an unknown model id and
// ProbeSkipped when no model exists for this architecture.
const ref::TensorCoreModel* resolve_model(const ProbeContext& ctx, const char* variant);

// Throws std::runtime_error with the first differing element when the GPU's
// result on integer-valued instances is not the exact product.
void check_layout(const MmaRunner& run, const std::vector<MmaInstance>& instances, MmaShape shape,
                  BitFormat in);

// Packs each discriminating vector that applies to `model` as one instance:
// row 0 of A holds a, column 0 of B holds b, C[0][0] holds c, the rest 0.
void append_discriminating_probes(const ref::TensorCoreModel& model, MmaShape shape,
                                  std::vector<MmaInstance>& instances);

// Runs and compares. value = number of output elements whose bits differ.
Measurement compare_with_model(const ref::TensorCoreModel& model, const MmaRunner& run,
                               const std::vector<MmaInstance>& instances, MmaShape shape, BitFormat in);

}  // namespace gpuconform::kernels
