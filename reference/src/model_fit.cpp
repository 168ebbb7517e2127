// SPDX-License-Identifier: Apache-2.0
// The parameter search of model_fit.hpp. A parameter is a name and a list of value labels;
// apply() writes a label into a TensorCoreModel and parameter_value() reads it back, so
// the search itself knows nothing of what the parameters mean.
#include "gpuconform/reference/model_fit.hpp"

#include "gpuconform/reference/decoded_dot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

namespace gpuconform::ref {
namespace {

bool is_fp8(const FloatFormat& f) { return f.width_bits() == 8; }

// Labels each parameter can take for these formats, in search order.
std::vector<std::string> labels(const std::string& name, const FitInput& in) {
  const bool f32 = in.acc_format.name == kFp32.name;
  if (name == "lowering") return {"native", "f16_hmma_pair"};
  if (name == "block_size") {
    std::vector<std::string> out;
    for (int l = 1; l <= std::min(in.k, 64); l *= 2) out.push_back(std::to_string(l));
    if (in.k <= 64 && (in.k & (in.k - 1)) != 0) out.push_back(std::to_string(in.k));
    return out;
  }
  if (name == "fraction_bits") {
    std::vector<std::string> out;
    for (int f = 8; f <= 40; ++f) out.push_back(std::to_string(f));  // models.cpp's bound: F <= 40
    return out;
  }
  if (name == "final_rounding") return {"rz", "rn"};
  if (name == "accumulator_format") return f32 ? std::vector<std::string>{"f32", "e8m13"} : std::vector<std::string>{"f16"};
  if (name == "e_zero") {
    // Every exponent a zero term could plausibly take, around the table's -133/-21: below
    // the smallest product exponent the value no longer matters (the fit says so: ambiguous).
    std::vector<std::string> out;
    const int lo = f32 ? -160 : -40, hi = f32 ? -110 : -5;
    for (int e = lo; e <= hi; ++e) out.push_back(std::to_string(e));
    return out;
  }
  if (name == "subnormal_inputs" || name == "subnormal_outputs") return {"kept", "flushed"};
  if (name == "negative_zero") return {"never", "ieee"};
  if (name == "overflow") return {"inf", "saturate"};
  if (name == "input_truncation") return {"truncate", "rne"};
  return {};
}

const std::vector<std::string>& structural() {
  static const std::vector<std::string> kNames = {"lowering", "block_size", "fraction_bits", "final_rounding",
                                                  "accumulator_format"};
  return kNames;
}

// Writes one label into the model.
void apply(TensorCoreModel& m, const std::string& name, const std::string& v) {
  if (name == "lowering") m.fp8_via_hmma_pair = v == "f16_hmma_pair";
  else if (name == "block_size") m.block_size = std::stoi(v);
  else if (name == "fraction_bits") m.fraction_bits = std::stoi(v);
  else if (name == "final_rounding") m.rounding = v == "rz" ? Rounding::kRZ : Rounding::kRNE;
  else if (name == "accumulator_format") m.round_format = v == "e8m13" ? kE8M13 : m.acc_format;
  else if (name == "e_zero") m.e_zero = std::stoi(v);
  else if (name == "subnormal_inputs") m.subnormal_inputs = v == "kept";
  else if (name == "subnormal_outputs") m.subnormal_outputs = v == "kept";
  else if (name == "negative_zero") m.ieee_zero_sign = v == "ieee";
  else if (name == "overflow") m.overflow = v == "inf" ? Overflow::kInfinity : Overflow::kSaturate;
  else if (name == "input_truncation") m.tf32_truncation = v == "truncate";
  else throw std::logic_error("model_fit: unknown parameter " + name);
}

bool is_nan(const FloatFormat& f, std::uint64_t bits) { return decode(f, bits).cls == FpClass::kNaN; }

// Where one sampled output lives: record, row, column.
struct OutRef {
  std::uint32_t record;
  std::uint16_t i, j;
  bool structural;  // in the well-scaled subset step 1 fits the structure on
};

class Sample {
 public:
  explicit Sample(const FitInput& in) : in_(in) {
    std::vector<OutRef> structure;  // the well-scaled outputs, placed first
    std::map<std::string, std::vector<OutRef>> by_class;
    for (std::uint32_t r = 0; r < in.records.size(); ++r) {
      const MmaRecord& rec = in.records[r];
      if (rec.klass.rfind("probe", 0) == 0) {
        // §3 vectors sit in row 0 of A and column 0 of B: D[0][0] is the only informative output.
        (structural_probe(rec.klass) ? structure : all_).push_back({r, 0, 0, structural_probe(rec.klass)});
        continue;
      }
      auto& list = by_class[rec.klass];
      for (int t = 0; t < 16 && list.size() < in.sample_per_class; ++t)
        list.push_back({r, static_cast<std::uint16_t>((t * 5 + r) % in.m), static_cast<std::uint16_t>((t * 3 + r) % in.n),
                        rec.klass == "normal" || rec.klass == "cancel" || rec.klass == "rounded"});
    }
    // Classes interleaved, so a wrong candidate meets every kind of input early.
    std::vector<std::vector<OutRef>*> lists;
    for (auto& [klass, list] : by_class) lists.push_back(&list);
    for (std::size_t t = 0;; ++t) {
      bool any = false;
      for (auto* list : lists) {
        if (t >= list->size()) continue;
        any = true;
        ((*list)[t].structural ? structure : all_).push_back((*list)[t]);
      }
      if (!any) break;
    }
    // Zero results of the random classes: rare (an underflow or an exact cancellation) and
    // the only outputs that tell the zero-sign and flush rules apart, so all of them count.
    std::size_t zeros = 0;
    for (std::uint32_t r = 0; r < in.records.size() && zeros < in.sample_per_class; ++r) {
      const MmaRecord& rec = in.records[r];
      if (rec.klass.rfind("probe", 0) == 0) continue;
      for (std::size_t at = 0; at < rec.d.size() && zeros < in.sample_per_class; ++at)
        if ((rec.d[at] & ~in.acc_format.sign_bit()) == 0) {
          all_.push_back({r, static_cast<std::uint16_t>(at / in.n), static_cast<std::uint16_t>(at % in.n), false});
          ++zeros;
        }
    }
    all_.insert(all_.begin(), structure.begin(), structure.end());  // the full sample, probes first
    std::stable_partition(all_.begin(), all_.end(),
                          [&](const OutRef& o) { return in.records[o.record].klass.rfind("probe", 0) == 0; });
  }

