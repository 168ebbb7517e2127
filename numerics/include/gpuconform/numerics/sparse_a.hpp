// SPDX-License-Identifier: Apache-2.0
#pragma once
// The structured-sparse A operand of mma.sp, as pure functions for host and device (PTX ISA
// 9.7.14.6.1 "Sparse matrix storage" and 9.7.14.6.2 "Matrix fragments for multiply-accumulate
// operation with sparse matrix A"). A vector file keeps A dense (M x K, the zeros in place), so
// every model applies to it; the launcher compresses each row to its K/2 kept elements and one
// metadata nibble per chunk, the kernel places the nibbles in the threads' metadata registers,
// and the CPU models pick the kept products with the same code.
//
// A chunk is the run of consecutive k one nibble describes: 4 wide with 2 kept (2:4) for 16- and
// 8-bit elements, 2 wide with 1 kept (1:2) for tf32.
//
// Which elements are kept: those whose bit pattern is non-zero (at most chunk_kept of them; more
// is not sparse input); with fewer, the lowest-index zero positions fill up, so the choice is a
// function of the data alone and the file needs no metadata of its own.
#include <cstdint>

#if defined(__CUDACC__)
#define GC_SPARSE_HD __host__ __device__
#else
#define GC_SPARSE_HD
#endif

