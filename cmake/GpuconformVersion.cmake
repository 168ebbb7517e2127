# SPDX-License-Identifier: Apache-2.0
# gpuconform_package_version(OUT SOURCE_DIR FALLBACK): the packages' upstream version, from
# `git describe` at packaging time, so every commit packs a different, increasing version
# that apt can upgrade between:
#   tagged v1.2.0 exactly          1.2.0
#   3 commits after tag v1.2.0     1.2.0+3.g1a2b3c4d5e6f
#   no v* tag yet                  FALLBACK+git<commits>.g<hash>  (e.g. 0.1.0+git412.gd9b4a1c8e2f0)
#   tracked files changed          ... with ".dirty" appended
#   no git or not a checkout       FALLBACK (the project() version)
# Included by cmake/GpuconformPackaging.cmake (install time: the changelog) and
# cmake/GpuconformCPackProject.cmake (cpack time: the package version).
function(gpuconform_package_version out source_dir fallback)
  set(version "${fallback}")
  find_program(_gpuconform_git git)
  if(_gpuconform_git AND EXISTS "${source_dir}/.git")
    execute_process(COMMAND "${_gpuconform_git}" describe --tags --match "v[0-9]*" --long --abbrev=12
                    WORKING_DIRECTORY "${source_dir}" OUTPUT_VARIABLE described
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND described MATCHES "^v([0-9][0-9A-Za-z.~]*)-([0-9]+)-g([0-9a-f]+)$")
      set(version "${CMAKE_MATCH_1}")
      if(NOT CMAKE_MATCH_2 EQUAL 0)
        string(APPEND version "+${CMAKE_MATCH_2}.g${CMAKE_MATCH_3}")
      endif()
    else()
      execute_process(COMMAND "${_gpuconform_git}" rev-list --count HEAD WORKING_DIRECTORY "${source_dir}"
                      OUTPUT_VARIABLE count OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc1)
      execute_process(COMMAND "${_gpuconform_git}" rev-parse --short=12 HEAD WORKING_DIRECTORY "${source_dir}"
                      OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc2)
      if(rc1 EQUAL 0 AND rc2 EQUAL 0 AND count MATCHES "^[0-9]+$" AND hash MATCHES "^[0-9a-f]+$")
        set(version "${fallback}+git${count}.g${hash}")
      endif()
    endif()
    if(NOT version STREQUAL fallback OR rc EQUAL 0)
      execute_process(COMMAND "${_gpuconform_git}" diff --quiet HEAD -- WORKING_DIRECTORY "${source_dir}"
                      RESULT_VARIABLE dirty ERROR_QUIET)
      if(dirty EQUAL 1)
        string(APPEND version ".dirty")
      endif()
    endif()
  endif()
  set(${out} "${version}" PARENT_SCOPE)
endfunction()

# gpuconform_changelog_date(OUT SOURCE_DIR): the last commit's date in RFC 2822 form (the
# changelog's trailer), so the same commit always packs the same changelog; without git,
# SOURCE_DATE_EPOCH or now.
function(gpuconform_changelog_date out source_dir)
  set(date "")
  find_program(_gpuconform_git git)
  if(_gpuconform_git AND EXISTS "${source_dir}/.git")
    execute_process(COMMAND "${_gpuconform_git}" log -1 --format=%cD WORKING_DIRECTORY "${source_dir}"
                    OUTPUT_VARIABLE date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(NOT date)
    string(TIMESTAMP date "%a, %d %b %Y %H:%M:%S +0000" UTC)
  endif()
  set(${out} "${date}" PARENT_SCOPE)
endfunction()
