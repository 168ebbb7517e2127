// SPDX-License-Identifier: Apache-2.0
#include "numeric/mma_probes.hpp"

#include <stdexcept>
#include <string>

namespace gpuconform::kernels {

bool register_mma_probe(std::string_view variant, Requirements needs, ProbeFn fn, bool block_fma) {
  const numerics::MmaVariant* v = numerics::find_mma_variant(variant);
  if (!v) throw std::logic_error("numeric probe for an unregistered MMA variant: " + std::string(variant));
  return register_probes({Probe{numerics::numeric_probe_id(variant),
                                Family::numeric,
                                v->ptx + (block_fma ? ": every output bit equals the block-FMA model"
                                                    : ": every output bit equals the model vectors check uses"),
                                std::move(needs),
                                {ExpectationKind::exact},
                                fn}});
}

}  // namespace gpuconform::kernels
