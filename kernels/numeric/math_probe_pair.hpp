// SPDX-License-Identifier: Apache-2.0
#pragma once
// The two probes of one numeric.math row (scalar_mathlib.cu, scalar_math2.cu): the primary,
// judged against the Programming Guide's bound (max) or recorded where the Guide gives no number
// (info), and its exact companion <id>.worst holding the measured maximum and where it is attained.
#include <string>

#include "gpuconform/numerics/scalar_math_worst.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform::kernels {

// `what` describes the primary; `attained_at` names what the companion's maximum is attained at
// ("input" for one argument, "pair" for two).
inline bool register_math_pair(const std::string& id, const std::string& label, bool judged, const std::string& what,
                               const char* attained_at, ProbeFn fn, ProbeFn worst) {
  return register_probes({Probe{id, Family::numeric, what, Requirements{},
                                RecordHint{judged ? ExpectationKind::max : ExpectationKind::info}, fn},
                          Probe{numerics::worst_id(id), Family::numeric,
                                label + ": the measured maximum and the " + attained_at + " attaining it (" + id +
                                    "'s scan), an exact value that changes only with the library",
                                Requirements{}, RecordHint{ExpectationKind::exact}, worst}});
}

}  // namespace gpuconform::kernels