namespace gpuconform::numerics::sparse {

GC_SPARSE_HD constexpr int chunk_width(int ab_bits) { return ab_bits == 32 ? 2 : 4; }
GC_SPARSE_HD constexpr int chunk_kept(int ab_bits) { return chunk_width(ab_bits) / 2; }

// Kept positions in a chunk, ascending (pos[1] unused for 1:2).
struct Kept {
  int pos[2];
};

// Chooses the kept positions of one chunk; false when more elements than kept are non-zero.
GC_SPARSE_HD constexpr bool choose_kept(const std::uint64_t* chunk, int width, Kept& out) {
  const int keep = width / 2;
  int n = 0;
  for (int p = 0; p < width; ++p)
    if (chunk[p] != 0) {
      if (n == keep) return false;
      out.pos[n++] = p;
    }
  for (int p = 0; p < width && n < keep; ++p)  // fill with the lowest-index zeros
    if (chunk[p] == 0) out.pos[n++] = p;  // never a kept position: those are non-zero
  if (keep == 2 && out.pos[1] < out.pos[0]) {
    const int t = out.pos[0];
    out.pos[0] = out.pos[1];
    out.pos[1] = t;
  }
  return true;
}

// The metadata nibble of a chunk. 2:4 (mma.sp::ordered_metadata): two 2-bit indices, the lower
// position in bits 1:0, the higher in bits 3:2, so only 0b0100, 0b1000, 0b1001, 0b1100, 0b1101,
// 0b1110 occur. 1:2 (tf32): 0b0100 keeps element 0 and 0b1110 element 1, the only meaningful
// values (the 2:4 index pairs of the kept element's two 16-bit halves).
GC_SPARSE_HD constexpr unsigned nibble_of(int width, const Kept& k) {
  if (width == 2) return k.pos[0] == 0 ? 0x4u : 0xEu;
  return static_cast<unsigned>(k.pos[0]) | static_cast<unsigned>(k.pos[1]) << 2;
}

// The kept positions a nibble names; false for a value the PTX ISA leaves undefined.
GC_SPARSE_HD constexpr bool kept_of(int width, unsigned nibble, Kept& out) {
  if (width == 2) {
    if (nibble != 0x4u && nibble != 0xEu) return false;
    out.pos[0] = nibble == 0x4u ? 0 : 1;
    out.pos[1] = out.pos[0];
    return true;
  }
  out.pos[0] = static_cast<int>(nibble & 3u);
  out.pos[1] = static_cast<int>(nibble >> 2 & 3u);
  return out.pos[0] < out.pos[1];
}

// Compresses one dense row of `k` elements: `kept` receives the k/2 kept values in ascending k,
// `nibbles` one nibble per chunk, `positions` (may be null) the k of each kept value. false
// (outputs partly written) when a chunk is not sparse.
GC_SPARSE_HD constexpr bool compress_row(const std::uint64_t* row, int k, int ab_bits, std::uint64_t* kept,
                                         std::uint8_t* nibbles, int* positions) {
  const int width = chunk_width(ab_bits), keep = chunk_kept(ab_bits);
  for (int c = 0; c < k / width; ++c) {
    Kept chosen{{0, 0}};
    if (!choose_kept(row + c * width, width, chosen)) return false;
    nibbles[c] = static_cast<std::uint8_t>(nibble_of(width, chosen));
    for (int j = 0; j < keep; ++j) {
      kept[c * keep + j] = row[c * width + chosen.pos[j]];
      if (positions) positions[c * keep + j] = c * width + chosen.pos[j];
    }
  }
  return true;
}

// ---- Metadata registers ----------------------------------------------------------------
// Each thread's metadata is one 32-bit register of eight nibbles, the lowest chunk in the
// lowest bits. The sparsity selector picks which threads of each group of four hold it.
// Measured on an H100 (tools/device/sparse_batch.sh; expectations/golden/sm_90/README.md): the
// 16-bit and tf32 shapes split a row's chunks between the holders, each holder carrying four
// chunks of row groupID (low 16 bits) and the same four of groupID + 8 (high 16 bits); the
// 8-bit shapes (s8, e4m3, e5m2) give each holder eight consecutive chunks of one row,
// alternating groupID and groupID + 8 (the self-test failed with the column split there and
// passed with this one). One function per family, so a correction touches one line.

struct MetaSlot {
  int row, chunk;  // row -1: this thread holds no metadata under this selector
};

enum class MetaFamily : std::uint8_t {
  kOneThread,       // 4 chunks a row (m16n8k16 f16/bf16, m16n8k8 tf32): thread `selector` (0..3)
  kThreadPair,      // 8 chunks of 16-bit or tf32 (m16n8k32 f16/bf16, m16n8k16 tf32): threads 2 sel, 2 sel + 1
  kThreadPairRows,  // 8 chunks of 8-bit (m16n8k32 s8/u8): threads 2 sel, 2 sel + 1, a row each
  kAllFour,         // 16 chunks (m16n8k64 8-bit and fp8): all four threads, selector 0, a half row each
};

GC_SPARSE_HD constexpr MetaFamily meta_family(int k, int ab_bits) {
  const int chunks = k / chunk_width(ab_bits);
  if (chunks <= 4) return MetaFamily::kOneThread;
  if (chunks == 8) return ab_bits == 8 ? MetaFamily::kThreadPairRows : MetaFamily::kThreadPair;
  return MetaFamily::kAllFour;
}
GC_SPARSE_HD constexpr int meta_holders(MetaFamily f) {
  return f == MetaFamily::kOneThread ? 1 : f == MetaFamily::kAllFour ? 4 : 2;
}
GC_SPARSE_HD constexpr int max_selector(MetaFamily f) { return 4 / meta_holders(f) - 1; }

GC_SPARSE_HD constexpr MetaSlot meta_one_thread(int lane, int n, int selector) {
  if (lane % 4 != selector) return {-1, 0};
  return {lane / 4 + 8 * (n / 4), n % 4};
}
GC_SPARSE_HD constexpr MetaSlot meta_thread_pair(int lane, int n, int selector) {
  const int q = lane % 4 - 2 * selector;  // 0: chunks 0..3, 1: chunks 4..7
  if (q < 0 || q > 1) return {-1, 0};
  return {lane / 4 + 8 * (n / 4), 4 * q + n % 4};
}
GC_SPARSE_HD constexpr MetaSlot meta_thread_pair_rows(int lane, int n, int selector) {
  const int q = lane % 4 - 2 * selector;  // 0: row groupID, 1: row groupID + 8
  if (q < 0 || q > 1) return {-1, 0};
  return {lane / 4 + 8 * q, n};
}
GC_SPARSE_HD constexpr MetaSlot meta_all_four(int lane, int n) {
  const int q = lane % 4;  // rows groupID, + 8, groupID, + 8; chunks 0..7, 0..7, 8..15, 8..15
  return {lane / 4 + 8 * (q % 2), 8 * (q / 2) + n};
}

GC_SPARSE_HD constexpr MetaSlot meta_at(MetaFamily f, int lane, int n, int selector) {
  switch (f) {
    case MetaFamily::kOneThread: return meta_one_thread(lane, n, selector);
    case MetaFamily::kThreadPair: return meta_thread_pair(lane, n, selector);
    case MetaFamily::kThreadPairRows: return meta_thread_pair_rows(lane, n, selector);
    case MetaFamily::kAllFour: return meta_all_four(lane, n);
  }
  return {-1, 0};
}

// ---- Other readings of the metadata figures, for diagnosis only ----------------------------
// The figures are pictures; where the layout self-test fails with meta_at, the generator tries
// these on the GPU and names the one that passes, so one run says how to correct the family
// functions above. kColumnHalves is meta_at itself, whatever the family (a unit test holds
// them equal); the others are fixed readings.
enum class MetaLayout : std::uint8_t {
  kColumnHalves,      // meta_at (16-bit, tf32: holder q has chunks 4q..4q+3, row g low 16 bits, g+8 high)
  kRowHalvesSwapped,  // as kColumnHalves, row g+8 in the low 16 bits
  kRowsByThread,      // the group's nibbles in row-major order: holder q has the 8 after 8q
  kRowsInterleaved,   // holder q has row g + 8 (q % 2), chunks 8 (q / 2) ..
};
constexpr int kMetaLayouts = 4;
constexpr const char* meta_layout_name(MetaLayout l) {
  switch (l) {
    case MetaLayout::kColumnHalves: return "column_halves";
    case MetaLayout::kRowHalvesSwapped: return "row_halves_swapped";
    case MetaLayout::kRowsByThread: return "rows_by_thread";
    case MetaLayout::kRowsInterleaved: return "rows_interleaved";
  }
  return "?";
}

// The slot under one reading; row -1 also where the reading does not fit the family.
GC_SPARSE_HD constexpr MetaSlot meta_alternative(MetaLayout l, MetaFamily f, int lane, int n, int selector) {
  if (l == MetaLayout::kColumnHalves) return meta_at(f, lane, n, selector);
  const int holders = meta_holders(f);
  const int q = lane % 4 - holders * selector;
  if (q < 0 || q >= holders) return {-1, 0};
  const int chunks = 4 * holders, g = lane / 4;  // chunks a row
  switch (l) {
    case MetaLayout::kColumnHalves: break;  // meta_at, above
    case MetaLayout::kRowHalvesSwapped: return {g + 8 * (1 - n / 4), 4 * q + n % 4};
    case MetaLayout::kRowsByThread: return {g + 8 * ((8 * q + n) / chunks), (8 * q + n) % chunks};
    case MetaLayout::kRowsInterleaved:
      if (holders == 1) return {-1, 0};
      return {g + 8 * (q % 2), 8 * (q / 2) + n};
  }
  return {-1, 0};
}

// What a thread that holds no metadata under the selector carries: a valid nibble (keep
// positions 0 and 1; tf32: element 0) that is wrong for most instances, so that if the
// hardware read these threads instead, the layout self-test fails rather than reads garbage.
constexpr unsigned kDecoyNibble = 0x4u;

}  // namespace gpuconform::numerics::sparse
