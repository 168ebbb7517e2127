// The nvcc that compiled the kernels, for the provenance of golden vector files.
#include <string>

namespace gpuconform::kernels {

std::string nvcc_version() {
  return std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__) + "." +
         std::to_string(__CUDACC_VER_BUILD__);
}

}  // namespace gpuconform::kernels
