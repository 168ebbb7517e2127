# SPDX-License-Identifier: Apache-2.0
# Checks of the code itself, run with the unit tests on every CI build.

# No function over 120 lines outside tables (tools/check_function_length.py says which).
if(Python3_FOUND)
  add_test(NAME code.function_length
           COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/check_function_length.py" "${PROJECT_SOURCE_DIR}")
  set_tests_properties(code.function_length PROPERTIES LABELS "unit")
endif()

# The lines the last commit touched follow .clang-format (tools/check_format.sh against
# HEAD~1, so a clean clone checks the change it was cloned at). Skips, saying why, without
# clang-format or without a parent commit (a shallow clone).
add_test(NAME code.format_last_commit
         COMMAND sh -c "command -v clang-format >/dev/null || { echo 'skipped: no clang-format (tools/bootstrap.sh installs it)'; exit 77; }; \
git -C \"$0\" rev-parse --verify --quiet HEAD~1 >/dev/null || { echo 'skipped: no parent commit (shallow clone)'; exit 77; }; \
cd \"$0\" && GPUCONFORM_FORMAT_BASE=HEAD~1 tools/check_format.sh" "${PROJECT_SOURCE_DIR}")
set_tests_properties(code.format_last_commit PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77)
