// SPDX-License-Identifier: Apache-2.0
// The strict TOML reader the data-file parsers share (toml_reader.hpp).
#include "gpuconform/toml_reader.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "gpuconform/toml_guard.hpp"

namespace gpuconform {

std::optional<toml::table> TomlReader::parse_document(std::string_view text) {
  if (const auto bad = toml_unsafe_character(text)) {  // toml_guard.hpp says why
    diags_.push_back(Diagnostic{Location{path_, bad->line, bad->column}, kTomlUnsafeCharacterMessage});
    return std::nullopt;
  }
  try {
    return toml::parse(text, path_);
  } catch (const toml::parse_error& err) {
    error(err.source(), std::string(err.description()));
    return std::nullopt;
  }
}

Location TomlReader::at(const toml::source_region& r) const {
  return Location{path_, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
}

void TomlReader::error(const toml::source_region& r, std::string message) {
  diags_.push_back(Diagnostic{at(r), std::move(message)});
}

void TomlReader::unknown(const toml::source_region& r, const std::string& name, const char* what,
                         const std::vector<std::string>& allowed) {
  const std::string hint = closest_match(name, allowed);
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  error(r, fmt::format("unknown {} '{}'{} (allowed: {})", what, name,
                       hint.empty() ? "" : fmt::format(" (did you mean '{}'?)", hint), list));
}

std::string TomlReader::type_name(const toml::node& node) {
  std::ostringstream os;
  os << node.type();
  return os.str();
}

std::optional<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace gpuconform
