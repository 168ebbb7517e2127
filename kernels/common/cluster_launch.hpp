// SPDX-License-Identifier: Apache-2.0
#pragma once
// A cudaLaunchKernelEx configuration for 1-D clusters of `size` CTAs: the
// configuration points at its own cluster-dimension attribute, so the object
// is neither copied nor moved (a copy would point at the original's attribute).
#include <cuda_runtime_api.h>

#include <cstddef>

namespace gpuconform::kernels {

struct ClusterLaunch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attr{};

  ClusterLaunch(unsigned size, unsigned threads, std::size_t dynamic_smem = 0, unsigned clusters = 1) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = size;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    config.gridDim = dim3(size * clusters);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = dynamic_smem;
    config.attrs = &attr;
    config.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;

  void set_clusters(unsigned clusters) { config.gridDim = dim3(attr.val.clusterDim.x * clusters); }
};

}  // namespace gpuconform::kernels
