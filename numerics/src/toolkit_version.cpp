// SPDX-License-Identifier: Apache-2.0
// The nvcc that compiled the kernels, for the provenance of golden vector files: the CUDA
// compiler of this build (numerics/CMakeLists.txt passes CMAKE_CUDA_COMPILER_VERSION, the
// __CUDACC_VER_MAJOR__.__CUDACC_VER_MINOR__.__CUDACC_VER_BUILD__ of the kernels' compiles).
#include <string>

#include "gpuconform/numerics/golden_generator.hpp"

namespace gpuconform::numerics {

std::string nvcc_version() { return GPUCONFORM_NVCC_VERSION; }

}  // namespace gpuconform::numerics
