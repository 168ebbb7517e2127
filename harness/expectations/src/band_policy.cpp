// SPDX-License-Identifier: Apache-2.0
// Strict parser of the band policy file (band_policy.hpp) and the lookups `record --from`
// makes in it. The statistics the policy is applied with live in board_spread.cpp.
#include "gpuconform/band_policy.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdint>
#include <cmath>
#include <optional>

#include "gpuconform/toml_reader.hpp"

namespace gpuconform {
namespace {

const char* const kTopKeys = "meta, class, exclude, supersede, invariant, observation, board_part";

class PolicyParser : TomlReader {
 public:
  using TomlReader::TomlReader;

  BandPolicy parse(std::string_view text) {
    BandPolicy policy;
    policy.path = path();
    const std::optional<toml::table> document = parse_document(text);
    if (!document) return policy;
    const toml::table& root = *document;
    for (auto&& [key, node] : root) {
      const std::string name(key.str());
      if (name == "meta") parse_meta(node, policy);
      else if (name == "class") for_each_table(node, name, [&](const toml::table& t) { parse_class(t, policy); });
      else if (name == "exclude") for_each_table(node, name, [&](const toml::table& t) { parse_exclusion(t, policy); });
      else if (name == "supersede") for_each_table(node, name, [&](const toml::table& t) { parse_supersede(t, policy); });
      else if (name == "invariant") for_each_table(node, name, [&](const toml::table& t) { parse_invariant(t, policy); });
      else if (name == "observation") for_each_table(node, name, [&](const toml::table& t) { parse_observation(t, policy); });
      else if (name == "board_part")
        for_each_table(node, name, [&](const toml::table& t) { parse_board_part(t, policy); });
      else error(key.source(), fmt::format("unknown top-level key '{}' (allowed: {})", name, kTopKeys));
    }
    if (policy.classes.empty()) error(root.source(), "the policy has no [[class]]");
    if (policy.z_fail <= policy.z_warn)
      error(root.source(), fmt::format("[meta] z_fail ({}) must be larger than z_warn ({}): fail lies beyond warn",
                                       policy.z_fail, policy.z_warn));
    return policy;
  }

 private:

  template <class F>
  void for_each_table(const toml::node& node, const std::string& name, F&& f) {
    const auto* arr = node.as_array();
    if (!arr) return error(node.source(), fmt::format("'{}' must be an array of tables ([[{}]])", name, name));
    for (const toml::node& el : *arr) {
      if (const auto* t = el.as_table()) f(*t);
      else error(el.source(), fmt::format("'{}' must hold tables", name));
    }
  }
  std::optional<std::string> string_of(const toml::node& n, const std::string& key) {
    if (n.is_string() && !n.value<std::string>()->empty()) return *n.value<std::string>();
    error(n.source(), fmt::format("'{}' must be a non-empty string", key));
    return std::nullopt;
  }
  std::optional<double> number_of(const toml::node& n, const std::string& key) {
    if (n.is_number() && std::isfinite(*n.value<double>()) && *n.value<double>() >= 0) return *n.value<double>();
    error(n.source(), fmt::format("'{}' must be a finite number >= 0", key));
    return std::nullopt;
  }
  std::vector<std::string> strings_of(const toml::node& n, const std::string& key) {
    std::vector<std::string> out;
    const auto* arr = n.as_array();
    if (arr)
      for (const toml::node& el : *arr)
        if (el.is_string()) out.push_back(*el.value<std::string>());
    if (!arr || out.size() != arr->size() || out.empty())
      error(n.source(), fmt::format("'{}' must be a non-empty array of strings", key));
    return out;
  }
  // A TOML date (midnight UTC) or an offset date-time in UTC: the moment a fix landed.
  std::string utc_of(const toml::node& n, const std::string& key) {
    if (const auto* d = n.as_date()) {
      const toml::date v = d->get();
      return fmt::format("{:04}-{:02}-{:02}T00:00:00Z", v.year, v.month, v.day);
    }
    if (const auto* dt = n.as_date_time()) {
      const toml::date_time v = dt->get();
      if (v.offset && v.offset->minutes == 0)
        return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", v.date.year, v.date.month, v.date.day, v.time.hour,
                           v.time.minute, v.time.second);
    }
    error(n.source(), fmt::format("'{}' must be a TOML date (2026-11-26) or a UTC date-time (2026-11-25T04:25:28Z)", key));
    return "";
  }
  void require(const toml::table& t, std::initializer_list<const char*> keys, const char* what) {
    for (const char* k : keys)
      if (!t.contains(k)) error(t.source(), fmt::format("{} needs '{}'", what, k));
  }

