// SPDX-License-Identifier: Apache-2.0
// wmma (nvcuda::wmma, the legacy warp-level API) variants: one table row each. Unlike
// mma.sync and wgmma, the fragment layout is opaque (the PTX ISA leaves it unspecified):
// the operands go through shared memory and wmma.load / wmma.store place them, so the
// kernel only writes A row-major, B column-major and C/D row-major, as the vector file holds
// them, and the layout self-test (exact small-integer instances) checks the whole path.
// The numerics are expected to be those of mma.sync (wmma lowers to the same HMMA/IMMA/DMMA:
// tools/device/numerics_batch.sh records the SASS); `vectors infer` on the golden files says.
// Sub-byte A and B (nvcuda::wmma::experimental s4, u4, b1) load from packed memory: 8 s4/u4
// or 32 b1 to a 32-bit word, the lowest-index element in the low bits (as in mma.sync's
// registers); the same kernel packs them when the variant's A/B type is narrower than a byte.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <mma.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "gpuconform/cuda_check.hpp"
#include "gpuconform/device_buffer.hpp"
#include "gpuconform/numerics/mma_instances.hpp"
#include "numeric/mma_kernel.cuh"
#include "numeric/mma_probes.hpp"
#include "gpuconform/numerics/mma_variant.hpp"

