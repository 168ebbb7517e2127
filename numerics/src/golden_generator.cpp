// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/golden_generator.hpp"

#include <fmt/format.h>
#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "gpuconform/atomic_file.hpp"
#include "gpuconform/cuda_check.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/mma_check.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/simple_models.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

namespace gpuconform::numerics {
namespace {
namespace fs = std::filesystem;

constexpr int kLayoutInstances = 64;
constexpr const char* kSuffix = ".txt.xz";
constexpr const char* kPartialSuffix = ".partial.xz";  // while being written; renamed when complete

// FNV-1a: a seed per variant that does not depend on which other variants are generated.
std::uint64_t variant_seed(std::uint64_t seed, const std::string& name) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull;
  return h;
}

// Rows r >= distinct of A and C repeat row r % distinct. Every output is still computed by
// the hardware (at its own register position); the file only compresses better.
void repeat_rows(const VectorVariant& v, int distinct, MmaInstance& in) {
  if (distinct <= 0 || distinct >= v.m) return;
  for (int i = distinct; i < v.m; ++i) {
    const int from = i % distinct;
    std::copy_n(in.a.begin() + from * v.k, v.k, in.a.begin() + i * v.k);
    std::copy_n(in.c.begin() + from * v.n, v.n, in.c.begin() + i * v.n);
  }
}

// The block model --simulate uses: the table's row, or for mma.sp the default (compressed)
// hypothesis's row (sparse_mma.hpp).
const ref::TensorCoreModel* simulation_model(const std::string& arch, const VectorVariant& v) {
  return is_sparse(v) ? sparse_default_model(arch, v) : ref::default_model(arch, v.arithmetic_name());
}

// D from the CPU model, for --simulate.
std::vector<std::uint64_t> simulate(const VectorVariant& v, const std::string& arch,
                                    const std::vector<MmaInstance>& instances, std::string& model_id) {
  const SimpleModel* simple = default_simple_model(v);
  const ref::TensorCoreModel* block = simple ? nullptr : simulation_model(arch, v);
  if (!block && !simple) throw std::invalid_argument(fmt::format("no model of {} on {} to simulate", v.name, arch));
  model_id = block ? (is_sparse(v) ? std::string(kCompressedPrefix) : std::string()) + block->id : simple->id;
  std::vector<std::uint64_t> d(instances.size() * v.c_count());
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const MmaInstance& in = instances[n];
    std::uint64_t* out = d.data() + n * v.c_count();
    if (block && is_sparse(v))
      compressed_mma(*block, v, in.a.data(), in.b.data(), in.c.data(), out);
    else if (block)
      ref::mma(*block, v.m, v.n, v.k, in.a.data(), in.b.data(), in.c.data(), out);
    else
      simple->mma(v, in.a.data(), in.b.data(), in.c.data(), out);
  }
  return d;
}

// mma.sp: the metadata figures of the PTX ISA are pictures, so a failed self-test also tries
// the other readings of them (sparse_a.hpp MetaLayout) and names any that passes: one GPU run
// then says how to correct sparse::meta_at. The file is not written either way.
void check_sparse_layout(const MmaVariant& mv, const std::vector<MmaInstance>& instances) {
  try {
    check_layout(mv, instances);
    return;
  } catch (const CudaError&) {
    throw;
  } catch (const std::runtime_error& e) {
    std::string passing;
    for (int l = 1; l < sparse::kMetaLayouts; ++l) {
      const auto layout = static_cast<sparse::MetaLayout>(l);
      set_metadata_layout(layout);
      try {
        check_layout(mv, instances);
        passing += (passing.empty() ? "" : ", ") + std::string(sparse::meta_layout_name(layout));
      } catch (const CudaError&) {
        set_metadata_layout(sparse::MetaLayout::kColumnHalves);
        throw;
      } catch (const std::runtime_error&) {
      }
    }
    set_metadata_layout(sparse::MetaLayout::kColumnHalves);
    throw std::runtime_error(
        passing.empty()
            ? fmt::format("{}; no other reading of the metadata figures (sparse_a.hpp MetaLayout) passes either",
                          e.what())
            : fmt::format("{}; with metadata layout {} it passes (sparse_a.hpp MetaLayout): correct sparse::meta_at",
                          e.what(), passing));
  }
}

