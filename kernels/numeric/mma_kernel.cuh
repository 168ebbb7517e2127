// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one MMA kernel. A variant is a traits struct (written by a table row in mma_sync.cu or
// wgmma.cu): its vector-file name, from which shape and element widths are parsed at compile
// time, its fragment family, and an exec() holding the PTX. From these the kernel derives
// how many registers each operand takes, loads every element from the instance's bit
// patterns into the register and position the PTX ISA assigns it, stages shared-memory
// operands for wgmma, issues the instruction once and stores D. Nothing is converted: the
// tensor core sees exactly the bits the reference model sees.
//
// One instance per warp (mma.sync) or per warpgroup (wgmma); D is poisoned beforehand, so an
// element the kernel never wrote cannot pass the layout self-test.
//
// Sparse variants (mma.sp, table in mma_sp.cu; wgmma.mma_async.sp, wgmma_sp.cu) add
// kSelector to their traits: the launcher compresses A on the host (sparse_a.hpp: M x K/2
// kept values and one metadata nibble per chunk) and assembles every thread's metadata
// register there (sparse_mma.hpp; a warpgroup's four warps each hold their 16 rows as one
// mma.sp warp does), so that the generator can try other readings of the metadata figures
// without another build; A's fragment (or shared-memory tile) is the dense k(K/2) one over
// the compressed operand, B the dense k(K) one.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "common/cuda_arch.cuh"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "gpuconform/numerics/mma_variant.hpp"
#include "gpuconform/numerics/sparse_a.hpp"
#include "gpuconform/numerics/sparse_mma.hpp"

// The variant registry, instances and sparse compression belong to the numerics library
// (gpuconform/numerics/): the MMA kernels and probe files of this folder use its names.
namespace gpuconform::kernels {
using namespace gpuconform::numerics;
}  // namespace gpuconform::kernels

