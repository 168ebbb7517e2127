// SPDX-License-Identifier: Apache-2.0
#pragma once
// The accesses of the streaming kernels: an element of 4, 8 or 16 bytes, a
// load or store with a PTX cache operator, and one step of a read, write,
// copy or triad pattern, and the flat-grid kernel of the device-memory probes. Plain CUDA, no suite headers: the probes
// (stream_throughput.cu) and the investigation tool that chose their shapes
// (tools/device/stream_variants.cu, built alone on a GPU node with
// -I kernels) share it, so the tool times the very accesses the probes make.

namespace gpuconform::stream {

enum class Pattern { read, write, copy, triad };
enum class Ld { def, ca, cg, cs, lu, cv };  // def: plain ld.global, no cache operator
enum class St { def, wb, cg, cs, wt };      // def: plain st.global, no cache operator
// ---- Accesses: width (float, float2, float4) x cache operator ----
template <int W> struct VecOf;
template <> struct VecOf<4> { using type = float; };
template <> struct VecOf<8> { using type = float2; };
template <> struct VecOf<16> { using type = float4; };
template <int W> using Vec = typename VecOf<W>::type;

// ld.global<op>.{f32, v2.f32, v4.f32} and st.global<op> on the vector type
// (templates, so that the widths a build does not use raise no warning);
// volatile asm keeps them in program order and unmerged.
#define GC_LD_OP(OP)                                                                                     \
  template <class T>                                                                                    \
  static __device__ __forceinline__ void ld(T& v, const void* p) {                                      \
    if constexpr (sizeof(T) == 4)                                                                       \
      asm volatile("ld.global" OP ".f32 %0, [%1];" : "=f"(v) : "l"(p) : "memory");                      \
    else if constexpr (sizeof(T) == 8)                                                                  \
      asm volatile("ld.global" OP ".v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p) : "memory"); \
    else                                                                                                \
      asm volatile("ld.global" OP ".v4.f32 {%0, %1, %2, %3}, [%4];"                                     \
                   : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p) : "memory");                   \
  }
#define GC_ST_OP(OP)                                                                                     \
  template <class T>                                                                                    \
  static __device__ __forceinline__ void st(void* p, T v) {                                             \
    if constexpr (sizeof(T) == 4)                                                                       \
      asm volatile("st.global" OP ".f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");                        \
    else if constexpr (sizeof(T) == 8)                                                                  \
      asm volatile("st.global" OP ".v2.f32 [%0], {%1, %2};" ::"l"(p), "f"(v.x), "f"(v.y) : "memory");  \
    else                                                                                                \
      asm volatile("st.global" OP ".v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y),       \
                   "f"(v.z), "f"(v.w) : "memory");                                                      \
  }
template <Ld L> struct LdOp;
template <> struct LdOp<Ld::def> { GC_LD_OP("") };
template <> struct LdOp<Ld::ca> { GC_LD_OP(".ca") };
template <> struct LdOp<Ld::cg> { GC_LD_OP(".cg") };
template <> struct LdOp<Ld::cs> { GC_LD_OP(".cs") };
template <> struct LdOp<Ld::lu> { GC_LD_OP(".lu") };
template <> struct LdOp<Ld::cv> { GC_LD_OP(".cv") };
template <St S> struct StOp;
template <> struct StOp<St::def> { GC_ST_OP("") };
template <> struct StOp<St::wb> { GC_ST_OP(".wb") };
template <> struct StOp<St::cg> { GC_ST_OP(".cg") };
template <> struct StOp<St::cs> { GC_ST_OP(".cs") };
template <> struct StOp<St::wt> { GC_ST_OP(".wt") };
#undef GC_LD_OP
#undef GC_ST_OP

template <class T>
__device__ __forceinline__ float vsum(T v) {
  if constexpr (sizeof(T) == 4) return v;
  else if constexpr (sizeof(T) == 8) return v.x + v.y;
  else return (v.x + v.y) + (v.z + v.w);
}
template <class T>
__device__ __forceinline__ T vfill(float b) {
  if constexpr (sizeof(T) == 4) return b;
  else if constexpr (sizeof(T) == 8) return make_float2(b, b + 0.5f);
  else return make_float4(b, b + 0.25f, b + 0.5f, b + 0.75f);
}
template <class T>
__device__ __forceinline__ T vtriad(T x, float s, T y) {
  if constexpr (sizeof(T) == 4) return x + s * y;
  else if constexpr (sizeof(T) == 8) return make_float2(x.x + s * y.x, x.y + s * y.y);
  else return make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
}

// One step of the pattern on U elements: all loads first, then their consumers
// and the stores (volatile asm keeps program order, so a store placed between
// two loads would hold the second one back until the first returned).
template <Pattern P, Ld L, St S, int U, class T, class At>
__device__ __forceinline__ void stream_step(const T* a, const T* b, T* c, const At (&at)[U], float scale, float base,
                                            float& acc) {
  T x[U], y[U];
  if constexpr (P != Pattern::write) {
#pragma unroll
    for (int u = 0; u < U; ++u) LdOp<L>::ld(x[u], a + at[u]);
  }
  if constexpr (P == Pattern::triad) {
#pragma unroll
    for (int u = 0; u < U; ++u) LdOp<L>::ld(y[u], b + at[u]);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) {
    if constexpr (P == Pattern::read) acc += vsum(x[u]);
    else if constexpr (P == Pattern::write) StOp<S>::st(c + at[u], vfill<T>(base + static_cast<float>(u)));
    else if constexpr (P == Pattern::copy) StOp<S>::st(c + at[u], x[u]);
    else StOp<S>::st(c + at[u], vtriad(x[u], scale, y[u]));
  }
}

// Flat grid: block (x, y) handles elements [x * kThreads * U, (x + 1) * kThreads * U)
// in pass y, thread t the elements t + u * kThreads of them (coalesced), so a
// launch of gridDim.y passes is gridDim.y sweeps in block order with no loop and
// no division. No clock stamps: block 0 runs for microseconds, too short for
// %globaltimer, so the harness measures the clock with its spinning kernel.
template <Pattern P, Ld L, St S, int W, int U, int kThreads = 1024>
__global__ void __launch_bounds__(kThreads) stream_flat(const Vec<W>* a, const Vec<W>* b, Vec<W>* c, float scale,
                                                        unsigned sink_key, float* sink) {
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * (kThreads * U) + threadIdx.x;
  std::size_t at[U];
#pragma unroll
  for (int u = 0; u < U; ++u) at[u] = first + static_cast<std::size_t>(u) * kThreads;
  // Writes store a per-thread, per-pass non-zero value.
  const float base = 1.0f + static_cast<float>(threadIdx.x) + scale * static_cast<float>(blockIdx.y);
  float acc = 0;
  stream_step<P, L, S, U>(a, b, c, at, scale, base, acc);
  if (P == Pattern::read && __float_as_uint(acc) == sink_key) *sink = acc;  // practically never true; keeps the loads live
}

}  // namespace gpuconform::stream
