// SPDX-License-Identifier: Apache-2.0
#pragma once
// Every CUDA runtime call goes through GC_CUDA_CHECK: a failure throws with the
// call's text, the error name and where it happened, so the test that made the
// call fails with an actionable message instead of reading garbage later.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace gpuconform {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);

}  // namespace gpuconform

#define GC_CUDA_CHECK(call)                                                    \
  do {                                                                         \
    cudaError_t gc_status_ = (call);                                           \
    if (gc_status_ != cudaSuccess)                                             \
      ::gpuconform::throw_cuda_error(gc_status_, #call, __FILE__, __LINE__);   \
  } while (0)

// After a kernel launch: catches both launch-configuration errors and faults
// raised while the kernel ran.
#define GC_CUDA_CHECK_LAUNCH()                                                 \
  do {                                                                         \
    GC_CUDA_CHECK(cudaGetLastError());                                         \
    GC_CUDA_CHECK(cudaDeviceSynchronize());                                    \
  } while (0)
