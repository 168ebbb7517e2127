# SPDX-License-Identifier: Apache-2.0
# Packages: `cmake --build build --target package` makes
#   gpuconform_<version>-1_<arch>.deb       the CLI, expectations, evidence, schemas, recipes,
#                                           man page, bash completion
#   gpuconform-golden_<version>-1_all.deb   the recorded MMA vectors (expectations/golden,
#                                           about 57 MB, architecture-independent)
#   gpuconform-<version>-Linux.tar.gz       everything, for `tar -x` on an air-gapped node
# <version> comes from `git describe` when cpack runs (cmake/GpuconformVersion.cmake:
# 0.1.0+git234.gd9b4a1c8e2f0 before the first v* tag), the project() version without git.
# Each .deb has /usr/share/doc/<package>/copyright (machine-readable, Apache-2.0) and
# changelog.Debian.gz; the binary is stripped. lintian reports no error on either.
# The .deb's Depends come from the binary's shared libraries (dpkg-shlibdeps), so they name
# exactly the fmt, MPFR, GMP and liblzma packages of the distribution that built it.
# tests/package_check.sh installs them into an empty root, runs the CLI and runs lintian.
include(GpuconformVersion)

# The man page and the bash completion, generated from the built CLI's --help on every
# build (cmake/GpuconformHelpDocs.cmake), so they list exactly the options it has. The page
# names the packages' paths (prefix /usr), not this build tree's.
set(GPUCONFORM_PACKAGE_PREFIX "/usr")
set(GPUCONFORM_HELP_DOCS_DIR "${PROJECT_BINARY_DIR}/share")
set(gpuconform_man "${GPUCONFORM_HELP_DOCS_DIR}/man/man1/gpuconform.1")
set(gpuconform_completion "${GPUCONFORM_HELP_DOCS_DIR}/bash-completion/completions/gpuconform")
find_program(GPUCONFORM_GZIP gzip)
set(gpuconform_help_outputs "${gpuconform_man}" "${gpuconform_completion}")
set(gpuconform_gzip_man "")
if(GPUCONFORM_GZIP)
  # -n: no name or time stamp in the header, so the same page packs the same bytes.
  list(APPEND gpuconform_help_outputs "${gpuconform_man}.gz")
  set(gpuconform_gzip_man COMMAND "${GPUCONFORM_GZIP}" -9nkf "${gpuconform_man}")
endif()
add_custom_command(
  OUTPUT ${gpuconform_help_outputs}
  COMMAND "${CMAKE_COMMAND}" -E make_directory "${GPUCONFORM_HELP_DOCS_DIR}/man/man1"
          "${GPUCONFORM_HELP_DOCS_DIR}/bash-completion/completions"
  COMMAND "${CMAKE_COMMAND}" "-DBIN=$<TARGET_FILE:gpuconform>" "-DMAN=${gpuconform_man}"
          "-DCOMPLETION=${gpuconform_completion}" "-DVERSION=${PROJECT_VERSION}"
          "-DEXPECTATIONS=${GPUCONFORM_PACKAGE_PREFIX}/${CMAKE_INSTALL_DATADIR}/gpuconform/expectations"
          -P "${CMAKE_CURRENT_LIST_DIR}/GpuconformHelpDocs.cmake"
  ${gpuconform_gzip_man}
  DEPENDS gpuconform "${CMAKE_CURRENT_LIST_DIR}/GpuconformHelpDocs.cmake"
  COMMENT "Generating the gpuconform man page and bash completion from --help"
  VERBATIM)
