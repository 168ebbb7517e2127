// SPDX-License-Identifier: Apache-2.0
#pragma once
// The numeric.feature.<path>.<property> tests as data, and their judging: which variant
// exercises each path, which properties a path has, and how one fitted parameter is judged
// against its expectation. The probes (kernels/numeric/feature_probes.cpp) run the variant
// on the GPU and register one per path and property from these tables; the judging stays
// here, apart from the GPU run, so that it is unit-tested on the CPU.
#include <cstddef>
#include <string>
#include <string_view>

#include "gpuconform/expectation.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/numerics/vector_infer.hpp"

namespace gpuconform::numerics {

// A path (the model id without its arch), the vector-file variant that exercises it and
// what the GPU needs (as the variant's table row: the probes register before the variant
// tables of mma_sync.cu and wgmma.cu may have, so they cannot ask them).
struct FeaturePath {
  const char* path;
  const char* variant;
  int min_cc;
  bool sm90a;
};
inline constexpr FeaturePath kFeaturePaths[] = {
    {"mma_sync.f32.f16", "mma_m16n8k16_f32_f16", 80, false},
    {"mma_sync.f32.bf16", "mma_m16n8k16_f32_bf16", 80, false},
    {"mma_sync.f16.f16", "mma_m16n8k16_f16_f16", 80, false},
    {"mma_sync.f32.tf32", "mma_m16n8k8_f32_tf32", 80, false},
    {"mma_sync.f32.e4m3", "mma_m16n8k32_f32_e4m3", 89, false},
    {"mma_sync.f32.e5m2", "mma_m16n8k32_f32_e5m2", 89, false},
    {"mma_sync.f16.e4m3", "mma_m16n8k32_f16_e4m3", 89, false},
    {"mma_sync.f16.e5m2", "mma_m16n8k32_f16_e5m2", 89, false},
    {"wgmma.f32.f16", "wgmma_m64n8k16_f32_f16", 90, true},
    {"wgmma.f32.bf16", "wgmma_m64n8k16_f32_bf16", 90, true},
    {"wgmma.f16.f16", "wgmma_m64n8k16_f16_f16", 90, true},
    {"wgmma.f32.tf32", "wgmma_m64n8k8_f32_tf32", 90, true},
    {"wgmma.f32.e4m3", "wgmma_m64n8k32_f32_e4m3", 90, true},
    {"wgmma.f32.e5m2", "wgmma_m64n8k32_f32_e5m2", 90, true},
    {"wgmma.f16.e4m3", "wgmma_m64n8k32_f16_e4m3", 90, true},
    {"wgmma.f16.e5m2", "wgmma_m64n8k32_f16_e5m2", 90, true},
    // The shorter mma.sync shapes are other instructions (HMMA.1688 beside HMMA.16816): their
    // path names carry the shape, since the model id they share does not.
    {"mma_sync.m16n8k8.f32.f16", "mma_m16n8k8_f32_f16", 80, false},
    {"mma_sync.m16n8k8.f32.bf16", "mma_m16n8k8_f32_bf16", 80, false},
    {"mma_sync.m16n8k8.f16.f16", "mma_m16n8k8_f16_f16", 80, false},
    {"mma_sync.m16n8k4.f32.tf32", "mma_m16n8k4_f32_tf32", 80, false},
    {"wmma.f32.f16", "wmma_m16n16k16_f32_f16", 80, false},
    {"wmma.f32.bf16", "wmma_m16n16k16_f32_bf16", 80, false},
    {"wmma.f16.f16", "wmma_m16n16k16_f16_f16", 80, false},
    {"wmma.f32.tf32", "wmma_m16n16k8_f32_tf32", 80, false},
    // Integer and fp64 paths: the one property is which simple model fits (simple_models.hpp).
    {"mma_sync.s32.s8", "mma_m16n8k32_s32_s8", 80, false},
    {"mma_sync.s32.u8", "mma_m16n8k32_s32_u8", 80, false},
    {"mma_sync.s32.s8.satfinite", "mma_m16n8k32_s32_s8_satfinite", 80, false},
    {"mma_sync.f64.f64", "mma_m8n8k4_f64_f64", 80, false},
    {"mma_sync.m16n8k16.f64.f64", "mma_m16n8k16_f64_f64", 90, false},
    {"wmma.s32.s8", "wmma_m16n16k16_s32_s8", 80, false},
    {"wmma.f64.f64", "wmma_m8n8k4_f64_f64", 80, false},
    {"wgmma.s32.s8", "wgmma_m64n8k32_s32_s8", 90, true},
    {"wgmma.s32.s8.satfinite", "wgmma_m64n8k32_s32_s8_satfinite", 90, true},
    {"mma_sync.s32.s4", "mma_m16n8k64_s32_s4", 80, false},
    {"mma_sync.s32.u4", "mma_m16n8k64_s32_u4", 80, false},
    {"mma_sync.s32.s4.satfinite", "mma_m16n8k64_s32_s4_satfinite", 80, false},
    {"mma_sync.s32.b1.xor", "mma_m16n8k256_s32_b1_xor", 80, false},
    {"mma_sync.s32.b1.and", "mma_m16n8k256_s32_b1_and", 80, false},
    {"wmma.s32.s4", "wmma_m8n8k32_s32_s4", 80, false},
    {"wmma.s32.b1.xor", "wmma_m8n8k128_s32_b1_xor", 80, false},
    // 2:4 sparse mma.sp (selector 0): besides the block-FMA parameters, sparse_products says
    // whether each output sums only the kept products (compressed) or all K with the zeros.
    {"mma_sp.f32.f16", "mmasp_m16n8k32_f32_f16_sel0", 80, false},
    {"mma_sp.f32.bf16", "mmasp_m16n8k32_f32_bf16_sel0", 80, false},
    {"mma_sp.f16.f16", "mmasp_m16n8k32_f16_f16_sel0", 80, false},
    {"mma_sp.f32.tf32", "mmasp_m16n8k16_f32_tf32_sel0", 80, false},
    {"mma_sp.f32.e4m3", "mmasp_m16n8k64_f32_e4m3_sel0", 89, false},
    {"mma_sp.f32.e5m2", "mmasp_m16n8k64_f32_e5m2_sel0", 89, false},
    {"mma_sp.s32.s8", "mmasp_m16n8k32_s32_s8_sel0", 80, false},
    // 2:4 sparse wgmma.mma_async.sp (selector 0, A and B in shared memory), m64n8: the same
    // properties, sparse_products among them (is it the dense wgmma model on the kept products?).
    {"wgmma_sp.f32.f16", "wgmmasp_m64n8k32_f32_f16_sel0", 90, true},
    {"wgmma_sp.f32.bf16", "wgmmasp_m64n8k32_f32_bf16_sel0", 90, true},
    {"wgmma_sp.f16.f16", "wgmmasp_m64n8k32_f16_f16_sel0", 90, true},
    {"wgmma_sp.f32.tf32", "wgmmasp_m64n8k16_f32_tf32_sel0", 90, true},
    {"wgmma_sp.f32.e4m3", "wgmmasp_m64n8k64_f32_e4m3_sel0", 90, true},
    {"wgmma_sp.f32.e5m2", "wgmmasp_m64n8k64_f32_e5m2_sel0", 90, true},
    {"wgmma_sp.s32.s8", "wgmmasp_m64n8k64_s32_s8_sel0", 90, true},
};
// Every property a path may have; paths register those the fit reports for their formats.
inline constexpr const char* kFeatureProperties[] = {"lowering",         "block_order",       "block_size",    "fraction_bits",
                                       "final_rounding",   "accumulator_format", "e_zero",       "subnormal_inputs",
                                       "subnormal_outputs", "negative_zero",     "overflow",      "input_truncation",
                                       "nan_canonical",    "model",             "sparse_products"};
inline constexpr std::size_t kFeaturePathCount = sizeof(kFeaturePaths) / sizeof(kFeaturePaths[0]);
inline constexpr std::size_t kFeaturePropertyCount = sizeof(kFeatureProperties) / sizeof(kFeatureProperties[0]);

// Whether a path of variant `v` reports this property (the fit's parameter list for its formats).
bool feature_applies(const VectorVariant& v, const std::string& property);

// The feature path a variant's numeric.feature.<path>.* tests run on ("mma_sync.f32.f16"
// for mma_m16n8k16_f32_f16); "" when none does (wgmma's A-in-registers twin, integers).
std::string feature_path_of(std::string_view variant);

// One fitted parameter of `fit` against `expectation` (model = "param:NAME=VALUE"):
// value 0 when the fit gives VALUE or cannot tell VALUE from what it gives (an ambiguous
// parameter), else 1; notes: the fitted value ("inferred"), the whole fit, and the
// `param:` string `record` writes. No expectation (recording): value 0. Throws
// std::runtime_error for an unusable fit or an expectation naming another parameter.
Measurement feature_measurement(const InferResult& fit, const std::string& property, const Expectation* expectation);

}  // namespace gpuconform::numerics
