// SPDX-License-Identifier: Apache-2.0
#pragma once
// numeric.math.<fn>.worst: the measured maximum of a math probe and the input attaining it,
// judged as an exact entry. Issue 22 asks for both per function: the documented bound as the
// fail limit (the primary probe numeric.math.<fn>, kind max, cited) and the measured maximum
// with its input as an exact value that changes only when the library changes. An entry
// holds one kind, so the measured pair is a companion probe, as the suite's other secondary
// values are (latency.tma.load.extra_over_ldg), judged the way numeric.feature.* judge one
// fitted parameter (kind exact, model = "param:NAME=VALUE"):
//
//   [probe."numeric.math.expf.worst"]
//   kind = "exact"
//   model = "param:max_at=2@x=0x42b0c0a6"
//   unit = "mismatches"
//
// value 0 when this run's maximum and input equal the entry's, 1 otherwise (the reason names
// both); with no entry (recording) 0, and the `model` note is what `gpuconform record` writes.
// The scan runs once: the primary probe leaves its measurement here for the companion, which
// the runner starts next (ids sort adjacent, registry order); a companion run alone scans
// itself.
#include <optional>
#include <string>
#include <string_view>

#include "gpuconform/expectation_types.hpp"
#include "gpuconform/measurement.hpp"

namespace gpuconform::numerics {

// "numeric.math.expf" -> "numeric.math.expf.worst".
std::string worst_id(std::string_view primary_id);

// "param:max_at=VALUE@INPUT": VALUE the maximum to 9 significant digits (the value is a
// binary32 key, so 9 digits are exact), INPUT "x=0x3f8ccccd" or "x=0x...,y=0x...".
std::string worst_model(double value, const std::string& input);

// The companion's measurement from the primary's (its `model` note). Throws when the primary
// has none, or when the entry's model is not of the "param:max_at=" form.
Measurement worst_measurement(const Measurement& primary, const Expectation* entry);

// The primary's measurement kept for its companion, per device; take_for_worst removes it,
// so each pass of --level long pairs with its own scan.
void stash_for_worst(const std::string& primary_id, int device, const Measurement& m);
std::optional<Measurement> take_for_worst(const std::string& primary_id, int device);

}  // namespace gpuconform::numerics
