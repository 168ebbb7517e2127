// SPDX-License-Identifier: Apache-2.0
// Sparse metadata checks (sparse_metadata.hpp). std::string only: the vector-file fuzzer
// compiles this file without the formatting library.
#include "gpuconform/numerics/sparse_metadata.hpp"

#include <stdexcept>

#include "gpuconform/numerics/sparse_a.hpp"

namespace gpuconform::numerics {
namespace {

std::string hex_digit(unsigned nibble) { return std::string(1, "0123456789abcdef"[nibble & 0xF]); }

std::string where(int row, int chunk, int width) {
  return "row " + std::to_string(row) + " chunk " + std::to_string(chunk) + " (k " + std::to_string(chunk * width) +
         ".." + std::to_string(chunk * width + width - 1) + ")";
}

}  // namespace

std::vector<std::uint8_t> sparse_metadata(const VectorVariant& v, const std::uint64_t* a) {
  const int bits = element_bits(v.ab_type), width = sparse::chunk_width(bits), chunks = v.k / width;
  std::vector<std::uint8_t> nibbles(v.metadata_count());
  std::vector<std::uint64_t> kept(static_cast<std::size_t>(v.k / 2));
  for (int i = 0; i < v.m; ++i)
    if (!sparse::compress_row(a + static_cast<std::size_t>(i) * v.k, v.k, bits, kept.data(),
                              nibbles.data() + static_cast<std::size_t>(i) * chunks, nullptr))
      throw std::invalid_argument(v.name + ": row " + std::to_string(i) + " of A has more than " +
                                  std::to_string(width / 2) + " non-zero elements in a chunk of " +
                                  std::to_string(width) + ": not structured-sparse");
  return nibbles;
}

std::string metadata_problem(const VectorVariant& v, const std::uint64_t* a, const std::uint8_t* nibbles) {
  const int width = sparse::chunk_width(element_bits(v.ab_type)), chunks = v.k / width;
  for (int i = 0; i < v.m; ++i)
    for (int c = 0; c < chunks; ++c) {
      const unsigned nibble = nibbles[static_cast<std::size_t>(i) * chunks + c];
      sparse::Kept kept{{0, 0}};
      if (nibble > 0xF || !sparse::kept_of(width, nibble, kept))
        return where(i, c, width) + ": metadata " + hex_digit(nibble) + " is not a kept set the PTX ISA defines" +
               (width == 2 ? " for tf32 (4: element 0, e: element 1)" : " (two ascending 2-bit indices)");
      for (int p = 0; p < width; ++p) {
        const std::uint64_t x = a[static_cast<std::size_t>(i) * v.k + c * width + p];
        if (x != 0 && p != kept.pos[0] && p != kept.pos[1])
          return where(i, c, width) + ": metadata " + hex_digit(nibble) +
                 " drops k = " + std::to_string(c * width + p) + ", where A holds a non-zero element";
      }
    }
  return {};
}

std::string metadata_ambiguity(const VectorVariant& v, const std::uint64_t* a) {
  const int width = sparse::chunk_width(element_bits(v.ab_type)), keep = width / 2;
  for (int i = 0; i < v.m; ++i)
    for (int c = 0; c < v.k / width; ++c) {
      int nonzero = 0;
      for (int p = 0; p < width; ++p) nonzero += a[static_cast<std::size_t>(i) * v.k + c * width + p] != 0;
      if (nonzero < keep)
        return where(i, c, width) + " of A has " + std::to_string(nonzero) + " non-zero element" +
               (nonzero == 1 ? "" : "s") + " where " + std::to_string(keep) + (keep == 1 ? " is" : " are") +
               " kept: which zero the hardware kept (and multiplied by B: 0 x inf = NaN) is not in the file";
    }
  return {};
}

}  // namespace gpuconform::numerics