// Device-side helpers live in their own namespace: other kernel families have theirs.
namespace gpuconform::kernels::mma {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
inline constexpr bool kDeviceSm90a = true;
#else
inline constexpr bool kDeviceSm90a = false;
#endif

// ---- Variant names parsed at compile time ("mma_m16n8k16_f32_bf16") -------------------

struct NameFacts {
  int m, n, k;
  int cd_bits, ab_bits;
};

constexpr bool same_text(const char* s, const char* t, int n) {
  for (int i = 0; i < n; ++i)
    if (s[i] != t[i]) return false;
  return true;
}

// Register bits of the element type spelled at s[0..n).
constexpr int type_bits(const char* s, int n) {
  if (n == 3 && (same_text(s, "f64", 3))) return 64;
  if ((n == 3 && (same_text(s, "f32", 3) || same_text(s, "s32", 3))) || (n == 4 && same_text(s, "tf32", 4)))
    return 32;
  if ((n == 3 && same_text(s, "f16", 3)) || (n == 4 && same_text(s, "bf16", 4))) return 16;
  if ((n == 4 && (same_text(s, "e4m3", 4) || same_text(s, "e5m2", 4))) ||
      (n == 2 && (same_text(s, "s8", 2) || same_text(s, "u8", 2))))
    return 8;
  if (n == 2 && (same_text(s, "s4", 2) || same_text(s, "u4", 2))) return 4;
  if (n == 2 && same_text(s, "b1", 2)) return 1;
  return 0;
}

constexpr NameFacts parse_name(const char* name) {
  NameFacts f{0, 0, 0, 0, 0};
  int field = 0, start = 0, i = 0;
  for (;; ++i) {
    const char ch = name[i];
    if (ch != '_' && ch != '\0') continue;
    const char* s = name + start;
    const int n = i - start;
    if (field == 1) {  // m<M>n<N>k<K>
      int* dims[3] = {&f.m, &f.n, &f.k};
      int d = -1;
      for (int j = 0; j < n; ++j) {
        if (s[j] == 'm' || s[j] == 'n' || s[j] == 'k') ++d;
        else if (d >= 0) *dims[d] = *dims[d] * 10 + (s[j] - '0');
      }
    }
    if (field == 2) f.cd_bits = type_bits(s, n);
    if (field == 3) f.ab_bits = type_bits(s, n);
    ++field;
    start = i + 1;
    if (ch == '\0') break;
  }
  return f;
}

// ---- Fragment layouts (PTX ISA "Matrix fragments for mma.m16n8k*", "... mma.m8n8k4" with
// .f64, "mma.m8n8k32", "mma.m8n8k128", and "Register fragments" of wgmma) ---------------

enum class Fragments {
  kSyncM16N8,  // mma.sync m16n8k{4,..,256}: any element width, f64 and sub-byte included
  kSyncM8N8,   // mma.sync m8n8k4 .f64, m8n8k32 .s4/.u4, m8n8k128 .b1: one A and one B register
  kWarpgroup,  // wgmma m64nNk*: each warp holds 16 rows, laid out as mma.sync m16n8
};

// Elements per register: 32-bit registers hold 32/bits elements, lowest index in the low bits
// (8 for s4/u4, 32 for b1).
constexpr int per_register(int bits) { return bits >= 32 ? 1 : 32 / bits; }

// A (16 x K) of mma.sync m16n8kK and of one warp of wgmma; `t` is the lane. The four
// threads of a group hold 4 * per consecutive columns per register; the next register pair
// (A) or register (B) moves 4 * per columns on. One rule for every K and element width:
// k8/k16 f16 (per 2), k16/k32 8-bit (per 4), k4/k8 tf32 and k4/k8/k16 f64 (per 1).
__host__ __device__ constexpr RowCol m16_a(int t, int i, int per) {
  const int group = t / 4, tig = t % 4;
  return {group + 8 * ((i / per) % 2), tig * per + i % per + 4 * per * (i / (2 * per))};
}
// B (K x 8) of mma.sync m16n8kK.
__host__ __device__ constexpr RowCol m16_b(int t, int i, int per) {
  const int group = t / 4, tig = t % 4;
  return {tig * per + i % per + 4 * per * (i / per), group};
}
// mma.sync m8n8kK: the four threads of a group hold row `group` of A (column `group` of B),
// `per` consecutive K each; C and D are pairs of columns of row `group`. f64 k4 is per = 1.
__host__ __device__ constexpr RowCol m8_a(int t, int i, int per) { return {t / 4, (t % 4) * per + i}; }
__host__ __device__ constexpr RowCol m8_b(int t, int i, int per) { return {(t % 4) * per + i, t / 4}; }
__host__ __device__ constexpr RowCol m8_c(int t, int i) { return {t / 4, 2 * (t % 4) + i}; }
// C and D (16 x N, N a multiple of 8): pairs of columns, rows group and group + 8.
__host__ __device__ constexpr RowCol m16_c(int t, int i) {
  const int group = t / 4, tig = t % 4;
  return {group + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * tig + i % 2};
}

// Thread t of the instance (a lane, or 0..127 of a warpgroup: warp t/32 holds rows
// 16*(t/32) .. +15), element i of its fragment, in the order of the PTX registers.
template <class V>
__host__ __device__ constexpr RowCol a_at(int t, int i) {
  constexpr NameFacts f = parse_name(V::kName);
  if constexpr (V::kFragments == Fragments::kSyncM8N8) {
    return m8_a(t, i, per_register(f.ab_bits));
  } else {
    const RowCol rc = m16_a(t % 32, i, per_register(f.ab_bits));
    return {rc.row + 16 * (t / 32), rc.col};
  }
}
template <class V>
__host__ __device__ constexpr RowCol b_at(int t, int i) {
  constexpr NameFacts f = parse_name(V::kName);
  if constexpr (V::kFragments == Fragments::kSyncM8N8)
    return m8_b(t, i, per_register(f.ab_bits));
  else
    return m16_b(t, i, per_register(f.ab_bits));
}
template <class V>
__host__ __device__ constexpr RowCol c_at(int t, int i) {
  if constexpr (V::kFragments == Fragments::kSyncM8N8) {
    return m8_c(t, i);
  } else {
    const RowCol rc = m16_c(t % 32, i);
    return {rc.row + 16 * (t / 32), rc.col};
  }
}

// ---- The fragments one thread holds -------------------------------------------------

// Sparse traits: a variant with a kSelector member is mma.sp (dense tables need not say so).
template <class V, class = void>
struct Sparsity {
  static constexpr bool kSparse = false;
  static constexpr int kSelector = 0;
};
template <class V>
struct Sparsity<V, std::void_t<decltype(V::kSelector)>> {
  static constexpr bool kSparse = true;
  static constexpr int kSelector = V::kSelector;
};

template <class V>
struct Shape {
  static constexpr NameFacts f = parse_name(V::kName);
  static constexpr bool kSparse = Sparsity<V>::kSparse;
  static constexpr int kAK = kSparse ? f.k / 2 : f.k;  // columns of the A operand as issued
  static constexpr int kChunks = kSparse ? f.k / sparse::chunk_width(f.ab_bits) : 0;  // nibbles a row
  static constexpr sparse::MetaFamily kMeta = sparse::meta_family(f.k, f.ab_bits);
  static_assert(!kSparse || (Sparsity<V>::kSelector >= 0 && Sparsity<V>::kSelector <= sparse::max_selector(kMeta)),
                "sparsity selector outside the range the PTX ISA allows for this shape and type");
  static constexpr bool kWide = f.ab_bits == 64;  // f64: 64-bit registers
  using Word = std::conditional_t<kWide, std::uint64_t, std::uint32_t>;
  static constexpr int kThreads = V::kFragments == Fragments::kWarpgroup ? 128 : 32;
  static constexpr int kAbPer = per_register(f.ab_bits), kCdPer = per_register(f.cd_bits);
  static constexpr bool kASmem = V::kFragments == Fragments::kWarpgroup && !V::kARegisters;
  static constexpr bool kBSmem = V::kFragments == Fragments::kWarpgroup;
  static constexpr int kARegs = kASmem ? 0 : f.m * kAK / kThreads / kAbPer;
  static constexpr int kBRegs = kBSmem ? 0 : f.k * f.n / kThreads / kAbPer;
  static constexpr int kDRegs = f.m * f.n / kThreads / kCdPer;
  static_assert(f.m * f.k % (kThreads * kAbPer) == 0 && f.m * f.n % (kThreads * kCdPer) == 0,
                "variant name does not parse to a supported shape");
};

template <class V>
struct Fragment {
  using S = Shape<V>;
  typename S::Word a[S::kARegs > 0 ? S::kARegs : 1];
  typename S::Word b[S::kBRegs > 0 ? S::kBRegs : 1];
  typename S::Word d[S::kDRegs];  // holds C on entry (D = A*B + D)
  std::uint64_t desc_a, desc_b;   // wgmma shared-memory matrix descriptors
  std::uint32_t e;                // mma.sp metadata
};

// ---- wgmma shared-memory operands: K-major, no swizzle ------------------------------
// Core matrices of 8 rows x 16 bytes, 128 contiguous bytes each. PTX ISA canonical layout
// ((8,m),(T,2k)):((1T,SBO),(1,LBO)): LBO steps along K, SBO along M (or N). A row of K is
// 32 bytes on every dense shape and for the compressed A of wgmma.sp, 64 bytes for the B of
// wgmma.sp (K = 32 f16, 16 tf32, 64 8-bit): SBO is the 8 rows' bytes, as the wgmma.sp
// latency probes' B descriptor has it (latency/wgmma_sp_ops.cuh, stride 512).
constexpr std::uint32_t kLeadingBytes = 128;  // LBO: next 16-byte column of core matrices
__host__ __device__ constexpr std::uint32_t stride_bytes(int row_bytes) {  // SBO: next 8 rows
  return 8u * static_cast<std::uint32_t>(row_bytes);
}

__host__ __device__ constexpr std::uint32_t smem_offset(int row, int byte_in_row, int row_bytes = 32) {
  return (row / 8) * stride_bytes(row_bytes) + (byte_in_row / 16) * kLeadingBytes + (row % 8) * 16 + byte_in_row % 16;
}

template <int RowBytes>
constexpr bool smem_layout_is_injective() {
  bool used[64 * RowBytes] = {};
  for (int row = 0; row < 64; ++row)
    for (int byte = 0; byte < RowBytes; ++byte) {
      const std::uint32_t at = smem_offset(row, byte, RowBytes);
      if (at >= 64 * RowBytes || used[at]) return false;
      used[at] = true;
    }
  return true;
}
static_assert(smem_layout_is_injective<32>() && smem_layout_is_injective<64>(),
              "two elements of a wgmma operand share a shared-memory byte");

__device__ inline std::uint64_t smem_descriptor(const void* base, int row_bytes) {
  const auto addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(base));
  return ((addr & 0x3FFFFu) >> 4) | (std::uint64_t{kLeadingBytes >> 4} << 16) |
         (std::uint64_t{stride_bytes(row_bytes) >> 4} << 32);  // base offset 0, swizzle mode 0
}

