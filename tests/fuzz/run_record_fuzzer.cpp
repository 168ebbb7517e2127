// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the run-record reader (parse_run_record_text, what read_run_record
// calls) on arbitrary bytes. Any input must end in records or a std::runtime_error that
// names the file and line; another exception, a crash or a sanitizer report (e.g. a float
// out of an int's range) is a bug.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gpuconform/run_record_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuconform;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    std::string cut;  // a cut last line is dropped with this warning, not printed
    for (const RecordedRun& r : parse_run_record_text(text, "fuzz.jsonl", &cut))
      if (r.line <= 0 || r.file != "fuzz.jsonl") __builtin_trap();
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).rfind("fuzz.jsonl:", 0) != 0) __builtin_trap();  // names file:line
  }
  return 0;
}
