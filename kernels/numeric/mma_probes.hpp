// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.<instruction>.<shape>.<D>.<A/B>[.<qualifier>]: the bit-exact probe of each MMA
// variant, registered by the variant tables (mma_sync.cu, wgmma.cu, wmma.cu, mma_sp.cu) in
// their initialisers. A row flagged as a block-FMA probe compares 2000 instances a class with
// the model row (measure_variant); the others run the survey's instances and check them with
// the model `gpuconform vectors check` would use (measure_checked). Both judge through one
// mismatch summary (gpuconform/numerics/mma_check.hpp).
#include <string_view>

#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/mma_check.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {

template <class V>
Measurement measure_mma_probe(const ProbeContext& ctx) {
  return numerics::measure_variant(ctx, *numerics::find_mma_variant(V::kName));
}

template <class V>
Measurement measure_checked_probe(const ProbeContext& ctx) {
  return numerics::measure_checked(ctx, V::kName);
}

// Registers numerics::numeric_probe_id(variant) running `fn`; for the variant tables'
// initialisers. `block_fma`: the probe compares with the model row (its summary says so).
bool register_mma_probe(std::string_view variant, Requirements needs, ProbeFn fn, bool block_fma);

}  // namespace gpuconform::kernels
