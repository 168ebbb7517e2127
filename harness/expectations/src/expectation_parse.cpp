// SPDX-License-Identifier: Apache-2.0
// Strict parser for one expectation file. Every problem becomes a Diagnostic
// with file:line:col and, where it helps, the allowed values or the closest
// known name.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>

#include "gpuconform/expectation.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/toml_reader.hpp"

namespace gpuconform {
namespace {

const std::vector<std::string> kTopKeys = {"meta", "probe", "waiver", "omitted"};
const std::vector<std::string> kMetaKeys = {"arch", "sku", "board_part", "description"};
const std::vector<std::string> kEntryKeys = {"kind",          "value",     "tol",          "tol_rel",
                                             "min",           "max",       "min_fraction", "drift_tol",
                                             "drift_tol_rel", "drift_min", "drift_max",    "drift_min_fraction",
                                             "model",         "unit",      "source",       "note",
                                             "seconds",       "sass",      "at_max_clock", "node_gpus"};
const std::vector<std::string> kWaiverKeys = {"tests", "devices", "reason", "link"};
const std::vector<std::string> kOmittedKeys = {"id", "source", "reason", "note"};

// Which numeric/model keys each kind takes; the rest are rejected.
const std::map<ExpectationKind, std::set<std::string>> kKindKeys = {
    {ExpectationKind::band, {"value", "tol", "tol_rel", "drift_tol", "drift_tol_rel"}},
    {ExpectationKind::min, {"min", "drift_min"}},
    {ExpectationKind::max, {"max", "drift_max"}},
    {ExpectationKind::fraction_of_peak, {"min_fraction", "drift_min_fraction", "at_max_clock"}},
    {ExpectationKind::exact, {"model"}},
    {ExpectationKind::info, {}},
};
const std::set<std::string> kKindSpecificKeys = {
    "value",     "tol",       "tol_rel",   "min",       "max",       "min_fraction",
    "drift_tol", "drift_tol_rel", "drift_min", "drift_max", "drift_min_fraction", "model", "at_max_clock"};

class Parser : TomlReader {
 public:
  Parser(std::string path, std::vector<Diagnostic>& diags, const ProbeIdCheck& known,
         const std::vector<std::string>& ids)
      : TomlReader(std::move(path), diags), out_(diags), known_(known), ids_(ids) {}

  ExpectationFile parse(std::string_view text) {
    ExpectationFile file;
    file.path = path();
    // toml++ 3.3.0 has undefined behaviour on some non-ASCII characters (toml_guard.hpp):
    // parse_document refuses them first.
    const std::optional<toml::table> document = parse_document(text);
    if (!document) return file;
    const toml::table& root = *document;
    for (auto&& [key, node] : root) {
      const std::string name(key.str());
      if (name == "meta") {
        parse_meta(node, file);
      } else if (name == "probe") {
        parse_probes(node, file);
      } else if (name == "waiver") {
        parse_waivers(node, file);
      } else if (name == "omitted") {
        parse_omitted(node, file);
      } else {
        unknown(key.source(), name, "top-level key", kTopKeys);
      }
    }
    check_omitted(file);
    if (file.arch.empty() && file.sku.empty())
      error(root.source(), "missing [meta] with `arch = \"sm_XX\"` (or `sku = \"0xNNNN\"` in an overlay)");
    return file;
  }

 private:
  const toml::table* expect_table(const toml::node& node, const std::string& what) {
    if (const auto* t = node.as_table()) return t;
    error(node.source(), fmt::format("'{}' must be a table, not a {}", what, type_name(node)));
    return nullptr;
  }
  std::optional<std::string> get_string(const toml::node& node, const std::string& key) {
    if (auto v = node.value<std::string>(); v && node.is_string()) return *v;
    error(node.source(), fmt::format("'{}' must be a string, not a {}", key, type_name(node)));
    return std::nullopt;
  }
  std::optional<double> get_number(const toml::node& node, const std::string& key) {
    if (node.is_number()) {
      double v = *node.value<double>();
      if (std::isfinite(v)) return v;
      error(node.source(), fmt::format("'{}' must be a finite number", key));
      return std::nullopt;
    }
    error(node.source(), fmt::format("'{}' must be a number, not a {}", key, type_name(node)));
    return std::nullopt;
  }
  // node_gpus: a whole number of GPUs, at least 2 (a node exchange needs two).
  std::optional<int> get_node_gpus(const toml::node& node) {
    const auto* i = node.as_integer();
    if (!i || i->get() < 2 || i->get() > 1024) {
      error(node.source(),
            "'node_gpus' must be a whole number of GPUs, at least 2 (the node size the entry's "
            "evidence comes from)");
      return std::nullopt;
    }
    return static_cast<int>(i->get());
  }

