// SPDX-License-Identifier: Apache-2.0
// Strict parser and per-process cache of the per-architecture peak tables.
#include "gpuconform/peaks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "gpuconform/toml_reader.hpp"

namespace gpuconform {
namespace {

const std::vector<std::string> kTopKeys = {"meta", "peak"};
const std::vector<std::string> kMetaKeys = {"arch", "description"};
const std::vector<std::string> kEntryKeys = {"per_sm_per_clock", "unit", "source", "note"};

class PeakParser : TomlReader {
 public:
  using TomlReader::TomlReader;

  PeakTable parse(std::string_view text) {
    PeakTable table;
    table.path = path();
    const std::optional<toml::table> document = parse_document(text);
    if (!document) return table;
    const toml::table& root = *document;
    for (auto&& [key, node] : root) {
      const std::string name(key.str());
      if (name == "meta") {
        parse_meta(node, table);
      } else if (name == "peak") {
        parse_entries(node, table);
      } else {
        unknown(key.source(), name, "top-level key", kTopKeys);
      }
    }
    if (table.arch.empty()) error(root.source(), "missing [meta] with `arch = \"sm_XX\"`");
    return table;
  }

 private:
  std::optional<std::string> string_of(const toml::node& node, const std::string& key) {
    if (node.is_string()) return *node.value<std::string>();
    error(node.source(), fmt::format("'{}' must be a string, not a {}", key, type_name(node)));
    return std::nullopt;
  }

  void parse_meta(const toml::node& node, PeakTable& table) {
    const auto* t = node.as_table();
    if (!t) return error(node.source(), "'meta' must be a table");
    for (auto&& [key, value] : *t) {
      const std::string name(key.str());
      if (name == "arch") {
        if (auto s = string_of(value, name)) {
          if (s->rfind("sm_", 0) != 0 || s->size() < 5)
            error(value.source(), fmt::format("arch '{}' must look like \"sm_90\"", *s));
          table.arch = *s;
        }
      } else if (name == "description") {
        string_of(value, name);
      } else {
        unknown(key.source(), name, "key in [meta]", kMetaKeys);
      }
    }
  }

  void parse_entries(const toml::node& node, PeakTable& table) {
    const auto* t = node.as_table();
    if (!t) return error(node.source(), "'peak' must be a table of entries");
    for (auto&& [key, value] : *t) {
      const std::string id(key.str());
      const auto* entry = value.as_table();
      if (!entry) {
        error(value.source(), fmt::format("'peak.{}' must be a table, not a {}", id, type_name(value)));
        continue;
      }
      const std::size_t errors_before = diagnostic_count();
      PeakEntry e;
      e.id = id;
      e.where = at(key.source());
      bool has_rate = false;
      for (auto&& [k, v] : *entry) {
        const std::string name(k.str());
        if (name == "per_sm_per_clock") {
          if (!v.is_number()) {
            error(v.source(), fmt::format("'per_sm_per_clock' must be a number, not a {}", type_name(v)));
            continue;
          }
          e.per_sm_per_clock = *v.value<double>();
          has_rate = true;
          if (!std::isfinite(e.per_sm_per_clock) || e.per_sm_per_clock <= 0)
            error(v.source(), "'per_sm_per_clock' must be a finite number > 0");
        } else if (name == "unit") {
          if (auto s = string_of(v, name)) {
            e.unit = *s;
            const auto& units = peak_units();
            if (std::find(units.begin(), units.end(), *s) == units.end())
              error(v.source(), fmt::format("unknown unit '{}' (allowed: FLOP/clk/SM, op/clk/SM, B/clk/SM)", *s));
          }
        } else if (name == "source") {
          if (auto s = string_of(v, name)) {
            e.source = *s;
            // A peak is a specification, never a measurement of this suite.
            if (s->rfind("cite:", 0) != 0 || s->size() <= 5)
              error(v.source(), fmt::format("source '{}' must be a citation \"cite:<document, table>\"", *s));
          }
        } else if (name == "note") {
          if (auto s = string_of(v, name)) e.note = *s;
        } else {
          unknown(k.source(), name, "key in peak entry", kEntryKeys);
        }
      }
      if (!has_rate) error(key.source(), fmt::format("peak '{}' needs 'per_sm_per_clock'", id));
      if (e.unit.empty()) error(key.source(), fmt::format("peak '{}' needs 'unit'", id));
      if (e.source.empty()) error(key.source(), fmt::format("peak '{}' needs 'source' (\"cite:...\")", id));
      if (diagnostic_count() == errors_before) table.entries.emplace(id, std::move(e));
    }
  }
};

}  // namespace

const PeakEntry* PeakTable::find(const std::string& id) const {
  const auto it = entries.find(id);
  return it == entries.end() ? nullptr : &it->second;
}

const std::vector<std::string>& peak_units() {
  static const std::vector<std::string> units = {"FLOP/clk/SM", "op/clk/SM", "B/clk/SM"};
  return units;
}

std::string rate_unit(const std::string& per_clock_unit) {
  const std::string suffix = "/clk/SM";
  if (per_clock_unit.size() > suffix.size() &&
      per_clock_unit.compare(per_clock_unit.size() - suffix.size(), suffix.size(), suffix) == 0)
    return per_clock_unit.substr(0, per_clock_unit.size() - suffix.size()) + "/s";
  return per_clock_unit;
}

PeakTable parse_peak_text(std::string_view text, const std::string& path, std::vector<Diagnostic>& diagnostics) {
  return PeakParser(path, diagnostics).parse(text);
}

PeakTable parse_peak_file(const std::string& path, std::vector<Diagnostic>& diagnostics) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) {
    diagnostics.push_back({Location{path, 0, 0}, "cannot read the file"});
    PeakTable t;
    t.path = path;
    return t;
  }
  return parse_peak_text(*text, path, diagnostics);
}

bool is_peak_table_path(const std::string& path) {
  return std::filesystem::path(path).parent_path().filename() == "peaks";
}

std::string peak_table_dir() {
  if (const char* env = std::getenv("GPUCONFORM_PEAKS"); env && *env) return env;
  return (std::filesystem::path(default_expectations_dir()) / "peaks").string();
}

const PeakTable& peak_table_for(const std::string& arch) {
  static std::mutex mutex;
  static std::map<std::string, PeakTable> cache;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(arch); it != cache.end()) return it->second;
  const std::string path = (std::filesystem::path(peak_table_dir()) / (arch + ".toml")).string();
  PeakTable table;
  if (std::filesystem::exists(path)) {
    std::vector<Diagnostic> diags;
    table = parse_peak_file(path, diags);
    if (!diags.empty()) throw ExpectationError(std::move(diags));
    if (table.arch != arch) {
      throw ExpectationError({Diagnostic{Location{path, 0, 0},
                                         fmt::format("[meta] arch is '{}' but the file is named for {}", table.arch, arch)}});
    }
  } else {
    table.path = "";
    table.arch = arch;
  }
  return cache.emplace(arch, std::move(table)).first->second;
}

}  // namespace gpuconform
