# Packages: `cmake --build build --target package` makes
#   gpuconform_<version>_<arch>.deb         the CLI, expectations, evidence, schemas, recipes
#   gpuconform-golden_<version>_all.deb     the recorded MMA vectors (expectations/golden,
#                                           about 33 MB, architecture-independent)
#   gpuconform-<version>-Linux.tar.gz       everything, for `tar -x` on an air-gapped node
# The .deb's Depends come from the binary's shared libraries (dpkg-shlibdeps), so they name
# exactly the fmt, MPFR, GMP and liblzma packages of the distribution that built it.
# tests/package_check.sh installs them into an empty root and runs the CLI.
set(CPACK_PACKAGE_NAME gpuconform)
set(CPACK_PACKAGE_VENDOR "gpuconform")
set(CPACK_PACKAGE_CONTACT "gpuconform maintainers <gpuconform@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GoogleTest-style hardware conformance suite for NVIDIA GPUs")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_COMPONENTS_ALL runtime golden)

set(CPACK_COMPONENT_RUNTIME_DISPLAY_NAME "gpuconform")
set(CPACK_COMPONENT_GOLDEN_DISPLAY_NAME "gpuconform golden MMA vectors")
# gpuconform depends on the golden package: expectation entries cite golden files
# (source = "golden:...") and loading an expectation file checks that every cited file
# exists, so without them no sm_90 expectation loads. The split keeps the 33 MB of
# architecture-independent data in one `all` package that changes only when vectors are
# re-recorded.
set(CPACK_COMPONENT_RUNTIME_DEPENDS golden)

# DEB: one package per component.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
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
# as under the prefix (bin/, share/gpuconform/).
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
set(CPACK_PACKAGE_FILE_NAME "gpuconform-${PROJECT_VERSION}-Linux")

include(CPack)