  std::optional<bool> get_bool(const toml::node& node, const std::string& key) {
    if (node.is_boolean()) return *node.value<bool>();
    error(node.source(), fmt::format("'{}' must be true or false, not a {}", key, type_name(node)));
    return std::nullopt;
  }
  std::optional<std::vector<std::string>> get_strings(const toml::node& node, const std::string& key) {
    const auto* arr = node.as_array();
    if (!arr) {
      error(node.source(), fmt::format("'{}' must be an array of strings, not a {}", key, type_name(node)));
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const toml::node& el : *arr) {
      if (!el.is_string()) {
        error(el.source(), fmt::format("'{}' must hold only strings, found a {}", key, type_name(el)));
        return std::nullopt;
      }
      out.push_back(*el.value<std::string>());
    }
    return out;
  }

  void parse_meta(const toml::node& node, ExpectationFile& file) {
    const auto* t = expect_table(node, "meta");
    if (!t) return;
    for (auto&& [key, value] : *t) {
      const std::string name(key.str());
      if (name == "arch") {
        if (auto s = get_string(value, name)) {
          if (s->rfind("sm_", 0) != 0 || s->size() < 5)
            error(value.source(), fmt::format("arch '{}' must look like \"sm_90\"", *s));
          file.arch = *s;
        }
      } else if (name == "sku") {
        if (auto s = get_string(value, name)) {
          if (s->rfind("0x", 0) != 0 || s->size() != 6)
            error(value.source(), fmt::format("sku '{}' must be a PCI device id like \"0x2330\"", *s));
          file.sku = *s;
        }
      } else if (name == "board_part") {
        if (auto s = get_string(value, name)) {
          if (!is_board_part_number(*s))
            error(value.source(), fmt::format("board_part '{}' must be an NVML board part number like "
                                              "\"692-2G520-0282-001\" (letters, digits, '-', '.', '_')",
                                              *s));
          file.board_part = *s;
        }
      } else if (name == "description") {
        if (auto s = get_string(value, name)) file.description = *s;
      } else {
        unknown(key.source(), name, "key in [meta]", kMetaKeys);
      }
    }
  }

  void parse_probes(const toml::node& node, ExpectationFile& file) {
    const auto* t = expect_table(node, "probe");
    if (!t) return;
    for (auto&& [key, value] : *t) {
      const std::string id(key.str());
      if (known_ && !known_(id)) {
        std::string hint = closest_match(id, ids_);
        error(key.source(), fmt::format("unknown probe '{}'{}", id,
                                        hint.empty() ? std::string(" (gpuconform list shows the probes)")
                                                     : fmt::format(" (did you mean '{}'?)", hint)));
        continue;
      }
      if (const auto* entry = expect_table(value, "probe." + id)) {
        if (auto e = parse_entry(id, key.source(), *entry)) file.entries.push_back(std::move(*e));
      }
    }
  }

