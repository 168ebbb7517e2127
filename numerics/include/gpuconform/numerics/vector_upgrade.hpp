// SPDX-License-Identifier: Apache-2.0
#pragma once
// `gpuconform vectors upgrade`: rewrites a version-1 vector file in format version 2
// (vector_file.hpp). For a sparse variant the metadata field is filled by the rule
// gpuconform's launcher has always given the hardware (sparse_metadata.hpp: the non-zero
// elements, then the lowest-index zeros), which is what that hardware ran only if gpuconform
// wrote the file: one whose `# suite:` header does not name gpuconform is refused. Dense
// files gain only the version line. Headers and instances are kept, in order; a
// `# metadata:` line says where E came from.
#include <string>

namespace gpuconform::numerics {

struct UpgradeResult {
  std::size_t instances = 0;
  bool sparse = false;
  bool already = false;  // the file was version 2: nothing written
};

// Reads `in` (plain or xz) and writes `out` (xz when it ends in ".xz"; `out` may equal `in`:
// the new file is written beside it and renamed over it). Throws VectorFileError for a
// malformed input and std::runtime_error when the file is not gpuconform's or cannot be
// written.
UpgradeResult upgrade_vector_file(const std::string& in, const std::string& out);

}  // namespace gpuconform::numerics
