# SPDX-License-Identifier: Apache-2.0
# Included by the `cmake -P` test scripts: sets ARGS_AFTER_SEPARATOR to the script's
# arguments after `--` (cmake -P keeps its own before it).
set(ARGS_AFTER_SEPARATOR)
set(seen_separator FALSE)
foreach(i RANGE ${CMAKE_ARGC})
  if(seen_separator)
    list(APPEND ARGS_AFTER_SEPARATOR "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(seen_separator TRUE)
  endif()
endforeach()
