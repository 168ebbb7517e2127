// SPDX-License-Identifier: Apache-2.0
// Finding a model: by id, or from the (arch, variant) pair a vector file or a GPU probe
// has. Variant names are docs/vector-files.md's `<instruction>_<shape>_<D type>_<A/B type>`.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/tensor_core_model.hpp"

namespace gpuconform::ref {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// sm_90a, sm_100f -> sm_90, sm_100: the arch-specific suffix does not change numerics.
std::string_view base_arch(std::string_view arch) {
  if (!arch.empty() && (arch.back() == 'a' || arch.back() == 'f')) arch.remove_suffix(1);
  return arch;
}

// Vector-file instruction names -> model instruction names; sparse mma.sp is not modelled.
std::string_view model_instruction(std::string_view variant_instruction) {
  if (variant_instruction == "mma") return "mma_sync";
  if (variant_instruction == "wmma") return "wmma";
  if (variant_instruction == "wgmma") return "wgmma";
  if (variant_instruction == "tcgen05" || variant_instruction == "tcgen05mma") return "tcgen05";
  return {};
}

// K of a shape such as m16n8k16 or m64n256k32; 0 if the text is not a shape.
int shape_k(std::string_view shape) {
  const std::size_t pos = shape.rfind('k');
  if (shape.empty() || shape[0] != 'm' || pos == std::string_view::npos || pos + 1 >= shape.size())
    return 0;
  int k = 0;
  for (char ch : shape.substr(pos + 1)) {
    if (ch < '0' || ch > '9') return 0;
    k = k * 10 + (ch - '0');
  }
  return k;
}

}  // namespace

int TensorCoreModel::max_k() const {
  return k_shapes.empty() ? 0 : *std::max_element(k_shapes.begin(), k_shapes.end());
}

std::string describe(const TensorCoreModel& m) {
  std::string s = "L=" + std::to_string(m.block_size) + " F=" + std::to_string(m.fraction_bits) +
                  " " + (m.rounding == Rounding::kRZ ? "RZ" : "RNE") + "-" +
                  std::string(m.round_format.name) + " e_zero=" + std::to_string(m.e_zero);
  if (m.a_format.pad_bits > 0) s += m.tf32_truncation ? " tf32-truncate" : " tf32-rne";
  if (m.fp8_via_hmma_pair) s += " as-2xHMMA(k%4<2 first)+add-C";
  return s;
}

const TensorCoreModel* find_model(std::string_view id) {
  for (const TensorCoreModel& m : models())
    if (m.id == id) return &m;
  return nullptr;
}

std::vector<std::string> model_ids() {
  std::vector<std::string> ids;
  for (const TensorCoreModel& m : models()) ids.push_back(m.id);
  return ids;
}

const TensorCoreModel* default_model(std::string_view arch, std::string_view variant) {
  const std::vector<std::string_view> parts = split(variant, '_');
  if (parts.size() != 4) return nullptr;  // qualifiers (satfinite, ...) are not float models
  const std::string_view instruction = model_instruction(parts[0]);
  const int k = shape_k(parts[1]);
  if (instruction.empty() || k == 0) return nullptr;
  const std::string id = std::string(base_arch(arch)) + "." + std::string(instruction) + "." +
                         std::string(parts[2]) + "." + std::string(parts[3]);
  const TensorCoreModel* m = find_model(id);
  // wmma without a row of its own: nvcc compiles wmma.mma to the tensor-core instruction of
  // mma.sync with the same formats (HMMA), so that row applies; the golden wmma files check
  // it (tools/device/numerics_batch.sh). A wmma row (tf32 on sm_90) takes precedence.
  if (m == nullptr && instruction == "wmma")
    m = find_model(std::string(base_arch(arch)) + ".mma_sync." + std::string(parts[2]) + "." + std::string(parts[3]));
  if (m == nullptr) return nullptr;
  const auto& ks = m->k_shapes;
  return std::find(ks.begin(), ks.end(), k) != ks.end() ? m : nullptr;
}

}  // namespace gpuconform::ref