namespace gpuconform::kernels {
namespace {

using mma::NameFacts;
using mma::parse_name;

// Bit patterns <-> the wmma API's element types.
template <class T>
__device__ T from_bits(std::uint64_t bits);
template <>
__device__ half from_bits<half>(std::uint64_t bits) { return __ushort_as_half(static_cast<unsigned short>(bits)); }
template <>
__device__ __nv_bfloat16 from_bits<__nv_bfloat16>(std::uint64_t bits) {
  return __ushort_as_bfloat16(static_cast<unsigned short>(bits));
}
template <>
__device__ float from_bits<float>(std::uint64_t bits) { return __uint_as_float(static_cast<unsigned>(bits)); }
template <>
__device__ double from_bits<double>(std::uint64_t bits) { return __longlong_as_double(static_cast<long long>(bits)); }
template <>
__device__ signed char from_bits<signed char>(std::uint64_t bits) { return static_cast<signed char>(bits); }
template <>
__device__ unsigned char from_bits<unsigned char>(std::uint64_t bits) { return static_cast<unsigned char>(bits); }
template <>
__device__ int from_bits<int>(std::uint64_t bits) { return static_cast<int>(static_cast<unsigned>(bits)); }

__device__ inline std::uint64_t to_bits(half x) { return __half_as_ushort(x); }
__device__ inline std::uint64_t to_bits(float x) { return __float_as_uint(x); }
__device__ inline std::uint64_t to_bits(double x) { return static_cast<std::uint64_t>(__double_as_longlong(x)); }
__device__ inline std::uint64_t to_bits(int x) { return static_cast<unsigned>(x); }

constexpr int kWarpsPerBlock = 4;

// Whether a variant name ends in `_<qualifier>` (b1's bit operation: _xor, _and).
constexpr bool name_ends_with(const char* name, const char* suffix) {
  int n = 0, m = 0;
  while (name[n]) ++n;
  while (suffix[m]) ++m;
  return n >= m && mma::same_text(name + n - m, suffix, m);
}

// Elements of A or B per stored word: 1 (one element per array entry), or 32 / bits for the
// sub-byte types, which wmma loads packed.
constexpr int elements_per_word(int bits) { return bits < 8 ? 32 / bits : 1; }

// Writes `count` elements (A row-major or B column-major, as the vector file holds them)
// into shared memory: one per entry, or packed `per` to a word, element 0 in the low bits.
template <class Store, int kBits, int kPer>
__device__ void stage_operand(Store* out, const std::uint64_t* in, int count, int lane) {
  if constexpr (kPer == 1) {
    for (int e = lane; e < count; e += 32) out[e] = from_bits<Store>(in[e]);
  } else {
    constexpr std::uint64_t mask = (1ull << kBits) - 1;
    for (int w = lane; w < count / kPer; w += 32) {
      std::uint32_t word = 0;
      for (int j = 0; j < kPer; ++j) word |= static_cast<std::uint32_t>(in[w * kPer + j] & mask) << (kBits * j);
      out[w] = word;
    }
  }
}

template <class V>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
    wmma_kernel(const std::uint64_t* A, const std::uint64_t* B, const std::uint64_t* C, std::uint64_t* D,
                int instances) {
#if defined(__CUDA_ARCH__)
  if constexpr (__CUDA_ARCH__ >= V::kMinArch) {
    using namespace nvcuda;
    constexpr NameFacts f = parse_name(V::kName);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int n = blockIdx.x * kWarpsPerBlock + warp;
    if (n >= instances) return;  // whole warps leave together
    constexpr int per = elements_per_word(f.ab_bits);
    // load/store_matrix_sync want 256-bit aligned tiles: every tile here is a multiple of 32 bytes.
    __shared__ __align__(32) typename V::Store sa[kWarpsPerBlock][f.m * f.k / per];
    __shared__ __align__(32) typename V::Store sb[kWarpsPerBlock][f.k * f.n / per];
    __shared__ __align__(32) typename V::Acc sc[kWarpsPerBlock][f.m * f.n];
    const std::uint64_t* a = A + static_cast<std::size_t>(n) * f.m * f.k;
    const std::uint64_t* b = B + static_cast<std::size_t>(n) * f.k * f.n;
    const std::uint64_t* c = C + static_cast<std::size_t>(n) * f.m * f.n;
    std::uint64_t* d = D + static_cast<std::size_t>(n) * f.m * f.n;
    stage_operand<typename V::Store, f.ab_bits, per>(sa[warp], a, f.m * f.k, lane);  // M x K row-major
    stage_operand<typename V::Store, f.ab_bits, per>(sb[warp], b, f.k * f.n, lane);  // K x N column-major
    for (int e = lane; e < f.m * f.n; e += 32) sc[warp][e] = from_bits<typename V::Acc>(c[e]);    // M x N row-major
    __syncwarp();
    wmma::fragment<wmma::matrix_a, f.m, f.n, f.k, typename V::Element, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, f.m, f.n, f.k, typename V::Element, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, f.m, f.n, f.k, typename V::Acc> fc;
    wmma::load_matrix_sync(fa, sa[warp], f.k);
    wmma::load_matrix_sync(fb, sb[warp], f.k);
    wmma::load_matrix_sync(fc, sc[warp], f.n, wmma::mem_row_major);
    if constexpr (f.ab_bits == 1)  // b1: popc of XOR or AND, as the name says (PTX has no default)
      wmma::bmma_sync(fc, fa, fb, fc,
                      name_ends_with(V::kName, "_and") ? wmma::experimental::bmmaBitOpAND
                                                       : wmma::experimental::bmmaBitOpXOR,
                      wmma::experimental::bmmaAccumulateOpPOPC);
    else
      wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(sc[warp], fc, f.n, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < f.m * f.n; e += 32) d[e] = to_bits(sc[warp][e]);
  }
#endif
}

template <class V>
std::vector<std::uint64_t> run_wmma(const std::vector<MmaInstance>& instances) {
  const int count = static_cast<int>(instances.size());
  if (count == 0) return {};
  std::vector<std::uint64_t> a, b, c;
  for (const MmaInstance& in : instances) {
    a.insert(a.end(), in.a.begin(), in.a.end());
    b.insert(b.end(), in.b.begin(), in.b.end());
    c.insert(c.end(), in.c.begin(), in.c.end());
  }
  DeviceBuffer<std::uint64_t> da(a), db(b), dc(c), dd(c.size());
  dd.poison();  // an element the store never wrote fails the layout self-test
  wmma_kernel<V><<<(count + kWarpsPerBlock - 1) / kWarpsPerBlock, 32 * kWarpsPerBlock>>>(da.get(), db.get(),
                                                                                      dc.get(), dd.get(), count);
  GC_CUDA_CHECK_LAUNCH();
  return dd.download();
}

template <class V>
bool wmma_has_code() {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, wmma_kernel<V>) == cudaSuccess) return true;
  cudaGetLastError();  // not sticky: clear it so later calls report their own status
  return false;
}

