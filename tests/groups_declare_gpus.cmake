# Checks the generated GPU groups file (GROUPS_FILE): at least one group, and every
# group declares RESOURCE_GROUPS "gpus:1" (so ctest --resource-spec-file spreads groups
# over the GPUs) and is not RUN_SERIAL (which would run each group alone even then).
file(STRINGS "${GROUPS_FILE}" props REGEX "^set_tests_properties\\(")
list(LENGTH props n)
if(n EQUAL 0)
  message(FATAL_ERROR "${GROUPS_FILE} defines no GPU test group")
endif()
set(bad "")
foreach(line IN LISTS props)
  if(NOT line MATCHES "RESOURCE_GROUPS \\[=\\[gpus:1\\]=\\]" OR line MATCHES "RUN_SERIAL")
    string(APPEND bad "\n  ${line}")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "groups without RESOURCE_GROUPS gpus:1, or RUN_SERIAL, in ${GROUPS_FILE}:${bad}")
endif()
message("${n} GPU groups, each with RESOURCE_GROUPS gpus:1")
