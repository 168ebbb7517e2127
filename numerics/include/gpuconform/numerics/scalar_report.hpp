// SPDX-License-Identifier: Apache-2.0
#pragma once
// The parts every numeric.scalar instruction table and its Measurement share (binary32 and
// binary64 arithmetic, float and integer conversions): looking a row up by probe id, the
// sampled-input count that GPUCONFORM_SCALAR_LONG raises, and the mismatch notes. One place,
// so that the probes' records keep one layout (tools read first_mismatch and violations).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "gpuconform/measurement.hpp"

namespace gpuconform::numerics::scalar_report {

// The row of `table` whose id is `id`, or nullptr (tables are small: a linear search).
template <class Row>
const Row* find_row(const std::vector<Row>& table, std::string_view id) {
  for (const Row& r : table)
    if (r.id == id) return &r;
  return nullptr;
}

// The sum of a scan's per-class mismatch counts.
template <class Counts>
std::uint64_t total(const Counts& by_class) {
  std::uint64_t n = 0;
  for (std::uint64_t m : by_class) n += m;
  return n;
}

// Sampled inputs per probe: 2^24 at the standard level, 2^28 with GPUCONFORM_SCALAR_LONG=1
// (the probe cannot see the run level; the device batch scripts set it for --level long).
inline std::uint64_t sampled_count() {
  const char* v = std::getenv("GPUCONFORM_SCALAR_LONG");
  return std::uint64_t{1} << (v && std::string_view(v) == "1" ? 28 : 24);
}

// A Measurement of mismatches (an invariant, max 0) with its first note, the instruction.
inline Measurement mismatch_measurement(std::uint64_t mismatches, std::uint64_t compared, const std::string& ptx) {
  Measurement m;
  m.unit = "mismatches";
  m.value = static_cast<double>(mismatches);
  m.compared = compared;
  m.note("instruction", ptx);
  return m;
}

// first_mismatch, then mismatch_1.. for the kept mismatches' texts (sorted by the caller).
inline void note_mismatches(Measurement& m, const std::vector<std::string>& texts) {
  for (std::size_t i = 0; i < texts.size(); ++i) {
    if (i == 0) m.note("first_mismatch", texts[i]);
    m.note(fmt::format("mismatch_{}", i + 1), texts[i]);
  }
}

// "<n> of <compared> <what> (<by_class>); first: <first_mismatch>", when anything differed;
// `what` is the table's wording ("operand tuples differ from the exact result").
inline void note_violations(Measurement& m, std::uint64_t mismatches, std::uint64_t compared, const char* what,
                            const std::string& by_class) {
  if (mismatches == 0) return;
  const std::string* first = m.find_note("first_mismatch");
  m.note("violations", fmt::format("{} of {} {} ({}); first: {}", mismatches, compared, what, by_class,
                                   first ? *first : std::string("(none kept)")));
}

}  // namespace gpuconform::numerics::scalar_report
