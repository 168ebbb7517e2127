# SPDX-License-Identifier: Apache-2.0
# GpuconformCtestGpus.cmake: the RESOURCE_GROUPS of a group that needs every GPU, from a
# made-up driver board list (OUT/gpus) and CUDA_VISIBLE_DEVICES, as ctest would read them.
#
# Inputs: MODULE (cmake/GpuconformCtestGpus.cmake), OUT (a scratch directory).
cmake_minimum_required(VERSION 3.25)
include("${MODULE}")
file(REMOVE_RECURSE "${OUT}")
set(bad "")

# expect(boards visible override expected): `visible` "unset" leaves CUDA_VISIBLE_DEVICES
# out, `override` "unset" GPUCONFORM_CTEST_GPUS.
function(expect boards visible override expected)
  file(REMOVE_RECURSE "${OUT}/gpus")
  if(boards GREATER 0)
    math(EXPR last "${boards} - 1")
    foreach(b RANGE ${last})
      file(MAKE_DIRECTORY "${OUT}/gpus/0000:0${b}:00.0")
    endforeach()
  endif()
  if(visible STREQUAL "unset")
    unset(ENV{CUDA_VISIBLE_DEVICES})
  else()
    set(ENV{CUDA_VISIBLE_DEVICES} "${visible}")
  endif()
  if(override STREQUAL "unset")
    unset(ENV{GPUCONFORM_CTEST_GPUS})
  else()
    set(ENV{GPUCONFORM_CTEST_GPUS} "${override}")
  endif()
  gpuconform_every_gpu_resource_groups(got "${OUT}/gpus")
  if(NOT got STREQUAL expected)
    set(bad "${bad}\n  ${boards} board(s), CUDA_VISIBLE_DEVICES ${visible}, GPUCONFORM_CTEST_GPUS ${override}: "
            "${got}, expected ${expected}" PARENT_SCOPE)
  endif()
endfunction()

expect(0 unset unset "gpus:1")          # no driver (CI): one GPU's worth, the tests skip
expect(1 unset unset "gpus:1")          # one GPU: p2p runs there and its probes skip
expect(2 unset unset "2,gpus:1")        # the 2-GPU node: both
expect(8 unset unset "8,gpus:1")
expect(8 "0,1" unset "2,gpus:1")        # CUDA_VISIBLE_DEVICES narrows it
expect(2 "0,1,2,3" unset "2,gpus:1")    # ... never beyond the boards there are
expect(2 "1" unset "gpus:1")
expect(2 "" unset "gpus:1")             # an empty list hides every GPU
expect(2 "-1" unset "gpus:1")           # as does an invalid first entry
expect(4 "0,-1,2" unset "gpus:1")       # CUDA stops at the first invalid one: one GPU
expect(4 "0,2,-1" unset "2,gpus:1")
expect(2 "GPU-a,GPU-b" unset "2,gpus:1") # UUIDs count too
expect(0 unset "4" "4,gpus:1")          # GPUCONFORM_CTEST_GPUS says it outright
expect(8 unset "1" "gpus:1")
expect(2 unset "two" "2,gpus:1")        # not a number: ignored
file(REMOVE_RECURSE "${OUT}")
if(bad)
  message(FATAL_ERROR "gpuconform_every_gpu_resource_groups:${bad}")
endif()
message("gpuconform_every_gpu_resource_groups: 15 cases as expected")
