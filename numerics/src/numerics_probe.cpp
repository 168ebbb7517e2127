// SPDX-License-Identifier: Apache-2.0
// `gpuconform probe numerics` (numerics_probe.hpp): open the GPU (or take an architecture's
// models), survey every matching MMA path on it one after another, fit each path's records
// on a pool of workers (writing the vector files the entries cite), then write the entries.
#include "gpuconform/numerics/numerics_probe.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <thread>
#include <utility>

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_info.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/numerics/feature_paths.hpp"
#include "gpuconform/numerics/golden_generator.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::numerics {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A path's GPU records, then its fit.
struct Pending {
  const MmaVariant* variant;
  std::vector<ref::MmaRecord> records;
  std::string error;  // the GPU part failed (self-test, CUDA): no fit
  PathFit result;
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The GPU in hand (or the simulated architecture) and the facts the report and the files
// name. False, with the report's stop and error set, when there is no such GPU.
bool open_target(const NumericsProbeOptions& options, DeviceInfo& device, NumericsProbeReport& report) {
  if (!options.simulate_arch.empty()) {
    report.facts = SurveyFacts{options.simulate_arch, "simulated (" + options.simulate_arch + " models, no GPU)",
                               "none", nvcc_version(), utc_timestamp()};
    return true;
  }
  std::string why;
  const int count = device_count(&why);
  report.stop = NumericsProbeStop::kNoDevice;
  if (count == 0) {
    report.error = why + "; nothing was probed";
    return false;
  }
  if (options.device < 0 || options.device >= count) {
    report.error = fmt::format("--device {} does not exist (GPUs 0..{})", options.device, count - 1);
    return false;
  }
  report.stop = NumericsProbeStop::kNone;
  use_device(options.device);
  device = query_device(options.device);
  report.facts = SurveyFacts{device.arch(), fmt::format("{} (pci {})", device.name, device.sku()),
                             device.driver_version, nvcc_version(), utc_timestamp()};
  return true;
}

// 1. The GPU: every supported path matching the glob, one after another. False when a CUDA
// error stopped it (a sticky error poisons every later launch) or no path could run.
bool survey_paths(const NumericsProbeOptions& options, const DeviceInfo& device, const NumericsProbeProgress& progress,
                  NumericsProbeReport& report, std::vector<Pending>& paths) {
  const bool simulated = !options.simulate_arch.empty();
  auto skip = [&](const std::string& variant, const std::string& why) {
    report.skipped.push_back(variant + ": " + why);
    if (progress.skipped) progress.skipped(variant, why);
  };
  for (const MmaVariant& v : mma_variants()) {
    if (fnmatch(options.variant_glob.c_str(), v.name().c_str(), 0) != 0) continue;
    if (std::string reason = simulated ? "" : unsupported_reason(v, device); !reason.empty()) {
      skip(v.name(), reason);
      continue;
    }
    Pending p{&v, {}, {}, {}};
    // Wide shapes get fewer instances, at least 20 a class: enough to fit every parameter.
    const int per_class = scaled_per_class(options.per_class, v.layout.c_count(), 20);
    try {
      p.records = simulated ? simulate_survey_instances(v, per_class, kNumericsSurveySeed, options.simulate_arch)
                            : run_survey_instances(v, per_class, kNumericsSurveySeed);
    } catch (const std::invalid_argument& e) {  // simulating: no model of this variant
      skip(v.name(), e.what());
      continue;
    } catch (const CudaError& e) {
      report.stop = NumericsProbeStop::kSurvey;
      report.error = fmt::format("{}: {}", v.name(), e.what());
      return false;
    } catch (const std::exception& e) {  // the layout self-test
      p.error = e.what();
    }
    paths.push_back(std::move(p));
  }
  if (paths.empty()) {
    report.stop = NumericsProbeStop::kSurvey;
    report.error = fmt::format("no MMA path matching '{}' runs on this GPU ({} skipped)", options.variant_glob,
                               report.skipped.size());
    return false;
  }
  return true;
}

// One path's fit, after its vector file (kept only for paths with numeric.feature.* tests:
// the entries' sources).
void fit_path(Pending& p, const NumericsProbeOptions& options, const std::string& vectors_dir,
              const std::vector<std::pair<std::string, std::string>>& header, const std::string& arch) {
  PathFit& f = p.result;
  f.feature_path = feature_path_of(p.variant->name());
  if (!p.error.empty()) {
    f.fit.variant = p.variant->name();
    f.fit.error = fmt::format("{}: {}", p.variant->name(), p.error);
    return;
  }
  try {
    if (!vectors_dir.empty() && !f.feature_path.empty()) {
      const std::string file = p.variant->name() + ".txt.xz";
      write_survey_vectors((fs::path(vectors_dir) / file).string(), *p.variant, p.records, header);
      f.vectors = numerics_vectors_folder(options.out) + "/" + file;
    }
  } catch (const std::exception& e) {
    f.fit.error = fmt::format("{}: vector file not written: {}", p.variant->name(), e.what());
  }
  InferResult r = infer_records(p.variant->layout, std::move(p.records), arch);
  if (f.fit.error.empty() || !r.error.empty()) f.fit = std::move(r);
  else f.fit.variant = r.variant;  // keep the I/O error: it makes the run unusable
}

// 2. The fits (and the vector files), one path per worker; returns the number of workers.
unsigned fit_paths(std::vector<Pending>& paths, const NumericsProbeOptions& options, const std::string& vectors_dir,
                   const std::vector<std::pair<std::string, std::string>>& header, const std::string& arch) {
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < paths.size();) fit_path(paths[i], options, vectors_dir, header, arch);
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = std::min<unsigned>(options.jobs > 0 ? static_cast<unsigned>(options.jobs) : cores,
                                           static_cast<unsigned>(paths.size()));
  std::vector<std::thread> workers;
  for (unsigned j = 0; j < jobs; ++j) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();
  return jobs;
}

