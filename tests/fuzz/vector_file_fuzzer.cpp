// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the vector-file reader on arbitrary bytes (plain text or xz). Any input
// must end in records whose sizes fit their variant or in a VectorFileError ("file:line:
// reason"); anything else (another exception, a crash, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpuconform/numerics/vector_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuconform;
  try {
    VectorReader reader = VectorReader::from_memory("fuzz", std::string(reinterpret_cast<const char*>(data), size));
    VectorRecord r;
    while (reader.next(r)) {
      const VectorVariant& v = *reader.variant();
      if (r.a.size() != v.a_count() || r.b.size() != v.b_count() || r.c.size() != v.c_count() ||
          r.d.size() != v.c_count() || r.line == 0)
        __builtin_trap();
    }
  } catch (const VectorFileError& e) {
    const std::string what = e.what();
    if (what.rfind("fuzz", 0) != 0 || e.reason().empty()) __builtin_trap();  // always names the file
  }
  return 0;
}