  std::optional<Expectation> parse_entry(const std::string& id, const toml::source_region& where,
                                         const toml::table& t) {
    const std::size_t errors_before = diagnostic_count();
    Expectation e;
    e.probe_id = id;
    e.where = at(where);
    std::optional<ExpectationKind> kind;
    std::vector<std::pair<std::string, toml::source_region>> kind_keys_seen;
    for (auto&& [key, value] : t) {
      const std::string name(key.str());
      if (std::find(kEntryKeys.begin(), kEntryKeys.end(), name) == kEntryKeys.end()) {
        unknown(key.source(), name, "key in probe entry", kEntryKeys);
        continue;
      }
      if (kKindSpecificKeys.count(name)) kind_keys_seen.emplace_back(name, key.source());
      if (name == "kind") {
        if (auto s = get_string(value, name)) {
          kind = parse_kind(*s);
          if (!kind)
            error(value.source(), fmt::format("unknown kind '{}' (allowed: band, min, max, "
                                              "fraction_of_peak, exact, info)", *s));
        }
      } else if (name == "value") { e.value = get_number(value, name);
      } else if (name == "tol") { e.tol = get_number(value, name);
      } else if (name == "tol_rel") { e.tol_rel = get_number(value, name);
      } else if (name == "min") { e.min = get_number(value, name);
      } else if (name == "max") { e.max = get_number(value, name);
      } else if (name == "min_fraction") { e.min_fraction = get_number(value, name);
      } else if (name == "drift_tol") { e.drift_tol = get_number(value, name);
      } else if (name == "drift_tol_rel") { e.drift_tol_rel = get_number(value, name);
      } else if (name == "drift_min") { e.drift_min = get_number(value, name);
      } else if (name == "drift_max") { e.drift_max = get_number(value, name);
      } else if (name == "drift_min_fraction") { e.drift_min_fraction = get_number(value, name);
      } else if (name == "seconds") {
        e.seconds = get_number(value, name);
        if (e.seconds && *e.seconds <= 0) error(value.source(), "'seconds' must be positive (wall seconds of one run)");
      } else if (name == "model") { if (auto s = get_string(value, name)) e.model = *s;
      } else if (name == "unit") { if (auto s = get_string(value, name)) e.unit = *s;
      } else if (name == "source") {
        if (auto s = get_string(value, name)) {
          e.source = *s;
          check_source(value.source(), id, *s);
        }
      } else if (name == "note") { if (auto s = get_string(value, name)) e.note = *s;
      } else if (name == "sass") { if (auto v = get_strings(value, name)) e.sass = *v;
      } else if (name == "at_max_clock") { if (auto b = get_bool(value, name)) e.at_max_clock = *b;
      } else if (name == "node_gpus") {
        e.node_gpus = get_node_gpus(value);
      }
    }
    if (!kind) {
      if (!t.contains("kind")) error(where, fmt::format("probe '{}' has no 'kind'", id));
    } else {
      e.kind = *kind;
      check_kind_fields(e, where, kind_keys_seen);
    }
    if (!t.contains("unit")) error(where, fmt::format("probe '{}' has no 'unit'", id));
    if (!t.contains("source"))
      error(where, fmt::format("probe '{}' has no 'source' (provenance: \"run:evidence/FILE.jsonl:LINE\" "
                               "or \"cite:PAPER, TABLE\")", id));
    if (diagnostic_count() != errors_before) return std::nullopt;
    return e;
  }

  void check_kind_fields(const Expectation& e, const toml::source_region& where,
                         const std::vector<std::pair<std::string, toml::source_region>>& seen) {
    const auto& allowed = kKindKeys.at(e.kind);
    for (const auto& [name, region] : seen)
      if (!allowed.count(name))
        error(region, fmt::format("'{}' does not apply to kind '{}'", name, kind_name(e.kind)));
    const std::string id = e.probe_id;
    switch (e.kind) {
      case ExpectationKind::band:
        if (!e.value) error(where, fmt::format("band '{}' needs 'value'", id));
        if (!e.tol && !e.tol_rel) error(where, fmt::format("band '{}' needs 'tol' or 'tol_rel'", id));
        if ((e.tol && *e.tol < 0) || (e.tol_rel && *e.tol_rel < 0))
          error(where, fmt::format("band '{}' has a negative tolerance", id));
        if ((e.drift_tol && *e.drift_tol < 0) || (e.drift_tol_rel && *e.drift_tol_rel < 0))
          error(where, fmt::format("band '{}' has a negative drift tolerance", id));
        else if (e.value && e.has_drift() && e.drift_half_width() > e.band_half_width())
          error(where, fmt::format("band '{}': the drift band (± {}) must lie inside the fail band (± {})", id,
                                   e.drift_half_width(), e.band_half_width()));
        break;
      case ExpectationKind::min:
        if (!e.min) error(where, fmt::format("min '{}' needs 'min'", id));
        else if (e.drift_min && *e.drift_min < *e.min)
          error(where, fmt::format("min '{}': 'drift_min' ({}) must not be below the fail limit 'min' ({})", id,
                                   *e.drift_min, *e.min));
        break;
      case ExpectationKind::max:
        if (!e.max) error(where, fmt::format("max '{}' needs 'max'", id));
        else if (e.drift_max && *e.drift_max > *e.max)
          error(where, fmt::format("max '{}': 'drift_max' ({}) must not be above the fail limit 'max' ({})", id,
                                   *e.drift_max, *e.max));
        break;
      case ExpectationKind::fraction_of_peak: {
        // Up to 2: a peak entry is one pipe's rate, and ptxas may spread an instruction
        // class over two pipes (sm_90 add.u32 issues as IADD3 on the INT32 pipe and VIADD
        // on the FP32 pipe: 1.87 of the INT32 units' rate on H100 and H200 boards). Above
        // 2 the peak entry itself is wrong.
        constexpr double kMaxFraction = 2.0;
        if (!e.min_fraction || *e.min_fraction <= 0 || *e.min_fraction > kMaxFraction)
          error(where, fmt::format("fraction_of_peak '{}' needs 'min_fraction' in (0, {}]", id, kMaxFraction));
        else if (e.drift_min_fraction &&
                 (*e.drift_min_fraction < *e.min_fraction || *e.drift_min_fraction > kMaxFraction))
          error(where, fmt::format("fraction_of_peak '{}': 'drift_min_fraction' ({}) must lie in [min_fraction ({}), {}]",
                                   id, *e.drift_min_fraction, *e.min_fraction, kMaxFraction));
        break;
      }
      case ExpectationKind::exact:
        if (e.model.empty()) error(where, fmt::format("exact '{}' needs 'model' (a reference model id)", id));
        // numeric.feature.* tests expect one fitted parameter: "param:NAME=VALUE".
        if (e.model.rfind("param:", 0) == 0 &&
            (e.model.find('=') == std::string::npos || e.model.find('=') == 6 || e.model.back() == '='))
          error(where, fmt::format("exact '{}': model '{}' must be \"param:NAME=VALUE\"", id, e.model));
        break;
      case ExpectationKind::info:
        break;
    }
  }

