// Bit-exact conformance of mma.sync m16n8k16 with 16-bit inputs and f32
// accumulation, against the CPU block-FMA model named by the expectation.
//
// Each warp executes one instance. Operands are loaded straight from bit
// patterns into the fragment layout the PTX ISA specifies for this shape, so
// the inputs the tensor core sees are exactly the ones the model sees. A
// layout self-test on integer-valued instances (exact in any model) runs
// first, so a failure can be blamed on arithmetic and not on indexing.
#include <fmt/format.h>

#include <cstring>
#include <random>

#include "gpuconform/device_buffer.hpp"
#include "gpuconform/probe.hpp"
#include "gpuconform/reference/tensor_core_model.hpp"
#include "numeric/mma_check.hpp"
#include "numeric/mma_instances.hpp"

namespace gpuconform::kernels {
namespace {

constexpr MmaShape kShape{16, 8, 16};

struct F16Inputs {
  static constexpr const char* variant = "mma_m16n8k16_f32_f16";
  static constexpr BitFormat format{5, 10};
  __device__ static void mma(float d[4], const unsigned a[4], const unsigned b[2], const float c[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
          "f"(c[2]), "f"(c[3]));
  }
};

struct Bf16Inputs {
  static constexpr const char* variant = "mma_m16n8k16_f32_bf16";
  static constexpr BitFormat format{8, 7};
  __device__ static void mma(float d[4], const unsigned a[4], const unsigned b[2], const float c[4]) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]),
          "f"(c[2]), "f"(c[3]));
  }
};

// PTX ISA fragment layout for m16n8k16 (16-bit A/B, f32 C/D), per lane with
// group = lane / 4 and tig = lane % 4:
//   A element i (0..7): row group + 8*((i/2)%2), col 2*tig + i%2 + 8*(i/4)
//   B element i (0..3): row 2*tig + i%2 + 8*(i/2), col group
//   C/D element i (0..3): row group + 8*(i/2),   col 2*tig + i%2
// Two 16-bit elements share a register, the lower index in the low half.
template <class In>
__global__ void mma_m16n8k16_kernel(const unsigned short* A, const unsigned short* B, const float* C, float* D,
                                    int instances) {
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= instances) return;  // whole warps exit together: blockDim is a multiple of 32
  const unsigned short* a = A + warp * 16 * 16;
  const unsigned short* b = B + warp * 16 * 8;
  const float* c = C + warp * 16 * 8;
  float* d = D + warp * 16 * 8;
  const int group = lane / 4, tig = lane % 4;
  unsigned ra[4], rb[2];
  float rc[4], rd[4];
  for (int r = 0; r < 4; ++r) {
    unsigned half[2];
    for (int h = 0; h < 2; ++h) {
      const int i = 2 * r + h;
      const int row = group + 8 * ((i / 2) % 2), col = 2 * tig + i % 2 + 8 * (i / 4);
      half[h] = a[row * 16 + col];
    }
    ra[r] = half[0] | (half[1] << 16);
  }
  for (int r = 0; r < 2; ++r) {
    unsigned half[2];
    for (int h = 0; h < 2; ++h) {
      const int i = 2 * r + h;
      const int k = 2 * tig + i % 2 + 8 * (i / 2);
      half[h] = b[group * 16 + k];  // column-major: element (k, n) at n*K + k
    }
    rb[r] = half[0] | (half[1] << 16);
  }
  for (int i = 0; i < 4; ++i) rc[i] = c[(group + 8 * (i / 2)) * 8 + 2 * tig + i % 2];
  In::mma(rd, ra, rb, rc);
  for (int i = 0; i < 4; ++i) d[(group + 8 * (i / 2)) * 8 + 2 * tig + i % 2] = rd[i];
}

template <class In>
std::vector<std::uint64_t> run_on_gpu(const std::vector<MmaInstance>& instances) {
  const int count = static_cast<int>(instances.size());
  std::vector<unsigned short> a, b;
  std::vector<float> c;
  for (const MmaInstance& in : instances) {
    for (auto x : in.a) a.push_back(static_cast<unsigned short>(x));
    for (auto x : in.b) b.push_back(static_cast<unsigned short>(x));
    for (auto x : in.c) {
      const auto bits = static_cast<std::uint32_t>(x);
      float f;
      std::memcpy(&f, &bits, 4);
      c.push_back(f);
    }
  }
  DeviceBuffer<unsigned short> da(a), db(b);
  DeviceBuffer<float> dc(c), dd(c.size());
  dd.poison();
  constexpr int kWarpsPerBlock = 4;
  const int blocks = (count + kWarpsPerBlock - 1) / kWarpsPerBlock;
  mma_m16n8k16_kernel<In><<<blocks, 32 * kWarpsPerBlock>>>(da.get(), db.get(), dc.get(), dd.get(), count);
  GC_CUDA_CHECK_LAUNCH();
  const std::vector<float> d = dd.download();
  std::vector<std::uint64_t> out(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &d[i], 4);
    out[i] = bits;
  }
  return out;
}

template <class In>
Measurement measure_mma_exact(const ProbeContext& ctx) {
  const ref::TensorCoreModel* model = resolve_model(ctx, In::variant);
  std::mt19937_64 rng(0x6d6d612d66313620ull);
  MmaRunner runner = [](const std::vector<MmaInstance>& in) { return run_on_gpu<In>(in); };
  check_layout(runner, layout_instances(64, kShape, In::format, rng), kShape, In::format);
  const int per_class = ctx.quick ? 400 : 2000;
  std::vector<MmaInstance> instances;
  for (const char* klass : {"normal", "wide", "cancel", "subnormal", "special"}) {
    auto drawn = draw_instances(klass, per_class, kShape, In::format, rng);
    instances.insert(instances.end(), drawn.begin(), drawn.end());
  }
  append_discriminating_probes(*model, kShape, instances);
  return compare_with_model(*model, runner, instances, kShape, In::format);
}

}  // namespace

GPUCONFORM_PROBE("numeric.mma_sync.m16n8k16.f32.f16", Family::numeric,
                 "mma.sync m16n8k16 f16 inputs, f32 accumulate: every output bit equals the block-FMA model",
                 {80}, {ExpectationKind::exact}, &measure_mma_exact<F16Inputs>);
GPUCONFORM_PROBE("numeric.mma_sync.m16n8k16.f32.bf16", Family::numeric,
                 "mma.sync m16n8k16 bf16 inputs, f32 accumulate: every output bit equals the block-FMA model",
                 {80}, {ExpectationKind::exact}, &measure_mma_exact<Bf16Inputs>);

}  // namespace gpuconform::kernels
