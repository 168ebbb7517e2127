// Strict parser of the band policy file and the per-board statistics it is applied to.
#include "gpuconform/band_policy.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

#include "gpuconform/stats.hpp"

namespace gpuconform {
namespace {

class PolicyParser {
 public:
  PolicyParser(std::string path, std::vector<Diagnostic>& diags) : path_(std::move(path)), diags_(diags) {}

  BandPolicy parse(std::string_view text) {
    BandPolicy policy;
    policy.path = path_;
    toml::table root;
    try {
      root = toml::parse(text, path_);
    } catch (const toml::parse_error& err) {
      error(err.source(), std::string(err.description()));
      return policy;
    }
    for (auto&& [key, node] : root) {
      const std::string name(key.str());
      if (name == "meta") parse_meta(node, policy);
      else if (name == "class") for_each_table(node, name, [&](const toml::table& t) { parse_class(t, policy); });
      else if (name == "exclude") for_each_table(node, name, [&](const toml::table& t) { parse_exclusion(t, policy); });
      else if (name == "observation") for_each_table(node, name, [&](const toml::table& t) { parse_observation(t, policy); });
      else error(key.source(), fmt::format("unknown top-level key '{}' (allowed: meta, class, exclude, observation)", name));
    }
    if (policy.classes.empty()) error(root.source(), "the policy has no [[class]]");
    return policy;
  }

 private:
  Location at(const toml::source_region& r) const {
    return Location{path_, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
  }
  void error(const toml::source_region& r, std::string message) { diags_.push_back(Diagnostic{at(r), std::move(message)}); }

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
    if (n.is_string()) return *n.value<std::string>();
    error(n.source(), fmt::format("'{}' must be a string", key));
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
  void require(const toml::table& t, std::initializer_list<const char*> keys, const char* what) {
    for (const char* k : keys)
      if (!t.contains(k)) error(t.source(), fmt::format("{} needs '{}'", what, k));
  }

  void parse_meta(const toml::node& node, BandPolicy& policy) {
    const auto* t = node.as_table();
    if (!t) return error(node.source(), "'meta' must be a table");
    for (auto&& [key, value] : *t) {
      const std::string name(key.str());
      if (name == "noise_factor") { if (auto v = number_of(value, name)) policy.noise_factor = *v; }
      else if (name == "min_boards") { if (auto v = number_of(value, name)) policy.min_boards = static_cast<int>(*v); }
      else if (name == "description") { string_of(value, name); }
      else error(key.source(), fmt::format("unknown key '{}' in [meta] (allowed: noise_factor, min_boards, description)", name));
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
      else if (name == "k") { if (auto v = number_of(value, name)) c.k = *v; }
      else if (name == "why") { if (auto s = string_of(value, name)) c.why = *s; }
      else error(key.source(), fmt::format("unknown key '{}' in [[class]] (allowed: name, probes, spread_rel, k, why)", name));
    }
    require(t, {"name", "probes", "spread_rel", "k", "why"}, "[[class]]");
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
      else error(key.source(), fmt::format("unknown key '{}' in [[observation]] (allowed: probe, measured, board, source)", name));
    }
    require(t, {"probe", "measured", "board", "source"}, "[[observation]]");
    policy.observations.push_back(std::move(o));
  }

  std::string path_;
  std::vector<Diagnostic>& diags_;
};

}  // namespace

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

BandPolicy parse_band_policy_text(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics) {
  return PolicyParser(path, diagnostics).parse(text);
}

BandPolicy parse_band_policy_file(const std::string& path, std::vector<Diagnostic>& diagnostics) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    diagnostics.push_back(Diagnostic{Location{path, 0, 0}, "cannot read the band policy file"});
    return BandPolicy{};
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_band_policy_text(text.str(), path, diagnostics);
}

double BoardSpread::relative() const { return centre == 0 ? 0 : half_spread / std::fabs(centre); }

BoardSpread board_spread(const std::vector<std::vector<double>>& values_per_board) {
  BoardSpread s;
  for (const auto& values : values_per_board) {
    if (values.empty()) continue;
    const double mid = median(values);
    s.medians.push_back(mid);
    for (double v : values) s.noise = std::max(s.noise, std::fabs(v - mid));
  }
  if (s.medians.empty()) return s;
  const auto [lo, hi] = std::minmax_element(s.medians.begin(), s.medians.end());
  s.centre = (*lo + *hi) / 2;
  s.half_spread = (*hi - *lo) / 2;
  return s;
}

std::map<std::string, ClassSpread> class_spreads_from_evidence(
    const BandPolicy& policy, const std::map<std::string, std::vector<std::vector<double>>>& values) {
  std::map<std::string, ClassSpread> out;
  for (const PolicyClass& c : policy.classes) out[c.name];
  for (const auto& [probe, boards] : values) {
    const PolicyClass* c = policy.class_for(probe);
    if (!c) continue;
    const BoardSpread s = board_spread(boards);
    if (static_cast<int>(s.medians.size()) < policy.min_boards) continue;
    ClassSpread& best = out[c->name];
    if (best.probe.empty() || s.relative() > best.spread_rel)
      best = ClassSpread{s.relative(), probe, static_cast<int>(s.medians.size())};
  }
  return out;
}

}  // namespace gpuconform
