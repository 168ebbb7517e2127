// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one compile-time name for the architecture a device pass compiles for.

namespace gpuconform::kernels {

// __CUDA_ARCH__ of this device pass (e.g. 900), 0 in the host pass, so that an
// instruction newer than the target is compiled out with `if constexpr` instead of
// failing ptxas; its probe's Requirements keep it from running.
#ifdef __CUDA_ARCH__
inline constexpr int kCudaArch = __CUDA_ARCH__;
#else
inline constexpr int kCudaArch = 0;
#endif

}  // namespace gpuconform::kernels
