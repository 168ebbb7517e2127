// SPDX-License-Identifier: Apache-2.0
#pragma once
// The CPU half of the 2:4 sparse variants (mma.sp: mmasp_*, wgmma.mma_async.sp: wgmmasp_*):
// drawing sparse instances, their metadata, and the two hypotheses a sparse golden file is
// checked against (sparse_a.hpp holds the compression).
//
//   compressed  each output (i, j) is the dense model of the K/2 shape (same formats, the
//               table row the dense m16n8k(K/2) or m64nNk(K/2) variant uses) over the K/2 kept
//               products of row i in ascending k: the hardware sees only the compressed operand.
//   dense       the dense model of shape K over the whole row, zeros included: the zero
//               products still occupy their places in the blocks.
//
// They differ where a block boundary falls differently (K/2 kept products in one block of L,
// against K products in K/L blocks). Integer variants have one exact model, the same under both.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuconform/reference/model_fit.hpp"
#include "gpuconform/reference/random_inputs.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "gpuconform/numerics/vector_file.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_metadata.hpp"

namespace gpuconform::numerics {

inline bool is_sparse(const VectorVariant& v) { return v.sparse(); }

// The dense problem the compressed operand forms: mma_m<M>n<N>k<K/2>_<D>_<A/B> (mma.sp),
// wgmma_m64n<N>k<K/2>_<D>_<A/B> (wgmma.mma_async.sp).
VectorVariant compressed_variant(const VectorVariant& v);
// The dense instruction of shape K (hypothesis (b)): mma_... or wgmma_..., no selector.
VectorVariant dense_variant(const VectorVariant& v);

// Valid kept-position sets of one chunk (2:4: the 6 pairs; tf32 1:2: the 2 singletons), as
// the dense positions in the chunk, ascending.
struct KeptSet {
  int count;
  int pos[2];
};
std::vector<KeptSet> kept_sets(const VectorVariant& v);

// Zeroes, in every chunk of every row of A (M x K), the positions a randomly drawn kept set
// leaves out.
void sparsify(const VectorVariant& v, std::vector<std::uint64_t>& a, ref::Rng& rng);

// An instance of the sparse variant `v` whose compressed problem is `half` (a dense instance
// of compressed_variant(v) whose rows 1.. of A are zero, as the discriminating probes are):
// row 0's kept values land in the kept set (pattern + chunk) mod sets of each chunk, and B's
// column values at the k they pair with. Where zeros in `half` would make the compression
// choose other positions, the chunk falls back to a set that round-trips.
MmaInstance scatter_probe(const VectorVariant& v, const MmaInstance& half, int pattern);

// The dense k of each kept element of row `row` (K/2 of them, ascending): from `metadata`
// (M x chunks nibbles) when given, else by sparse_metadata's rule. Throws
// std::invalid_argument when the row is not structured-sparse (or a nibble is undefined).
std::vector<int> kept_positions(const VectorVariant& v, const std::uint64_t* a, int row,
                                const std::uint8_t* metadata = nullptr);

// Hypothesis (a): D from the model's dot() over each row's kept products (the metadata's, or
// by the launcher's rule when null). Throws std::invalid_argument on A that is not sparse.
void compressed_mma(const ref::TensorCoreModel& m, const VectorVariant& v, const std::uint64_t* a,
                    const std::uint64_t* b, const std::uint64_t* c, std::uint64_t* d,
                    const std::uint8_t* metadata = nullptr);

// The default model of a sparse floating-point variant on `arch`: hypothesis (a) with the row
// default_model gives compressed_variant(v); nullptr when there is none.
const ref::TensorCoreModel* sparse_default_model(std::string_view arch, const VectorVariant& v);

// Candidate ids of the two hypotheses: "compressed:<model id>", "dense:<model id>".
constexpr std::string_view kCompressedPrefix = "compressed:";
constexpr std::string_view kDensePrefix = "dense:";

// The metadata register of each of the 32 lanes of one warp, from the M x (K / chunk width)
// nibbles (row-major) of its 16 rows: sparse::meta_at's layout, or the diagnostic reading set
// below; a lane that holds none under the selector gets sparse::kDecoyNibble in every nibble.
// A warpgroup (wgmma.mma_async.sp, M = 64) calls it once per warp with rows 16w.. of A.
void metadata_words(int k, int ab_bits, int selector, const std::uint8_t* nibbles, std::uint32_t* words);

// The reading metadata_words uses: the PTX ISA's (kColumnHalves) unless the golden generator is
// diagnosing a failed layout self-test. Process-wide: the launches are sequential.
sparse::MetaLayout metadata_layout();
void set_metadata_layout(sparse::MetaLayout layout);

// Each record split into M one-row records of the compressed problem (1 x K/2 A, K/2 x N B
// gathered at the row's kept k, 1 x N C and D): the fit of hypothesis (a). `metadata`: one
// nibble vector per record (a vector file's), or empty for the launcher's rule. Throws
// std::invalid_argument (naming the record) on A that is not sparse.
std::vector<ref::MmaRecord> compressed_records(const VectorVariant& v, const std::vector<ref::MmaRecord>& records,
                                               const std::vector<std::vector<std::uint8_t>>& metadata = {});

}  // namespace gpuconform::numerics
