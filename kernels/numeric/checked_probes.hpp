#pragma once
// numeric.<instruction>.<shape>.<D>.<A/B>[.<qualifier>] for the MMA variants that have no
// block-FMA probe of their own: integer (s8, u8, s4, u4, b1), fp64, wmma, 2:4 sparse mma.sp,
// the shorter mma.sync shapes and wgmma at wide N. Each runs the survey's instances on the GPU
// (fragment-layout self-test, every input class, the discriminating vectors; path_survey.hpp)
// and checks every output bit with the model `gpuconform vectors check` would use: the
// expectation's `model`, else this architecture's default (a reference row, `compressed:` row
// for mma.sp, or a simple model). So every path the golden files cover is also a GPU test.
#include <string_view>

#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {

// Random instances per input class: shapes with more than 1024 outputs take fewer, in
// proportion, down to 5 (wgmma m64n256: 6 a class, 16384 outputs each), so each probe stays
// under a second on an H100 (with 20 a class the m64n256 FP8 ones took 2.2-2.4 s).
constexpr int kCheckedInstancesPerClass = 100;

Measurement measure_checked(const ProbeContext& ctx, std::string_view variant);

// Registers numeric_probe_id(variant) running `fn`; for the variant tables' initialisers.
bool register_checked_probe(std::string_view variant, Requirements needs, ProbeFn fn);

template <class V>
Measurement measure_checked_probe(const ProbeContext& ctx) {
  return measure_checked(ctx, V::kName);
}

}  // namespace gpuconform::kernels
