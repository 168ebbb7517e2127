// SPDX-License-Identifier: Apache-2.0
// What does nvcc turn FP8 mma.sync into on sm_90? Compiled on the GPU node
// with `nvcc -gencode=arch=compute_90a,code=sm_90a -cubin` and disassembled
// with cuobjdump: the SASS opcodes (QMMA vs HMMA plus conversions) decide
// which numeric model the FP8 mma.sync probes must use (issue: reference) and
// which peak their throughput is held to. With CUDA 13.0 (ptxas, no GPU
// needed) the dense m16n8k32 e4m3 becomes F2FP.F16.E4M3.UNPACK_B + HMMA.16816.F32
// and the sparse m16n8k64 F2FP unpacks + HMMA.SP.16832.F32 on sm_90a, while
// sm_89 runs the sparse one natively (QMMA.SP.16864.F32.E4M3.E4M3).
#include <cstdint>

extern "C" __global__ void mma_e4m3_f32(const unsigned* a, const unsigned* b, const float* c, float* d) {
  const int lane = threadIdx.x;
  unsigned ra[4] = {a[lane * 4], a[lane * 4 + 1], a[lane * 4 + 2], a[lane * 4 + 3]};
  unsigned rb[2] = {b[lane * 2], b[lane * 2 + 1]};
  float rc[4] = {c[lane * 4], c[lane * 4 + 1], c[lane * 4 + 2], c[lane * 4 + 3]};
  float rd[4];
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};"
      : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
      : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "f"(rc[0]), "f"(rc[1]),
        "f"(rc[2]), "f"(rc[3]));
  for (int i = 0; i < 4; ++i) d[lane * 4 + i] = rd[i];
}

// The 2:4 sparse form: A holds the kept half of K = 64, B the dense 64 x 8,
// e the 2-bit index metadata (sparsity selector 0).
extern "C" __global__ void mma_sp_e4m3_f32(const unsigned* a, const unsigned* b, const float* c, const unsigned* e,
                                           float* d) {
  const int lane = threadIdx.x;
  unsigned ra[4] = {a[lane * 4], a[lane * 4 + 1], a[lane * 4 + 2], a[lane * 4 + 3]};
  unsigned rb[4] = {b[lane * 4], b[lane * 4 + 1], b[lane * 4 + 2], b[lane * 4 + 3]};
  float rc[4] = {c[lane * 4], c[lane * 4 + 1], c[lane * 4 + 2], c[lane * 4 + 3]};
  float rd[4];
  asm volatile(
      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, 0x0;"
      : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
      : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(rb[2]), "r"(rb[3]), "f"(rc[0]),
        "f"(rc[1]), "f"(rc[2]), "f"(rc[3]), "r"(e[lane]));
  for (int i = 0; i < 4; ++i) d[lane * 4 + i] = rd[i];
}
