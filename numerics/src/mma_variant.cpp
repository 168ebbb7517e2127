// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/mma_variant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gpuconform::numerics {
namespace {

std::vector<MmaVariant>& table() {
  static std::vector<MmaVariant> variants;
  return variants;
}

}  // namespace

bool register_mma_variant(std::string_view name, std::string_view ptx, std::string_view probe_id,
                          int min_cc, bool needs_sm90a, MmaLauncher run, MmaCodeCheck has_code,
                          FragmentCounts fragments, FragmentPosition position) {
  std::string why;
  auto layout = parse_variant(name, why);
  if (!layout) throw std::logic_error("MMA variant table: " + why);
  if (find_mma_variant(name)) throw std::logic_error("MMA variant registered twice: " + std::string(name));
  auto& variants = table();
  variants.push_back(MmaVariant{std::move(*layout), std::string(ptx), std::string(probe_id), min_cc,
                                needs_sm90a, run, has_code, fragments, position});
  std::sort(variants.begin(), variants.end(),
            [](const MmaVariant& a, const MmaVariant& b) { return a.name() < b.name(); });
  return true;
}

const std::vector<MmaVariant>& mma_variants() { return table(); }

const MmaVariant* find_mma_variant(std::string_view name) {
  for (const MmaVariant& v : table())
    if (v.name() == name) return &v;
  return nullptr;
}

std::string unsupported_reason(const MmaVariant& v, const DeviceInfo& device) {
  if (v.needs_sm90a && device.cc() != 90)
    return fmt::format("{} needs sm_90a (wgmma runs only on compute capability 9.0); this GPU is {}",
                       v.name(), device.arch());
  if (device.cc() < v.min_cc)
    return fmt::format("{} needs compute capability {}.{}; this GPU is {}", v.name(), v.min_cc / 10,
                       v.min_cc % 10, device.arch());
  if (!v.has_code())
    return fmt::format("{}: this build has no machine code for {} (add it to CMAKE_CUDA_ARCHITECTURES{})",
                       v.name(), device.arch(), v.needs_sm90a ? " as 90a-real" : "");
  return {};
}

const ref::FloatFormat* float_format(ElementType t) {
  switch (t) {
    case ElementType::f64: return &ref::kFp64;
    case ElementType::f32: return &ref::kFp32;
    case ElementType::tf32: return &ref::kTf32;
    case ElementType::f16: return &ref::kFp16;
    case ElementType::bf16: return &ref::kBf16;
    case ElementType::e4m3: return &ref::kE4M3;
    case ElementType::e5m2: return &ref::kE5M2;
    case ElementType::s32:
    case ElementType::s8:
    case ElementType::u8:
    case ElementType::s4:
    case ElementType::u4:
    case ElementType::b1: return nullptr;
  }
  return nullptr;
}

}  // namespace gpuconform::numerics
