// SPDX-License-Identifier: Apache-2.0
// Version-1 vector files to version 2 (vector_upgrade.hpp).
#include "gpuconform/numerics/vector_upgrade.hpp"

#include <filesystem>
#include <optional>
#include <stdexcept>

#include "gpuconform/numerics/sparse_metadata.hpp"
#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {

UpgradeResult upgrade_vector_file(const std::string& in, const std::string& out) {
  UpgradeResult result;
  VectorReader reader = VectorReader::open(in);
  reader.assume_launcher_metadata();  // checked below: only for files gpuconform wrote
  const bool xz = out.size() > 3 && out.compare(out.size() - 3, 3, ".xz") == 0;
  const std::string partial = out + (xz ? ".upgrade.partial.xz" : ".upgrade.partial");
  std::optional<VectorWriter> writer;
  std::size_t headers_written = 0;
  VectorRecord r;
  auto copy_headers = [&] {  // those read so far (they may follow instances): version and E's provenance first
    const auto& h = reader.header();
    for (; headers_written < h.size(); ++headers_written)
      if (h[headers_written].first == "format")
        writer->comment("format", result.sparse ? kSparseFormatLine : kFormatLine);
      else if (h[headers_written].first != "version")
        writer->comment(h[headers_written].first, h[headers_written].second);
  };
  try {
    while (reader.next(r)) {
      if (!writer) {
        if (reader.version() >= 2) {
          result.already = true;
          return result;
        }
        const VectorVariant& v = *reader.variant();
        result.sparse = v.sparse();
        if (result.sparse && reader.header_value("suite").rfind("gpuconform", 0) != 0)
          throw std::runtime_error(
              in +
              ": a version-1 sparse file not written by gpuconform (no '# suite: gpuconform ...' header): the "
              "metadata its hardware was given is unknown, so it cannot be upgraded; regenerate it");
        writer.emplace(partial, v);
        copy_headers();
        if (result.sparse)
          writer->comment("metadata",
                          "E added by `gpuconform vectors upgrade` from a version-1 file: the rule "
                          "gpuconform's launcher gave the hardware (the non-zero elements of each chunk, "
                          "then the lowest-index zeros)");
      }
      copy_headers();
      writer->write(r.klass, r.a, r.b, r.c, r.d, r.e);
      ++result.instances;
    }
    if (!writer) throw std::runtime_error(in + ": no instances");
    copy_headers();
    writer->finish();
  } catch (...) {
    writer.reset();
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw;
  }
  std::filesystem::rename(partial, out);
  return result;
}

}  // namespace gpuconform::numerics
