// SPDX-License-Identifier: Apache-2.0
#pragma once
// The metadata of a 2:4 sparse instance (mma.sp, wgmma.mma_async.sp) as a vector file records
// it: one nibble per chunk of A, M x (K / chunk width) row-major (sparse_a.hpp's nibble_of).
// A file must record it because A alone does not decide it: a chunk with fewer non-zero
// elements than it keeps leaves the kept zero's position open, and the hardware multiplies a
// kept zero by B (0 x inf = NaN). Pure functions over the dense A, without the models, so that
// the vector-file reader (and its fuzzer) can use them.
#include <cstdint>
#include <string>
#include <vector>

#include "gpuconform/numerics/element_type.hpp"

namespace gpuconform::numerics {

// The metadata gpuconform's launcher gives the hardware: sparse::compress_row's rule (the
// non-zero elements, then the lowest-index zeros). Throws std::invalid_argument when a row
// is not structured-sparse.
std::vector<std::uint8_t> sparse_metadata(const VectorVariant& v, const std::uint64_t* a);

// "" when `nibbles` is valid metadata for A: every nibble names a kept set the PTX ISA
// defines, and every element it drops is zero (a dropped non-zero would make the compressed
// and the dense hypotheses disagree about the operand itself); else the reason.
std::string metadata_problem(const VectorVariant& v, const std::uint64_t* a, const std::uint8_t* nibbles);

// "" when A alone decides the metadata (every chunk holds as many non-zero elements as it
// keeps, so no zero is kept); else the first chunk that does not, as a reason.
std::string metadata_ambiguity(const VectorVariant& v, const std::uint64_t* a);

}  // namespace gpuconform::numerics