// No register layout to report: wmma's fragments are opaque (see the top of this file).
RowCol opaque_position(char, int, int) { return {-1, -1}; }

// Name (the vector-file variant), the PTX the API emits (with .row.col layouts), the
// storage type of A and B, the fragment element type, the accumulator type, the minimum
// compute capability. tf32: A and B are fp32 registers whose low 13 bits the hardware
// ignores, as in mma.sync (no __float_to_tf32: the vector file's bits go in unchanged).
// Sub-byte types store packed 32-bit words (see stage_operand); b1 needs sm_80 for AND.
#define GC_WMMA_TABLE(X)                                                                                     \
  X(wmma_m16n16k16_f32_f16, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32", half, half, float, 80)       \
  X(wmma_m16n16k16_f16_f16, "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16", half, half, half, 80)        \
  X(wmma_m16n16k16_f32_bf16, "wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32", __nv_bfloat16,     \
    __nv_bfloat16, float, 80)                                                                                \
  X(wmma_m16n16k8_f32_tf32, "wmma.mma.sync.aligned.row.col.m16n16k8.f32.tf32.tf32.f32", float,              \
    nvcuda::wmma::precision::tf32, float, 80)                                                                \
  X(wmma_m16n16k16_s32_s8, "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32", signed char, signed char, \
    int, 80)                                                                                                 \
  X(wmma_m16n16k16_s32_u8, "wmma.mma.sync.aligned.row.col.m16n16k16.s32.u8.u8.s32", unsigned char,          \
    unsigned char, int, 80)                                                                                  \
  X(wmma_m8n8k4_f64_f64, "wmma.mma.sync.aligned.row.col.m8n8k4.f64.f64.f64.f64.rn", double, double, double, 80) \
  X(wmma_m8n8k32_s32_s4, "wmma.mma.sync.aligned.row.col.m8n8k32.s32.s4.s4.s32", std::uint32_t,               \
    nvcuda::wmma::experimental::precision::s4, int, 80)                                                      \
  X(wmma_m8n8k32_s32_u4, "wmma.mma.sync.aligned.row.col.m8n8k32.s32.u4.u4.s32", std::uint32_t,               \
    nvcuda::wmma::experimental::precision::u4, int, 80)                                                      \
  X(wmma_m8n8k128_s32_b1_xor, "wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", std::uint32_t, \
    nvcuda::wmma::experimental::precision::b1, int, 80)                                                      \
  X(wmma_m8n8k128_s32_b1_and, "wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", std::uint32_t, \
    nvcuda::wmma::experimental::precision::b1, int, 80)

#define GC_WMMA_VARIANT(Name, Ptx, StoreT, ElementT, AccT, MinCc)                                            \
  struct Name {                                                                                              \
    static constexpr const char* kName = #Name;                                                              \
    static constexpr int kMinArch = MinCc * 10;                                                              \
    using Store = StoreT;                                                                                    \
    using Element = ElementT;                                                                                \
    using Acc = AccT;                                                                                        \
  };                                                                                                         \
  const bool Name##_registered =                                                                             \
      register_mma_variant(#Name, Ptx, numeric_probe_id(#Name), MinCc, false, &run_wmma<Name>,                \
                           &wmma_has_code<Name>, FragmentCounts{32, 0, 0, 0}, &opaque_position) &&           \
      register_mma_probe(#Name, Requirements{MinCc}, &measure_checked_probe<Name>, false);

GC_WMMA_TABLE(GC_WMMA_VARIANT)

}  // namespace
}  // namespace gpuconform::kernels