  // Provenance must be checkable: a run record line that exists and names
  // this probe, or a citation.
  void check_source(const toml::source_region& r, const std::string& id, const std::string& s) {
    if (s.rfind("cite:", 0) == 0) {
      if (s.size() <= 5) error(r, "'cite:' needs the paper and table, e.g. \"cite:Luo et al. 2024, Table IV\"");
      return;
    }
    // A golden vector file (expectations/golden/...): the hardware record a parameter
    // inferred by `vectors infer` comes from. It must exist beside this file.
    if (s.rfind("golden:", 0) == 0) {
      const auto slash = path().rfind('/');
      const std::string full = (slash == std::string::npos ? "." : path().substr(0, slash)) + "/" + s.substr(7);
      if (s.size() <= 7 || !std::ifstream(full)) error(r, fmt::format("golden vector file '{}' not found (resolved to {})", s.substr(7), full));
      return;
    }
    if (s.rfind("run:", 0) != 0) {
      error(r, fmt::format("source '{}' must start with 'run:' (a run record line), 'golden:' (a vector file) or "
                           "'cite:' (a paper)", s));
      return;
    }
    const std::string rest = s.substr(4);
    const auto colon = rest.rfind(':');
    long line = 0;
    if (colon != std::string::npos) {
      try { line = std::stol(rest.substr(colon + 1)); } catch (...) { line = 0; }
    }
    if (colon == std::string::npos || line <= 0) {
      error(r, fmt::format("source '{}' must be \"run:PATH:LINE\" with a positive line number", s));
      return;
    }
    const std::string rel = rest.substr(0, colon);
    const auto slash = path().rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path().substr(0, slash);
    const std::string full = rel.size() && rel[0] == '/' ? rel : dir + "/" + rel;
    // Parsed as JSON (run_record_reader.cpp), not matched as text.
    const std::string problem = run_record_line_problem(full, line, id);
    if (!problem.empty())
      error(r, fmt::format("run record '{}' (resolved to {}): {}", rel, full, problem));
  }

  void parse_waivers(const toml::node& node, ExpectationFile& file) {
    const auto* arr = node.as_array();
    if (!arr) {
      error(node.source(), "'waiver' must be an array of tables ([[waiver]])");
      return;
    }
    for (const toml::node& el : *arr) {
      const auto* t = expect_table(el, "waiver");
      if (!t) continue;
      Waiver w;
      w.where = at(el.source());
      const std::size_t before = diagnostic_count();
      for (auto&& [key, value] : *t) {
        const std::string name(key.str());
        if (name == "tests") { if (auto s = get_string(value, name)) w.tests = *s;
        } else if (name == "devices") { if (auto v = get_strings(value, name)) w.devices = *v;
        } else if (name == "reason") { if (auto s = get_string(value, name)) w.reason = *s;
        } else if (name == "link") { if (auto s = get_string(value, name)) w.link = *s;
        } else {
          unknown(key.source(), name, "key in [[waiver]]", kWaiverKeys);
        }
      }
      for (const char* required : {"tests", "devices", "reason", "link"})
        if (!t->contains(required)) error(el.source(), fmt::format("waiver needs '{}'", required));
      if (diagnostic_count() == before) file.waivers.push_back(std::move(w));
    }
  }

