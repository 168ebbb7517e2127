// `gpuconform record`: measure this GPU and write (or extend) an expectation
// file whose every entry cites the run record line it came from.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "gpuconform/conformance.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/record_writer.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/run_record_reader.hpp"

namespace gpuconform::cli {
namespace {
namespace fs = std::filesystem;

struct RecordArgs {
  int device = 0;
  std::string out;
  std::string evidence;
  std::vector<std::string> probes{"*"};
  int runs = 3;
  bool overlay = false;
  std::string description;
  bool quick = false;
  std::vector<std::string> from;  // run records to derive from instead of measuring
  bool missing = false;           // only probes the file has no entry for
  std::vector<std::string> gpus;  // --from: only runs of boards whose UUID starts so
};

int count_lines(const std::string& path) {
  std::ifstream in(path);
  int n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

// Reads the file `record` extends; false (after saying why) when it is invalid.
bool load_existing(const std::string& out, ExpectationFile& file) {
  file.path = out;
  if (!fs::exists(out)) return true;
  std::vector<Diagnostic> diags;
  const Registry& reg = Registry::instance();
  file = parse_expectation_file(
      out, diags, [&](const std::string& id) { return reg.find(id) != nullptr; }, reg.ids());
  if (diags.empty()) return true;
  for (const auto& d : diags) fmt::print(stderr, "{}\n", d.str());
  fmt::print(stderr, "gpuconform record: {} is invalid; fix it or write to a new file\n", out);
  return false;
}

void replace_entry(ExpectationFile& file, Expectation e) {
  file.entries.erase(std::remove_if(file.entries.begin(), file.entries.end(),
                                    [&](const Expectation& x) { return x.probe_id == e.probe_id; }),
                     file.entries.end());
  file.entries.push_back(std::move(e));
}

void write_file(ExpectationFile& file, const std::string& out) {
  std::sort(file.entries.begin(), file.entries.end(),
            [](const Expectation& a, const Expectation& b) { return a.probe_id < b.probe_id; });
  const std::string tmp = out + ".tmp";
  std::ofstream(tmp) << render_expectation_file(file);
  fs::rename(tmp, out);  // atomic replace: a crash never leaves half a file
}

// `record --from`: no GPU. Pools the runs of each wanted probe from run records written
// on one or more GPUs of one architecture and SKU, one group per GPU.
int record_from_runs(const RecordArgs& args) {
  std::vector<RecordedRun> all;
  try {
    for (const auto& path : args.from) {
      auto runs = read_run_record(path);
      all.insert(all.end(), runs.begin(), runs.end());
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpuconform record: {}\n", e.what());
    return kExitUnusable;
  }
  ExpectationFile file;
  if (!load_existing(args.out, file)) return kExitUnusable;
  const fs::path out_dir = fs::absolute(args.out).parent_path();
  int written = 0, failures = 0;
  for (const Probe& probe : Registry::instance().all()) {
    if (!is_selectable(probe) || !glob_match_any(args.probes, probe.id)) continue;
    std::vector<std::string> gpus;  // in order of first appearance
    std::vector<std::vector<Measurement>> machines;
    std::vector<std::string> sources;  // first line of each GPU's runs
    for (const RecordedRun& r : all) {
      if (r.probe != probe.id) continue;
      if (!args.gpus.empty() && std::none_of(args.gpus.begin(), args.gpus.end(),
                                             [&](const std::string& g) { return r.gpu.rfind(g, 0) == 0; }))
        continue;
      // One architecture file, or one SKU's overlay: refuse runs from elsewhere.
      std::string& scope = args.overlay ? file.sku : file.arch;
      const std::string& run_scope = args.overlay ? r.sku : r.arch;
      if (scope.empty()) scope = run_scope;
      if (run_scope != scope) {
        fmt::print(stderr, "gpuconform record: {}:{} is a run on {}; {} is for {}\n", r.file, r.line, run_scope,
                   args.out, scope);
        return kExitUnusable;
      }
      const auto at = std::find(gpus.begin(), gpus.end(), r.gpu);
      const auto index = static_cast<std::size_t>(at - gpus.begin());
      if (at == gpus.end()) {
        gpus.push_back(r.gpu);
        machines.emplace_back();
        sources.push_back(fmt::format("run:{}:{}", fs::relative(fs::absolute(r.file), out_dir).string(), r.line));
      }
      machines[index].push_back(r.measurement);
    }
    if (machines.empty()) continue;
    try {
      replace_entry(file, derive_expectation_across(probe, machines, sources.front(),
                                                    {sources.begin() + 1, sources.end()}));
      ++written;
      fmt::print("  derived  {:<44} from {} GPU(s)\n", probe.id, machines.size());
    } catch (const std::exception& err) {
      ++failures;
      fmt::print("  FAILED   {:<44} {}\n", probe.id, err.what());
    }
  }
  if (written == 0) {
    fmt::print(stderr, "gpuconform record: no run of a probe matching {} in the given run records\n",
               fmt::join(args.probes, " "));
    return kExitUnusable;
  }
  if (file.description.empty()) file.description = args.description;
  write_file(file, args.out);
  fmt::print("wrote {} entries to {}\n", written, args.out);
  return failures ? kExitFailed : kExitOk;
}

int record(const RecordArgs& args) {
  if (!args.from.empty()) return record_from_runs(args);
  std::string why;
  const int count = device_count(&why);
  if (count == 0) {
    fmt::print(stderr, "gpuconform record: {}; nothing was recorded\n", why);
    return kExitUnusable;
  }
  if (args.device < 0 || args.device >= count) {
    fmt::print(stderr, "gpuconform record: --device {} does not exist (0..{})\n", args.device, count - 1);
    return kExitUnusable;
  }
  const DeviceInfo device = query_device(args.device);
  ExpectationFile file;
  if (!load_existing(args.out, file)) return kExitUnusable;
  if (args.overlay) file.sku = device.sku(); else file.arch = device.arch();
  if (!args.description.empty()) file.description = args.description;
  if (file.description.empty()) file.description = device.name;

  const fs::path out_dir = fs::absolute(args.out).parent_path();
  const std::string evidence = args.evidence.empty()
      ? (out_dir / "evidence" / fmt::format("{}-{}-{}.jsonl", device.arch(), device.sku().empty() ? "unknown" : device.sku(),
                                             utc_timestamp().substr(0, 10))).string()
      : args.evidence;
  fs::create_directories(fs::absolute(evidence).parent_path());
  const std::string cited = fs::relative(fs::absolute(evidence), out_dir).string();
  int line = count_lines(evidence);
  int failures = 0, written = 0;
  fmt::print("recording on GPU {}: {} ({}, SKU {}), {} run(s) per probe\n", device.index, device.name, device.arch(),
             device.sku(), args.runs);
  for (const Probe& probe : Registry::instance().all()) {
    if (!is_selectable(probe) || !glob_match_any(args.probes, probe.id)) continue;
    if (args.missing && std::any_of(file.entries.begin(), file.entries.end(),
                                    [&](const Expectation& e) { return e.probe_id == probe.id; }))
      continue;
    std::vector<Measurement> runs;
    int first_line = 0;
    try {
      for (int r = 0; r < args.runs; ++r) {
        runs.push_back(run_probe(probe, device, RunOptions{args.quick}));
        TestResult result;
        result.probe = &probe;
        result.measurement = runs.back();
        result.verdict.reason = fmt::format("recorded (run {} of {})", r + 1, args.runs);
        nlohmann::json json = record_json(result, device);
        json["verdict"] = "recorded";
        append_record_line(evidence, json);
        if (!first_line) first_line = line + 1;
        ++line;
      }
      replace_entry(file, derive_expectation(probe, runs, fmt::format("run:{}:{}", cited, first_line)));
      ++written;
      fmt::print("  recorded {:<44} {}\n", probe.id, runs.front().unit);
    } catch (const ProbeSkipped& s) {
      fmt::print("  skipped  {:<44} {}\n", probe.id, s.what());
    } catch (const std::exception& err) {
      ++failures;
      fmt::print("  FAILED   {:<44} {}\n", probe.id, err.what());
    }
  }
  write_file(file, args.out);
  fmt::print("wrote {} entries to {} (evidence: {})\n", written, args.out, evidence);
  return failures ? kExitFailed : kExitOk;
}

}  // namespace

Command add_record_command(CLI::App& app) {
  auto args = std::make_shared<RecordArgs>();
  CLI::App* sub = app.add_subcommand("record", "Measure this GPU and write an expectation file (or a SKU overlay)");
  sub->add_option("--device", args->device, "GPU ordinal")->capture_default_str();
  sub->add_option("--out", args->out, "Expectation file to write or extend")->required();
  sub->add_option("--evidence", args->evidence, "Run record to append to (default: <out dir>/evidence/ARCH-SKU-DATE.jsonl)");
  sub->add_option("--probe", args->probes, "Probe id glob(s)")->capture_default_str();
  sub->add_option("--runs", args->runs, "Runs per probe; the tolerance comes from their spread")
      ->check(CLI::Range(1, 100))->capture_default_str();
  sub->add_flag("--overlay", args->overlay, "Write a SKU overlay ([meta] sku) instead of an architecture file");
  sub->add_option("--description", args->description, "[meta] description");
  sub->add_flag("--quick", args->quick, "Fewer repeats inside each run");
  sub->add_option("--from", args->from,
                  "Derive from these run records (one or more GPUs of one SKU) instead of measuring; needs no GPU")
      ->check(CLI::ExistingFile);
  sub->add_flag("--missing", args->missing, "Only the matching probes that have no entry in --out yet");
  sub->add_option("--gpu", args->gpus,
                  "With --from: only runs of the boards whose UUID starts with one of these (e.g. GPU-4250cf40)");
  return [args] { return record(*args); };
}

}  // namespace gpuconform::cli