// Stores one element's low `bits` bits at a byte offset of shared memory.
__device__ inline void smem_store(std::uint8_t* base, std::uint32_t offset, std::uint64_t value, int bits) {
  for (int byte = 0; byte < bits / 8; ++byte) base[offset + byte] = static_cast<std::uint8_t>(value >> (8 * byte));
}

template <class V>
constexpr bool device_supports() {
  return V::kNeedsSm90a ? kDeviceSm90a : kCudaArch >= V::kMinArch;
}

template <class V>
__global__ void __launch_bounds__(128) mma_kernel(const std::uint64_t* A, const std::uint64_t* B,
                                                  const std::uint64_t* C, std::uint64_t* D, int instances,
                                                  const std::uint32_t* E) {  // E: mma.sp metadata, a word a lane
  if constexpr (device_supports<V>()) {
    using S = Shape<V>;
    constexpr NameFacts f = S::f;
    const int t = threadIdx.x % S::kThreads;
    const int n = blockIdx.x * (blockDim.x / S::kThreads) + threadIdx.x / S::kThreads;
    if (n >= instances) return;  // whole warps (wgmma: whole blocks) leave together
    const std::uint64_t* a = A + static_cast<std::size_t>(n) * f.m * S::kAK;
    const std::uint64_t* b = B + static_cast<std::size_t>(n) * f.k * f.n;
    const std::uint64_t* c = C + static_cast<std::size_t>(n) * f.m * f.n;
    std::uint64_t* d = D + static_cast<std::size_t>(n) * f.m * f.n;
    constexpr std::uint64_t ab_mask = f.ab_bits == 64 ? ~0ull : (1ull << f.ab_bits) - 1;
    constexpr std::uint64_t cd_mask = f.cd_bits == 64 ? ~0ull : (1ull << f.cd_bits) - 1;

    Fragment<V> r{};
    for (int i = 0; i < S::kARegs * S::kAbPer; ++i) {
      const RowCol rc = a_at<V>(t, i);
      r.a[i / S::kAbPer] |= static_cast<typename S::Word>((a[rc.row * S::kAK + rc.col] & ab_mask)
                                                          << (f.ab_bits * (i % S::kAbPer)));
    }
    for (int i = 0; i < S::kBRegs * S::kAbPer; ++i) {
      const RowCol rc = b_at<V>(t, i);
      r.b[i / S::kAbPer] |= static_cast<typename S::Word>((b[rc.col * f.k + rc.row] & ab_mask)
                                                          << (f.ab_bits * (i % S::kAbPer)));
    }
    for (int i = 0; i < S::kDRegs * S::kCdPer; ++i) {
      const RowCol rc = c_at<V>(t, i);
      r.d[i / S::kCdPer] |= static_cast<typename S::Word>((c[rc.row * f.n + rc.col] & cd_mask)
                                                          << (f.cd_bits * (i % S::kCdPer)));
    }
    if constexpr (S::kSparse) r.e = E[static_cast<std::size_t>(n) * S::kThreads + t];
    if constexpr (S::kBSmem) {
      constexpr int a_row_bytes = S::kAK * f.ab_bits / 8, b_row_bytes = f.k * f.ab_bits / 8;
      static_assert(a_row_bytes == 32 && (b_row_bytes == 32 || (S::kSparse && b_row_bytes == 64)),
                    "smem_offset covers rows of 32 bytes (k16 f16, k8 tf32, k32 8-bit; wgmma.sp's compressed A) "
                    "and wgmma.sp's B of 64");
      __shared__ alignas(128) std::uint8_t smem_a[S::kASmem ? f.m * a_row_bytes : 16];
      __shared__ alignas(128) std::uint8_t smem_b[f.n * b_row_bytes];
      for (int e = t; e < f.n * f.k; e += S::kThreads) {  // B is N x K, K contiguous: K-major
        const int col = e / f.k, k = e % f.k;
        smem_store(smem_b, smem_offset(col, k * f.ab_bits / 8, b_row_bytes), b[col * f.k + k], f.ab_bits);
      }
      if constexpr (S::kASmem)
        for (int e = t; e < f.m * S::kAK; e += S::kThreads) {  // A is M x K (sparse: K/2) row-major: K-major
          const int row = e / S::kAK, k = e % S::kAK;
          smem_store(smem_a, smem_offset(row, k * f.ab_bits / 8, a_row_bytes), a[row * S::kAK + k], f.ab_bits);
        }
      // Generic-proxy stores become visible to the async proxy that wgmma reads through.
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      __syncthreads();
      r.desc_a = smem_descriptor(smem_a, a_row_bytes);
      r.desc_b = smem_descriptor(smem_b, b_row_bytes);
    }
    V::exec(r);
    for (int i = 0; i < S::kDRegs * S::kCdPer; ++i) {
      const RowCol rc = c_at<V>(t, i);
      const auto word = static_cast<std::uint64_t>(r.d[i / S::kCdPer]);
      d[rc.row * f.n + rc.col] = (word >> (f.cd_bits * (i % S::kCdPer))) & cd_mask;
    }
  }
}

