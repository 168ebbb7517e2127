# SPDX-License-Identifier: Apache-2.0
# Tests of the fleet outputs and the operator recipes (issue 12, items 5 and 6), kept in
# one file apart from the rest of tests/CMakeLists.txt. Tools that are only packaged on
# some machines (promtool, shellcheck, PyYAML, dpkg-deb) make their test skip (exit 77)
# with the reason where they are absent; CI installs them (tools/bootstrap.sh).

# promtool (Debian `prometheus`) accepts the textfile of a made-up run and of the CLI.
add_test(NAME outputs.prom_promtool_check
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/prom_check.sh" $<TARGET_FILE:gpuconform_unit_tests>
                 $<TARGET_FILE:gpuconform> "${CMAKE_CURRENT_BINARY_DIR}/prom_check"
                 $<TARGET_FILE:gpuconform_fake_nvml>)
set_tests_properties(outputs.prom_promtool_check PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77)

# Exit 2 says why in summary.json, the termination log and the Prometheus textfile.
add_test(NAME outputs.exit2_reason_everywhere
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/run_error_check.sh" $<TARGET_FILE:gpuconform>
                 "${CMAKE_CURRENT_BINARY_DIR}/run_error_check")
set_tests_properties(outputs.exit2_reason_everywhere PROPERTIES LABELS "unit")
# A GPU in use by others (the fake NVML): exit 3, run error gpu_busy everywhere, --allow-busy.
add_test(NAME outputs.gpu_busy
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/gpu_busy_check.sh" $<TARGET_FILE:gpuconform>
                 $<TARGET_FILE:gpuconform_fake_nvml> "${CMAKE_CURRENT_BINARY_DIR}/gpu_busy_check")
set_tests_properties(outputs.gpu_busy PROPERTIES LABELS "unit")

# A container build (no .git) bakes in the commit its build argument names.
add_test(NAME outputs.suite_commit_without_git
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/contrib/suite_commit_check.sh" "${PROJECT_SOURCE_DIR}"
                 "${CMAKE_CURRENT_BINARY_DIR}/suite_commit_check")
set_tests_properties(outputs.suite_commit_without_git PROPERTIES LABELS "unit")

# The recipes against a stand-in gpuconform; their shell syntax (bash -n) and shellcheck.
add_test(NAME outputs.recipes
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/contrib/recipes_test.sh" "${PROJECT_SOURCE_DIR}"
                 "${CMAKE_CURRENT_BINARY_DIR}/recipes")
set(recipe_scripts "${PROJECT_SOURCE_DIR}/contrib/nhc/gpuconform.nhc" "${PROJECT_SOURCE_DIR}/contrib/slurm/prolog.sh"
    "${PROJECT_SOURCE_DIR}/contrib/slurm/epilog.sh" "${PROJECT_SOURCE_DIR}/contrib/slurm/gpuconform-check.sh"
    "${CMAKE_CURRENT_SOURCE_DIR}/contrib/recipes_test.sh" "${CMAKE_CURRENT_SOURCE_DIR}/contrib/fake_gpuconform.sh"
    "${CMAKE_CURRENT_SOURCE_DIR}/prom_check.sh" "${CMAKE_CURRENT_SOURCE_DIR}/package_check.sh"
    "${CMAKE_CURRENT_SOURCE_DIR}/package_lintian.sh" "${CMAKE_CURRENT_SOURCE_DIR}/package_docs_check.sh"
    "${CMAKE_CURRENT_SOURCE_DIR}/list_coverage_check.sh" "${CMAKE_CURRENT_SOURCE_DIR}/run_error_check.sh"
    "${CMAKE_CURRENT_SOURCE_DIR}/gpu_busy_check.sh" "${CMAKE_CURRENT_SOURCE_DIR}/compare_check.sh"
    "${CMAKE_CURRENT_SOURCE_DIR}/contrib/suite_commit_check.sh")
add_test(NAME outputs.recipes_bash_syntax COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/contrib/shell_check.sh" syntax
                                                  ${recipe_scripts})
add_test(NAME outputs.recipes_shellcheck COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/contrib/shell_check.sh" shellcheck
                                                 ${recipe_scripts})
set_tests_properties(outputs.recipes outputs.recipes_bash_syntax outputs.recipes_shellcheck
                     PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77)

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_FOUND)
  add_test(NAME outputs.k8s_job_parses
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/contrib/k8s_job_test.py"
                   "${PROJECT_SOURCE_DIR}/contrib/k8s/gpuconform-job.yaml"
                   "${PROJECT_SOURCE_DIR}/contrib/k8s/gpuconform-daemonset.yaml")
  add_test(NAME outputs.dockerfile_lint
           COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/contrib/dockerfile_lint.py"
                   "${PROJECT_SOURCE_DIR}/contrib/docker/Dockerfile" $<TARGET_FILE:gpuconform>)
  set_tests_properties(outputs.k8s_job_parses outputs.dockerfile_lint PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77)
endif()

# The packages: build them (cpack on this build tree), check the .deb's Depends name the
# fmt, MPFR and GMP runtime packages, unpack both .debs into an empty root (dpkg -x) and run
# `gpuconform list --arch sm_90` from there; the version (git describe), copyright, changelog
# and stripped binary. Label `package` (not `unit`): it packs ~100 MB. It is the fixture of
# the two `unit` tests after it, so `ctest -L unit` makes the packages too.
add_test(NAME package.deb_installs_and_lists
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/package_check.sh" "${PROJECT_BINARY_DIR}"
                 "${CMAKE_CURRENT_BINARY_DIR}/package_check")
set_tests_properties(package.deb_installs_and_lists PROPERTIES LABELS "package" SKIP_RETURN_CODE 77 TIMEOUT 600
                     RUN_SERIAL TRUE FIXTURES_SETUP gpuconform_packages)
# lintian: no error on either .deb (skips without lintian; tools/bootstrap.sh installs it).
add_test(NAME package.lintian COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/package_lintian.sh"
                                      "${CMAKE_CURRENT_BINARY_DIR}/package_check")
# The man page (generated from --help) and the bash completion are in the .deb and work.
add_test(NAME package.man_page_installed COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/package_docs_check.sh"
                                                 "${CMAKE_CURRENT_BINARY_DIR}/package_check")
set_tests_properties(package.lintian package.man_page_installed PROPERTIES LABELS "unit" SKIP_RETURN_CODE 77
                     TIMEOUT 300 FIXTURES_REQUIRED gpuconform_packages)

# `gpuconform list --coverage`: one row per expectation file, judged/runnable per family,
# the classes' totals and quick's judged/selected; --json's counts add up per family.
add_test(NAME cli.list_coverage
         COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/list_coverage_check.sh" $<TARGET_FILE:gpuconform>
                 "${PROJECT_SOURCE_DIR}/expectations" "${CMAKE_CURRENT_BINARY_DIR}/list_coverage")
set_tests_properties(cli.list_coverage PROPERTIES LABELS "unit")
