// SPDX-License-Identifier: Apache-2.0
// Reading a run record for `gpuconform report`: every test line with what drawing needs
// (bands, curves, matrices, staircases), beyond what run_record_reader.cpp keeps for
// `compare` and `record --from`.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "gpuconform/report.hpp"
#include "gpuconform/run_record_reader.hpp"

namespace gpuconform::report {
namespace {

using nlohmann::json;

std::optional<double> opt_number(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number()) return std::nullopt;
  return j.at(key).get<double>();
}

std::string opt_string(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_string()) return {};
  return j.at(key).get<std::string>();
}

// An array of numbers; null (how a NaN is written) reads as NaN.
std::vector<double> numbers(const json& j, const std::string& what) {
  if (!j.is_array()) throw std::runtime_error(what + " is not an array");
  std::vector<double> out;
  out.reserve(j.size());
  for (const json& v : j) {
    if (v.is_null())
      out.push_back(std::numeric_limits<double>::quiet_NaN());
    else if (v.is_number())
      out.push_back(v.get<double>());
    else
      throw std::runtime_error(what + " holds a " + v.type_name() + ", not a number");
  }
  return out;
}

void axis(const json& j, const std::string& what, std::string& name, std::string& unit, std::vector<double>* values) {
  name = opt_string(j, "name");
  unit = opt_string(j, "unit");
  if (values) *values = numbers(j.at("values"), what + ".values");
}

Series series_from(const json& j) {
  Series s;
  s.name = opt_string(j, "name");
  axis(j.at("x"), "series '" + s.name + "' x", s.x_name, s.x_unit, &s.x);
  axis(j.at("y"), "series '" + s.name + "' y", s.y_name, s.y_unit, &s.y);
  if (s.x.size() != s.y.size())
    throw std::runtime_error(
        fmt::format("series '{}' has {} x values but {} y values", s.name, s.x.size(), s.y.size()));
  return s;
}

Matrix matrix_from(const json& j) {
  Matrix m;
  m.name = opt_string(j, "name");
  const std::string what = "matrix '" + m.name + "'";
  axis(j.at("rows"), what + " rows", m.row_name, m.row_unit, &m.rows);
  axis(j.at("cols"), what + " cols", m.col_name, m.col_unit, &m.cols);
  axis(j.at("values"), what + " values", m.value_name, m.value_unit, nullptr);
  const json& data = j.at("values").at("data");
  if (!data.is_array() || data.size() != m.rows.size())
    throw std::runtime_error(fmt::format("{} has {} rows but its data {}", what, m.rows.size(),
                                         data.is_array() ? fmt::format("{} rows", data.size()) : "is no array"));
  for (std::size_t r = 0; r < data.size(); ++r) {
    const auto row = numbers(data[r], fmt::format("{} data row {}", what, r));
    if (row.size() != m.cols.size())
      throw std::runtime_error(fmt::format("{} row {} has {} values for {} columns", what, r, row.size(), m.cols.size()));
    m.values.insert(m.values.end(), row.begin(), row.end());
  }
  return m;
}

// The memory-latency probes keep each staircase as a note (chase_plan.hpp, staircase_json).
std::optional<Series> staircase_from_note(const std::string& key, const std::string& text) {
  if (key.rfind("staircase", 0) != 0) return std::nullopt;
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("bytes") || !j.contains("cycles")) return std::nullopt;
  Series s;
  s.name = key;
  s.x_name = "footprint";
  s.x_unit = "B";
  s.y_name = "latency per access";
  s.y_unit = "cycles";
  try {
    s.x = numbers(j.at("bytes"), key + ".bytes");
    s.y = numbers(j.at("cycles"), key + ".cycles");
  } catch (const std::runtime_error&) {
    return std::nullopt;  // a note for people that is not a staircase after all
  }
  if (s.x.size() != s.y.size() || s.x.empty()) return std::nullopt;
  return s;
}