GeneratedFile generate_one(const MmaVariant& mv, const DeviceInfo& device, const GenerateOptions& options) {
  const VectorVariant& v = mv.layout;
  const bool simulated = !options.simulate_arch.empty();
  GeneratedFile g;
  g.variant = v.name;
  ref::Rng rng(variant_seed(options.seed, v.name));

  // 1. The fragment layout, on integer-valued instances exact in any model.
  if (simulated && !simulation_model(options.simulate_arch, v) && !default_simple_model(v)) {
    g.reason = fmt::format("no model of {} on {} to simulate", v.name, options.simulate_arch);
    return g;
  }
  if (!simulated) {
    if (std::string why = unsupported_reason(mv, device); !why.empty()) {
      g.reason = why;
      return g;
    }
    const std::vector<MmaInstance> layout = layout_instances(v, kLayoutInstances, rng);
    if (is_sparse(v))
      check_sparse_layout(mv, layout);  // throws: not written
    else
      check_layout(mv, layout);  // throws: not written
  }

  // 2. Random classes, then the literature's probes.
  const std::vector<std::string> classes = random_classes(v);
  const int per_class = (options.count + static_cast<int>(classes.size()) - 1) / static_cast<int>(classes.size());
  std::vector<MmaInstance> instances;
  std::string counts;
  for (const std::string& klass : classes) {
    for (MmaInstance& in : draw_instances(v, klass, per_class, rng)) {
      repeat_rows(v, options.distinct_rows, in);
      instances.push_back(std::move(in));
    }
    counts += fmt::format("{} {}, ", klass, per_class);
  }
  const std::vector<MmaInstance> probes = probe_instances(v);
  instances.insert(instances.end(), probes.begin(), probes.end());
  counts += fmt::format("probe {}", probes.size());

  // 3. D from the GPU (or the model when simulating).
  std::string model_id;
  const std::vector<std::uint64_t> d =
      simulated ? simulate(v, options.simulate_arch, instances, model_id) : mv.run(instances);

  // 4. The file: provenance first, then one line per instance.
  g.path = (fs::path(options.out_dir) / (v.name + kSuffix)).string();
  const std::string partial = (fs::path(options.out_dir) / (v.name + kPartialSuffix)).string();
  VectorWriter w(partial, v);
  w.comment("format", v.sparse() ? kSparseFormatLine : kFormatLine);
  w.comment("variant", v.name);
  w.comment("ptx", mv.ptx);
  w.comment("layout", fmt::format("A {}x{} row-major, B {}x{} column-major, C and D {}x{} row-major", v.m, v.k,
                                  v.k, v.n, v.m, v.n));
  if (simulated) {
    w.comment("arch", options.simulate_arch);
    w.comment("source", fmt::format("simulated by model {} (not hardware: never commit as golden)", model_id));
  } else {
    w.comment("arch", device.arch());
    w.comment("source", "hardware");
    w.comment("device", fmt::format("{} (pci device {}, {} SMs)", device.name, device.sku(), device.sm_count));
    w.comment("driver", fmt::format("{} (CUDA driver API {}, runtime {})", device.driver_version,
                                    device.cuda_driver_version, device.cuda_runtime_version));
    w.comment("self_test", fmt::format("passed: {} integer-valued instances gave the exact D", kLayoutInstances));
  }
  w.comment("nvcc", nvcc_version());
  w.comment("suite", fmt::format("gpuconform {} ({})", suite_version(), suite_git_commit()));
  w.comment("generated", utc_timestamp());
  w.comment("seed", fmt::format("{:#x}", options.seed));
  w.comment("instances", std::to_string(instances.size()));
  w.comment("classes", counts);
  if (options.distinct_rows > 0 && options.distinct_rows < v.m)
    w.comment("rows", fmt::format("random instances repeat rows 0..{} of A and C below them (row r = row r mod {}); "
                                  "every output was computed by the instruction",
                                  options.distinct_rows - 1, options.distinct_rows));
  const std::size_t per = v.c_count();
  std::vector<std::uint64_t> out(per);
  for (std::size_t n = 0; n < instances.size(); ++n) {
    std::copy_n(d.begin() + n * per, per, out.begin());
    // Sparse: the metadata the launcher gave the hardware (its rule, sparse_metadata), so
    // that a kept zero's position is in the file and not re-derived by whoever reads it.
    const MmaInstance& in = instances[n];
    w.write(in.klass, in.a, in.b, in.c, out,
            is_sparse(v) ? sparse_metadata(v, in.a.data()) : std::vector<std::uint8_t>{});
  }
  w.finish();
  fs::rename(partial, g.path);
  g.status = GenerateStatus::kWritten;
  g.instances = instances.size();
  g.bytes = fs::file_size(g.path);
  g.reason = counts;
  return g;
}

