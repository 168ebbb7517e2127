#include "gpuconform/run_record_reader.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>

namespace gpuconform {
namespace {

// The inverse of measurement_json() for what a derivation reads: value, unit, peak,
// compared count, clock and notes (the model name of a numeric probe).
Measurement measurement_from_json(const nlohmann::json& j) {
  Measurement m;
  m.value = j.at("value").get<double>();
  m.unit = j.at("unit").get<std::string>();
  if (j.contains("samples")) m.samples = j.at("samples").get<std::vector<double>>();
  if (j.contains("peak")) m.peak = j.at("peak").get<double>();
  if (j.contains("peak_formula")) m.peak_formula = j.at("peak_formula").get<std::string>();
  if (j.contains("compared")) m.compared = j.at("compared").get<std::uint64_t>();
  if (j.contains("sm_clock_mhz")) m.sm_clock_mhz = j.at("sm_clock_mhz").get<double>();
  if (j.contains("notes"))
    for (const auto& [k, v] : j.at("notes").items())
      if (v.is_string()) m.note(k, v.get<std::string>());
  return m;
}

}  // namespace

std::vector<RecordedRun> read_run_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot read the run record", path));
  std::vector<RecordedRun> out;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    if (text.empty()) continue;
    try {
      const nlohmann::json j = nlohmann::json::parse(text);
      if (!j.contains("measured")) continue;
      RecordedRun r;
      r.file = path;
      r.line = line;
      r.probe = j.at("probe").get<std::string>();
      const auto& d = j.at("device");
      r.arch = d.at("arch").get<std::string>();
      r.sku = d.value("sku", std::string());
      r.gpu = d.value("uuid", std::string());
      if (r.gpu.empty()) r.gpu = d.value("pci_bus_id", std::string());
      r.gpu_name = d.value("name", std::string());
      r.driver = d.value("driver", std::string());
      r.cuda_runtime = d.value("cuda_runtime_version", 0);
      if (j.contains("suite")) r.suite_commit = j.at("suite").value("commit", std::string());
      r.verdict = j.value("verdict", std::string());
      if (j.contains("seconds") && j.at("seconds").is_number()) r.seconds = j.at("seconds").get<double>();
      r.measurement = measurement_from_json(j.at("measured"));
      out.push_back(std::move(r));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(fmt::format("{}:{}: not a run record line: {}", path, line, e.what()));
    }
  }
  return out;
}

}  // namespace gpuconform