  // [[omitted]]: a published figure this file records as not judged, and why. The id need
  // not name a registered probe (most omissions are for probes the suite does not have).
  void parse_omitted(const toml::node& node, ExpectationFile& file) {
    const auto* arr = node.as_array();
    if (!arr) {
      error(node.source(), "'omitted' must be an array of tables ([[omitted]])");
      return;
    }
    for (const toml::node& el : *arr) {
      const auto* t = expect_table(el, "omitted");
      if (!t) continue;
      Omission o;
      o.where = at(el.source());
      const std::size_t before = diagnostic_count();
      for (auto&& [key, value] : *t) {
        const std::string name(key.str());
        if (name == "id") {
          if (auto s = get_string(value, name)) o.id = *s;
        } else if (name == "source") {
          if (auto s = get_string(value, name)) {
            o.source = *s;
            if (s->rfind("cite:", 0) != 0 || s->size() <= 5)
              error(value.source(), fmt::format("omitted '{}': source '{}' must be \"cite:PAPER, TABLE, ROW\" (the "
                                                "published figure that is not judged)",
                                                o.id, *s));
          }
        } else if (name == "reason") {
          if (auto s = get_string(value, name)) o.reason = *s;
        } else if (name == "note") {
          if (auto s = get_string(value, name)) o.note = *s;
        } else {
          unknown(key.source(), name, "key in [[omitted]]", kOmittedKeys);
        }
      }
      for (const char* required : {"id", "source", "reason"})
        if (!t->contains(required)) error(el.source(), fmt::format("omitted record needs '{}'", required));
      if (t->contains("id") && o.id.empty()) error(el.source(), "omitted record has an empty 'id'");
      if (t->contains("reason") && o.reason.empty()) error(el.source(), "omitted record has an empty 'reason'");
      if (diagnostic_count() == before) file.omitted.push_back(std::move(o));
    }
  }

  // An id is judged or omitted, never both, and omitted once.
  void check_omitted(const ExpectationFile& file) {
    std::map<std::string, const Omission*> seen;
    for (const Omission& o : file.omitted) {
      const auto [it, fresh] = seen.emplace(o.id, &o);
      if (!fresh)
        diagnostic(o.where, fmt::format("'{}' is omitted twice (first at line {})", o.id, it->second->where.line));
    }
    for (const Expectation& e : file.entries) {
      const auto it = seen.find(e.probe_id);
      if (it != seen.end())
        diagnostic(it->second->where, fmt::format("'{}' is omitted here but is also an entry at line {}: keep one",
                                                  e.probe_id, e.where.line));
    }
  }

  void diagnostic(const Location& where, std::string message) { out_.push_back(Diagnostic{where, std::move(message)}); }

  std::vector<Diagnostic>& out_;
  const ProbeIdCheck& known_;
  const std::vector<std::string>& ids_;
};

}  // namespace

// Here, not in expectation_set.cpp: the parser checks [meta] board_part with it, and the
// parser's fuzz target links this file alone.
bool is_board_part_number(const std::string& text) {
  if (text.empty() || text.size() > 80 || text.find("..") != std::string::npos) return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_';
  });
}

ExpectationFile parse_expectation_text(std::string_view text, const std::string& path,
                                       std::vector<Diagnostic>& diagnostics,
                                       const ProbeIdCheck& known_probe,
                                       const std::vector<std::string>& probe_ids) {
  return Parser(path, diagnostics, known_probe, probe_ids).parse(text);
}

ExpectationFile parse_expectation_file(const std::string& path, std::vector<Diagnostic>& diagnostics,
                                       const ProbeIdCheck& known_probe,
                                       const std::vector<std::string>& probe_ids) {
  const std::optional<std::string> text = read_text_file(path);
  if (!text) {
    diagnostics.push_back(Diagnostic{Location{path, 0, 0}, "cannot read the file"});
    ExpectationFile empty;
    empty.path = path;
    return empty;
  }
  return parse_expectation_text(*text, path, diagnostics, known_probe, probe_ids);
}

}  // namespace gpuconform
