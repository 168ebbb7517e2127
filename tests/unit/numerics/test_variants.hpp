// SPDX-License-Identifier: Apache-2.0
#pragma once
// The numerics unit tests link the numerics library alone, so no kernel table has registered
// a variant: a test registers the variants it simulates here, with the layout its name gives
// and no launcher (a simulated survey or golden file never runs one: its D comes from the
// CPU models). Where the kernels' tables put each element is tested with the kernels
// (tests/unit/kernels/).
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {

inline std::vector<std::uint64_t> no_launcher(const std::vector<MmaInstance>&) {
  throw std::logic_error("a variant registered by a unit test has no GPU launcher");
}
inline bool no_code() { return false; }
inline RowCol no_position(char, int, int) { return {-1, -1}; }

// The variant `name`, registered on first use.
inline const MmaVariant& host_variant(const std::string& name) {
  if (const MmaVariant* v = find_mma_variant(name)) return *v;
  register_mma_variant(name, "(registered by a unit test: " + name + ")", "", 80, false, &no_launcher, &no_code,
                       FragmentCounts{32, 0, 0, 0}, &no_position);
  return *find_mma_variant(name);
}

}  // namespace gpuconform::numerics
