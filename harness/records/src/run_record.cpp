// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/run_record.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "gpuconform/test_result.hpp"
#include "gpuconform/run_record_schema.hpp"
#include "gpuconform/stats.hpp"

#ifndef GPUCONFORM_VERSION
#define GPUCONFORM_VERSION "unknown"
#endif

namespace gpuconform {

const char* suite_version() { return GPUCONFORM_VERSION; }
// suite_git_commit(): suite_commit.cpp, generated at build time (harness/CMakeLists.txt).

std::string utc_time(std::time_t t, const char* format) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  return std::strftime(buf, sizeof buf, format, &tm) ? buf : "";
}

std::string utc_timestamp() { return utc_time(std::time(nullptr)); }

nlohmann::json device_json(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"arch", d.arch()},
          {"sku", d.sku()},
          {"pci_subsystem_id", d.pci_subsystem_id ? fmt::format("0x{:04x}", d.pci_subsystem_id) : std::string()},
          {"pci_bus_id", d.pci_bus_id},
          {"uuid", d.uuid},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"shared_per_sm_bytes", d.shared_per_sm_bytes},
          {"max_sm_clock_mhz", d.max_sm_clock_khz / 1000.0},
          {"mem_clock_mhz", d.mem_clock_khz / 1000.0},
          {"mem_bus_width_bits", d.mem_bus_width_bits},
          {"driver", d.driver_version},
          {"cuda_driver_version", d.cuda_driver_version},
          {"cuda_runtime_version", d.cuda_runtime_version}};
}

nlohmann::json measurement_json(const Measurement& m) {
  nlohmann::json j = {{"value", m.value}, {"unit", m.unit}};
  if (!m.samples.empty()) {
    const Summary s = summarize(m.samples);
    j["samples"] = m.samples;
    j["stats"] = {{"n", s.n},     {"median", s.median}, {"mad", s.mad}, {"p5", s.p5},
                  {"p95", s.p95}, {"min", s.min},       {"max", s.max}, {"cv", s.cv()}};
  }
  if (m.sampling) {
    const Sampling& s = *m.sampling;
    // An interval of fewer than 6 samples does not exist: its half-width is written as -1.
    const double rel = s.interval.valid ? s.interval.rel_half_width() : -1.0;
    j["sampling"] = {{"median_ci95", {s.interval.low, s.interval.high}}, {"rel_half_width", rel},
                     {"target_rel_half_width", s.target_rel_half_width}, {"warmup_batches", s.warmup_batches},
                     {"warmup_settled", s.warmup_settled}, {"launch_ms", s.launch_ms}, {"stopped", s.stopped}};
  }
  if (m.peak) {
    j["peak"] = *m.peak;
    j["peak_formula"] = m.peak_formula;
    j["fraction_of_peak"] = m.value / *m.peak;
  }
  // A number as well as the note, so that `judge` can hold a recorded value to an at_max_clock entry.
  if (m.peak_at_max_clock) j["peak_at_max_clock"] = *m.peak_at_max_clock;
  if (m.compared) j["compared"] = m.compared;
  if (m.sm_clock_mhz > 0) j["sm_clock_mhz"] = m.sm_clock_mhz;
  nlohmann::json notes = nlohmann::json::object();
  for (const auto& [k, v] : m.notes) notes[k] = v;
  if (!notes.empty()) j["notes"] = notes;
  // --- curves and matrices (measurement.hpp documents the shape)
  auto axis = [](const std::string& name, const std::string& unit, const std::vector<double>& values) {
    return nlohmann::json{{"name", name}, {"unit", unit}, {"values", values}};
  };
  for (const Series& s : m.series)
    j["series"].push_back({{"name", s.name}, {"x", axis(s.x_name, s.x_unit, s.x)}, {"y", axis(s.y_name, s.y_unit, s.y)}});
  for (const Matrix& mat : m.matrices) {
    nlohmann::json data = nlohmann::json::array();
    for (std::size_t r = 0; r < mat.rows.size(); ++r)
      data.push_back(std::vector<double>(mat.values.begin() + r * mat.cols.size(),
                                         mat.values.begin() + (r + 1) * mat.cols.size()));
    j["matrices"].push_back({{"name", mat.name},
                             {"rows", axis(mat.row_name, mat.row_unit, mat.rows)},
                             {"cols", axis(mat.col_name, mat.col_unit, mat.cols)},
                             {"values", {{"name", mat.value_name}, {"unit", mat.value_unit}, {"data", data}}}});
  }
  // --- end curves and matrices
  return j;
}

nlohmann::json expectation_json(const Expectation& e) {
  nlohmann::json j = {{"kind", kind_name(e.kind)}, {"unit", e.unit}, {"source", e.source},
                      {"at", e.where.str()}};
  if (e.value) j["value"] = *e.value;
  if (e.tol) j["tol"] = *e.tol;
  if (e.tol_rel) j["tol_rel"] = *e.tol_rel;
  if (e.min) j["min"] = *e.min;
  if (e.max) j["max"] = *e.max;
  if (e.min_fraction) j["min_fraction"] = *e.min_fraction;
  if (e.drift_tol) j["drift_tol"] = *e.drift_tol;
  if (e.drift_tol_rel) j["drift_tol_rel"] = *e.drift_tol_rel;
  if (e.drift_min) j["drift_min"] = *e.drift_min;
  if (e.drift_max) j["drift_max"] = *e.drift_max;
  if (e.drift_min_fraction) j["drift_min_fraction"] = *e.drift_min_fraction;
  if (!e.model.empty()) j["model"] = e.model;
  if (!e.sass.empty()) j["sass"] = e.sass;
  return j;
}

std::string gpu_label(int index, const std::vector<int>& peer_indices) {
  std::string label = fmt::format("GPU {}", index);
  for (std::size_t i = 0; i < peer_indices.size(); ++i) label += fmt::format("{}{}", i ? "," : ">", peer_indices[i]);
  return label;
}

nlohmann::json record_json(const TestResult& r, const DeviceInfo& d) {
  nlohmann::json j = {{"schema_version", kRunRecordSchemaVersion},
                      {"record", "test"},
                      {"probe", r.probe ? r.probe->id : std::string()},
                      {"verdict", outcome_name(r.verdict.outcome)},
                      {"reason", r.verdict.reason},
                      {"seconds", r.seconds}};
  if (r.measurement) j["measured"] = measurement_json(*r.measurement);
  if (r.expectation) j["expected"] = expectation_json(*r.expectation);
  if (r.disturbance) j["disturbance"] = r.disturbance->to_json();
  j["device"] = device_json(d);
  if (!r.peers.empty()) {
    nlohmann::json peers = nlohmann::json::array();
    for (const DeviceInfo& p : r.peers)
      peers.push_back({{"index", p.index}, {"uuid", p.uuid}, {"pci_bus_id", p.pci_bus_id}, {"name", p.name}});
    j["peers"] = peers;
  }
  j["suite"] = {{"version", suite_version()}, {"commit", suite_git_commit()}};
  j["time"] = utc_timestamp();
  return j;
}

void append_record_line(const std::string& path, const nlohmann::json& line) {
  const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot open run record " + path + ": " + std::strerror(errno));
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int saved = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()))
    throw std::runtime_error("cannot write run record " + path + ": " + std::strerror(saved));
}

}  // namespace gpuconform
