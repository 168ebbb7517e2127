# SPDX-License-Identifier: Apache-2.0
# The fuzzers under ctest (label `fuzz`): fuzz.build configures and builds tests/fuzz with
# clang into build/fuzz (ccache makes a rebuild cheap); then, per target, fuzz.<t>.corpus
# replays the committed corpus and fuzz.<t> fuzzes 200,000 inputs on a copy of it (the source
# tree is never written). Without clang or libFuzzer every test skips and says why.
set(fuzz_src "${CMAKE_CURRENT_SOURCE_DIR}/fuzz")
set(fuzz_bin "${PROJECT_BINARY_DIR}/fuzz")
add_test(NAME fuzz.build COMMAND bash "${fuzz_src}/ctest_fuzz.sh" build "${fuzz_src}" "${fuzz_bin}")
set_tests_properties(fuzz.build PROPERTIES LABELS "fuzz" FIXTURES_SETUP gpuconform_fuzzers SKIP_RETURN_CODE 77)
foreach(target_and_len IN ITEMS vector_file:20000 expectation:8192 run_record:8192)
  string(REPLACE ":" ";" pair "${target_and_len}")
  list(GET pair 0 target)
  list(GET pair 1 max_len)
  foreach(mode IN ITEMS replay fuzz)
    set(name fuzz.${target})
    if(mode STREQUAL "replay")
      set(name fuzz.${target}.corpus)
    endif()
    add_test(NAME ${name}
             COMMAND bash "${fuzz_src}/ctest_fuzz.sh" ${mode} "${fuzz_src}" "${fuzz_bin}" ${target} ${max_len})
    set_tests_properties(${name} PROPERTIES LABELS "fuzz" FIXTURES_REQUIRED gpuconform_fuzzers
                         SKIP_RETURN_CODE 77 TIMEOUT 120)
  endforeach()
endforeach()
