# SPDX-License-Identifier: Apache-2.0
# gpu_tests_declare_resources.cmake must fail where a 2-GPU spec-file run would break: a
# made-up test tree (under OUT) holding the declaration selftest.gtest_watchdog had
# (RUN_SERIAL, no RESOURCE_GROUPS, running the GPU test binary), a p2p group given one
# GPU, a GPU test with neither resource nor RUN_SERIAL, and two tests sharing a work
# directory; and pass on the same tree with those mended.
#
# Inputs: CTEST, CHECK (the checker script), OUT (a scratch directory).
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(binary "${OUT}/gpuconform_gpu_tests")
file(WRITE "${binary}" "")

function(write_tree good)
  if(good)
    set(watchdog_resources "RESOURCE_GROUPS gpus:1 RUN_SERIAL TRUE")
    set(p2p_resources "RESOURCE_GROUPS 2,gpus:1")
    set(loose_resources "RUN_SERIAL TRUE")
    set(second_dir "${OUT}/work_b")
  else()
    set(watchdog_resources "RUN_SERIAL TRUE")
    set(p2p_resources "RESOURCE_GROUPS gpus:1")
    set(loose_resources "")
    set(second_dir "${OUT}/work_a")
  endif()
  file(WRITE "${OUT}/CTestTestfile.cmake"
    "add_test(selftest.gtest_watchdog bash run.sh gtest_watchdog \"${binary}\" \"${OUT}/selftest_gtest_watchdog\")\n"
    "set_tests_properties(selftest.gtest_watchdog PROPERTIES LABELS selftest ${watchdog_resources})\n"
    "add_test(p2p.bandwidth \"${binary}\" --gtest_filter=P2p.*)\n"
    "set_tests_properties(p2p.bandwidth PROPERTIES LABELS p2p ${p2p_resources})\n"
    "add_test(latency.alu \"${binary}\" --gtest_filter=Latency.*)\n"
    "set_tests_properties(latency.alu PROPERTIES LABELS latency RESOURCE_GROUPS gpus:1)\n"
    "add_test(throughput.script bash run.sh \"${OUT}/work_a\")\n"
    "set_tests_properties(throughput.script PROPERTIES LABELS throughput ${loose_resources})\n"
    "add_test(cli.other bash run.sh \"-DOUT=${second_dir}/x.toml\")\n"
    "set_tests_properties(cli.other PROPERTIES LABELS unit)\n")
endfunction()

function(check out_code out_text)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DCTEST=${CTEST}" "-DBUILD_DIR=${OUT}" "-DSCRATCH=${OUT}/listing"
                          "-DGPU_TEST_BINARY=${binary}"
                          "-DGPU_LABELS=latency,throughput,selftest,p2p" "-DARTIFACTS=${binary}" -P "${CHECK}"
                  RESULT_VARIABLE code OUTPUT_VARIABLE text ERROR_VARIABLE text)
  set(${out_code} "${code}" PARENT_SCOPE)
  set(${out_text} "${text}" PARENT_SCOPE)
endfunction()

write_tree(OFF)
check(code text)
set(missing "")
foreach(expected
    "selftest.gtest_watchdog: runs [^ ]+ but declares no RESOURCE_GROUPS"
    "p2p.bandwidth: a p2p test given 1 GPU"
    "throughput.script: a GPU test .* with neither RESOURCE_GROUPS"
    "work_a/x.toml \\(or a directory holding it\\) is named by (cli.other, throughput.script|throughput.script, cli.other),")
  if(NOT text MATCHES "${expected}")
    string(APPEND missing "\n  ${expected}")
  endif()
endforeach()
if(code EQUAL 0 OR missing)
  message(FATAL_ERROR "the check passed a broken tree (exit ${code}) or did not say${missing}\n${text}")
endif()
if(text MATCHES "latency.alu")
  message(FATAL_ERROR "the check blamed latency.alu, which declares gpus:1:\n${text}")
endif()

write_tree(ON)
check(code text)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the check failed a sound tree (exit ${code}):\n${text}")
endif()
file(REMOVE_RECURSE "${OUT}")
message("the resource check fails the old selftest.gtest_watchdog declaration, a one-GPU p2p group, an undeclared "
        "GPU test and a shared work directory, and passes them mended")
