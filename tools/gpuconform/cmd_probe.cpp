// `gpuconform probe numerics`: investigate the tensor-core arithmetic of a live GPU. Every
// MMA path the GPU runs gets the discriminating instances (layout self-test, random input
// classes, the literature probes: path_survey.hpp), the block-FMA model is fitted to what
// the hardware returned (vector_infer.hpp), and the result is printed as one line per path
// plus one model-table row each; with --out, as an expectation file of numeric.feature.*
// entries whose source is the vector file kept beside it. The fits run in parallel, one
// path per core: the GPU part takes seconds, the fits most of the time.
// Exit: 0 every path's fit reproduces every output, 1 some output or self-test not,
// 2 could not run (no GPU, bad arguments, unwritable output).
#include <fmt/format.h>
#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include "commands.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_info.hpp"
#include "gpuconform/expectation_writer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/run_record.hpp"
#include "numeric/feature_probes.hpp"
#include "numeric/golden_generator.hpp"
#include "numeric/numerics_writer.hpp"
#include "numeric/path_survey.hpp"

namespace gpuconform::cli {
namespace {

using namespace gpuconform::kernels;
namespace fs = std::filesystem;

constexpr std::uint64_t kSurveySeed = 0x6e756d6572696373ull;  // "numerics"

struct ProbeArgs {
  int device = 0;
  std::string out;
  std::string variant_glob = "*";
  int per_class = kSurveyInstancesPerClass;
  int jobs = 0;  // 0: one per core
  std::string simulate_arch;  // no GPU: D from this architecture's models (tests the pipeline)
};

// A path's GPU records, then its fit.
struct Pending {
  const MmaVariant* variant;
  std::vector<ref::MmaRecord> records;
  std::string error;  // the GPU part failed (self-test, CUDA): no fit
  PathFit result;
};

// "dir/sm_90-numerics.toml" -> "sm_90-numerics-vectors": the vector files' folder, beside it.
std::string vectors_folder(const std::string& out) { return fs::path(out).stem().string() + "-vectors"; }

int numerics(const ProbeArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  const bool simulated = !args.simulate_arch.empty();
  DeviceInfo device;
  SurveyFacts facts;
  if (simulated) {
    facts = SurveyFacts{args.simulate_arch, "simulated (" + args.simulate_arch + " models, no GPU)", "none",
                        nvcc_version(), utc_timestamp()};
  } else {
    std::string why;
    const int count = device_count(&why);
    if (count == 0) {
      fmt::print(stderr, "gpuconform probe numerics: {}; nothing was probed\n", why);
      return kExitUnusable;
    }
    if (args.device < 0 || args.device >= count) {
      fmt::print(stderr, "gpuconform probe numerics: --device {} does not exist (GPUs 0..{})\n", args.device,
                 count - 1);
      return kExitUnusable;
    }
    use_device(args.device);
    device = query_device(args.device);
    facts = SurveyFacts{device.arch(), fmt::format("{} (pci {})", device.name, device.sku()), device.driver_version,
                        nvcc_version(), utc_timestamp()};
  }
  fmt::print("{}, {}, driver {}, nvcc {}\n", facts.device, facts.arch, facts.driver, facts.nvcc);
  const auto header = survey_header(simulated ? nullptr : &device, facts.arch, kSurveySeed);

  std::string vectors_dir;
  if (!args.out.empty()) {
    vectors_dir = (fs::path(args.out).parent_path() / vectors_folder(args.out)).string();
    std::error_code ec;
    fs::create_directories(vectors_dir, ec);
    if (ec) {
      fmt::print(stderr, "gpuconform probe numerics: cannot create {}: {}\n", vectors_dir, ec.message());
      return kExitUnusable;
    }
  }

  // 1. The GPU: every supported path, one after another.
  std::vector<Pending> paths;
  int skipped = 0;
  for (const MmaVariant& v : mma_variants()) {
    if (fnmatch(args.variant_glob.c_str(), v.name().c_str(), 0) != 0) continue;
    if (std::string reason = simulated ? "" : unsupported_reason(v, device); !reason.empty()) {
      fmt::print("skipped {}: {}\n", v.name(), reason);
      ++skipped;
      continue;
    }
    Pending p{&v, {}, {}, {}};
    // Wide shapes get fewer instances, at least 20 a class: enough to fit every parameter.
    const int per_class = scaled_per_class(args.per_class, v.layout.c_count(), 20);
    try {
      p.records = simulated ? simulate_survey_instances(v, per_class, kSurveySeed, args.simulate_arch)
                            : run_survey_instances(v, per_class, kSurveySeed);
    } catch (const std::invalid_argument& e) {  // simulating: no model of this variant
      fmt::print("skipped {}: {}\n", v.name(), e.what());
      ++skipped;
      continue;
    } catch (const CudaError& e) {
      // A sticky error poisons every later launch: stop, report what was done.
      fmt::print(stderr, "gpuconform probe numerics: {}: {}\n", v.name(), e.what());
      return kExitUnusable;
    } catch (const std::exception& e) {  // the layout self-test
      p.error = e.what();
    }
    paths.push_back(std::move(p));
  }
  if (paths.empty()) {
    fmt::print(stderr, "gpuconform probe numerics: no MMA path matching '{}' runs on this GPU ({} skipped)\n",
               args.variant_glob, skipped);
    return kExitUnusable;
  }
  const double gpu_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // 2. The fits (and the vector files), one path per worker.
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < paths.size();) {
      Pending& p = paths[i];
      PathFit& f = p.result;
      f.feature_path = feature_path_of(p.variant->name());
      if (!p.error.empty()) {
        f.fit.variant = p.variant->name();
        f.fit.error = fmt::format("{}: {}", p.variant->name(), p.error);
        continue;
      }
      try {
        // Only the entries' sources are kept: a path without numeric.feature.* tests needs none.
        if (!vectors_dir.empty() && !f.feature_path.empty()) {
          const std::string file = p.variant->name() + ".txt.xz";
          write_survey_vectors((fs::path(vectors_dir) / file).string(), *p.variant, p.records, header);
          f.vectors = vectors_folder(args.out) + "/" + file;
        }
      } catch (const std::exception& e) {
        f.fit.error = fmt::format("{}: vector file not written: {}", p.variant->name(), e.what());
      }
      InferResult r = infer_records(p.variant->layout, std::move(p.records), facts.arch);
      if (f.fit.error.empty() || !r.error.empty()) f.fit = std::move(r);
      else f.fit.variant = r.variant;  // keep the I/O error: it makes the run unusable
    }
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = std::min<unsigned>(args.jobs > 0 ? static_cast<unsigned>(args.jobs) : cores,
                                           static_cast<unsigned>(paths.size()));
  std::vector<std::thread> workers;
  for (unsigned j = 0; j < jobs; ++j) workers.emplace_back(work);
  for (std::thread& t : workers) t.join();