add_custom_target(gpuconform_help_docs ALL DEPENDS ${gpuconform_help_outputs})
if(GPUCONFORM_GZIP)
  install(FILES "${gpuconform_man}.gz" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
else()
  install(FILES "${gpuconform_man}" DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
endif()
install(FILES "${gpuconform_completion}" DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        COMPONENT runtime)

# /usr/share/doc/<package>/: the copyright file and a one-entry Debian changelog naming the
# version and commit, written when the package is staged (the version is cpack time's).
set(GPUCONFORM_PACKAGE_CONTACT "gpuconform maintainers <gpuconform@example.org>" CACHE STRING
    "Maintainer of the .deb packages (name <address>)")
foreach(pkg gpuconform gpuconform-golden)
  if(pkg STREQUAL "gpuconform")
    set(component runtime)
  else()
    set(component golden)
  endif()
  install(FILES "${PROJECT_SOURCE_DIR}/packaging/copyright" DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${pkg}
          COMPONENT ${component})
  install(CODE "
    include(\"${CMAKE_CURRENT_LIST_DIR}/GpuconformVersion.cmake\")
    gpuconform_package_version(version \"${PROJECT_SOURCE_DIR}\" \"${PROJECT_VERSION}\")
    gpuconform_changelog_date(date \"${PROJECT_SOURCE_DIR}\")
    execute_process(COMMAND git rev-parse HEAD WORKING_DIRECTORY \"${PROJECT_SOURCE_DIR}\"
                    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(NOT commit)
      set(commit \"unknown\")
    endif()
    set(dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/doc/${pkg}\")
    file(MAKE_DIRECTORY \"\${dir}\")
    file(WRITE \"\${dir}/changelog.Debian\" \"${pkg} (\${version}-1) unstable; urgency=medium

  * Built from gpuconform commit \${commit}.

 -- ${GPUCONFORM_PACKAGE_CONTACT}  \${date}
\")
    if(EXISTS \"${GPUCONFORM_GZIP}\")
      execute_process(COMMAND \"${GPUCONFORM_GZIP}\" -9nf \"\${dir}/changelog.Debian\" RESULT_VARIABLE rc)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR \"gzip of \${dir}/changelog.Debian failed\")
      endif()
    endif()
    message(STATUS \"Installing: \${dir}/changelog.Debian.gz (${pkg} \${version}-1)\")
  " COMPONENT ${component})
endforeach()

set(CPACK_PACKAGE_NAME gpuconform)
set(CPACK_PACKAGE_VENDOR "gpuconform")
set(CPACK_PACKAGE_CONTACT "${GPUCONFORM_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GoogleTest-style hardware conformance suite for NVIDIA GPUs")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")  # replaced at cpack time, from git describe:
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/GpuconformCPackProject.cmake")
set(CPACK_GPUCONFORM_SOURCE_DIR "${PROJECT_SOURCE_DIR}")
set(CPACK_GPUCONFORM_PROJECT_VERSION "${PROJECT_VERSION}")
set(CPACK_STRIP_FILES ON)  # the binary without its symbols (the CUDA fatbins are most of its size)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGING_INSTALL_PREFIX "${GPUCONFORM_PACKAGE_PREFIX}")
set(CPACK_COMPONENTS_ALL runtime golden)

set(CPACK_COMPONENT_RUNTIME_DISPLAY_NAME "gpuconform")
set(CPACK_COMPONENT_GOLDEN_DISPLAY_NAME "gpuconform golden MMA vectors")
# gpuconform depends on the golden package: expectation entries cite golden files
# (source = "golden:...") and loading an expectation file checks that every cited file
# exists, so without them no sm_90 expectation loads. The split keeps the 57 MB of
# architecture-independent data in one `all` package that changes only when vectors are
# re-recorded.
set(CPACK_COMPONENT_RUNTIME_DEPENDS golden)

# DEB: one package per component.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)  # <version>-1: the changelog is changelog.Debian.gz
# Each package's Description: its own synopsis line, then the body (lintian wants both).
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "hardware conformance suite for NVIDIA GPUs
gpuconform measures properties of the NVIDIA GPUs of a machine and asserts
each against the expectation file of the GPU's architecture and SKU, as
GoogleTest asserts values: instruction latencies, throughput as a fraction of
the peak derived from the device's own clocks, bit-exact tensor-core
arithmetic against a CPU model, the chip's layout and per-SM uniformity,
GPU-to-GPU links and node health read through NVML. Every expected value cites
the run record it was measured in or a published table.
.
This package holds the gpuconform command, the expectation files with their
evidence, the run record schemas and the NHC, Slurm, Kubernetes and Docker
recipes. Running the suite needs an NVIDIA GPU and driver; list, lint, compare
and report work without one.")
set(CPACK_DEBIAN_GOLDEN_DESCRIPTION "golden MMA vectors for gpuconform
Recorded outputs of the tensor-core (MMA) instructions of NVIDIA GPUs, bit for
bit, with their inputs: the data that gpuconform's numeric expectations cite
and that `gpuconform vectors check` compares with the CPU models of the
tensor-core arithmetic. Architecture-independent xz-compressed text files.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME gpuconform)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# GMP is needed through MPFR (mpfr.h's types are GMP's), but the binary calls no GMP
# function itself, so the linker (--as-needed) records only libmpfr and dpkg-shlibdeps sees
# GMP only as MPFR's dependency. Named here so the package says what the node needs
# (docs/running.md: libfmt9, libmpfr6, libgmp10); shlibdeps' list is appended to it.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libgmp10")
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # CPACK_COMPONENT_RUNTIME_DEPENDS -> Depends: gpuconform-golden
set(CPACK_DEBIAN_GOLDEN_PACKAGE_NAME gpuconform-golden)
set(CPACK_DEBIAN_GOLDEN_PACKAGE_ARCHITECTURE all)
# The golden files are xz already: gzip over them is quick and loses nothing.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)

# TGZ: one archive with every component (CPACK_ARCHIVE_COMPONENT_INSTALL off), laid out
# as under the prefix, in one top directory (gpuconform-<version>-Linux/usr/bin/, .../usr/share/).
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
set(CPACK_PACKAGE_FILE_NAME "gpuconform-${PROJECT_VERSION}-Linux")  # cpack time: with git describe's version

include(CPack)
