// SPDX-License-Identifier: Apache-2.0
#include "gpuconform/cuda_check.hpp"

#include <fmt/format.h>

namespace gpuconform {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  throw CudaError(code, fmt::format("CUDA error {} ({}) from `{}` at {}:{}", cudaGetErrorName(code),
                                    cudaGetErrorString(code), call, file, line));
}

}  // namespace gpuconform
