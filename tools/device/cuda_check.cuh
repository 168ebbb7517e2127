// SPDX-License-Identifier: Apache-2.0
// CHECK for the stand-alone investigation programs of tools/device/ (built alone with nvcc,
// outside the suite, so without the harness's GC_CUDA_CHECK): a CUDA error prints where and
// what, and ends the program with exit code 1.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                                        \
  do {                                                                                                  \
    cudaError_t check_error_ = (x);                                                                     \
    if (check_error_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(check_error_)); \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)
