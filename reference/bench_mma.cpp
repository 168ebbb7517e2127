// SPDX-License-Identifier: Apache-2.0
// Throughput of the integer block-FMA model on sm_90 mma.sync m16n8k16 f32.bf16: how many
// fp32 outputs per second one core computes. The vector tools and the numeric tests call
// mma() for 10^5..10^6 instances, so this bounds their run time. Inputs are drawn once
// (normal and wide classes) and replayed until about one second has passed.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "gpuconform/reference/random_inputs.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"

namespace ref = gpuconform::ref;

int main(int argc, char** argv) {
  const char* id = argc > 1 ? argv[1] : "sm_90.mma_sync.f32.bf16";
  const ref::TensorCoreModel* model = ref::find_model(id);
  if (model == nullptr) {
    fmt::print(stderr, "gpuconform_reference_bench: unknown model '{}'\n", id);
    return 1;
  }
  // m16n8k16, or m16n8k<max K> for a model without a k16 shape (FP8: k32).
  constexpr int kM = 16, kN = 8, kInstances = 256;
  const auto& ks = model->k_shapes;
  const int kK = std::find(ks.begin(), ks.end(), 16) != ks.end() ? 16 : model->max_k();
  ref::Rng rng(20240601);
  std::vector<std::vector<std::uint64_t>> A(kInstances), B(kInstances), C(kInstances);
  for (int i = 0; i < kInstances; ++i) {
    const auto cls = i % 2 == 0 ? ref::InputClass::kNormal : ref::InputClass::kWide;
    ref::draw_mma(*model, cls, kM, kN, kK, rng, A[i], B[i], C[i]);
  }
  std::vector<std::uint64_t> D(static_cast<std::size_t>(kM * kN));

  using Clock = std::chrono::steady_clock;
  std::uint64_t outputs = 0, checksum = 0;
  const auto start = Clock::now();
  double seconds = 0;
  while (seconds < 1.0) {
    for (int i = 0; i < kInstances; ++i) {
      ref::mma(*model, kM, kN, kK, A[i].data(), B[i].data(), C[i].data(), D.data());
      checksum += D[i % (kM * kN)];  // keeps the work observable
    }
    outputs += std::uint64_t{kInstances} * kM * kN;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  fmt::print(
      "{} m16n8k{}: {:.2f} million outputs/s on one core ({} outputs in {:.2f} s, "
      "checksum {:x})\n",
      model->id, kK, static_cast<double>(outputs) / seconds / 1e6, outputs, seconds, checksum);
  return 0;
}
