// SPDX-License-Identifier: Apache-2.0
#pragma once
// Golden vectors from hardware: for every MMA variant this GPU runs, prove the fragment
// layout on integer-valued instances, draw instances of every input class plus the
// literature's discriminating vectors, run them on the GPU and write one xz vector file
// per variant (docs/vector-files.md), then a README.md naming the GPU, driver and nvcc.
// A variant whose self-test fails is never written.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpuconform/device_info.hpp"

namespace gpuconform::numerics {

std::string nvcc_version();  // "13.0.88": the nvcc that compiled the kernels

struct GenerateOptions {
  std::string out_dir;
  std::string variant_glob = "*";    // fnmatch pattern over variant names
  int count = 2000;                  // random instances per variant, split evenly over classes
  std::uint64_t seed = 0x676f6c64656e3031ull;  // "golden01"
  // Distinct rows of A and C per instance (the rest repeat them, so xz stores them once):
  // keeps the files of the 64-row wgmma shapes near those of mma.sync. 0: every row drawn.
  int distinct_rows = 4;
  // Non-empty: no GPU; D comes from the model of this architecture and the header says so.
  // For testing the pipeline only: such files are not golden data.
  std::string simulate_arch;
};

enum class GenerateStatus { kWritten, kSkipped, kFailed };

struct GeneratedFile {
  std::string variant;
  GenerateStatus status = GenerateStatus::kSkipped;
  std::string path;     // kWritten
  std::string reason;   // kSkipped / kFailed: why; kWritten: classes and counts
  std::uint64_t instances = 0, bytes = 0;
};

// (Re)writes DIR/README.md from the headers of the vector files in DIR: GPU, driver, nvcc,
// suite, and one row per file. generate_golden() calls it; so can a script that ran
// several generators in parallel, once they are all done.
void write_golden_readme(const std::string& dir);

// Generates every matching variant; `progress` sees each result as it is done. `device` is
// ignored when simulating. Throws std::runtime_error when the directory cannot be written.
std::vector<GeneratedFile> generate_golden(const DeviceInfo& device, const GenerateOptions& options,
                                           const std::function<void(const GeneratedFile&)>& progress);

}  // namespace gpuconform::numerics
