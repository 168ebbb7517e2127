#pragma once
// `gpuconform record`: turns repeated measurements of a probe into an
// expectation entry whose tolerance comes from the measured spread and whose
// provenance points at the run record the numbers came from.
#include <string>
#include <vector>

#include "gpuconform/expectation.hpp"
#include "gpuconform/measurement.hpp"
#include "gpuconform/probe.hpp"

namespace gpuconform {

// One expectation from `runs` (at least one) of `probe`, citing `source`.
// Throws std::runtime_error when the runs cannot make an expectation (an
// exact probe that mismatched its model, a throughput probe with no peak).
Expectation derive_expectation(const Probe& probe, const std::vector<Measurement>& runs,
                               const std::string& source);

// TOML text of a whole expectation file, in the schema the loader accepts.
std::string render_expectation_file(const ExpectationFile& file);

}  // namespace gpuconform
