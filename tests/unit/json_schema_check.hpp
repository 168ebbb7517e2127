// SPDX-License-Identifier: Apache-2.0
#pragma once
// A JSON Schema (draft 2020-12) validator for the subset of keywords gpuconform's schemas
// use (harness/schema/*.json), for the unit tests. A schema using any other keyword is
// rejected when loaded, so a keyword is never silently ignored: extend the validator (and
// its tests) before using a new one.
#include <nlohmann/json.hpp>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace gpuconform::test {

class SchemaCheck {
 public:
  // Throws std::runtime_error for an unsupported keyword or a $ref that does not resolve.
  explicit SchemaCheck(nlohmann::json schema);
  static SchemaCheck from_file(const std::string& path);

  // Every violation as "<JSON pointer>: <what>", empty when `instance` is valid.
  std::vector<std::string> errors(const nlohmann::json& instance) const;

 private:
  void check_schema(const nlohmann::json& schema, const std::string& where) const;
  const nlohmann::json& resolve(const std::string& ref) const;
  void validate(const nlohmann::json& schema, const nlohmann::json& value, const std::string& at,
                std::vector<std::string>& out) const;
  const std::regex& pattern(const std::string& source) const;
  nlohmann::json root_;
  mutable std::map<std::string, std::regex> patterns_;  // compiled once: evidence has 12k lines
};

}  // namespace gpuconform::test
