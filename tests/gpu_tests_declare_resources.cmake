# SPDX-License-Identifier: Apache-2.0
# Checks every ctest test of the build tree as `ctest --resource-spec-file` would run it
# on a node of two GPUs (GPUCONFORM_CTEST_GPUS=2, GpuconformCtestGpus.cmake), from
# `ctest --show-only=json-v1`, with no GPU needed:
#
#  1. A test that runs the GPU test binary (GPU_TEST_BINARY: a probe group, or a script
#     given the binary) declares RESOURCE_GROUPS with "gpus". The binary takes its GPU
#     from ctest's allocation, and under a spec file ctest gives a test without
#     RESOURCE_GROUPS CTEST_RESOURCE_GROUP_COUNT=0, which the binary refuses at once
#     (selftest.gtest_watchdog failed so, after 0.4 s, on a 2-GPU node).
#  2. A test with a GPU label (GPU_LABELS) declares a "gpus" resource group or is
#     RUN_SERIAL; otherwise a spec-file run starts it beside the GPU groups.
#  3. A p2p test (GPU-to-GPU links) is given both GPUs: two resource groups of "gpus".
#  4. No two tests name the same work directory or output file under the build tree
#     (BUILD_DIR), nor one inside the other's, unless a fixture joins them (one sets it
#     up, the other requires it) or it is a build product (ARTIFACTS) or the tree itself.
#
# Inputs: CTEST, BUILD_DIR, SCRATCH (a directory of the check's own), GPU_TEST_BINARY,
# GPU_LABELS and ARTIFACTS (comma-separated).
cmake_minimum_required(VERSION 3.25)
string(REPLACE "," ";" GPU_LABELS "${GPU_LABELS}")
string(REPLACE "," ";" ARTIFACTS "${ARTIFACTS}")
list(APPEND ARTIFACTS "${GPU_TEST_BINARY}")
# Even --show-only rewrites the tree's Testing/Temporary/LastTest.log, which the ctest
# running this check is writing: list a copy of the tree's CTestTestfile.cmake files
# (their subdirs() are relative, everything else absolute) in SCRATCH instead.
file(REMOVE_RECURSE "${SCRATCH}")
file(GLOB_RECURSE testfiles RELATIVE "${BUILD_DIR}" "${BUILD_DIR}/CTestTestfile.cmake" "${BUILD_DIR}/*/CTestTestfile.cmake")
foreach(f IN LISTS testfiles)
  string(FIND "${BUILD_DIR}/${f}" "${SCRATCH}/" in_scratch)
  if(NOT in_scratch EQUAL 0)
    configure_file("${BUILD_DIR}/${f}" "${SCRATCH}/${f}" COPYONLY)
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env GPUCONFORM_CTEST_GPUS=2
                        "${CTEST}" --test-dir "${SCRATCH}" --show-only=json-v1
                OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "ctest --show-only=json-v1 failed (${code}): ${err}")
endif()

