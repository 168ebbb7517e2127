#pragma once
// Pairs a measurement with its expectation. Every verdict carries one line a
// person can act on: what was measured, what was expected, and where the
// expectation came from.
#include <string>

#include "gpuconform/expectation.hpp"
#include "gpuconform/measurement.hpp"

namespace gpuconform {

enum class Outcome { pass, fail, warn, skip };
const char* outcome_name(Outcome o);  // "pass", "fail", "warn", "skip"

struct Verdict {
  Outcome outcome = Outcome::skip;
  std::string reason;
};

// "4.00 ± 0.25 cycles", ">= 0.90 of peak", "0 mismatches against model X", ...
std::string describe_expected(const Expectation& e);

// Formats a measured value with its unit for people ("3.02 TB/s", "4.01 cycles").
std::string format_value(double value, const std::string& unit);

// Pure judgement of one measurement; no waivers (see apply_waiver).
Verdict judge(const Measurement& m, const Expectation& e);

// A failure covered by a waiver becomes a warning that names the waiver.
struct Waiver;
Verdict apply_waiver(Verdict v, const Waiver* waiver);

}  // namespace gpuconform