  void parse_meta(const toml::node& node, BandPolicy& policy) {
    const auto* t = node.as_table();
    if (!t) return error(node.source(), "'meta' must be a table");
    for (auto&& [key, value] : *t) {
      const std::string name(key.str());
      if (name == "z_warn") { if (auto v = number_of(value, name)) policy.z_warn = *v; }
      else if (name == "z_fail") { if (auto v = number_of(value, name)) policy.z_fail = *v; }
      else if (name == "min_boards") {
        if (value.is_integer() && *value.value<std::int64_t>() >= 2) policy.min_boards = static_cast<int>(*value.value<std::int64_t>());
        else error(value.source(), "'min_boards' must be an integer >= 2 (a spread needs two boards)");
      }
      else if (name == "description") { string_of(value, name); }
      else error(key.source(), fmt::format("unknown key '{}' in [meta] (allowed: z_warn, z_fail, min_boards, description)", name));
    }
  }

  void parse_class(const toml::table& t, BandPolicy& policy) {
    PolicyClass c;
    c.where = at(t.source());
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (name == "name") { if (auto s = string_of(value, name)) c.name = *s; }
      else if (name == "probes") c.probes = strings_of(value, name);
      else if (name == "spread_rel") { if (auto v = number_of(value, name)) c.spread_rel = *v; }
      else if (name == "floor_rel") { if (auto v = number_of(value, name)) c.floor_rel = *v; }
      else if (name == "why") { if (auto s = string_of(value, name)) c.why = *s; }
      else error(key.source(), fmt::format("unknown key '{}' in [[class]] (allowed: name, probes, spread_rel, floor_rel, why)", name));
    }
    require(t, {"name", "probes", "spread_rel", "why"}, "[[class]]");
    for (const PolicyClass& other : policy.classes)
      if (other.name == c.name) error(t.source(), fmt::format("class '{}' is defined twice (first at {})", c.name, other.where.str()));
    policy.classes.push_back(std::move(c));
  }

  void parse_exclusion(const toml::table& t, BandPolicy& policy) {
    PolicyExclusion x;
    x.where = at(t.source());
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (name == "gpu") {
        if (auto s = string_of(value, name)) x.gpu = *s;
        if (x.gpu.rfind("GPU-", 0) != 0 || x.gpu.size() < 12)
          error(value.source(), fmt::format("gpu '{}' must be a board UUID prefix like \"GPU-20f8467d\"", x.gpu));
      } else if (name == "probes") {
        x.probes = strings_of(value, name);
      } else if (name == "reason") {
        if (auto s = string_of(value, name)) x.reason = *s;
      } else {
        error(key.source(), fmt::format("unknown key '{}' in [[exclude]] (allowed: gpu, probes, reason)", name));
      }
    }
    require(t, {"gpu", "probes", "reason"}, "[[exclude]]");
    policy.exclusions.push_back(std::move(x));
  }

  void parse_supersede(const toml::table& t, BandPolicy& policy) {
    PolicySupersede s;
    s.where = at(t.source());
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (name == "probes") s.probes = strings_of(value, name);
      else if (name == "except") s.except = strings_of(value, name);
      else if (name == "before") s.before = utc_of(value, name);
      else if (name == "fix") {
        if (auto v = string_of(value, name)) s.fix = *v;
        const bool hex = s.fix.size() >= 7 && s.fix.find_first_not_of("0123456789abcdef") == std::string::npos;
        if (!hex) error(value.source(), fmt::format("fix '{}' must be the fixing commit (7+ lowercase hex digits)", s.fix));
      }
      else if (name == "reason") { if (auto v = string_of(value, name)) s.reason = *v; }
      else error(key.source(), fmt::format("unknown key '{}' in [[supersede]] (allowed: probes, except, before, fix, reason)", name));
    }
    require(t, {"probes", "before", "fix", "reason"}, "[[supersede]]");
    policy.supersedes.push_back(std::move(s));
  }

  void parse_invariant(const toml::table& t, BandPolicy& policy) {
    PolicyInvariant v;
    v.where = at(t.source());
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (name == "probes") v.probes = strings_of(value, name);
      else if (name == "why") { if (auto s = string_of(value, name)) v.why = *s; }
      else error(key.source(), fmt::format("unknown key '{}' in [[invariant]] (allowed: probes, why)", name));
    }
    require(t, {"probes", "why"}, "[[invariant]]");
    policy.invariants.push_back(std::move(v));
  }

  void parse_observation(const toml::table& t, BandPolicy& policy) {
    PolicyObservation o;
    o.where = at(t.source());
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (name == "probe") { if (auto s = string_of(value, name)) o.probe = *s; }
      else if (name == "measured") {
        if (value.is_number() && std::isfinite(*value.value<double>())) o.measured = *value.value<double>();
        else error(value.source(), "'measured' must be a finite number");
      }
      else if (name == "board") { if (auto s = string_of(value, name)) o.board = *s; }
      else if (name == "source") { if (auto s = string_of(value, name)) o.source = *s; }
      else if (name == "sku") {
        if (auto s = string_of(value, name)) o.sku = *s;
        if (o.sku.rfind("0x", 0) != 0) error(value.source(), fmt::format("sku '{}' must be a PCI device id like \"0x2335\"", o.sku));
      }
      else error(key.source(), fmt::format("unknown key '{}' in [[observation]] (allowed: probe, measured, board, source, sku)", name));
    }
    require(t, {"probe", "measured", "board", "source"}, "[[observation]]");
    policy.observations.push_back(std::move(o));
  }

  void parse_board_part(const toml::table& t, BandPolicy& policy) {
    PolicyBoardPart b;
    b.where = at(t.source());
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (name == "sku") {
        if (auto s = string_of(value, name)) b.sku = *s;
        if (b.sku.rfind("0x", 0) != 0)
          error(value.source(), fmt::format("sku '{}' must be a PCI device id like \"0x2335\"", b.sku));
      } else if (name == "probes")
        b.probes = strings_of(value, name);
      else if (name == "why") {
        if (auto s = string_of(value, name)) b.why = *s;
      } else
        error(key.source(), fmt::format("unknown key '{}' in [[board_part]] (allowed: sku, probes, why)", name));
    }
    require(t, {"sku", "probes", "why"}, "[[board_part]]");
    policy.board_parts.push_back(std::move(b));
  }
};

}  // namespace