  // Mismatches of m on the structural or the full sample, abandoned above `limit`.
  std::uint64_t mismatches(const TensorCoreModel& m, bool structural_only, std::uint64_t limit) const {
    const std::vector<DecodedOperand>& ops = operands(m);
    const std::size_t k = static_cast<std::size_t>(in_.k);
    std::uint64_t bad = 0;
    for (std::size_t t = 0; t < all_.size(); ++t) {
      const OutRef& o = all_[t];
      if (structural_only && !o.structural) continue;
      const MmaRecord& r = in_.records[o.record];
      const std::size_t at = static_cast<std::size_t>(o.i) * in_.n + o.j;
      const std::uint64_t d = dot_decoded(m, in_.k, &ops[2 * t * k], &ops[(2 * t + 1) * k], r.c[at]);
      if (d != r.d[at] && ++bad > limit) return bad;
    }
    return bad;
  }
  std::size_t size() const { return all_.size(); }

 private:
  // Probes of the specials, subnormals and zero exponent test the edge rules, not the structure.
  static bool structural_probe(const std::string& klass) {
    for (const char* edge : {"special", "overflow", "subnormal", "e_zero", "zero"})
      if (klass.find(edge) != std::string::npos) return false;
    return true;
  }
  // A and B of every sampled output, decoded once per set of input rules (the only model
  // parameters decoding depends on): row i of A, then column j of B, K each.
  const std::vector<DecodedOperand>& operands(const TensorCoreModel& m) const {
    std::vector<DecodedOperand>& ops = decoded_[m.tf32_truncation * 2 + m.subnormal_inputs];
    if (!ops.empty() || all_.empty()) return ops;
    const std::size_t k = static_cast<std::size_t>(in_.k);
    ops.resize(2 * k * all_.size());
    for (std::size_t t = 0; t < all_.size(); ++t) {
      const MmaRecord& r = in_.records[all_[t].record];
      decode_operands(m, m.a_format, in_.k, &r.a[all_[t].i * k], &ops[2 * t * k]);
      decode_operands(m, m.b_format, in_.k, &r.b[all_[t].j * k], &ops[(2 * t + 1) * k]);
    }
    return ops;
  }

