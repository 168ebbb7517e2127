// SPDX-License-Identifier: Apache-2.0
// Console colour (console_colour.hpp): ANSI SGR codes, which every terminal emulator
// in use reads; nothing is written when colour is off.
#include "gpuconform/console_colour.hpp"

#include <cstring>

namespace gpuconform {
namespace {

constexpr const char* kRed = "\x1b[31m";
constexpr const char* kAmber = "\x1b[33m";
constexpr const char* kGreen = "\x1b[32m";
constexpr const char* kReset = "\x1b[0m";

const char* colour_of(const std::string& word) {
  if (word == "fail" || word == "WORSE" || word == "failed") return kRed;
  if (word == "warn" || word == "warned") return kAmber;
  if (word == "BETTER") return kGreen;
  return nullptr;
}

}  // namespace

std::optional<ColourMode> parse_colour_mode(const std::string& t) {
  if (t == "auto") return ColourMode::automatic;
  if (t == "always" || t == "yes") return ColourMode::always;
  if (t == "never" || t == "no") return ColourMode::never;
  return std::nullopt;
}

bool colour_wanted(ColourMode mode, bool is_terminal, const char* no_color, const char* term) {
  if (mode == ColourMode::always) return true;
  if (mode == ColourMode::never) return false;
  if (no_color && *no_color) return false;
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return is_terminal;
}

std::string paint_word(const std::string& word, bool on) {
  const char* c = on ? colour_of(word) : nullptr;
  return c ? std::string(c) + word + kReset : word;
}

std::string paint_first_verdict(const std::string& line, bool on) {
  if (!on) return line;
  std::size_t best = std::string::npos, len = 0;
  for (const char* w : {"fail", "warn", "WORSE", "BETTER"}) {
    const std::string needle = std::string(" ") + w;
    for (std::size_t at = line.find(needle); at != std::string::npos; at = line.find(needle, at + 1)) {
      const std::size_t end = at + needle.size();
      const bool whole = end == line.size() || line[end] == ' ' || line[end] == ',' || line[end] == ':';
      if (!whole) continue;
      if (at < best) best = at, len = needle.size() - 1;
      break;
    }
  }
  if (best == std::string::npos) return line;
  return line.substr(0, best + 1) + paint_word(line.substr(best + 1, len), true) + line.substr(best + 1 + len);
}

}  // namespace gpuconform