// ---- Host side ----------------------------------------------------------------------

// Sparse: A of every instance compressed to M x K/2, appended to `a`, and its threads' metadata
// registers to `e` (mma.sp: 32 lanes; wgmma.sp: 128 threads, warp w holding rows 16w..16w+15). Throws
// std::invalid_argument naming the variant, instance and row of input that is not sparse.
template <class V>
void compress_sparse_a(const MmaInstance& in, std::size_t index, std::vector<std::uint64_t>& a,
                       std::vector<std::uint32_t>& e) {
  using S = Shape<V>;
  constexpr NameFacts f = S::f;
  std::uint8_t all[f.m * S::kChunks] = {};
  for (int row = 0; row < f.m; ++row) {
    std::uint64_t kept[f.k / 2] = {};
    std::uint8_t nibbles[S::kChunks] = {};
    if (!sparse::compress_row(in.a.data() + static_cast<std::size_t>(row) * f.k, f.k, f.ab_bits, kept, nibbles,
                              nullptr))
      throw std::invalid_argument(std::string(V::kName) + ": instance " + std::to_string(index) + " (" + in.klass +
                                  ") row " + std::to_string(row) + " has more than " +
                                  std::to_string(sparse::chunk_kept(f.ab_bits)) + " non-zero elements in a chunk of " +
                                  std::to_string(sparse::chunk_width(f.ab_bits)) + ": A is not structured-sparse");
    a.insert(a.end(), kept, kept + f.k / 2);
    std::copy(nibbles, nibbles + S::kChunks, all + row * S::kChunks);
  }
  static_assert(f.m == 16 * (S::kThreads / 32), "each warp's metadata covers 16 rows of A");
  std::uint32_t words[S::kThreads];
  for (int w = 0; w < S::kThreads / 32; ++w)
    metadata_words(f.k, f.ab_bits, Sparsity<V>::kSelector, all + 16 * w * S::kChunks, words + 32 * w);
  e.insert(e.end(), words, words + S::kThreads);
}

