// SPDX-License-Identifier: Apache-2.0
#pragma once
// Rounded-to-nearest binary64 operations that the compiler may not contract or reorder: the
// error-free transformations of the binary32 and binary64 arithmetic references
// (scalar_arith.hpp, scalar_f64_arith.hpp) depend on each step being one RN operation, on
// the GPU (the __d*_rn intrinsics, never fused) as on the host.
#include "gpuconform/reference/scalar_round.hpp"  // GC_SCALAR_HD

namespace gpuconform::numerics::rn_ops {

GC_SCALAR_HD double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
GC_SCALAR_HD double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
GC_SCALAR_HD double div(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __ddiv_rn(a, b);
#else
  return a / b;
#endif
}
GC_SCALAR_HD double sqrt(double a) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(a);
#else
  return __builtin_sqrt(a);
#endif
}
GC_SCALAR_HD double fma(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return __builtin_fma(a, b, c);
#endif
}

}  // namespace gpuconform::numerics::rn_ops
