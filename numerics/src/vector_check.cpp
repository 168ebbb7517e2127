// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/vector_check.hpp"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <stdexcept>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_report.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/simple_models.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

namespace gpuconform::numerics {
namespace {

// The model a file is checked with: a block-FMA row of the reference or a simple model. For
// mma.sp files a block row is taken under one of two hypotheses (sparse_mma.hpp): over each
// row's kept products (compressed) or over the whole row with its zeros (dense, which is the
// plain row applied to the K-wide file).
struct Evaluator {
  const ref::TensorCoreModel* block = nullptr;
  const SimpleModel* simple = nullptr;
  bool compressed = false;  // mma.sp hypothesis (a)
  std::string_view prefix;  // "compressed:" / "dense:" for mma.sp block rows

  explicit operator bool() const { return block || simple; }
  std::string describe() const {
    if (!block) return fmt::format("{} ({})", simple->id, simple->description);
    const char* how = prefix.empty() ? ""
                      : compressed   ? ", each row's K/2 kept products as its K/2 operand"
                                     : ", all K products of each row, zeros in place";
    return fmt::format("{}{} ({}{})", prefix, block->id, ref::describe(*block), how);
  }
  // `metadata`: a sparse file's nibbles (null: the launcher's rule, for in-memory runs).
  void run(const VectorVariant& v, const std::uint64_t* a, const std::uint64_t* b, const std::uint64_t* c,
           std::uint64_t* d, const std::uint8_t* metadata = nullptr) const {
    if (block && compressed)
      compressed_mma(*block, v, a, b, c, d, metadata);
    else if (block)
      ref::mma(*block, v.m, v.n, v.k, a, b, c, d);
    else
      simple->mma(v, a, b, c, d);
  }
};

std::string known_models() {
  std::string out;
  for (const std::string& id : ref::model_ids()) out += (out.empty() ? "" : ", ") + id;
  for (const SimpleModel& m : simple_models()) out += ", " + m.id;
  return out;
}

// Whether a reference model's formats are the variant's.
std::string block_model_misfit(const ref::TensorCoreModel& m, const VectorVariant& v) {
  const ref::FloatFormat* ab = float_format(v.ab_type);
  const ref::FloatFormat* cd = float_format(v.d_type);
  if (!ab || m.a_format.name != ab->name)
    return fmt::format("its A/B format is {}, the file's is {}", m.a_format.name, element_name(v.ab_type));
  if (!cd || m.acc_format.name != cd->name)
    return fmt::format("its D format is {}, the file's is {}", m.acc_format.name, element_name(v.d_type));
  return {};
}

// Finds the model, or says why there is none (`unusable`: the request itself is wrong).
// `header_arch`: the file's `# arch:` line, used when the options name no architecture.
Evaluator choose_model(const VectorVariant& v, const std::string& header_arch, const CheckOptions& options,
                       std::string& why, bool& unusable) {
  Evaluator e;
  unusable = true;
  if (!options.model.empty()) {
    if ((e.simple = find_simple_model(options.model))) {
      if (!e.simple->fits(v)) why = fmt::format("model {} does not fit variant {}", options.model, v.name);
      return why.empty() ? e : Evaluator{};
    }
    std::string_view id = options.model;
    if (is_sparse(v)) {  // a block row needs its hypothesis
      for (const std::string_view prefix : {kCompressedPrefix, kDensePrefix})
        if (id.substr(0, prefix.size()) == prefix) e.prefix = prefix;
      if (e.prefix.empty()) {
        why = fmt::format(
            "{} is sparse: name a block model as {}ID (the kept products) or {}ID (the whole row), "
            "or a simple model",
            v.name, kCompressedPrefix, kDensePrefix);
        return {};
      }
      id.remove_prefix(e.prefix.size());
      e.compressed = e.prefix == kCompressedPrefix;
    }
    if ((e.block = ref::find_model(id))) {
      const std::string misfit = block_model_misfit(*e.block, v);
      if (!misfit.empty()) why = fmt::format("model {} does not fit variant {}: {}", options.model, v.name, misfit);
      return why.empty() ? e : Evaluator{};
    }
    why = fmt::format("unknown model '{}' (known: {})", options.model, known_models());
    return {};
  }
  if ((e.simple = default_simple_model(v))) return e;
  const std::string arch = options.arch.empty() ? header_arch : options.arch;
  if (arch.empty()) {
    why = "no architecture: pass --arch sm_XX or --model ID (the file has no '# arch:' line)";
    return {};
  }
  unusable = false;
  if (is_sparse(v)) {  // default: hypothesis (a), the row of the dense K/2 variant
    e.prefix = kCompressedPrefix;
    e.compressed = true;
    if ((e.block = sparse_default_model(arch, v))) return e;
    why = fmt::format("no model for {} (compressed to {}) on {} (pass --model ID to choose one)", v.name,
                      compressed_variant(v).name, arch);
    return {};
  }
  if ((e.block = ref::default_model(arch, v.arithmetic_name()))) return e;
  why = fmt::format("no model for {} on {} (pass --model ID to choose one)", v.name, arch);
  return {};
}

// The counts and examples of a finished comparison.
void summarise(const MismatchReport& report, FileCheck& out) {
  out.total = report.compared();
  out.matched = out.total - report.mismatches();
  out.mismatches = report.examples();
  out.by_class = report.by_class();
  out.status = report.mismatches() == 0 ? CheckStatus::kMatched : CheckStatus::kMismatched;
}

}  // namespace

FileCheck check_vectors(VectorReader& reader, const CheckOptions& options) {
  FileCheck out;
  out.path = reader.name();
  Evaluator model;
  std::optional<MismatchReport> report;
  std::vector<std::uint64_t> want;
  VectorRecord r;
  try {
    while (reader.next(r)) {
      const VectorVariant& v = *reader.variant();
      if (out.instances++ == 0) {
        out.variant = v.name;
        std::string why;
        bool unusable = false;
        model = choose_model(v, reader.header_value("arch"), options, why, unusable);
        if (!model) {
          out.status = unusable ? CheckStatus::kUnusable : CheckStatus::kNoModel;
          out.error = fmt::format("{}: {}", reader.name(), why);
          if (unusable) return out;
        } else {
          out.model = model.describe();
          report.emplace(v, options.shown);
          want.resize(v.c_count());
        }
      }
      if (!model) continue;  // no model: still read every line, so a malformed one is caught
      try {
        model.run(v, r.a.data(), r.b.data(), r.c.data(), want.data(), r.e.empty() ? nullptr : r.e.data());
      } catch (const std::invalid_argument& e) {  // mma.sp: A of this line is not sparse
        throw VectorFileError(reader.name(), r.line, e.what());
      }
      report->compare(fmt::format("line {}", r.line), r.klass, r.a, r.b, r.c, r.d.data(), want.data(),
                      "file", "model");
    }
  } catch (const VectorFileError& e) {
    out.status = CheckStatus::kUnusable;
    out.error = e.what();
    return out;
  }
  if (out.instances == 0) {
    out.status = CheckStatus::kUnusable;
    out.error = reader.name() + ": no instances";
    return out;
  }
  if (!model) return out;
  summarise(*report, out);
  return out;
}

FileCheck check_records(const VectorVariant& v, const std::vector<ref::MmaRecord>& records,
                        const CheckOptions& options) {
  FileCheck out;
  out.variant = v.name;
  out.instances = records.size();
  std::string why;
  bool unusable = false;
  const Evaluator model = choose_model(v, "", options, why, unusable);
  if (!model) {
    out.status = unusable ? CheckStatus::kUnusable : CheckStatus::kNoModel;
    out.error = why;
    return out;
  }
  if (records.empty()) {
    out.error = "no instances";
    return out;
  }
  out.model = model.describe();
  MismatchReport report(v, options.shown);
  std::vector<std::uint64_t> want(v.c_count());
  for (std::size_t n = 0; n < records.size(); ++n) {
    const ref::MmaRecord& r = records[n];
    try {
      model.run(v, r.a.data(), r.b.data(), r.c.data(), want.data());
    } catch (const std::invalid_argument& e) {  // mma.sp: A of this instance is not sparse
      out.status = CheckStatus::kUnusable;
      out.error = fmt::format("instance {}: {}", n, e.what());
      return out;
    }
    report.compare(fmt::format("instance {}", n), r.klass, r.a, r.b, r.c, r.d.data(), want.data(), "gpu", "model");
  }
  summarise(report, out);
  return out;
}

FileCheck check_vector_file(const std::string& path, const CheckOptions& options) {
  try {
    VectorReader reader = VectorReader::open(path);
    return check_vectors(reader, options);
  } catch (const VectorFileError& e) {
    FileCheck out;
    out.path = path;
    out.error = e.what();
    return out;
  }
}

std::vector<std::string> candidate_models(const VectorVariant& v) {
  std::vector<std::string> ids;
  for (const ref::TensorCoreModel& m : ref::models()) {
    if (!block_model_misfit(m, v).empty()) continue;
    if (is_sparse(v)) {  // both hypotheses of every row
      ids.push_back(std::string(kCompressedPrefix) + m.id);
      ids.push_back(std::string(kDensePrefix) + m.id);
    } else {
      ids.push_back(m.id);
    }
  }
  for (const SimpleModel& m : simple_models())
    if (m.fits(v)) ids.push_back(m.id);
  return ids;
}

BenchResult bench_model(const std::string& model_id, const std::string& variant, double seconds) {
  const ref::TensorCoreModel* model = ref::find_model(model_id);
  if (!model) throw std::invalid_argument(fmt::format("unknown model '{}' (known: {})", model_id, known_models()));
  std::string why;
  const auto v = parse_variant(variant, why);
  if (!v) throw std::invalid_argument(why);
  if (const std::string misfit = block_model_misfit(*model, *v); !misfit.empty())
    throw std::invalid_argument(fmt::format("model {} does not fit variant {}: {}", model_id, variant, misfit));
  // Inputs drawn once (normal and wide alternately), replayed until `seconds` have passed.
  constexpr int kInstances = 256;
  ref::Rng rng(20240601);
  std::vector<MmaInstance> instances;
  for (int i = 0; i < kInstances; ++i) {
    auto drawn = draw_instances(*v, i % 2 == 0 ? "normal" : "wide", 1, rng);
    instances.push_back(std::move(drawn.front()));
  }
  std::vector<std::uint64_t> d(v->c_count());
  using Clock = std::chrono::steady_clock;
  BenchResult result;
  result.model = model->id;
  std::uint64_t checksum = 0;
  const auto start = Clock::now();
  do {
    for (const MmaInstance& in : instances) {
      ref::mma(*model, v->m, v->n, v->k, in.a.data(), in.b.data(), in.c.data(), d.data());
      checksum += d[checksum % d.size()];  // keeps the work observable
    }
    result.outputs += kInstances * v->c_count();
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (result.seconds < seconds);
  static volatile std::uint64_t sink;  // keeps the model's work observable
  sink = sink + checksum;
  return result;
}

}  // namespace gpuconform::numerics
