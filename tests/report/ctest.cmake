# SPDX-License-Identifier: Apache-2.0
# `gpuconform report` in a real browser (issue 12's acceptance): a committed H100 evidence
# record and the curves fixture, each rendered to HTML, checked for network references and
# for a chart per family the record holds, and screenshotted by headless Chromium (a blank
# PNG fails). Skipped (exit 77) with the reason where Chromium or Python is absent.
set(report_records
    "evidence_h100:${GPUCONFORM_SOURCE_EXPECTATIONS_DIR}/evidence/sm_90-0x2330-2026-11-25-gpu-467f827c.jsonl"
    "curves_fixture:${CMAKE_CURRENT_SOURCE_DIR}/fixtures/evidence/report_curves.jsonl")
find_package(Python3 COMPONENTS Interpreter QUIET)
foreach(name_and_record IN LISTS report_records)
  string(FIND "${name_and_record}" ":" colon)
  string(SUBSTRING "${name_and_record}" 0 ${colon} name)
  math(EXPR after "${colon} + 1")
  string(SUBSTRING "${name_and_record}" ${after} -1 record)
  if(Python3_FOUND)
    add_test(NAME report.browser_${name}
             COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/report/report_in_browser.py"
                     $<TARGET_FILE:gpuconform> "${record}" "${CMAKE_CURRENT_BINARY_DIR}/report_${name}")
  else()
    add_test(NAME report.browser_${name} COMMAND ${CMAKE_COMMAND} -E echo "SKIP: no python3 to drive the check")
    set_tests_properties(report.browser_${name} PROPERTIES DISABLED ON)
  endif()
  set_tests_properties(report.browser_${name} PROPERTIES LABELS "unit;report" SKIP_RETURN_CODE 77 TIMEOUT 240)
endforeach()

# The command's exit-code contract: 0 written, 2 for input it cannot use (named).
set(report_fixtures "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/evidence")
function(report_cli_test name expected_exit output)
  add_test(NAME cli.report_${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECTED=${expected_exit} "-DEXPECTED_OUTPUT=${output}"
                   -P "${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.cmake" -- $<TARGET_FILE:gpuconform> report ${ARGN})
  set_tests_properties(cli.report_${name} PROPERTIES LABELS "unit;report")
endfunction()
report_cli_test(md 0 "16 test lines\\) written to" ${report_fixtures}/report_curves.jsonl
                --md ${CMAKE_CURRENT_BINARY_DIR}/report_curves.md)
report_cli_test(with_baseline 0 "written to" ${report_fixtures}/run_after.jsonl --baseline ${report_fixtures}/run_before.jsonl
                --html ${CMAKE_CURRENT_BINARY_DIR}/report_after.html)
report_cli_test(needs_an_output 2 "--html FILE or --md FILE" ${report_fixtures}/report_curves.jsonl)
report_cli_test(not_a_run_record 2 "sample\\.jsonl:1: not a run record line" ${report_fixtures}/sample.jsonl
                --html ${CMAKE_CURRENT_BINARY_DIR}/report_bad.html)
report_cli_test(unwritable 2 "cannot write" ${report_fixtures}/report_curves.jsonl
                --html ${CMAKE_CURRENT_BINARY_DIR}/no/such/dir/report.html)