template <class V>
std::vector<std::uint64_t> run_mma(const std::vector<MmaInstance>& instances) {
  using S = Shape<V>;
  const int count = static_cast<int>(instances.size());
  std::vector<std::uint64_t> a, b, c;
  std::vector<std::uint32_t> e;
  for (std::size_t n = 0; n < instances.size(); ++n) {
    const MmaInstance& in = instances[n];
    if constexpr (S::kSparse)
      compress_sparse_a<V>(in, n, a, e);
    else
      a.insert(a.end(), in.a.begin(), in.a.end());
    b.insert(b.end(), in.b.begin(), in.b.end());
    c.insert(c.end(), in.c.begin(), in.c.end());
  }
  if (count == 0) return {};
  if (e.empty()) e.push_back(0);  // dense: an unused, valid pointer
  DeviceBuffer<std::uint64_t> da(a), db(b), dc(c), dd(c.size());
  DeviceBuffer<std::uint32_t> de(e);
  dd.poison();
  constexpr int kBlockThreads = 128;
  constexpr int per_block = kBlockThreads / S::kThreads;
  mma_kernel<V><<<(count + per_block - 1) / per_block, kBlockThreads>>>(da.get(), db.get(), dc.get(),
                                                                          dd.get(), count, de.get());
  GC_CUDA_CHECK_LAUNCH();
  return dd.download();
}

