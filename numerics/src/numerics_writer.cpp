// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/numerics/numerics_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "gpuconform/expectation_writer.hpp"
#include "gpuconform/numerics/vector_file.hpp"

namespace gpuconform::numerics {
namespace {

const ref::FitParameter* find_param(const InferResult& r, const std::string& name) {
  for (const ref::FitParameter& p : r.params)
    if (p.name == name) return &p;
  return nullptr;
}

std::string value_of(const InferResult& r, const std::string& name) {
  const ref::FitParameter* p = find_param(r, name);
  return p ? p->value : "";
}

// make_model()'s defaults for the rules a Row cannot state (models.cpp): what the row
// comment must name when the fit found otherwise.
const std::map<std::string, std::string>& row_defaults() {
  static const std::map<std::string, std::string> kDefaults = {
      {"lowering", "native"},        {"subnormal_inputs", "kept"}, {"subnormal_outputs", "kept"},
      {"negative_zero", "never"},    {"overflow", "inf"},          {"input_truncation", "truncate"},
  };
  return kDefaults;
}

// The models.cpp spelling of the A/B format; "" for one the table has no constant of.
std::string format_constant(ElementType t) {
  switch (t) {
    case ElementType::f16: return "&kFp16";
    case ElementType::bf16: return "&kBf16";
    case ElementType::tf32: return "&kTf32";
    case ElementType::e4m3: return "&kE4M3";
    case ElementType::e5m2: return "&kE5M2";
    default: return "";
  }
}

std::string instruction_of(const PathFit& f, const VectorVariant& v) {
  // A sparse path has no row of its own: its outputs follow the dense instruction's row
  // (compressed: at K/2, over the kept products; sparse_mma.hpp), which the row names.
  if (v.sparse()) return v.instruction == "wgmmasp" ? "wgmma" : "mma_sync";
  if (!f.feature_path.empty()) return f.feature_path.substr(0, f.feature_path.find('.'));
  return v.instruction == "mma" ? "mma_sync" : v.instruction;  // the model ids' spelling
}

std::string outputs_phrase(const InferResult& r) {
  return fmt::format("the fit reproduces {} of {} outputs{}", r.matched, r.outputs,
                     r.table_model.empty() ? ""
                     : r.differs.empty()   ? fmt::format(" (= {})", r.table_model)
                                           : fmt::format(" (differs from {})", r.table_model));
}

}  // namespace

ExpectationFile numerics_expectations(const std::vector<PathFit>& fits, const SurveyFacts& facts,
                                      const ProbeIdCheck& known_probe, std::vector<std::string>* left_out) {
  ExpectationFile file;
  file.arch = facts.arch;
  file.description = fmt::format("numeric.feature.* inferred by `gpuconform probe numerics` on {}, driver {}, nvcc {}, {}",
                                 facts.device, facts.driver, facts.nvcc, facts.date);
  auto skip = [&](std::string line) {
    if (left_out) left_out->push_back(std::move(line));
  };
  for (const PathFit& f : fits) {
    const InferResult& r = f.fit;
    if (f.feature_path.empty()) continue;
    if (!r.error.empty()) {
      skip(fmt::format("{}: no entries: {}", f.feature_path, r.error));
      continue;
    }
    if (r.outputs == 0 || r.matched != r.outputs) {
      skip(fmt::format("{}: no entries: {}", f.feature_path, outputs_phrase(r)));
      continue;
    }
    if (f.vectors.empty()) {
      skip(fmt::format("{}: no entries: its vectors were not kept (the entries' source)", f.feature_path));
      continue;
    }
    for (const ref::FitParameter& p : r.params) {
      const std::string id = fmt::format("numeric.feature.{}.{}", f.feature_path, p.name);
      if (known_probe && !known_probe(id)) continue;  // the fit reports it; no test reads it
      if (!p.alternatives.empty()) {
        skip(fmt::format("{}: {} also fits as {}", id, p.value, compact_values(p.alternatives)));
        continue;
      }
      Expectation e;
      e.probe_id = id;
      e.kind = ExpectationKind::exact;
      e.model = fmt::format("param:{}={}", p.name, p.value);
      e.unit = "mismatches";
      e.source = "golden:" + f.vectors;
      e.note = fmt::format("probe numerics: {} = {}; no other value fits as well; {}", p.name, p.value,
                           outputs_phrase(r));
      file.entries.push_back(std::move(e));
    }
  }
  return file;
}

std::string model_table_row(const PathFit& f, const SurveyFacts& facts) {
  const InferResult& r = f.fit;
  if (!r.error.empty()) return fmt::format("// {}: no row: {}", r.variant, r.error);
  std::string why;
  const auto v = parse_variant(r.variant, why);
  const std::string format = v ? format_constant(v->ab_type) : "";
  if (!v || format.empty() || !find_param(r, "block_size"))
    return fmt::format("// {}: no block-FMA row: {}", r.variant, r.fitted.empty() ? "no fit" : r.fitted);
  const std::string acc = value_of(r, "accumulator_format");
  const std::string out = acc == "f16" ? "Out::kF16" : acc == "e8m13" ? "Out::kF32E8M13" : "Out::kF32";
  std::vector<std::string> notes{"e_zero=" + value_of(r, "e_zero")};
  const bool compressed = v->sparse() && value_of(r, "sparse_products") == "compressed";
  if (v->sparse())
    notes.insert(notes.begin(), fmt::format("{}: sparse_products={}", v->name, value_of(r, "sparse_products")));
  // make_model() rounds f16 D RNE and every f32 grid RZ; anything else must be said.
  const std::string rounding = value_of(r, "final_rounding");
  if (rounding != (acc == "f16" ? "rn" : "rz")) notes.push_back("final_rounding=" + rounding);
  for (const auto& [name, fallback] : row_defaults())
    if (const ref::FitParameter* p = find_param(r, name); p && p->value != fallback)
      notes.push_back(fmt::format("{}={}", name, p->value));
  if (const ref::FitParameter* p = find_param(r, "block_order"); p && p->value != "ascending_k")
    notes.push_back("block_order=" + p->value);
  std::vector<std::string> ambiguous;
  for (const ref::FitParameter& p : r.params)
    if (!p.alternatives.empty()) ambiguous.push_back(p.name);
  if (!ambiguous.empty()) notes.push_back(fmt::format("not pinned: {}", fmt::join(ambiguous, ", ")));
  if (r.matched != r.outputs) notes.push_back(fmt::format("UNMATCHED: {}", outputs_phrase(r)));
  return fmt::format("{{\"{}\", \"{}\", {}, {}, {}, {}, {{{}}}, \"measured: gpuconform probe numerics, {}\"}},  // {}",
                     facts.arch, instruction_of(f, *v), out, format, value_of(r, "block_size"),
                     value_of(r, "fraction_bits"), compressed ? v->k / 2 : v->k, facts.device, fmt::join(notes, "; "));
}

std::string render_numerics_file(const ExpectationFile& file, const std::string& arch) {
  const std::string text = render_expectation_file(file);
  return fmt::format("# gpuconform expectations, written by `gpuconform probe numerics`: one numeric.feature.*\n"
                     "# test per parameter the fit pinned; each source is the vector file it was fitted to.\n"
                     "# Review before merging into expectations/{}.toml (a second board should agree).\n\n",
                     arch) +
         text.substr(std::min(text.find("[meta]"), text.size()));
}

}  // namespace gpuconform::numerics
