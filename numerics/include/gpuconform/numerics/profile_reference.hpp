// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CPU half of the numeric.profile.* probes: seed 001's numeric profiling (Sun et al.,
// "Dissecting Tensor Cores via Microbenchmarks", §8) with matrix-level references in
// Eigen over MPFR scalars (mpreal), so that it runs and is unit-tested without a GPU: the
// MMA itself comes through `MmaRunner` (the GPU's MmaVariant runner in the probes, the
// block-FMA model in the tests).
//
//   element-wise (§8.1, Tables 12-15): one output d0 = D[0][0] per instance, inputs normal
//     (mu 0, sigma 1): multiplication d0 = a0 b0; inner product d0 = a0 + a1 (b0 = b1 = 1);
//     accumulation d0 = a0 + c0 (b0 = 1); all other elements 0. Inputs drawn in the MMA's
//     format ("init low": nothing lost converting) or in fp32 and rounded (RNE) for the GPU
//     while the CPU keeps fp32 ("init f32"). The error is the mean |d0 - reference| against
//     the paper's CPU fp32 result and against the exact value (MPFR).
//   chain (§8.2, Fig 20): A (16 x K) times a fresh random B (K x K) per step, D rounded to
//     the input format to become the next A, as D is copied back in the paper; the mean
//     l2 relative error ||D - D_ref||_F / ||D_ref||_F after each step against an fp64 chain
//     (Eigen<double>) and an MPFR chain (Eigen<mpreal>, 256 bits: exact to far below any
//     error measured). A (16 x K) x (K x K) is K/8 MMA instances of n8.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpuconform/reference/random_inputs.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/mma_instances.hpp"

namespace gpuconform::numerics {

// D of each instance, M x N row-major, instance after instance (MmaVariant::run's contract).
using MmaRunner = std::function<std::vector<std::uint64_t>(const std::vector<MmaInstance>&)>;

enum class ProfileStage { kMultiplication, kInnerProduct, kAccumulation };
enum class ProfileInit { kLow, kF32 };
const char* stage_name(ProfileStage s);  // "multiplication", "inner_product", "accumulation"
const char* init_name(ProfileInit i);    // "init_low", "init_f32"

// Normal (0, 1) by Box-Muller from the suite's generator: the same stream on every library.
double normal01(ref::Rng& rng);

struct ElementProfile {
  double vs_f32 = 0;       // mean |d0 - CPU fp32 result| (the paper's baseline)
  double vs_f32_in_d = 0;  // mean |d0 - CPU fp32 result rounded to D's format| (Table 14); = vs_f32 for f32 D
  double vs_exact = 0;     // mean |d0 - exact value of the inputs the CPU holds|
  double max_vs_exact = 0;
  int samples = 0;
};

// `count` instances of one stage and init on variant `v` (any m16n8kK floating-point
// variant). Throws std::invalid_argument for an integer or f64 variant.
ElementProfile profile_elements(const VectorVariant& v, ProfileStage stage, ProfileInit init, int count,
                                std::uint64_t seed, const MmaRunner& run);

struct ChainProfile {
  std::vector<double> vs_fp64;   // mean l2 relative error after step 1, 2, ... (finite steps only)
  std::vector<double> vs_exact;
  int overflow_step = 0;         // first step whose D or next A held inf or NaN; 0 when none
};

// `chains` independent chains of up to `steps` steps; the curves stop before the first
// step that overflows. Needs N = 8 and K a multiple of 8.
ChainProfile profile_chain(const VectorVariant& v, ProfileInit init, int steps, int chains, std::uint64_t seed,
                           const MmaRunner& run);

// The exact A*B + C of one instance (MPFR, Eigen<mpreal>), as doubles rounded to nearest:
// the matrix-level reference, exposed for its unit test.
std::vector<double> exact_mma_values(const VectorVariant& v, const MmaInstance& in);

}  // namespace gpuconform::numerics
