# SPDX-License-Identifier: Apache-2.0
# Included at ctest time by the generated GPU groups file (GpuconformGroupDiscovery.cmake):
# how many GPUs this machine's tests see, so the groups that need every GPU (the p2p
# family, and any group with a pair or node probe) ask ctest for all of them. ctest cannot
# ask "every GPU there is": a test asking for more GPUs than the spec file lists is
# "Not Run" (a failure), and one asking for fewer runs beside another GPU's group.
#
# The count, needing no CUDA context (so `ctest -N` stays instant):
#   - GPUCONFORM_CTEST_GPUS (environment) when it is a number: say so where the rest guesses
#     wrong (MIG instances, a spec file written under another CUDA_VISIBLE_DEVICES);
#   - else the boards the NVIDIA driver lists (/proc/driver/nvidia/gpus; none without a
#     driver), at most as many as CUDA_VISIBLE_DEVICES names (CUDA stops at its first
#     entry it cannot use, "" or "-1": then none), which is what `gpuconform resources`
#     counts and writes into the spec file.
# A wrong guess costs no correctness: the GPU test binary locks every GPU it uses
# (conformance_main.cpp), so a multi-GPU group given one GPU by ctest waits for the others.

# Sets `out` to the number of GPUs the tests see. `proc_dir`: the driver's board list
# (tests pass a directory of their own).
function(gpuconform_ctest_gpu_count out proc_dir)
  if("$ENV{GPUCONFORM_CTEST_GPUS}" MATCHES "^[0-9]+$")
    set(${out} "$ENV{GPUCONFORM_CTEST_GPUS}" PARENT_SCOPE)
    return()
  endif()
  set(count 0)
  if(IS_DIRECTORY "${proc_dir}")
    file(GLOB boards LIST_DIRECTORIES true "${proc_dir}/*")
    list(LENGTH boards count)
  endif()
  if(DEFINED ENV{CUDA_VISIBLE_DEVICES})
    set(visible 0)
    set(rest "$ENV{CUDA_VISIBLE_DEVICES},")
    while(rest MATCHES "^([^,]*),(.*)$")
      set(entry "${CMAKE_MATCH_1}")
      set(rest "${CMAKE_MATCH_2}")
      string(STRIP "${entry}" entry)
      if(entry STREQUAL "" OR entry MATCHES "^-")
        break()
      endif()
      math(EXPR visible "${visible} + 1")
    endwhile()
    if(visible LESS count)
      set(count ${visible})
    endif()
  endif()
  set(${out} ${count} PARENT_SCOPE)
endfunction()

# Sets `out` to the RESOURCE_GROUPS value of a group that needs every GPU: "N,gpus:1" (N
# resource groups of one GPU each: ctest gives N distinct GPUs, in CTEST_RESOURCE_GROUP_0..N-1
# _GPUS) where N >= 2 GPUs are seen; "gpus:1" with fewer, where such a group runs on its one
# GPU and its probes skip themselves ("needs a second GPU") instead of ctest failing it as
# "Not Run" for want of a second GPU in the spec file.
function(gpuconform_every_gpu_resource_groups out)
  set(proc_dir "/proc/driver/nvidia/gpus")
  if(ARGC GREATER 1)
    set(proc_dir "${ARGV1}")
  endif()
  gpuconform_ctest_gpu_count(count "${proc_dir}")
  if(count GREATER_EQUAL 2)
    set(${out} "${count},gpus:1" PARENT_SCOPE)
  else()
    set(${out} "gpus:1" PARENT_SCOPE)
  endif()
endfunction()