  // 3. The report.
  bool unmatched = false, io_error = false;
  std::vector<PathFit> fits;
  fmt::print("\n== fitted parameters (one line per path; '= MODEL': the table's model agrees)\n");
  for (Pending& p : paths) {
    const InferResult& r = p.result.fit;
    io_error |= r.error.find("vector file not written") != std::string::npos;
    unmatched |= !r.error.empty() || r.matched != r.outputs;
    fmt::print("{}\n", r.error.empty() ? infer_line(r) : "FAILED " + r.error);
    fits.push_back(std::move(p.result));
  }
  fmt::print("\n== model-table rows (reference/src/models.cpp kRows)\n");
  for (const PathFit& f : fits) fmt::print("{}\n", model_table_row(f, facts));

  if (!args.out.empty()) {
    const Registry& reg = Registry::instance();
    std::vector<std::string> left_out;
    const ExpectationFile file =
        numerics_expectations(fits, facts, [&](const std::string& id) { return reg.find(id) != nullptr; }, &left_out);
    const std::string partial = args.out + ".partial";
    std::ofstream os(partial);
    // The renderer's preamble speaks of `record`; this file's provenance is the survey.
    std::string text = render_expectation_file(file);
    text = fmt::format("# gpuconform expectations, written by `gpuconform probe numerics`: one numeric.feature.*\n"
                       "# test per parameter the fit pinned; each source is the vector file it was fitted to.\n"
                       "# Review before merging into expectations/{}.toml (a second board should agree).\n\n",
                       facts.arch) +
           text.substr(std::min(text.find("[meta]"), text.size()));
    os << text;
    os.close();
    if (!os) {
      fmt::print(stderr, "gpuconform probe numerics: cannot write {}\n", args.out);
      return kExitUnusable;
    }
    fs::rename(partial, args.out);
    if (!left_out.empty()) {
      fmt::print("\n== parameters not written (the data do not pin them)\n");
      for (const std::string& line : left_out) fmt::print("{}\n", line);
    }
    fmt::print("\n{} numeric.feature.* entries written to {} (vector files in {})\n", file.entries.size(), args.out,
               vectors_dir);
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("{} paths probed, {} skipped: GPU {:.1f} s, total {:.1f} s ({} fit workers)\n", paths.size(), skipped,
             gpu_seconds, total, jobs);
  if (io_error) return kExitUnusable;
  return unmatched ? kExitFailed : kExitOk;
}

}  // namespace

Command add_probe_command(CLI::App& app) {
  auto args = std::make_shared<ProbeArgs>();
  CLI::App* probe = app.add_subcommand("probe", "Investigate a live GPU: infer its tensor-core arithmetic");
  probe->require_subcommand(1, 1);
  CLI::App* num = probe->add_subcommand(
      "numerics", "Run discriminating MMA vectors on every path the GPU supports, fit the block-FMA model, print the "
                  "parameters and model-table rows; --out writes numeric.feature.* entries. Exit 0 every output "
                  "reproduced, 1 not, 2 could not run");
  num->add_option("--device", args->device, "GPU ordinal")->capture_default_str();
  num->add_option("--out", args->out,
                  "Expectation file to write (numeric.feature.* entries); its vector files go to STEM-vectors/ "
                  "beside it, the entries' source");
  num->add_option("--variant", args->variant_glob, "Only the MMA variants matching this glob")->capture_default_str();
  num->add_option("--per-class", args->per_class, "Random instances per input class")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  num->add_option("--simulate", args->simulate_arch,
                  "No GPU: take D from this architecture's models (tests the pipeline; not a measurement)");
  num->add_option("--jobs", args->jobs, "Fits in parallel (0: one per core)")->capture_default_str()->check(CLI::Range(0, 1024));
  return [=] {
    if (num->parsed()) return numerics(*args);
    return kExitUnusable;
  };
}

}  // namespace gpuconform::cli
