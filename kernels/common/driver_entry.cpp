// SPDX-License-Identifier: Apache-2.0
#include "common/driver_entry.hpp"

#include <cuda_runtime_api.h>

namespace gpuconform::kernels {

void* driver_entry_point(const char* symbol) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  const cudaError_t e = cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status);
#else
  // The ByVersion query came with CUDA 12.5; an older toolkit (the CUDA 12.4 build of the
  // toolkit comparison) has only the unversioned one, which gives its own headers' ABI.
  const cudaError_t e = cudaGetDriverEntryPoint(symbol, &p, cudaEnableDefault, &status);
#endif
  if (e != cudaSuccess || status != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return p;
}

}  // namespace gpuconform::kernels