  const FitInput& in_;
  std::vector<OutRef> all_;  // probes first, then the classes interleaved, then zero results
  mutable std::map<int, std::vector<DecodedOperand>> decoded_;
};

// The most frequent NaN pattern of D: the canonical NaN, measured rather than searched.
std::uint64_t observed_nan(const FitInput& in, bool& seen) {
  std::map<std::uint64_t, std::uint64_t> counts;
  for (const MmaRecord& r : in.records)
    for (std::uint64_t d : r.d)
      if (is_nan(in.acc_format, d)) ++counts[d];
  seen = !counts.empty();
  if (!seen) return 0;
  return std::max_element(counts.begin(), counts.end(), [](auto& x, auto& y) { return x.second < y.second; })->first;
}

TensorCoreModel starting_model(const FitInput& in) {
  // A generic guess, deliberately not the table row: L = K, F = 24, RZ (RNE for f16 D).
  const bool f16 = in.acc_format.name == kFp16.name;
  TensorCoreModel m{"fitted", "", "", "vectors infer", in.ab_format, in.ab_format, in.acc_format, in.acc_format,
                    f16 ? Rounding::kRNE : Rounding::kRZ, std::min(in.k, 64), 24, f16 ? -21 : -133, true,
                    f16 ? std::uint64_t{0x7FFF} : std::uint64_t{0x7FFFFFFF}, {in.k}};
  return m;
}

// The label to keep among tied ones: the canonical model's, else the current one, else the first.
std::string prefer(const std::vector<std::string>& tied, const std::string& canonical, const std::string& current) {
  for (const std::string& want : {canonical, current})
    if (!want.empty() && std::find(tied.begin(), tied.end(), want) != tied.end()) return want;
  return tied.front();
}

}  // namespace

std::vector<std::string> parameter_names(const FloatFormat& ab, const FloatFormat& acc) {
  (void)acc;
  std::vector<std::string> names;
  if (is_fp8(ab)) names.push_back("lowering");
  for (const char* n : {"block_size", "fraction_bits", "final_rounding", "accumulator_format", "e_zero",
                        "subnormal_inputs", "subnormal_outputs", "negative_zero", "overflow"})
    names.push_back(n);
  if (ab.pad_bits > 0) names.push_back("input_truncation");
  return names;
}

std::string parameter_value(const TensorCoreModel& m, const std::string& name) {
  if (name == "lowering") return m.fp8_via_hmma_pair ? "f16_hmma_pair" : "native";
  if (name == "block_order") return m.fp8_via_hmma_pair ? "k%4<2_first" : "ascending_k";
  if (name == "products") return "exact";  // the only hypothesis the model has (numerics.md §1)
  if (name == "block_size") return std::to_string(m.block_size);
  if (name == "fraction_bits") return std::to_string(m.fraction_bits);
  if (name == "final_rounding") return m.rounding == Rounding::kRZ ? "rz" : m.rounding == Rounding::kRNE ? "rn" : "other";
  if (name == "accumulator_format") return std::string(m.round_format.name);
  if (name == "e_zero") return std::to_string(m.e_zero);
  if (name == "subnormal_inputs") return m.subnormal_inputs ? "kept" : "flushed";
  if (name == "subnormal_outputs") return m.subnormal_outputs ? "kept" : "flushed";
  if (name == "negative_zero") return m.ieee_zero_sign ? "ieee" : "never";
  if (name == "overflow") return m.overflow == Overflow::kInfinity ? "inf" : "saturate";
  if (name == "input_truncation") return m.tf32_truncation ? "truncate" : "rne";
  if (name == "nan_canonical") return fmt::format("0x{:x}", m.canonical_nan);
  return {};
}

const FitParameter* FitResult::find(const std::string& name) const {
  for (const FitParameter& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

bool FitResult::ambiguous() const {
  return std::any_of(params.begin(), params.end(), [](const FitParameter& p) { return !p.alternatives.empty(); });
}

FitResult fit_block_fma(const FitInput& in) {
  if (in.ab_format.name == kFp64.name || in.acc_format.name == kFp64.name ||
      (in.acc_format.name != kFp32.name && in.acc_format.name != kFp16.name))
    throw std::invalid_argument(fmt::format("no block-FMA model for {} inputs with {} D", in.ab_format.name,
                                            in.acc_format.name));
  if (in.m <= 0 || in.n <= 0 || in.k <= 0) throw std::invalid_argument("fit_block_fma: empty shape");
  for (const MmaRecord& r : in.records)
    if (r.a.size() != static_cast<std::size_t>(in.m) * in.k || r.b.size() != static_cast<std::size_t>(in.k) * in.n ||
        r.c.size() != static_cast<std::size_t>(in.m) * in.n || r.d.size() != r.c.size())
      throw std::invalid_argument(fmt::format("fit_block_fma: a record does not have the m{}n{}k{} sizes", in.m, in.n, in.k));

  const Sample sample(in);
  const std::vector<std::string> names = parameter_names(in.ab_format, in.acc_format);
  auto canonical = [&](const std::string& name) { return in.canonical ? parameter_value(*in.canonical, name) : ""; };
  auto searchable = [&](const std::string& name) { return std::find(names.begin(), names.end(), name) != names.end(); };

  TensorCoreModel m = starting_model(in);
  bool nan_seen = false;
  if (const std::uint64_t nan = observed_nan(in, nan_seen); nan_seen) m.canonical_nan = nan;
  else if (in.canonical) m.canonical_nan = in.canonical->canonical_nan;

  // One joint scan: every combination of `dims`' values, abandoned once worse than the best.
  // Sets the best combination in m (the canonical one among ties, else the current one)
  // and returns the other values each dimension takes among the tied combinations.
  std::uint64_t current = std::numeric_limits<std::uint64_t>::max() - 1;
  auto scan = [&](const std::vector<std::string>& dims, bool structural_only, bool& changed) {
    std::vector<std::vector<std::string>> values;
    std::vector<std::string> was;
    for (const std::string& d : dims) values.push_back(labels(d, in)), was.push_back(parameter_value(m, d));
    std::vector<std::size_t> idx(dims.size(), 0);
    std::uint64_t best = structural_only ? std::numeric_limits<std::uint64_t>::max() - 1 : current;
    std::vector<std::vector<std::string>> tied;
    for (;;) {
      TensorCoreModel c = m;
      std::vector<std::string> combo;
      for (std::size_t d = 0; d < dims.size(); ++d) {
        combo.push_back(values[d][idx[d]]);
        apply(c, dims[d], combo.back());
      }
      const std::uint64_t bad = !structural_only && combo == was ? current : sample.mismatches(c, structural_only, best);
      if (bad < best) tied.clear(), best = bad;
      if (bad == best) tied.push_back(combo);
      std::size_t d = 0;  // next combination (odometer)
      while (d < dims.size() && ++idx[d] == values[d].size()) idx[d++] = 0;
      if (d == dims.size()) break;
    }
    auto closeness = [&](const std::vector<std::string>& combo) {
      int canon = 0, same = 0;
      for (std::size_t d = 0; d < dims.size(); ++d) canon += combo[d] == canonical(dims[d]), same += combo[d] == was[d];
      return canon * 64 + same;
    };
    const std::vector<std::string> chosen =
        *std::max_element(tied.begin(), tied.end(), [&](auto& x, auto& y) { return closeness(x) < closeness(y); });
    std::map<std::string, std::vector<std::string>> alternatives;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      apply(m, dims[d], chosen[d]);
      changed |= chosen[d] != was[d];
      auto& alt = alternatives[dims[d]];
      for (const auto& combo : tied)
        if (combo[d] != chosen[d] && std::find(alt.begin(), alt.end(), combo[d]) == alt.end()) alt.push_back(combo[d]);
    }
    if (!structural_only) current = best;
    return alternatives;
  };

  // 1. Structure, jointly, on the well-scaled outputs.
  std::vector<std::string> structure;
  for (const std::string& d : structural())
    if (searchable(d)) structure.push_back(d);
  bool ignored = false;
  scan(structure, true, ignored);

  // 2. The edge rules, then the structure again, each group jointly, on the full sample,
  //    cycling until a whole round has passed since the last change; each parameter's ties
  //    (measured against the final model, since nothing changed after) are its ambiguity.
  //    The edge rules come first: until they are right, the outputs they decide would
  //    outvote the structure found in step 1. The two subnormal rules are scanned together:
  //    one at a time, flushing inputs can imitate flushed outputs and trap the search.
  std::vector<std::vector<std::string>> groups;
  for (const std::string& name : names)
    if (!searchable(name) || std::find(structure.begin(), structure.end(), name) != structure.end() ||
        name == "subnormal_outputs")
      continue;
    else if (name == "subnormal_inputs")
      groups.push_back({"subnormal_inputs", "subnormal_outputs"});
    else
      groups.push_back({name});
  for (const std::string& name : structure) groups.push_back({name});
  current = sample.mismatches(m, false, std::numeric_limits<std::uint64_t>::max());
  std::map<std::string, std::vector<std::string>> ties;
  std::size_t since_change = 0;
  for (std::size_t step = 0; since_change < groups.size() && step < 4 * groups.size(); ++step) {
    bool changed = false;
    const auto alternatives = scan(groups[step % groups.size()], false, changed);
    if (changed) {
      since_change = 1;
      ties.clear();  // measured against a model that no longer holds
    } else {
      ++since_change;
    }
    for (const auto& [name, alt] : alternatives) ties[name] = alt;
  }

  FitResult out;
  out.model = m;
  out.sample_outputs = sample.size();
  out.sample_mismatches = current;
  for (const std::string& name : names) out.params.push_back({name, parameter_value(m, name), ties[name]});
  out.params.push_back({"nan_canonical", parameter_value(m, "nan_canonical"),
                        nan_seen ? std::vector<std::string>{} : std::vector<std::string>{"not observed"}});
  if (is_fp8(in.ab_format)) out.params.push_back({"block_order", parameter_value(m, "block_order"), {}});
  return out;
}

std::pair<std::uint64_t, std::uint64_t> count_matches(const TensorCoreModel& m, const FitInput& in,
                                                      std::uint64_t* first_mismatch) {
  std::uint64_t matched = 0, total = 0;
  std::vector<std::uint64_t> d(static_cast<std::size_t>(in.m) * in.n);
  bool first = true;
  for (const MmaRecord& r : in.records) {
    mma(m, in.m, in.n, in.k, r.a.data(), r.b.data(), r.c.data(), d.data());
    for (std::size_t t = 0; t < d.size(); ++t, ++total) {
      if (d[t] == r.d[t]) {
        ++matched;
      } else if (first && first_mismatch) {
        *first_mismatch = total;
        first = false;
      }
    }
  }
  return {matched, total};
}

}  // namespace gpuconform::ref
