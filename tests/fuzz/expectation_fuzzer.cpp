// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: the expectation-file parser on arbitrary bytes, through its public entry
// point only (so it keeps working as the schema grows). Any input must end in entries and
// diagnostics; an exception escaping, a crash, a hang or a sanitizer report is a bug, and so
// is a diagnostic that names no file or says nothing.
//
// The text is parsed as if it were GPUCONFORM_FUZZ_FIXTURE (tests/fixtures/valid.toml), so a
// "run:evidence/..." source resolves to the real fixture run records and the provenance
// check (run_record_line_problem) is fuzzed too.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpuconform/expectation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpuconform;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<Diagnostic> diags;
  const ExpectationFile f = parse_expectation_text(text, GPUCONFORM_FUZZ_FIXTURE, diags);
  for (const Diagnostic& d : diags)
    if (d.message.empty() || d.str().find(GPUCONFORM_FUZZ_FIXTURE) == std::string::npos) __builtin_trap();
  for (const Expectation& e : f.entries)
    if (e.probe_id.empty()) __builtin_trap();
  return 0;
}
