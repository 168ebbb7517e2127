#pragma once
// What a probe returns: named values with units, never printed by the probe
// itself. The harness pairs it with an expectation to reach a verdict.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuconform {

struct Measurement {
  double value = 0;             // the figure the expectation checks (a median for timed probes)
  std::string unit;             // "cycles", "B/s", "mismatches", ...
  std::vector<double> samples;  // every sample the value was summarised from
  // fraction_of_peak: the peak in `unit` derived from this device's own
  // constants and clocks, and the formula in words for the verdict text.
  std::optional<double> peak;
  std::string peak_formula;
  std::uint64_t compared = 0;   // numeric probes: output elements compared
  double sm_clock_mhz = 0;      // SM clock measured during the probe; 0 if not measured
  // Ordered facts for people: the model used, SASS opcodes, first mismatches.
  std::vector<std::pair<std::string, std::string>> notes;

  void note(std::string key, std::string text) { notes.emplace_back(std::move(key), std::move(text)); }
  const std::string* find_note(const std::string& key) const;
};

}  // namespace gpuconform