std::string canonical_utc(std::string_view time) {
  // YYYY-MM-DDTHH:MM:SS, then an optional fraction, then Z or +00:00.
  if (time.size() < 20) return "";
  for (std::size_t i = 0; i < 19; ++i) {
    const bool sep = i == 4 || i == 7 || i == 10 || i == 13 || i == 16;
    const char want = i == 10 ? 'T' : (i == 13 || i == 16) ? ':' : '-';
    if (sep ? time[i] != want : !std::isdigit(static_cast<unsigned char>(time[i]))) return "";
  }
  std::size_t i = 19;
  if (time[i] == '.') {
    ++i;
    while (i < time.size() && std::isdigit(static_cast<unsigned char>(time[i]))) ++i;
  }
  const std::string_view zone = time.substr(i);
  if (zone != "Z" && zone != "+00:00") return "";
  return std::string(time.substr(0, 19)) + "Z";
}

bool PolicySupersede::covers(const std::string& probe_id) const {
  return glob_match_any(probes, probe_id) && !glob_match_any(except, probe_id);
}

const PolicyClass* BandPolicy::class_for(const std::string& probe_id) const {
  for (const PolicyClass& c : classes)
    if (glob_match_any(c.probes, probe_id)) return &c;
  return nullptr;
}

const PolicyExclusion* BandPolicy::exclusion_for(const std::string& gpu, const std::string& probe_id) const {
  for (const PolicyExclusion& x : exclusions)
    if (gpu.rfind(x.gpu, 0) == 0 && glob_match_any(x.probes, probe_id)) return &x;
  return nullptr;
}

const PolicySupersede* BandPolicy::superseded_by(const std::string& probe_id, const std::string& time) const {
  const std::string when = canonical_utc(time);
  for (const PolicySupersede& s : supersedes)
    if (s.covers(probe_id) && (when.empty() || when < s.before)) return &s;
  return nullptr;
}

const PolicyInvariant* BandPolicy::invariant_for(const std::string& probe_id) const {
  for (const PolicyInvariant& v : invariants)
    if (glob_match_any(v.probes, probe_id)) return &v;
  return nullptr;
}

BandPolicy parse_band_policy_text(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics) {
  return PolicyParser(path, diagnostics).parse(text);
}

BandPolicy parse_band_policy_file(const std::string& path, std::vector<Diagnostic>& diagnostics) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) {
    diagnostics.push_back(Diagnostic{Location{path, 0, 0}, "cannot read the band policy file"});
    return BandPolicy{};
  }
  return parse_band_policy_text(*text, path, diagnostics);
}

bool BandPolicy::splits_by_board_part(const std::string& sku, const std::string& probe_id) const {
  for (const PolicyBoardPart& b : board_parts)
    if (b.sku == sku && glob_match_any(b.probes, probe_id)) return true;
  return false;
}

}  // namespace gpuconform