// "first .. last" of the files' `generated` timestamps (ISO 8601 sorts as text).
std::string generated_range(const std::map<std::string, std::map<std::string, std::string>>& files) {
  std::string first, last;
  for (const auto& [file, h] : files) {
    const auto it = h.find("generated");
    if (it == h.end()) continue;
    if (first.empty() || it->second < first) first = it->second;
    if (last.empty() || it->second > last) last = it->second;
  }
  return first == last ? first : first + " .. " + last;
}

}  // namespace

// Everything from this heading on is written by people (findings, models) and survives a
// rewrite of the generated part above it.
constexpr std::string_view kNotesHeading = "## Notes";

std::string kept_notes(const fs::path& readme) {
  std::ifstream in(readme);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t at = text.find("\n" + std::string(kNotesHeading) + "\n");
  return at == std::string::npos ? std::string() : text.substr(at);
}

void write_golden_readme(const std::string& dir) {
  const std::string notes = kept_notes(fs::path(dir) / "README.md");
  std::map<std::string, std::map<std::string, std::string>> files;  // file -> header
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= std::string(kSuffix).size() || name.substr(name.size() - 7) != kSuffix) continue;
    VectorReader r = VectorReader::open(entry.path().string());
    VectorRecord first;
    r.next(first);  // reads the header lines before the first instance
    for (const auto& [k, val] : r.header()) files[name][k] = val;
    files[name]["bytes"] = std::to_string(entry.file_size());
  }
  if (files.empty()) return;
  auto field = [&](const char* key) {
    std::string value;
    for (const auto& [file, h] : files) {
      const auto it = h.find(key);
      const std::string v = it == h.end() ? "?" : it->second;
      if (value.empty()) value = v;
      else if (value != v) return value + " (files differ: see their headers)";
    }
    return value;
  };
  std::ostringstream md;
  md << "# Golden MMA vectors (" << field("arch") << ")\n\n"
     << "Hardware results of every MMA variant the GPU below runs, one xz vector file per variant\n"
     << "(format: docs/vector-files.md). Written by `gpuconform vectors generate`; check them with\n"
     << "`gpuconform vectors check FILE...` (no GPU needed). Each file's `#` header repeats these facts.\n\n"
     << "| | |\n|---|---|\n"
     << "| GPU | " << field("device") << " |\n"
     << "| driver | " << field("driver") << " |\n"
     << "| nvcc | " << field("nvcc") << " |\n"
     << "| suite | " << field("suite") << " |\n"
     << "| source | " << field("source") << " |\n"
     << "| generated | " << generated_range(files) << " |\n\n"
     << "Every file passed the fragment-layout self-test before it was written: "
     << field("self_test") << ".\n\n"
     << "| file | PTX | instances | classes | bytes |\n|---|---|---|---|---|\n";
  std::uint64_t total = 0;
  for (const auto& [file, h] : files) {
    md << "| " << file << " | `" << h.at("ptx") << "` | " << h.at("instances") << " | " << h.at("classes")
       << " | " << h.at("bytes") << " |\n";
    total += std::stoull(h.at("bytes"));
  }
  md << "\nTotal: " << files.size() << " files, " << total << " bytes.\n" << notes;
  write_file_atomically((fs::path(dir) / "README.md").string(), md.str());  // whole or not at all
}

std::vector<GeneratedFile> generate_golden(const DeviceInfo& device, const GenerateOptions& options,
                                           const std::function<void(const GeneratedFile&)>& progress) {
  std::error_code ec;
  fs::create_directories(options.out_dir, ec);
  if (ec) throw std::runtime_error(fmt::format("{}: cannot create the directory: {}", options.out_dir, ec.message()));
  std::vector<GeneratedFile> results;
  for (const MmaVariant& v : mma_variants()) {
    if (fnmatch(options.variant_glob.c_str(), v.name().c_str(), 0) != 0) continue;
    GeneratedFile g;
    try {
      g = generate_one(v, device, options);
    } catch (const std::exception& e) {  // self-test failure, CUDA error, I/O error
      g = GeneratedFile{v.name(), GenerateStatus::kFailed, "", e.what()};
      std::error_code ignored;
      fs::remove(fs::path(options.out_dir) / (v.name() + kPartialSuffix), ignored);
    }
    if (progress) progress(g);
    results.push_back(std::move(g));
  }
  write_golden_readme(options.out_dir);
  return results;
}

}  // namespace gpuconform::numerics
