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

// The same from the runs of several GPUs of one SKU (one vector of runs per GPU), so that
// the expectation holds for the SKU and not only for the board it was recorded on. A band
// is centred between the lowest and the highest per-GPU median, with half-width
// max(floor, 3 x the largest deviation of a run from its own GPU's median + 1.5 x half the
// spread of the medians); with one GPU that is the single-GPU rule. Other kinds pool all
// runs. `others` (further run record lines) go into the note.
Expectation derive_expectation_across(const Probe& probe, const std::vector<std::vector<Measurement>>& machines,
                                      const std::string& source, const std::vector<std::string>& others = {});

// TOML text of a whole expectation file, in the schema the loader accepts.
std::string render_expectation_file(const ExpectationFile& file);

}  // namespace gpuconform
