// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/vector_infer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/simple_models.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

namespace gpuconform::numerics {
namespace {

using Clock = std::chrono::steady_clock;

std::string hex(std::uint64_t bits, ElementType t) { return fmt::format("0x{:0{}x}", bits, element_digits(t)); }

// Integer and fp64 MMA: the candidates are the simple models; the fit is the one matching
// most outputs (the default on a tie), and the others that match as well are alternatives.
void infer_simple(const VectorVariant& v, const std::vector<ref::MmaRecord>& records, InferResult& out) {
  const SimpleModel* best = nullptr;
  std::uint64_t best_matched = 0;
  std::vector<std::string> tied;
  std::vector<std::uint64_t> d(v.c_count());
  const SimpleModel* fallback = default_simple_model(v);
  for (const SimpleModel& m : simple_models()) {
    if (!m.fits(v)) continue;
    std::uint64_t matched = 0, total = 0;
    for (const ref::MmaRecord& r : records) {
      m.mma(v, r.a.data(), r.b.data(), r.c.data(), d.data());
      for (std::size_t t = 0; t < d.size(); ++t, ++total) matched += d[t] == r.d[t];
    }
    out.outputs = total;
    if (!best || matched > best_matched || (matched == best_matched && &m == fallback)) {
      if (best && matched == best_matched) tied.push_back(best->id);
      else tied.clear();
      best = &m;
      best_matched = matched;
    } else if (matched == best_matched) {
      tied.push_back(m.id);
    }
  }
  if (!best) {
    out.error = fmt::format("no model of any kind fits variant {}", v.name);
    return;
  }
  out.matched = best_matched;
  out.fitted = fmt::format("{} ({})", best->id, best->description);
  out.params.push_back({"model", best->id, tied});
  out.table_model = fallback ? fallback->id : "";
  if (fallback && fallback != best) out.differs.push_back("model");
  out.sample_outputs = out.outputs;
}

void infer_block(const VectorVariant& v, std::vector<ref::MmaRecord> records, const std::string& arch,
                 InferResult& out) {
  ref::FitInput in;
  in.m = v.m;
  in.n = v.n;
  in.k = v.k;
  in.ab_format = *float_format(v.ab_type);
  in.acc_format = *float_format(v.d_type);
  in.records = std::move(records);
  in.canonical = arch.empty() ? nullptr : ref::default_model(arch, v.arithmetic_name());
  const ref::FitResult fit = ref::fit_block_fma(in);
  out.params = fit.params;
  out.sample_outputs = fit.sample_outputs;
  out.fitted = ref::describe(fit.model);
  std::uint64_t first = 0;
  std::tie(out.matched, out.outputs) = ref::count_matches(fit.model, in, &first);
  if (out.matched != out.outputs) {
    const std::size_t per = v.c_count();
    const ref::MmaRecord& r = in.records[first / per];
    const std::size_t at = first % per;
    std::vector<std::uint64_t> d(per);
    ref::mma(fit.model, v.m, v.n, v.k, r.a.data(), r.b.data(), r.c.data(), d.data());
    out.first_mismatch = fmt::format("instance {} ({}) D[{}][{}]: recorded {}, fitted model {}", first / per, r.klass,
                                     at / v.n, at % v.n, hex(r.d[at], v.d_type), hex(d[at], v.d_type));
  }
  if (in.canonical) {
    out.table_model = in.canonical->id;
    for (const ref::FitParameter& p : fit.params) {
      std::string want = ref::parameter_value(*in.canonical, p.name);
      // A block longer than K holds all K products: on this shape the table's L acts as K
      // (sm_90's L=16 row on m16n8k8 is one block of 8), and the fit can only see K.
      if (p.name == "block_size" && !want.empty() && std::stoi(want) > v.k) want = std::to_string(v.k);
      if (!want.empty() && want != p.value) out.differs.push_back(fmt::format("{} {} (table {})", p.name, p.value, want));
    }
  }
}

// mma.sp floating point: fit both hypotheses (sparse_mma.hpp) and keep the one that reproduces
// more outputs, compressed on a tie (the default). (a) fits the compressed problem, each row
// of each instance a 1 x K/2 record, against the table row of the dense K/2 variant; (b) fits
// the K-wide file as it is (no table row serves K, so no comparison). The result carries
// `sparse_products` = compressed | dense, with the other as its alternative when both fit as well.
void infer_sparse_block(const VectorVariant& v, std::vector<ref::MmaRecord> records, const std::string& arch,
                        const std::vector<std::vector<std::uint8_t>>& metadata, InferResult& out) {
  VectorVariant vc = compressed_variant(v);
  vc.m = 1;
  vc.name = vc.arithmetic_name();
  const VectorVariant vd = dense_variant(v);
  InferResult compressed, dense;
  compressed.variant = dense.variant = v.name;
  infer_block(vc, compressed_records(v, records, metadata), arch, compressed);
  infer_block(vd, std::move(records), arch, dense);
  const bool pick_dense = dense.matched > compressed.matched;
  InferResult& best = pick_dense ? dense : compressed;
  const InferResult& other = pick_dense ? compressed : dense;
  std::vector<std::string> alternatives;
  if (other.matched == best.matched) alternatives.push_back(pick_dense ? "compressed" : "dense");
  best.params.insert(best.params.begin(), {"sparse_products", pick_dense ? "dense" : "compressed", alternatives});
  best.hypotheses = fmt::format("compressed {}/{} outputs ({}), dense {}/{} outputs ({})", compressed.matched,
                                compressed.outputs, compressed.fitted, dense.matched, dense.outputs, dense.fitted);
  best.fitted = fmt::format("{} products: {}", pick_dense ? "all K" : "the K/2 kept", best.fitted);
  if (!pick_dense && !best.first_mismatch.empty())
    best.first_mismatch = "(instance = one row of a file instance) " + best.first_mismatch;
  out = std::move(best);
}

}  // namespace

std::string compact_values(const std::vector<std::string>& values) {
  std::vector<long> ints;
  for (const std::string& v : values) {
    if (v.empty() || v.find_first_not_of("-0123456789") != std::string::npos) return fmt::format("{}", fmt::join(values, ","));
    ints.push_back(std::stol(v));
  }
  std::sort(ints.begin(), ints.end());
  std::string out;
  for (std::size_t i = 0; i < ints.size();) {
    std::size_t j = i;
    while (j + 1 < ints.size() && ints[j + 1] == ints[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j > i + 1 ? fmt::format("{}..{}", ints[i], ints[j])
                                                 : j == i ? std::to_string(ints[i])
                                                          : fmt::format("{},{}", ints[i], ints[j]));
    i = j + 1;
  }
  return out;
}

bool fits_block_model(const VectorVariant& v) {
  return float_format(v.ab_type) && float_format(v.d_type) && v.d_type != ElementType::f64;
}

InferResult infer_records(const VectorVariant& v, std::vector<ref::MmaRecord> records, const std::string& arch,
                          const std::vector<std::vector<std::uint8_t>>& metadata) {
  InferResult out;
  out.variant = v.name;
  const auto start = Clock::now();
  try {
    if (records.empty()) throw std::invalid_argument("no instances");
    if (fits_block_model(v) && is_sparse(v))
      infer_sparse_block(v, std::move(records), arch, metadata, out);
    else if (fits_block_model(v))
      infer_block(v, std::move(records), arch, out);
    else
      infer_simple(v, records, out);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

InferResult infer_vector_file(const std::string& path, const std::string& arch) {
  const auto start = Clock::now();
  std::vector<ref::MmaRecord> records;
  std::vector<std::vector<std::uint8_t>> metadata;  // sparse files: each instance's recorded metadata
  std::string file_arch = arch;
  std::optional<VectorVariant> variant;
  try {
    VectorReader reader = VectorReader::open(path);
    VectorRecord r;
    while (reader.next(r)) {
      if (!r.e.empty()) metadata.push_back(std::move(r.e));
      records.push_back({std::move(r.klass), std::move(r.a), std::move(r.b), std::move(r.c), std::move(r.d)});
    }
    if (reader.variant()) variant = *reader.variant();
    if (file_arch.empty()) file_arch = reader.header_value("arch");
  } catch (const VectorFileError& e) {
    InferResult out;
    out.path = path;
    out.error = e.what();
    return out;
  }
  if (!variant || records.empty()) {
    InferResult out;
    out.path = path;
    out.error = path + ": no instances";
    return out;
  }
  InferResult out = infer_records(*variant, std::move(records), file_arch, metadata);
  out.path = path;
  if (!out.error.empty() && out.error.rfind(path, 0) != 0) out.error = path + ": " + out.error;
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();  // reading included
  return out;
}

std::string infer_line(const InferResult& r) {
  if (!r.error.empty()) return r.error;
  std::string params, ambiguous;
  for (const ref::FitParameter& p : r.params) {
    params += fmt::format("{}{}={}", params.empty() ? "" : " ", p.name, p.value);
    if (!p.alternatives.empty())
      ambiguous += fmt::format("{}{} also {}", ambiguous.empty() ? "" : "; ", p.name, compact_values(p.alternatives));
  }
  std::string line = fmt::format("{}: {} | {}/{} outputs | {:.2f} s", r.variant, params, r.matched, r.outputs, r.seconds);
  if (!r.table_model.empty())
    line += r.differs.empty() ? fmt::format(" | = {}", r.table_model)
                              : fmt::format(" | differs from {}: {}", r.table_model, fmt::join(r.differs, ", "));
  if (!ambiguous.empty()) line += fmt::format("\n  ambiguous (canonical value kept): {}", ambiguous);
  if (!r.hypotheses.empty()) line += "\n  sparse hypotheses, each fitted: " + r.hypotheses;
  if (!r.first_mismatch.empty()) line += "\n  first unmatched output: " + r.first_mismatch;
  return line;
}

std::string infer_json(const InferResult& r) {
  nlohmann::ordered_json j;
  j["file"] = r.path;
  j["variant"] = r.variant;
  if (!r.error.empty()) {
    j["error"] = r.error;
    return j.dump();
  }
  j["outputs"] = r.outputs;
  j["matched"] = r.matched;
  nlohmann::ordered_json params = nlohmann::ordered_json::object(), ambiguous = nlohmann::ordered_json::object();
  for (const ref::FitParameter& p : r.params) {
    // Integers stay numbers ("block_size": 16); every other value is a string.
    const bool integer = !p.value.empty() && p.value.find_first_not_of("-0123456789") == std::string::npos;
    params[p.name] = integer ? nlohmann::ordered_json(std::stol(p.value)) : nlohmann::ordered_json(p.value);
    if (!p.alternatives.empty()) ambiguous[p.name] = p.alternatives;
  }
  j["params"] = params;
  j["ambiguous"] = ambiguous;
  j["table_model"] = r.table_model;
  j["differs_from_table"] = r.differs;
  j["fitted"] = r.fitted;
  j["sample_outputs"] = r.sample_outputs;
  if (!r.first_mismatch.empty()) j["first_unmatched"] = r.first_mismatch;
  if (!r.hypotheses.empty()) j["sparse_hypotheses"] = r.hypotheses;
  j["seconds"] = r.seconds;
  return j.dump();
}

}  // namespace gpuconform::numerics
