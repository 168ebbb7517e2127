// SPDX-License-Identifier: Apache-2.0
// `gpuconform vectors`: golden MMA vector files (docs/vector-files.md).
//   list      the MMA variants of this build (vector-file name, PTX, what the GPU needs)
//   generate  run every variant on the GPU and write one xz file each (kernels/numeric)
//   check     compare files with the models on the CPU: 0 all match, 1 a mismatch, 2 unusable
//   infer     fit the tensor-core model's parameters to files: 0 every output reproduced,
//             1 some output not, 2 unusable
//   bench     outputs per second of the fast model on one core
//   readme    rewrite DIR/README.md from the headers of DIR's vector files
//   upgrade   rewrite version-1 files in format version 2 (sparse: with their metadata)
#include <fmt/format.h>

#include <memory>

#include "commands.hpp"
#include "gpuconform/device_info.hpp"
#include "gpuconform/numerics/golden_generator.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/vector_check.hpp"
#include "gpuconform/numerics/vector_infer.hpp"
#include "gpuconform/numerics/vector_upgrade.hpp"

namespace gpuconform::cli {
namespace {

using namespace gpuconform::numerics;

struct VectorArgs {
  GenerateOptions generate;
  int device = 0;
  CheckOptions check;
  std::vector<std::string> files;
  bool candidates = false;
  std::string bench_model = "sm_90.mma_sync.f32.bf16";
  std::string bench_variant = "mma_m16n8k16_f32_bf16";
  double bench_seconds = 2.0;
  std::string readme_dir;
  std::vector<std::string> infer_files;
  std::string infer_arch;
  bool infer_json = false;
  std::vector<std::string> upgrade_files;
};

int list() {
  for (const MmaVariant& v : mma_variants()) {
    const std::string needs = v.needs_sm90a ? "sm_90a" : fmt::format("sm_{}+", v.min_cc);
    fmt::print("{:36} {:8} {}{}\n", v.name(), needs, v.ptx, v.probe_id.empty() ? "" : "  [" + v.probe_id + "]");
  }
  return kExitOk;
}

int generate(const VectorArgs& args) {
  DeviceInfo device;
  if (args.generate.simulate_arch.empty()) {
    std::string why;
    const int count = device_count(&why);
    if (count == 0) {
      fmt::print(stderr, "gpuconform vectors generate: {}; nothing was written (golden vectors come from a GPU)\n",
                 why);
      return kExitUnusable;
    }
    if (args.device < 0 || args.device >= count) {
      fmt::print(stderr, "gpuconform vectors generate: --device {} does not exist (GPUs 0..{})\n", args.device,
                 count - 1);
      return kExitUnusable;
    }
    use_device(args.device);  // the runners launch on the current device
    device = query_device(args.device);
    fmt::print("{} ({}, pci {}), driver {}, nvcc {}\n", device.name, device.arch(), device.sku(),
               device.driver_version, nvcc_version());
  }
  int written = 0, failed = 0, matched = 0;
  generate_golden(device, args.generate, [&](const GeneratedFile& g) {
    ++matched;
    switch (g.status) {
      case GenerateStatus::kWritten:
        ++written;
        fmt::print("written {}: {} instances, {} bytes ({})\n", g.path, g.instances, g.bytes, g.reason);
        break;
      case GenerateStatus::kSkipped: fmt::print("skipped {}: {}\n", g.variant, g.reason); break;
      case GenerateStatus::kFailed:
        ++failed;
        fmt::print("FAILED {}: {} (not written)\n", g.variant, g.reason);
        break;
    }
  });
  if (matched == 0) {
    fmt::print(stderr, "gpuconform vectors generate: no variant matches '{}' (see `gpuconform vectors list`)\n",
               args.generate.variant_glob);
    return kExitUnusable;
  }
  fmt::print("{} written, {} failed, {} skipped\n", written, failed, matched - written - failed);
  return failed ? kExitFailed : kExitOk;
}

// Prints one file's result; returns its status.
CheckStatus report(const FileCheck& r, bool show_mismatches) {
  switch (r.status) {
    case CheckStatus::kMatched:
    case CheckStatus::kMismatched:
      fmt::print("{}: {}/{} outputs match\n", r.variant, r.matched, r.total);
      fmt::print("  model {}; {} instances in {}\n", r.model, r.instances, r.path);
      if (r.status == CheckStatus::kMismatched) {
        fmt::print("  mismatches by class: {}\n", r.by_class);
        if (show_mismatches)
          for (const std::string& m : r.mismatches) fmt::print("  {}\n", m);
      }
      break;
    case CheckStatus::kNoModel:
      fmt::print("{}: not checked: {} ({} instances read)\n", r.variant, r.error, r.instances);
      break;
    case CheckStatus::kUnusable: fmt::print(stderr, "{}\n", r.error); break;
  }
  return r.status;
}

int check(const VectorArgs& args) {
  bool mismatch = false, unusable = false;
  for (const std::string& path : args.files) {
    const FileCheck first = check_vector_file(path, args.check);
    if (!args.candidates) {
      const CheckStatus s = report(first, true);
      mismatch |= s == CheckStatus::kMismatched;
      unusable |= s == CheckStatus::kNoModel || s == CheckStatus::kUnusable;
      continue;
    }
    // --candidates: every model that fits; the file passes when one matches every output.
    if (first.variant.empty()) {
      unusable |= report(first, false) == CheckStatus::kUnusable;
      continue;
    }
    std::string why;
    const std::vector<std::string> ids = candidate_models(*parse_variant(first.variant, why));
    bool any = false;
    for (const std::string& id : ids) {
      CheckOptions o = args.check;
      o.model = id;
      const CheckStatus s = report(check_vector_file(path, o), false);
      any |= s == CheckStatus::kMatched;
      unusable |= s == CheckStatus::kUnusable;
    }
    fmt::print("  {}: {}\n", first.variant, any ? "a candidate matches every output" : "no candidate matches");
    mismatch |= !any;
  }
  if (unusable) return kExitUnusable;
  return mismatch ? kExitFailed : kExitOk;
}

// One line per file (or a JSON array); exit 2 if a file is unusable, 1 if the best fit
// leaves an output unexplained: that output is printed, never hidden.
int infer(const VectorArgs& args) {
  bool unusable = false, unmatched = false;
  if (args.infer_json) fmt::print("[");
  for (std::size_t i = 0; i < args.infer_files.size(); ++i) {
    const InferResult r = infer_vector_file(args.infer_files[i], args.infer_arch);
    unusable |= !r.error.empty();
    unmatched |= r.error.empty() && r.matched != r.outputs;
    if (args.infer_json) {
      fmt::print("{}\n  {}", i ? "," : "", infer_json(r));
    } else if (!r.error.empty()) {
      fmt::print(stderr, "{}\n", r.error);
    } else {
      fmt::print("{}\n", infer_line(r));
    }
  }
  if (args.infer_json) fmt::print("\n]\n");
  if (unusable) return kExitUnusable;
  return unmatched ? kExitFailed : kExitOk;
}

int bench(const VectorArgs& args) {
  const BenchResult r = bench_model(args.bench_model, args.bench_variant, args.bench_seconds);
  fmt::print("{} on {}: {:.2f} million outputs/s on one core ({} outputs in {:.2f} s)\n", r.model,
             args.bench_variant, r.outputs_per_second() / 1e6, r.outputs, r.seconds);
  return kExitOk;
}

int readme(const VectorArgs& args) {
  try {
    write_golden_readme(args.readme_dir);
  } catch (const std::exception& e) {  // unreadable vector file, unwritable directory
    fmt::print(stderr, "gpuconform vectors readme: {}\n", e.what());
    return kExitUnusable;
  }
  fmt::print("{}/README.md written\n", args.readme_dir);
  return kExitOk;
}

// In place: each file is rewritten beside itself and renamed over it.
int upgrade(const VectorArgs& args) {
  int status = kExitOk;
  for (const std::string& file : args.upgrade_files) {
    try {
      const UpgradeResult r = upgrade_vector_file(file, file);
      if (r.already)
        fmt::print("{}: already format version 2\n", file);
      else
        fmt::print("{}: {} instances, now format version 2{}\n", file, r.instances,
                   r.sparse ? " with the launcher's metadata" : "");
    } catch (const std::exception& e) {
      fmt::print(stderr, "gpuconform vectors upgrade: {}\n", e.what());
      status = kExitUnusable;
    }
  }
  return status;
}

}  // namespace

Command add_vectors_command(CLI::App& app) {
  auto args = std::make_shared<VectorArgs>();
  CLI::App* vectors =
      app.add_subcommand("vectors", "Golden MMA vector files: list, generate, check, infer, bench, readme, upgrade");
  vectors->require_subcommand(1, 1);

  CLI::App* list_cmd = vectors->add_subcommand("list", "The MMA variants of this build");

  CLI::App* gen = vectors->add_subcommand("generate", "Run every MMA variant on the GPU and write vector files");
  gen->add_option("--out", args->generate.out_dir, "Output directory")->required();
  gen->add_option("--count", args->generate.count, "Random instances per variant (split over the classes)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  gen->add_option("--variant", args->generate.variant_glob, "Variant name glob")->capture_default_str();
  gen->add_option("--device", args->device, "GPU ordinal")->capture_default_str();
  gen->add_option("--seed", args->generate.seed, "Random seed")->capture_default_str();
  gen->add_option("--distinct-rows", args->generate.distinct_rows,
                  "Distinct rows of A and C per random instance (0: all)")
      ->capture_default_str()
      ->check(CLI::Range(0, 256));
  gen->add_option("--simulate", args->generate.simulate_arch,
                  "No GPU: take D from this architecture's model (tests the pipeline; not golden data)");

  CLI::App* chk = vectors->add_subcommand(
      "check", "Compare vector files (xz or text) with the models: exit 0 all match, 1 a mismatch, 2 unusable");
  auto* arch = chk->add_option("--arch", args->check.arch, "Architecture whose models apply (default: the file's)");
  auto* model = chk->add_option("--model", args->check.model, "Model id to use for every file")->excludes(arch);
  chk->add_flag("--candidates", args->candidates,
                "Try every model whose formats fit (any architecture); exit 0 when one matches each file")
      ->excludes(model);
  chk->add_option("files", args->files, "Vector files")->required();

  CLI::App* infer_cmd = vectors->add_subcommand(
      "infer", "Fit the tensor-core model's parameters (L, F, rounding, edge rules) to vector files; exit 0 when the "
               "fit reproduces every output, 1 when not, 2 unusable");
  infer_cmd->add_option("--arch", args->infer_arch, "Architecture whose table model breaks ties (default: the file's)");
  infer_cmd->add_flag("--json", args->infer_json, "A JSON array, one object per file");
  infer_cmd->add_option("files", args->infer_files, "Vector files")->required();

  CLI::App* bench_cmd = vectors->add_subcommand("bench", "Output elements per second of the fast model, one core");
  bench_cmd->add_option("--model", args->bench_model, "Reference model id")->capture_default_str();
  bench_cmd->add_option("--variant", args->bench_variant, "Variant whose shape is evaluated")->capture_default_str();
  bench_cmd->add_option("--seconds", args->bench_seconds, "Duration")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));

  CLI::App* readme_cmd = vectors->add_subcommand("readme", "Rewrite DIR/README.md from its vector files' headers");
  readme_cmd->add_option("dir", args->readme_dir, "Directory of vector files")->required()->check(CLI::ExistingDirectory);

  CLI::App* upgrade_cmd = vectors->add_subcommand(
      "upgrade",
      "Rewrite version-1 vector files in place in format version 2 (sparse files gain their metadata, "
      "by the rule of gpuconform's launcher; refused for files gpuconform did not write)");
  upgrade_cmd->add_option("files", args->upgrade_files, "Vector files")->required()->check(CLI::ExistingFile);

  return [=] {
    if (list_cmd->parsed()) return list();
    if (upgrade_cmd->parsed()) return upgrade(*args);
    if (readme_cmd->parsed()) return readme(*args);
    if (gen->parsed()) return generate(*args);
    if (chk->parsed()) return check(*args);
    if (infer_cmd->parsed()) return infer(*args);
    if (bench_cmd->parsed()) return bench(*args);
    return kExitUnusable;
  };
}

}  // namespace gpuconform::cli
