// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/path_survey.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/run_record.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/golden_generator.hpp"
#include "gpuconform/numerics/mma_check.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/simple_models.hpp"
#include "gpuconform/numerics/sparse_metadata.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

namespace gpuconform::numerics {

namespace {

// Layout instances first (they use the stream whether or not they run), then the classes
// and the probes: the GPU run and the simulation draw the same instances.
std::vector<MmaInstance> survey_instances(const VectorVariant& v, int per_class, ref::Rng& rng,
                                          bool literature_probes = true) {
  std::vector<MmaInstance> instances;
  for (const std::string& klass : random_classes(v))
    for (MmaInstance& in : draw_instances(v, klass, per_class, rng)) instances.push_back(std::move(in));
  if (literature_probes)
    for (MmaInstance& in : probe_instances(v)) instances.push_back(std::move(in));
  return instances;
}

std::vector<ref::MmaRecord> to_records(const VectorVariant& v, std::vector<MmaInstance>& instances,
                                       const std::vector<std::uint64_t>& d) {
  const std::size_t per = v.c_count();
  std::vector<ref::MmaRecord> records;
  records.reserve(instances.size());
  for (std::size_t i = 0; i < instances.size(); ++i) {
    MmaInstance& in = instances[i];
    records.push_back({std::move(in.klass), std::move(in.a), std::move(in.b), std::move(in.c),
                       std::vector<std::uint64_t>(d.begin() + i * per, d.begin() + (i + 1) * per)});
  }
  return records;
}

}  // namespace

std::vector<ref::MmaRecord> run_survey_instances(const MmaVariant& v, int per_class, std::uint64_t seed,
                                                 bool literature_probes) {
  ref::Rng rng(seed);
  check_layout(v, layout_instances(v.layout, 64, rng));
  std::vector<MmaInstance> instances = survey_instances(v.layout, per_class, rng, literature_probes);
  return to_records(v.layout, instances, v.run(instances));
}

std::vector<ref::MmaRecord> simulate_survey_instances(const MmaVariant& mv, int per_class, std::uint64_t seed,
                                                      const std::string& arch) {
  const VectorVariant& v = mv.layout;
  // Sparse float paths: the compressed hypothesis on the dense K/2 row (sparse_mma.hpp), the
  // model `vectors check` defaults to, with the launcher's metadata rule.
  const ref::TensorCoreModel* block =
      is_sparse(v) ? sparse_default_model(arch, v) : ref::default_model(arch, v.arithmetic_name());
  const SimpleModel* simple = default_simple_model(v);
  if (!block && !simple) throw std::invalid_argument(fmt::format("no model of {} on {} to simulate", v.name, arch));
  ref::Rng rng(seed);
  layout_instances(v, 64, rng);
  std::vector<MmaInstance> instances = survey_instances(v, per_class, rng);
  std::vector<std::uint64_t> d(instances.size() * v.c_count());
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const MmaInstance& in = instances[n];
    std::uint64_t* out = d.data() + n * v.c_count();
    if (block && is_sparse(v))
      compressed_mma(*block, v, in.a.data(), in.b.data(), in.c.data(), out);
    else if (block)
      ref::mma(*block, v.m, v.n, v.k, in.a.data(), in.b.data(), in.c.data(), out);
    else simple->mma(v, in.a.data(), in.b.data(), in.c.data(), out);
  }
  return to_records(v, instances, d);
}

std::vector<std::pair<std::string, std::string>> survey_header(const DeviceInfo* device, const std::string& arch,
                                                               std::uint64_t seed) {
  std::vector<std::pair<std::string, std::string>> h{{"arch", arch}};
  if (device) {
    h.emplace_back("source", "hardware (gpuconform probe numerics)");
    h.emplace_back("device", fmt::format("{} (pci device {}, {} SMs)", device->name, device->sku(), device->sm_count));
    h.emplace_back("driver", fmt::format("{} (CUDA driver API {}, runtime {})", device->driver_version,
                                         device->cuda_driver_version, device->cuda_runtime_version));
    h.emplace_back("self_test", "passed: 64 integer-valued instances gave the exact D");
  } else {
    h.emplace_back("source", "simulated by the " + arch + " models (not hardware: never commit as golden)");
  }
  h.emplace_back("nvcc", nvcc_version());
  h.emplace_back("suite", fmt::format("gpuconform {} ({})", suite_version(), suite_git_commit()));
  h.emplace_back("generated", utc_timestamp());
  h.emplace_back("seed", fmt::format("{:#x}", seed));
  return h;
}

void write_survey_vectors(const std::string& path, const MmaVariant& v, const std::vector<ref::MmaRecord>& records,
                          const std::vector<std::pair<std::string, std::string>>& header) {
  // The writer compresses by the name's suffix: the partial file keeps ".xz" last.
  const bool xz = path.size() > 3 && path.compare(path.size() - 3, 3, ".xz") == 0;
  const std::string partial = path + (xz ? ".partial.xz" : ".partial");
  {
    VectorWriter w(partial, v.layout);
    w.comment("format", v.layout.sparse() ? kSparseFormatLine : kFormatLine);
    w.comment("variant", v.name());
    w.comment("ptx", v.ptx);
    w.comment("layout", fmt::format("A {}x{} row-major, B {}x{} column-major, C and D {}x{} row-major", v.layout.m,
                                    v.layout.k, v.layout.k, v.layout.n, v.layout.m, v.layout.n));
    for (const auto& [key, value] : header) w.comment(key, value);
    w.comment("instances", std::to_string(records.size()));
    for (const ref::MmaRecord& r : records)  // sparse: the launcher's metadata (sparse_metadata.hpp)
      w.write(r.klass, r.a, r.b, r.c, r.d,
              v.layout.sparse() ? sparse_metadata(v.layout, r.a.data()) : std::vector<std::uint8_t>{});
    w.finish();
  }
  std::filesystem::rename(partial, path);
}

}  // namespace gpuconform::numerics
