// SPDX-License-Identifier: Apache-2.0
#include "json_schema_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <stdexcept>

namespace gpuconform::test {
namespace {

using nlohmann::json;

const std::set<std::string> kSupported = {
    "$schema", "$ref", "$defs", "title", "description", "type", "enum", "const", "properties", "required",
    "additionalProperties", "items", "minimum", "maximum", "minLength", "pattern", "allOf", "anyOf", "oneOf",
    "not", "if", "then", "else"};

// A sub-schema is an object or a boolean (true: anything, false: nothing).
void each_subschema(const json& s, const std::function<void(const json&, const std::string&)>& f) {
  for (const char* key : {"items", "additionalProperties", "not", "if", "then", "else"})
    if (s.contains(key) && !s.at(key).is_array()) f(s.at(key), key);
  for (const char* key : {"properties", "$defs"})
    if (s.contains(key))
      for (const auto& [name, sub] : s.at(key).items()) f(sub, std::string(key) + "/" + name);
  for (const char* key : {"allOf", "anyOf", "oneOf"})
    if (s.contains(key))
      for (std::size_t i = 0; i < s.at(key).size(); ++i) f(s.at(key)[i], fmt::format("{}/{}", key, i));
}

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  if (type == "number") return v.is_number();
  if (type == "integer")
    return v.is_number_integer() || v.is_number_unsigned() ||
           (v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>()));
  throw std::runtime_error("unknown JSON Schema type '" + type + "'");
}

// JSON Pointer escaping of one reference token (RFC 6901).
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

}  // namespace

SchemaCheck::SchemaCheck(json schema) : root_(std::move(schema)) { check_schema(root_, "#"); }

SchemaCheck SchemaCheck::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return SchemaCheck(json::parse(in));
}

void SchemaCheck::check_schema(const json& s, const std::string& where) const {
  if (s.is_boolean()) return;
  if (!s.is_object()) throw std::runtime_error(where + ": a schema must be an object or a boolean");
  for (const auto& [key, value] : s.items())
    if (!kSupported.count(key))
      throw std::runtime_error(fmt::format("{}: keyword '{}' is not supported by this validator", where, key));
  if (s.contains("$ref")) resolve(s.at("$ref").get<std::string>());
  each_subschema(s, [&](const json& sub, const std::string& key) { check_schema(sub, where + "/" + key); });
}

const json& SchemaCheck::resolve(const std::string& ref) const {
  if (ref.rfind("#/", 0) != 0) throw std::runtime_error("only local $ref (#/...) is supported: " + ref);
  const json::json_pointer ptr(ref.substr(1));
  if (!root_.contains(ptr)) throw std::runtime_error("$ref does not resolve: " + ref);
  return root_.at(ptr);
}

const std::regex& SchemaCheck::pattern(const std::string& source) const {
  auto it = patterns_.find(source);
  if (it == patterns_.end()) it = patterns_.emplace(source, std::regex(source)).first;
  return it->second;
}

std::vector<std::string> SchemaCheck::errors(const json& instance) const {
  std::vector<std::string> out;
  validate(root_, instance, "", out);
  return out;
}

void SchemaCheck::validate(const json& s, const json& v, const std::string& at, std::vector<std::string>& out) const {
  auto fail = [&](const std::string& what) { out.push_back((at.empty() ? "/" : at) + ": " + what); };
  auto valid = [&](const json& sub) {
    std::vector<std::string> ignored;
    validate(sub, v, at, ignored);
    return ignored.empty();
  };
  if (s.is_boolean()) {
    if (!s.get<bool>()) fail("no value is allowed here");
    return;
  }
  if (s.contains("$ref")) validate(resolve(s.at("$ref").get<std::string>()), v, at, out);
  if (s.contains("type")) {
    const json& t = s.at("type");
    bool ok = false;
    for (const json& one : t.is_array() ? t : json::array({t})) ok = ok || has_type(v, one.get<std::string>());
    if (!ok) return fail(fmt::format("is {}, not of type {}", v.type_name(), t.dump()));
  }
  if (s.contains("const") && v != s.at("const")) fail("must be " + s.at("const").dump());
  if (s.contains("enum")) {
    bool found = false;
    for (const json& e : s.at("enum")) found = found || e == v;
    if (!found) fail(fmt::format("{} is not one of {}", v.dump(), s.at("enum").dump()));
  }
  if (v.is_number()) {
    if (s.contains("minimum") && v.get<double>() < s.at("minimum").get<double>())
      fail(fmt::format("{} is below the minimum {}", v.dump(), s.at("minimum").dump()));
    if (s.contains("maximum") && v.get<double>() > s.at("maximum").get<double>())
      fail(fmt::format("{} is above the maximum {}", v.dump(), s.at("maximum").dump()));
  }
  if (v.is_string()) {
    const std::string text = v.get<std::string>();
    // minLength counts characters (code points), not bytes.
    std::size_t chars = 0;
    for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
    if (s.contains("minLength") && chars < s.at("minLength").get<std::size_t>())
      fail(fmt::format("is shorter than {} characters", s.at("minLength").get<std::size_t>()));
    if (s.contains("pattern") && !std::regex_search(text, pattern(s.at("pattern").get<std::string>())))
      fail(fmt::format("{} does not match {}", v.dump(), s.at("pattern").dump()));
  }
  if (v.is_object()) {
    if (s.contains("required"))
      for (const json& key : s.at("required"))
        if (!v.contains(key.get<std::string>())) fail("lacks required property " + key.dump());
    const json props = s.value("properties", json::object());
    for (const auto& [key, value] : v.items()) {
      const std::string child = at + "/" + pointer_token(key);
      if (props.contains(key)) validate(props.at(key), value, child, out);
      else if (s.contains("additionalProperties")) {
        const json& extra = s.at("additionalProperties");
        if (extra.is_boolean() && !extra.get<bool>()) out.push_back(child + ": property is not allowed here");
        else validate(extra, value, child, out);
      }
    }
  }
  if (v.is_array() && s.contains("items"))
    for (std::size_t i = 0; i < v.size(); ++i) validate(s.at("items"), v[i], fmt::format("{}/{}", at, i), out);
  if (s.contains("allOf"))
    for (const json& sub : s.at("allOf")) validate(sub, v, at, out);
  if (s.contains("anyOf")) {
    bool any = false;
    for (const json& sub : s.at("anyOf")) any = any || valid(sub);
    if (!any) fail("matches none of anyOf");
  }
  if (s.contains("oneOf")) {
    int n = 0;
    for (const json& sub : s.at("oneOf")) n += valid(sub);
    if (n != 1) fail(fmt::format("matches {} of oneOf, not exactly one", n));
  }
  if (s.contains("not") && valid(s.at("not"))) fail("matches a schema it must not");
  if (s.contains("if")) {
    if (valid(s.at("if"))) {
      if (s.contains("then")) validate(s.at("then"), v, at, out);
    } else if (s.contains("else")) {
      validate(s.at("else"), v, at, out);
    }
  }
}

}  // namespace gpuconform::test
