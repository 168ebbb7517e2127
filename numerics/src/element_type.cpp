// SPDX-License-Identifier: Apache-2.0
// Element types and the variant-name grammar of vector files (element_type.hpp).
#include "gpuconform/numerics/element_type.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "gpuconform/numerics/sparse_a.hpp"

namespace gpuconform {
namespace {

// mmasp: 2:4 sparse mma.sp; wgmmasp: 2:4 sparse wgmma.mma_async.sp.
constexpr std::array<const char*, 6> kInstructions = {"mma", "mmasp", "wmma", "wgmma", "wgmmasp", "tcgen05"};
// satfinite: integer D saturates; areg: wgmma A in registers; xor/and: the bit operation of
// b1; sel0/sel1: the sparsity selector of mmasp and wgmmasp (which threads of a group of four
// hold the metadata).
constexpr std::array<const char*, 6> kQualifiers = {"satfinite", "areg", "xor", "and", "sel0", "sel1"};
constexpr std::array<ElementType, 4> kDTypes = {ElementType::f64, ElementType::f32,
                                                ElementType::f16, ElementType::s32};
constexpr std::array<ElementType, 11> kAbTypes = {
    ElementType::f64,  ElementType::tf32, ElementType::f16, ElementType::bf16, ElementType::e4m3, ElementType::e5m2,
    ElementType::s8,   ElementType::u8,   ElementType::s4,  ElementType::u4,   ElementType::b1};
constexpr int kMaxDimension = 256;  // the largest m, n or k of any PTX MMA shape

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return parts;
}

template <std::size_t N>
std::string join(const std::array<const char*, N>& names) {
  std::string out;
  for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

template <std::size_t N>
std::string join(const std::array<ElementType, N>& types) {
  std::string out;
  for (ElementType t : types) out += (out.empty() ? "" : ", ") + std::string(element_name(t));
  return out;
}

// m16n8k16 -> {16, 8, 16}; false unless the text is exactly that form.
bool parse_shape(std::string_view s, int dims[3]) {
  const char letters[3] = {'m', 'n', 'k'};
  std::size_t pos = 0;
  for (int d = 0; d < 3; ++d) {
    if (pos >= s.size() || s[pos] != letters[d]) return false;
    ++pos;
    int value = 0;
    const std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9' && pos - start < 4)
      value = value * 10 + (s[pos++] - '0');
    if (pos == start || value < 1 || value > kMaxDimension) return false;
    dims[d] = value;
  }
  return pos == s.size();
}

}  // namespace

// Quotes text for a message, escaping what a terminal would not show.
std::string quote_for_message(std::string_view s) {
  constexpr std::size_t kShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < kShown; ++i) {
    const auto ch = static_cast<unsigned char>(s[i]);
    if (ch >= 0x20 && ch < 0x7F) {
      out += static_cast<char>(ch);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", ch);
      out += hex;
    }
  }
  return out + (s.size() > kShown ? "...'" : "'");
}

std::string_view element_name(ElementType t) {
  switch (t) {
    case ElementType::f64: return "f64";
    case ElementType::f32: return "f32";
    case ElementType::tf32: return "tf32";
    case ElementType::f16: return "f16";
    case ElementType::bf16: return "bf16";
    case ElementType::e4m3: return "e4m3";
    case ElementType::e5m2: return "e5m2";
    case ElementType::s32: return "s32";
    case ElementType::s8: return "s8";
    case ElementType::u8: return "u8";
    case ElementType::s4: return "s4";
    case ElementType::u4: return "u4";
    case ElementType::b1: return "b1";
  }
  return "?";
}

std::optional<ElementType> parse_element(std::string_view name) {
  for (ElementType t : {ElementType::f64, ElementType::f32, ElementType::tf32, ElementType::f16,
                        ElementType::bf16, ElementType::e4m3, ElementType::e5m2, ElementType::s32,
                        ElementType::s8, ElementType::u8, ElementType::s4, ElementType::u4, ElementType::b1})
    if (element_name(t) == name) return t;
  return std::nullopt;
}

int element_bits(ElementType t) {
  switch (t) {
    case ElementType::f64: return 64;
    case ElementType::f32:
    case ElementType::tf32:  // the whole fp32 register, low 13 bits included
    case ElementType::s32: return 32;
    case ElementType::f16:
    case ElementType::bf16: return 16;
    case ElementType::e4m3:
    case ElementType::e5m2:
    case ElementType::s8:
    case ElementType::u8: return 8;
    case ElementType::s4:
    case ElementType::u4: return 4;
    case ElementType::b1: return 1;
  }
  return 0;
}

std::size_t VectorVariant::metadata_count() const {
  return sparse() ? static_cast<std::size_t>(m) * (k / numerics::sparse::chunk_width(element_bits(ab_type))) : 0;
}

