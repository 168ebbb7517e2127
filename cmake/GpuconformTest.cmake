# SPDX-License-Identifier: Apache-2.0
# One place that decides how test binaries become ctest tests and labels.

# CPU-only tests: label `unit`, run everywhere (CI included); each gtest test is its own
# ctest process.
function(gpuconform_add_unit_tests target)
  gtest_discover_tests(${target}
    PROPERTIES LABELS "unit" TIMEOUT 300
    DISCOVERY_TIMEOUT 60)
endfunction()

# GPU conformance tests: one ctest test per probe group (latency.alu, latency.mem,
# numeric.mma_sync, p2p.bandwidth, ...), labelled with its family (latency, throughput,
# numeric, topology, parallel, p2p, health), each one process running its gtest tests
# (GpuconformGroupDiscovery.cmake says why). One group per GPU at a time, because a
# concurrent test would disturb every timing: each group needs one "gpus" slot (ctest
# --resource-spec-file, from `gpuconform resources`, runs groups on all GPUs at once) and
# holds its GPU's lock while it runs (so plain `ctest -j N` queues them). A p2p group
# (GPU-to-GPU links) needs every GPU: one slot on each, and every GPU's lock. One probe:
# run the test binary with --gtest_filter, or `gpuconform run --filter ID`.
function(gpuconform_add_gpu_tests target)
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_groups.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS "${ctest_file}"
    COMMAND "${CMAKE_COMMAND}" -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>" -D "CTEST_FILE=${ctest_file}"
            -D "FAMILIES=latency,throughput,numeric,topology,parallel,p2p,health" -D TIMEOUT=600
            -P "${PROJECT_SOURCE_DIR}/cmake/GpuconformGroupDiscovery.cmake"
    VERBATIM)
  # Before the first build there is no list yet: say so instead of finding no tests.
  file(WRITE "${include_file}"
    "if(EXISTS \"${ctest_file}\")\n  include(\"${ctest_file}\")\n"
    "else()\n  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
