// SPDX-License-Identifier: Apache-2.0
// The expectation types' methods (expectation_types.hpp), the expectations
// directory and the small text helpers (globs, "did you mean") every reader and
// the CLI share. Loading the files for a device is expectation_set.cpp
// (harness/expectations).
#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "gpuconform/expectation_types.hpp"

#ifndef GPUCONFORM_SOURCE_EXPECTATIONS_DIR
#define GPUCONFORM_SOURCE_EXPECTATIONS_DIR ""
#endif

namespace gpuconform {

const char* kind_name(ExpectationKind k) {
  switch (k) {
    case ExpectationKind::band: return "band";
    case ExpectationKind::min: return "min";
    case ExpectationKind::max: return "max";
    case ExpectationKind::fraction_of_peak: return "fraction_of_peak";
    case ExpectationKind::exact: return "exact";
    case ExpectationKind::info: return "info";
  }
  return "?";
}

std::optional<ExpectationKind> parse_kind(std::string_view text) {
  for (auto k : {ExpectationKind::band, ExpectationKind::min, ExpectationKind::max, ExpectationKind::fraction_of_peak,
                 ExpectationKind::exact, ExpectationKind::info})
    if (text == kind_name(k)) return k;
  return std::nullopt;
}

std::string Location::str() const {
  if (line <= 0) return file;
  return fmt::format("{}:{}:{}", file, line, column);
}

double Expectation::band_half_width() const {
  double half = tol.value_or(0);
  if (tol_rel && value) half = std::max(half, *tol_rel * std::fabs(*value));
  return half;
}

double Expectation::drift_half_width() const {
  double half = drift_tol.value_or(0);
  if (drift_tol_rel && value) half = std::max(half, *drift_tol_rel * std::fabs(*value));
  return half;
}

bool Expectation::has_drift() const {
  switch (kind) {
    case ExpectationKind::band: return drift_tol.has_value() || drift_tol_rel.has_value();
    case ExpectationKind::min: return drift_min.has_value();
    case ExpectationKind::max: return drift_max.has_value();
    case ExpectationKind::fraction_of_peak: return drift_min_fraction.has_value();
    default: return false;
  }
}

static std::string join_diagnostics(const std::vector<Diagnostic>& diags) {
  std::string text;
  for (const auto& d : diags) text += (text.empty() ? "" : "\n") + d.str();
  return text;
}

ExpectationError::ExpectationError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_diagnostics(diagnostics)), diagnostics_(std::move(diagnostics)) {}

const Expectation* ExpectationSet::find(const std::string& probe_id) const {
  auto it = entries_.find(probe_id);
  return it == entries_.end() ? nullptr : &it->second;
}

const Waiver* ExpectationSet::waiver_for(const std::string& probe_id, const std::string& sku) const {
  for (const Waiver& w : waivers_) {
    if (!glob_match(w.tests, probe_id)) continue;
    for (const std::string& d : w.devices)
      if (d == "*" || (!sku.empty() && d == sku)) return &w;
  }
  return nullptr;
}

void ExpectationSet::apply(const ExpectationFile& file) {
  // Later files replace whole entries: an overlay states a complete
  // expectation with its own provenance, never half of one.
  for (const Expectation& e : file.entries) entries_[e.probe_id] = e;
  waivers_.insert(waivers_.end(), file.waivers.begin(), file.waivers.end());
  files_.push_back(file.path);
}

std::string default_expectations_dir() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("GPUCONFORM_EXPECTATIONS"); env && *env) return env;
  // An installed binary (PREFIX/bin) reads the expectations installed with it first, even
  // where the source tree it was built from still exists: a package must run on what it
  // ships. A binary in the build tree has no such directory and reads the source tree's.
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share/gpuconform/expectations";
    if (fs::is_directory(installed)) return installed.string();
  }
  const std::string source_dir = GPUCONFORM_SOURCE_EXPECTATIONS_DIR;
  if (!source_dir.empty() && fs::is_directory(source_dir)) return source_dir;
  return source_dir.empty() ? "expectations" : source_dir;
}

bool glob_match(std::string_view pattern, std::string_view text) {
  // fnmatch(3), as every glob of the suite (probe filters, waivers, policy classes, variant names).
  return ::fnmatch(std::string(pattern).c_str(), std::string(text).c_str(), 0) == 0;
}

bool glob_match_any(const std::vector<std::string>& patterns, std::string_view text) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return glob_match(p, text); });
}

static std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 4) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

}  // namespace gpuconform
