// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one strict TOML reader under every data file of the suite: expectations
// (expectation_parse.cpp), the band policy (band_policy.cpp), the peak tables (peaks.cpp)
// and the throttle policy (throttle_policy.cpp). Each of those parsers derives from
// TomlReader, which gives it
//   - the guard in front of toml++ 3.3.0's undefined behaviour on non-ASCII input
//     (toml_guard.hpp), with the one message every reader gives;
//   - toml++'s parse error as a diagnostic at its file:line:col;
//   - `error` at a node's position and `unknown` for a key the schema does not have, with
//     the allowed keys and the closest one ("did you mean").
// Includes toml++: only the parsers' .cpp files include this header, and each folder that
// has one links gpuconform_tomlpp.
#include <optional>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

#include "gpuconform/expectation_types.hpp"  // Location, Diagnostic

namespace gpuconform {

class TomlReader {
 public:
  TomlReader(std::string path, std::vector<Diagnostic>& diagnostics) : path_(std::move(path)), diags_(diagnostics) {}

  // The document, or nullopt after one diagnostic: a character toml++ would misread
  // (refused before toml++ sees the text), or toml++'s own parse error.
  std::optional<toml::table> parse_document(std::string_view text);

  const std::string& path() const { return path_; }
  // Diagnostics so far (of this file and any the caller gave before): a parser compares
  // two counts to tell whether one entry parsed cleanly.
  std::size_t diagnostic_count() const { return diags_.size(); }
  Location at(const toml::source_region& r) const;
  Location at(const toml::node& n) const { return at(n.source()); }
  void error(const toml::source_region& r, std::string message);
  void error(const toml::node& n, std::string message) { error(n.source(), std::move(message)); }
  // "unknown <what> '<name>' (did you mean '<closest>'?) (allowed: a, b, c)".
  void unknown(const toml::source_region& r, const std::string& name, const char* what,
               const std::vector<std::string>& allowed);
  // "string", "integer", "table", ... as toml++ names a node's type.
  static std::string type_name(const toml::node& node);

 private:
  std::string path_;
  std::vector<Diagnostic>& diags_;
};

// The whole file, or nullopt when it cannot be read.
std::optional<std::string> read_text_file(const std::string& path);

}  // namespace gpuconform
