// SPDX-License-Identifier: Apache-2.0
#pragma once
// `gpuconform probe numerics` as a library function: investigate the tensor-core arithmetic
// of a live GPU (or of an architecture's models, simulated). Every MMA path the GPU runs gets
// the discriminating instances (layout self-test, random input classes, the literature
// probes: path_survey.hpp), the block-FMA model is fitted to what the hardware returned
// (vector_infer.hpp), and with an output file the fits become numeric.feature.* entries whose
// source is the vector file kept beside it (numerics_writer.hpp). The fits run in parallel,
// one path per worker: the GPU part takes seconds, the fits most of the time. The command
// (tools/gpuconform/cmd_probe.cpp) parses, calls probe_numerics() and prints the report.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpuconform/numerics/numerics_writer.hpp"
#include "gpuconform/numerics/path_survey.hpp"

namespace gpuconform::numerics {

constexpr std::uint64_t kNumericsSurveySeed = 0x6e756d6572696373ull;  // "numerics"

struct NumericsProbeOptions {
  int device = 0;
  std::string out;             // expectation file to write; "" writes none
  std::string variant_glob = "*";
  int per_class = kSurveyInstancesPerClass;
  int jobs = 0;                // fits in parallel; 0: one per core
  std::string simulate_arch;   // no GPU: D from this architecture's models (tests the pipeline)
};

// Where a run stopped short: nothing (kNone), before a GPU was open (no GPU, bad ordinal),
// before the survey (the vector folder), in the survey (a CUDA error, or no path to run),
// or writing the expectation file after the fits.
enum class NumericsProbeStop { kNone, kNoDevice, kSetup, kSurvey, kWrite };

struct NumericsProbeReport {
  SurveyFacts facts;                  // arch, device, driver, nvcc, date (kNoDevice: empty)
  std::vector<std::string> skipped;   // "VARIANT: why", one per path not surveyed (as reported)
  std::vector<PathFit> fits;          // one per surveyed path, in variant order
  // With an output file: the entries written, the parameters left out (and why), the folder
  // holding the vector files.
  std::size_t entries_written = 0;
  std::vector<std::string> left_out;
  std::string vectors_dir;
  double gpu_seconds = 0, total_seconds = 0;
  unsigned jobs = 0;                  // fit workers
  NumericsProbeStop stop = NumericsProbeStop::kNone;
  std::string error;                  // why it stopped (stop != kNone)
  bool unmatched = false;             // a fit misses an output, or a path failed its self-test
  bool io_error = false;              // a vector file could not be written (the run is unusable)
};

// What a caller sees while the run goes on (either may be empty): the facts once the GPU is
// open (before the survey), and each path the survey skips, with why.
struct NumericsProbeProgress {
  std::function<void(const SurveyFacts&)> opened;
  std::function<void(const std::string& variant, const std::string& why)> skipped;
};

// "dir/sm_90-numerics.toml" -> "sm_90-numerics-vectors": the vector files' folder, beside it.
std::string numerics_vectors_folder(const std::string& out);

// Runs the whole survey. `known_probe` says which numeric.feature.* ids the build registers
// (only those become entries). Never throws for what a run can meet: the report says where
// it stopped (a CUDA error opening the device propagates).
NumericsProbeReport probe_numerics(const NumericsProbeOptions& options, const ProbeIdCheck& known_probe,
                                   const NumericsProbeProgress& progress = {});

}  // namespace gpuconform::numerics
