// SPDX-License-Identifier: Apache-2.0
#pragma once
// Colour on the console (`run --color`, `compare --color`): fail and WORSE red, warn
// amber, BETTER green, and nothing else, so a terminal reader finds the lines that matter
// and a log or a pipe gets plain text. `auto` (the default) colours only a terminal, and
// not when NO_COLOR is set to a non-empty value (no-color.org) or TERM is "dumb";
// `always` and `never` override both.
#include <optional>
#include <string>

namespace gpuconform {

enum class ColourMode { automatic, always, never };

// "auto", "always", "never" (also "yes"/"no"); nullopt for anything else.
std::optional<ColourMode> parse_colour_mode(const std::string& text);

// Whether to colour: `is_terminal` for the stream, `no_color` and `term` as the
// environment has them (nullptr when unset).
bool colour_wanted(ColourMode mode, bool is_terminal, const char* no_color, const char* term);

// `word` in its colour (fail, WORSE: red; warn: amber; BETTER: green) when `on`, else as is.
std::string paint_word(const std::string& word, bool on);

// `line` with its first verdict word (" fail ", " warn ", " WORSE", " BETTER") painted.
std::string paint_first_verdict(const std::string& line, bool on);

}  // namespace gpuconform
