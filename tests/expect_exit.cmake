# SPDX-License-Identifier: Apache-2.0
# Runs the command after `--` and fails unless it exits with ${EXPECTED} and, when
# EXPECTED_OUTPUT (a regex) is given, its output matches it.
include("${CMAKE_CURRENT_LIST_DIR}/args_after_separator.cmake")
set(cmd ${ARGS_AFTER_SEPARATOR})
execute_process(COMMAND ${cmd} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${code}" STREQUAL "${EXPECTED}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECTED}: ${cmd}")
endif()
if(DEFINED EXPECTED_OUTPUT AND NOT "${out}${err}" MATCHES "${EXPECTED_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECTED_OUTPUT}': ${cmd}")
endif()