// 'a' of a sparse variant: the compressed M x K/2 operand. 'e' (sparse only): the (row, chunk)
// metadata nibble `index` (0..7) of the thread describes; row -1 where it holds none. A
// warpgroup's warp w reads as one mma.sp warp over rows 16w..16w+15.
template <class V>
RowCol fragment_position(char operand, int thread, int index) {
  if constexpr (Shape<V>::kSparse)
    if (operand == 'e') {
      const sparse::MetaSlot s = sparse::meta_at(Shape<V>::kMeta, thread % 32, index, Sparsity<V>::kSelector);
      return {s.row < 0 ? -1 : s.row + 16 * (thread / 32), s.chunk};
    }
  if (operand == 'a') return a_at<V>(thread, index);
  if (operand == 'b') return b_at<V>(thread, index);
  return c_at<V>(thread, index);
}

template <class V>
constexpr FragmentCounts fragment_counts() {
  using S = Shape<V>;
  return {S::kThreads, S::kARegs * S::kAbPer, S::kBRegs * S::kAbPer, S::kDRegs * S::kCdPer};
}

template <class V>
bool mma_has_code() {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, mma_kernel<V>) == cudaSuccess) return true;
  cudaGetLastError();  // not sticky: clear it so later calls report their own status
  return false;
}

// The code check of a variant this build's toolkit cannot assemble (common/ptx_features.cuh):
// its kernel holds a trap in place of the instruction, so it has no code to run.
inline bool mma_not_built() { return false; }

// A variant's `exec` (inside its struct): its asm (Name##Asm) where this build's toolkit
// assembles `Ptx` (common/ptx_features.cuh), else a trap that never runs (mma_not_built).
#define GC_MMA_GUARDED_EXEC(Name, Ptx) \
  template <class F>                   \
  __device__ static void exec(F& r) {  \
    if constexpr (ptx_built(Ptx))      \
      Name##Asm::exec(r);              \
    else                               \
      __trap();                        \
  }

}  // namespace gpuconform::kernels::mma