// 3. The entries the fits pin, as an expectation file written whole or not at all.
bool write_entries(const NumericsProbeOptions& options, const ProbeIdCheck& known_probe,
                   NumericsProbeReport& report) {
  const ExpectationFile file = numerics_expectations(report.fits, report.facts, known_probe, &report.left_out);
  try {
    write_file_atomically(options.out, render_numerics_file(file, report.facts.arch));
  } catch (const std::exception& e) {
    report.stop = NumericsProbeStop::kWrite;
    report.error = e.what();
    return false;
  }
  report.entries_written = file.entries.size();
  return true;
}

}  // namespace

std::string numerics_vectors_folder(const std::string& out) {
  return fs::path(out).stem().string() + "-vectors";
}

NumericsProbeReport probe_numerics(const NumericsProbeOptions& options, const ProbeIdCheck& known_probe,
                                   const NumericsProbeProgress& progress) {
  const auto start = Clock::now();
  NumericsProbeReport report;
  DeviceInfo device;
  if (!open_target(options, device, report)) return report;
  if (progress.opened) progress.opened(report.facts);
  const bool simulated = !options.simulate_arch.empty();
  const auto header = survey_header(simulated ? nullptr : &device, report.facts.arch, kNumericsSurveySeed);
  if (!options.out.empty()) {
    report.vectors_dir = (fs::path(options.out).parent_path() / numerics_vectors_folder(options.out)).string();
    std::error_code ec;
    fs::create_directories(report.vectors_dir, ec);
    if (ec) {
      report.stop = NumericsProbeStop::kSetup;
      report.error = fmt::format("cannot create {}: {}", report.vectors_dir, ec.message());
      return report;
    }
  }
  std::vector<Pending> paths;
  if (!survey_paths(options, device, progress, report, paths)) return report;
  report.gpu_seconds = seconds_since(start);
  report.jobs = fit_paths(paths, options, report.vectors_dir, header, report.facts.arch);
  for (Pending& p : paths) {
    const InferResult& r = p.result.fit;
    report.io_error |= r.error.find("vector file not written") != std::string::npos;
    report.unmatched |= !r.error.empty() || r.matched != r.outputs;
    report.fits.push_back(std::move(p.result));
  }
  if (!options.out.empty() && !write_entries(options, known_probe, report)) return report;
  report.total_seconds = seconds_since(start);
  return report;
}

}  // namespace gpuconform::numerics