bool VectorVariant::has(std::string_view qualifier) const {
  return std::find(qualifiers.begin(), qualifiers.end(), qualifier) != qualifiers.end();
}

std::string VectorVariant::arithmetic_name() const {
  std::string out = instruction + "_m" + std::to_string(m) + "n" + std::to_string(n) + "k" +
                    std::to_string(k) + "_" + std::string(element_name(d_type)) + "_" +
                    std::string(element_name(ab_type));
  // Where an operand lives (areg) and which threads hold the sparse metadata (sel0, sel1)
  // change no arithmetic.
  for (const std::string& q : qualifiers)
    if (q != "areg" && q != "sel0" && q != "sel1") out += "_" + q;
  return out;
}

std::optional<VectorVariant> parse_variant(std::string_view name, std::string& why) {
  const std::string prefix = "unknown variant " + quote_for_message(name) + ": ";
  const std::vector<std::string_view> parts = split(name, '_');
  if (parts.size() < 4) {
    why = prefix + "expected <instruction>_<shape>_<D type>_<A/B type>[_<qualifier>], e.g. "
                   "mma_m16n8k16_f32_bf16";
    return std::nullopt;
  }
  VectorVariant v;
  v.name = std::string(name);
  v.instruction = std::string(parts[0]);
  if (std::none_of(kInstructions.begin(), kInstructions.end(),
                   [&](const char* i) { return parts[0] == i; })) {
    why = prefix + "instruction " + quote_for_message(parts[0]) + " is not one of " + join(kInstructions);
    return std::nullopt;
  }
  int dims[3];
  if (!parse_shape(parts[1], dims)) {
    why = prefix + "shape " + quote_for_message(parts[1]) + " is not m<M>n<N>k<K> with each in 1.." +
          std::to_string(kMaxDimension);
    return std::nullopt;
  }
  v.m = dims[0], v.n = dims[1], v.k = dims[2];
  const auto d = parse_element(parts[2]);
  if (!d || std::find(kDTypes.begin(), kDTypes.end(), *d) == kDTypes.end()) {
    why = prefix + "D type " + quote_for_message(parts[2]) + " is not one of " + join(kDTypes);
    return std::nullopt;
  }
  const auto ab = parse_element(parts[3]);
  if (!ab || std::find(kAbTypes.begin(), kAbTypes.end(), *ab) == kAbTypes.end()) {
    why = prefix + "A/B type " + quote_for_message(parts[3]) + " is not one of " + join(kAbTypes);
    return std::nullopt;
  }
  v.d_type = *d;
  v.ab_type = *ab;
  for (std::size_t i = 4; i < parts.size(); ++i) {
    if (std::none_of(kQualifiers.begin(), kQualifiers.end(),
                     [&](const char* q) { return parts[i] == q; })) {
      why = prefix + "qualifier " + quote_for_message(parts[i]) + " is not one of " + join(kQualifiers);
      return std::nullopt;
    }
    if (v.has(parts[i])) {
      why = prefix + "qualifier " + quote_for_message(parts[i]) + " given twice";
      return std::nullopt;
    }
    v.qualifiers.emplace_back(parts[i]);
  }
  if (v.has("satfinite") && v.d_type != ElementType::s32) {
    why = prefix + "satfinite needs an s32 D";
    return std::nullopt;
  }
  // b1 MMA is a popc of a bit operation, which the name must say (PTX has no default).
  const bool bit_op = v.has("xor") || v.has("and");
  if (v.ab_type == ElementType::b1 && (!bit_op || (v.has("xor") && v.has("and")))) {
    why = prefix + "b1 needs exactly one of the qualifiers xor, and (the bit operation before popc)";
    return std::nullopt;
  }
  if (v.ab_type != ElementType::b1 && bit_op) {
    why = prefix + "xor and and are b1 qualifiers; the A/B type is " + std::string(element_name(v.ab_type));
    return std::nullopt;
  }
  if (v.ab_type == ElementType::b1 && v.d_type != ElementType::s32) {
    why = prefix + "b1 needs an s32 D";
    return std::nullopt;
  }
  if ((v.has("sel0") || v.has("sel1")) && !v.sparse()) {
    why = prefix + "a sparsity selector (sel0, sel1) needs a sparse instruction (mmasp, wgmmasp)";
    return std::nullopt;
  }
  if (v.sparse() && v.k % numerics::sparse::chunk_width(element_bits(v.ab_type)) != 0) {
    why = prefix + "a sparse K must be a whole number of metadata chunks (of " +
          std::to_string(numerics::sparse::chunk_width(element_bits(v.ab_type))) + ")";
    return std::nullopt;
  }
  if (v.has("sel0") && v.has("sel1")) {
    why = prefix + "one sparsity selector only (sel0 or sel1)";
    return std::nullopt;
  }
  return v;
}

}  // namespace gpuconform