Entry entry_from(const json& j, int line) {
  Entry e;
  e.line = line;
  e.probe = j.at("probe").get<std::string>();
  e.family = family_of(e.probe);
  e.verdict = opt_string(j, "verdict");
  e.reason = opt_string(j, "reason");
  e.time = opt_string(j, "time");
  if (j.contains("device")) {
    const json& d = j.at("device");
    e.gpu = opt_string(d, "uuid");
    if (e.gpu.empty()) e.gpu = opt_string(d, "pci_bus_id");
    e.gpu_name = opt_string(d, "name");
    e.driver = opt_string(d, "driver");
    e.cuda_runtime = static_cast<int>(opt_number(d, "cuda_runtime_version").value_or(0));
    e.l2_bytes = opt_number(d, "l2_bytes");
  }
  if (e.gpu.empty()) e.gpu = "unknown GPU";
  if (j.contains("expected") && j.at("expected").is_object()) {
    const json& x = j.at("expected");
    ExpectedBand& b = e.expected;
    b.kind = opt_string(x, "kind");
    b.value = opt_number(x, "value");
    b.tol = opt_number(x, "tol");
    b.tol_rel = opt_number(x, "tol_rel");
    b.drift_tol = opt_number(x, "drift_tol");
    b.drift_tol_rel = opt_number(x, "drift_tol_rel");
    b.min = opt_number(x, "min");
    b.drift_min = opt_number(x, "drift_min");
    b.max = opt_number(x, "max");
    b.drift_max = opt_number(x, "drift_max");
    b.min_fraction = opt_number(x, "min_fraction");
    b.drift_min_fraction = opt_number(x, "drift_min_fraction");
    b.model = opt_string(x, "model");
  }
  if (j.contains("measured") && j.at("measured").is_object()) {
    const json& mj = j.at("measured");
    Measurement& m = e.m;
    e.measured = true;
    m.value = opt_number(mj, "value").value_or(std::numeric_limits<double>::quiet_NaN());
    m.unit = opt_string(mj, "unit");
    if (mj.contains("samples")) m.samples = numbers(mj.at("samples"), "samples");
    m.peak = opt_number(mj, "peak");
    m.compared = static_cast<std::uint64_t>(std::max(0.0, opt_number(mj, "compared").value_or(0)));
    if (mj.contains("notes") && mj.at("notes").is_object())
      for (const auto& [k, v] : mj.at("notes").items())
        if (v.is_string()) {
          m.note(k, v.get<std::string>());
          if (auto s = staircase_from_note(k, v.get<std::string>())) m.series.push_back(std::move(*s));
        }
    if (mj.contains("series"))
      for (const json& s : mj.at("series")) m.series.push_back(series_from(s));
    if (mj.contains("matrices"))
      for (const json& x : mj.at("matrices")) m.matrices.push_back(matrix_from(x));
  }
  return e;
}

}  // namespace

std::string family_of(const std::string& probe) { return probe.substr(0, probe.find('.')); }

RecordData parse_record_text(std::string_view text, const std::string& path) {
  // The shared reader checks every line's shape and schema version first, so that the
  // report rejects exactly what `compare` and `record --from` reject, with their message;
  // a last line cut mid-write is dropped here as there, with the same warning.
  std::string cut;
  (void)parse_run_record_text(text, path, &cut);
  if (!cut.empty()) {
    fmt::print(stderr, "warning: {}\n", cut);
    text = text.substr(0, text.rfind('\n') == std::string_view::npos ? 0 : text.rfind('\n') + 1);
  }
  RecordData r;
  r.path = path;
  int line = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view row = text.substr(pos, end - pos);
    pos = end + 1;
    ++line;
    if (row.empty()) continue;
    try {
      const json j = json::parse(row);
      if (j.contains("record") && j.at("record") != "test") {
        ++r.other_lines;  // gpu_state, header, and kinds added later
        continue;
      }
      Entry e = entry_from(j, line);
      if (r.suite_commit.empty() && j.contains("suite")) r.suite_commit = opt_string(j.at("suite"), "commit");
      if (std::find(r.gpus.begin(), r.gpus.end(), e.gpu) == r.gpus.end()) r.gpus.push_back(e.gpu);
      r.entries.push_back(std::move(e));
    } catch (const std::exception& ex) {
      throw std::runtime_error(fmt::format("{}:{}: not a run record line the report can draw: {}", path, line, ex.what()));
    }
  }
  return r;
}

RecordData load_record(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the run record", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_record_text(text.str(), path);
}

}  // namespace gpuconform::report
