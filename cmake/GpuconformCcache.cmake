# SPDX-License-Identifier: Apache-2.0
# Use ccache for C++ and CUDA when it is installed: CI and rebuilds then
# recompile only what changed.
find_program(GPUCONFORM_CCACHE ccache)
if(GPUCONFORM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${GPUCONFORM_CCACHE}")
  set(CMAKE_CUDA_COMPILER_LAUNCHER "${GPUCONFORM_CCACHE}")
endif()
