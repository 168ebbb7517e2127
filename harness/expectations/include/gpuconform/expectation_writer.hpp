// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing expectation files. Every key and string goes through toml++'s own formatter, so
// any text (control characters, quotes, backslashes, non-ASCII, even invalid UTF-8,
// which becomes \u escapes) yields a file the strict parser reads back.
#include <string>

#include "gpuconform/expectation.hpp"

namespace gpuconform {

// TOML text of a whole expectation file, in the schema the loader accepts. Throws
// std::invalid_argument for a non-finite number (TOML has inf/nan; the schema does not).
std::string render_expectation_file(const ExpectationFile& file);

}  // namespace gpuconform
