// SPDX-License-Identifier: Apache-2.0
// Expectation files are written line by line in a fixed, readable key order; each
// `key = value` pair is formatted by toml++ (a one-key table through toml_formatter), so
// the escaping is toml++'s and the file always parses. Numbers are printed with fmt's
// shortest round-trip form.
#include "gpuconform/expectation_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <toml++/toml.h>

namespace gpuconform {
namespace {

// Basic strings on one line: no literal or multi-line strings, no raw tabs, so a note
// stays one greppable line whatever it holds.
constexpr toml::format_flags kFlags = toml::format_flags::allow_unicode_strings;

template <class T>
std::string pair_line(const std::string& key, T&& value) {
  toml::table t;
  t.insert(key, std::forward<T>(value));
  std::ostringstream os;
  os << toml::toml_formatter{t, kFlags};
  return os.str() + "\n";
}

// The key as toml++ writes it (bare or quoted and escaped), for a table header.
std::string key_text(const std::string& key) {
  const std::string line = pair_line(key, true);
  return line.substr(0, line.rfind(" = true"));
}

std::string number_line(const std::string& key, double v) {
  if (!std::isfinite(v)) throw std::invalid_argument(fmt::format("'{}' is not a finite number ({})", key, v));
  return fmt::format("{} = {}\n", key_text(key), v);
}

void optional_number(std::string& out, const std::string& key, const std::optional<double>& v) {
  if (v) out += number_line(key, *v);
}

std::string entry_text(const Expectation& e) {
  std::string out = fmt::format("\n[{}.{}]\n", key_text("probe"), key_text(e.probe_id));
  out += pair_line("kind", std::string(kind_name(e.kind)));
  optional_number(out, "value", e.value);
  optional_number(out, "tol", e.tol);
  optional_number(out, "tol_rel", e.tol_rel);
  optional_number(out, "drift_tol", e.drift_tol);
  optional_number(out, "drift_tol_rel", e.drift_tol_rel);
  optional_number(out, "min", e.min);
  optional_number(out, "drift_min", e.drift_min);
  optional_number(out, "max", e.max);
  optional_number(out, "drift_max", e.drift_max);
  optional_number(out, "min_fraction", e.min_fraction);
  optional_number(out, "drift_min_fraction", e.drift_min_fraction);
  if (e.at_max_clock) out += pair_line("at_max_clock", true);  // written only when set: the parser's default is false
  if (e.node_gpus) out += pair_line("node_gpus", *e.node_gpus);
  if (!e.model.empty()) out += pair_line("model", e.model);
  out += pair_line("unit", e.unit);
  out += pair_line("source", e.source);
  optional_number(out, "seconds", e.seconds);
  if (!e.sass.empty()) {
    toml::array sass;
    for (const auto& s : e.sass) sass.push_back(s);
    out += pair_line("sass", std::move(sass));
  }
  if (!e.note.empty()) out += pair_line("note", e.note);
  return out;
}

std::string waiver_text(const Waiver& w) {
  toml::array devices;
  for (const auto& d : w.devices) devices.push_back(d);
  return "\n[[waiver]]\n" + pair_line("tests", w.tests) + pair_line("devices", std::move(devices)) +
         pair_line("reason", w.reason) + pair_line("link", w.link);
}

std::string omitted_text(const Omission& o) {
  std::string out =
      "\n[[omitted]]\n" + pair_line("id", o.id) + pair_line("source", o.source) + pair_line("reason", o.reason);
  if (!o.note.empty()) out += pair_line("note", o.note);
  return out;
}

}  // namespace

std::string render_expectation_file(const ExpectationFile& file) {
  std::string out =
      "# gpuconform expectations. Written by `gpuconform record`; edit with care:\n"
      "# every value cites the run record line it came from, and every note says where its bands came from\n"
      "# (README.md, \"Band policy\").\n\n[meta]\n";
  if (!file.arch.empty()) out += pair_line("arch", file.arch);
  if (!file.sku.empty()) out += pair_line("sku", file.sku);
  if (!file.board_part.empty()) out += pair_line("board_part", file.board_part);
  if (!file.description.empty()) out += pair_line("description", file.description);
  for (const Expectation& e : file.entries) out += entry_text(e);
  for (const Waiver& w : file.waivers) out += waiver_text(w);
  for (const Omission& o : file.omitted) out += omitted_text(o);
  return out;
}

}  // namespace gpuconform
