// SPDX-License-Identifier: Apache-2.0
#pragma once
// The element types of MMA operands and the variant-name grammar of vector files
// (vector_file.hpp): what a name such as mma_m16n8k16_f32_bf16 says about the instruction,
// its shape and its operand types.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuconform {

// Element types of MMA operands, as spelled in variant names.
enum class ElementType : std::uint8_t { f64, f32, tf32, f16, bf16, e4m3, e5m2, s32, s8, u8, s4, u4, b1 };

std::string_view element_name(ElementType t);
std::optional<ElementType> parse_element(std::string_view name);
int element_bits(ElementType t);                    // register bits: tf32 is 32, b1 is 1
// Hex digits of one element in a vector file: a sub-byte element (s4, u4, b1) takes one.
inline int element_digits(ElementType t) { return (element_bits(t) + 3) / 4; }

// What a variant name says: `<instruction>_<shape>_<D type>_<A/B type>[_<qualifier>]...`,
// e.g. mma_m16n8k16_f32_bf16, mma_m16n8k32_s32_s8_satfinite, wgmma_m64n8k16_f32_f16_areg,
// mma_m16n8k256_s32_b1_xor (b1 names its bit operation, xor or and, before the popc sum).
struct VectorVariant {
  std::string name;
  std::string instruction;  // mma, mmasp, wmma, wgmma, wgmmasp, tcgen05
  int m = 0, n = 0, k = 0;
  ElementType d_type = ElementType::f32;   // C and D
  ElementType ab_type = ElementType::f16;  // A and B
  std::vector<std::string> qualifiers;     // satfinite (integer D), areg (wgmma A in registers),
                                           // xor / and (b1: the bit operation before popc)

  std::size_t a_count() const { return static_cast<std::size_t>(m) * k; }
  std::size_t b_count() const { return static_cast<std::size_t>(k) * n; }
  std::size_t c_count() const { return static_cast<std::size_t>(m) * n; }
  // 2:4 structured-sparse A (mma.sp, wgmma.mma_async.sp): A is kept dense with its zeros,
  // and each instance carries one metadata nibble per chunk of a row (sparse_a.hpp).
  bool sparse() const { return instruction == "mmasp" || instruction == "wgmmasp"; }
  std::size_t metadata_count() const;  // M x (K / chunk width) for sparse variants, else 0
  bool has(std::string_view qualifier) const;
  // The name without qualifiers that do not change the arithmetic (areg): the name
  // reference models are looked up by.
  std::string arithmetic_name() const;
};

// Parses a variant name. On failure returns nullopt and sets `why` to a reason that lists
// the allowed values.
std::optional<VectorVariant> parse_variant(std::string_view name, std::string& why);

// Quotes text for a message (at most 40 characters), escaping what a terminal would not show.
std::string quote_for_message(std::string_view s);

}  // namespace gpuconform