# The value of property `name` of a test (its JSON object), a JSON text for arrays, or ""
# without one.
function(test_property out test name)
  set(${out} "" PARENT_SCOPE)
  string(JSON n ERROR_VARIABLE none LENGTH "${test}" properties)
  if(none OR n EQUAL 0)
    return()
  endif()
  math(EXPR last "${n} - 1")
  foreach(p RANGE ${last})
    string(JSON pname GET "${test}" properties ${p} name)
    if(pname STREQUAL name)
      string(JSON value GET "${test}" properties ${p} value)
      set(${out} "${value}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# A JSON array of strings as a CMake list.
function(json_strings out array)
  set(items "")
  if(NOT array STREQUAL "")
    string(JSON n LENGTH "${array}")
    if(n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(k RANGE ${last})
        string(JSON item GET "${array}" ${k})
        list(APPEND items "${item}")
      endforeach()
    endif()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# How many of the resource groups (RESOURCE_GROUPS as JSON) ask for a "gpus" slot.
function(gpu_groups out groups)
  set(count 0)
  if(NOT groups STREQUAL "")
    string(JSON n LENGTH "${groups}")
    if(n GREATER 0)
      math(EXPR last "${n} - 1")
      foreach(g RANGE ${last})
        string(JSON nreq LENGTH "${groups}" ${g} requirements)
        if(nreq GREATER 0)
          math(EXPR lastreq "${nreq} - 1")
          foreach(r RANGE ${lastreq})
            string(JSON type GET "${groups}" ${g} requirements ${r} .type)
            if(type STREQUAL "gpus")
              math(EXPR count "${count} + 1")
              break()
            endif()
          endforeach()
        endif()
      endforeach()
    endif()
  endif()
  set(${out} ${count} PARENT_SCOPE)
endfunction()

string(JSON ntests LENGTH "${json}" tests)
if(ntests EQUAL 0)
  message(FATAL_ERROR "ctest lists no test in ${BUILD_DIR} (${SCRATCH})")
endif()
math(EXPR last_test "${ntests} - 1")
set(bad "")
set(programs "")   # the programs tests run (command[0]): build products, not outputs
set(checked_gpu 0)
foreach(i RANGE ${last_test})
  # string(JSON) parses its whole input each time: the whole listing once per test only.
  string(JSON test GET "${json}" tests ${i})
  string(JSON name GET "${test}" name)
  string(JSON ncmd ERROR_VARIABLE no_command LENGTH "${test}" command)
  if(no_command)
    if(name MATCHES "_NOT_BUILT$")
      string(APPEND bad "\n  ${name}: the test binaries are not built, so their tests are not listed")
    endif()
    continue()
  endif()
  set(command "")
  math(EXPR last_arg "${ncmd} - 1")
  foreach(a RANGE ${last_arg})
    string(JSON arg GET "${test}" command ${a})
    list(APPEND command "${arg}")
  endforeach()
  test_property(labels_json "${test}" LABELS)
  json_strings(labels "${labels_json}")
  test_property(groups_json "${test}" RESOURCE_GROUPS)
  gpu_groups(gpus "${groups_json}")
  test_property(serial "${test}" RUN_SERIAL)
  test_property(setup_json "${test}" FIXTURES_SETUP)
  json_strings(setup "${setup_json}")
  test_property(required_json "${test}" FIXTURES_REQUIRED)
  json_strings(required "${required_json}")
  set(fixtures_of_${i} ${setup} ${required})
  set(setup_of_${i} ${setup})
  set(name_of_${i} "${name}")

  set(gpu_label OFF)
  foreach(label IN LISTS labels)
    if(label IN_LIST GPU_LABELS)
      set(gpu_label ON)
    endif()
  endforeach()
  if(gpu_label)
    math(EXPR checked_gpu "${checked_gpu} + 1")
  endif()
  if(GPU_TEST_BINARY IN_LIST command AND gpus EQUAL 0)
    string(APPEND bad "\n  ${name}: runs ${GPU_TEST_BINARY} but declares no RESOURCE_GROUPS \"gpus:1\"; under "
                      "--resource-spec-file ctest gives it CTEST_RESOURCE_GROUP_COUNT=0 and the binary refuses to run")
  elseif(gpu_label AND gpus EQUAL 0 AND NOT serial)
    string(APPEND bad "\n  ${name}: a GPU test (labels ${labels}) with neither RESOURCE_GROUPS \"gpus\" nor "
                      "RUN_SERIAL: ctest would run it beside the GPU groups")
  endif()
  if("p2p" IN_LIST labels AND gpus LESS 2)
    string(APPEND bad "\n  ${name}: a p2p test given ${gpus} GPU(s) by ctest on a node of two; it needs both "
                      "(RESOURCE_GROUPS \"2,gpus:1\")")
  endif()

  set(args "")
  foreach(arg IN LISTS command)
    if(arg MATCHES "^-D[A-Za-z_0-9]+=(.*)$")  # one MATCHES an if(): a failed one clears CMAKE_MATCH_1
      set(arg "${CMAKE_MATCH_1}")
    elseif(arg MATCHES "^--[a-z_-]+=(.*)$")
      set(arg "${CMAKE_MATCH_1}")
    endif()
    string(REPLACE "," ";" pieces "${arg}")  # -DLIST=a,b: each
    list(APPEND args ${pieces})
  endforeach()
  list(GET command 0 program)
  list(APPEND programs "${program}")
  set(args_of_${i} ${args})
endforeach()

list(REMOVE_DUPLICATES programs)
# Shared paths: tests naming one path under the build tree (not a program some test runs,
# nor ARTIFACTS), or one inside another's, must have a fixture in common (a setup writes
# it, the tests that require the fixture read it).
set(paths "")
foreach(i RANGE ${last_test})
  foreach(arg IN LISTS args_of_${i})
    string(FIND "${arg}" "${BUILD_DIR}/" under)
    if(NOT under EQUAL 0 OR arg IN_LIST ARTIFACTS OR arg IN_LIST programs)
      continue()
    endif()
    string(MD5 key "${arg}")
    if(NOT arg IN_LIST paths)
      list(APPEND paths "${arg}")
      set(users_${key} "")
    endif()
    if(NOT i IN_LIST users_${key})
      list(APPEND users_${key} ${i})
    endif()
  endforeach()
endforeach()
# Each path's users, with those of the paths it lies inside.
foreach(path IN LISTS paths)
  string(MD5 key "${path}")
  set(all_${key} ${users_${key}})
  foreach(outer IN LISTS paths)
    string(FIND "${path}/" "${outer}/" inside)
    if(inside EQUAL 0 AND NOT outer STREQUAL path)
      string(MD5 outer_key "${outer}")
      list(APPEND all_${key} ${users_${outer_key}})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES all_${key})
  list(LENGTH all_${key} n)
  if(n LESS 2)
    continue()
  endif()
  list(GET all_${key} 0 first)
  set(common ${fixtures_of_${first}})
  set(names "")
  foreach(t IN LISTS all_${key})
    list(APPEND names "${name_of_${t}}")
    set(kept "")
    foreach(f IN LISTS common)
      if(f IN_LIST fixtures_of_${t})
        list(APPEND kept "${f}")
      endif()
    endforeach()
    set(common ${kept})
  endforeach()
  if(NOT common)
    list(JOIN names ", " names)
    string(APPEND bad "\n  ${path} (or a directory holding it) is named by ${names}, which no fixture joins: "
                      "tests that share a path")
  endif()
endforeach()

if(checked_gpu EQUAL 0)
  string(APPEND bad "\n  no test has a GPU label (${GPU_LABELS})")
endif()
if(bad)
  message(FATAL_ERROR "ctest tests that a --resource-spec-file run on a 2-GPU node would break:${bad}")
endif()
message("${ntests} tests, ${checked_gpu} of them GPU tests: each GPU test declares its GPUs (or runs alone), "
        "p2p tests get both GPUs, and no two tests share a work directory or output file")
