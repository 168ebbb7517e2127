# SPDX-License-Identifier: Apache-2.0
# Finds every dependency; a missing one stops configuration with one line
# naming the Debian package that provides it.
function(gpuconform_missing what package)
  message(FATAL_ERROR "gpuconform: ${what} not found: install it with `apt-get install ${package}`")
endfunction()

find_package(CUDAToolkit QUIET)
if(NOT CUDAToolkit_FOUND)
  gpuconform_missing("the CUDA toolkit" "nvidia-cuda-toolkit (or NVIDIA's cuda-toolkit)")
endif()

find_package(fmt QUIET)
if(NOT fmt_FOUND)
  gpuconform_missing("fmt" "libfmt-dev")
endif()

find_package(nlohmann_json 3 QUIET)
if(NOT nlohmann_json_FOUND)
  gpuconform_missing("nlohmann-json" "nlohmann-json3-dev")
endif()

find_package(CLI11 QUIET)
if(NOT CLI11_FOUND)
  gpuconform_missing("CLI11" "libcli11-dev")
endif()

find_package(Eigen3 3.3 QUIET NO_MODULE)
if(NOT Eigen3_FOUND)
  gpuconform_missing("Eigen3" "libeigen3-dev")
endif()

# MPFR C++ (mpreal), header-only: Eigen matrices over MPFR scalars, the matrix-level
# references of the numeric.profile.* probes (numerics/include/gpuconform/numerics/profile_reference.hpp).
find_path(GPUCONFORM_MPREAL_INCLUDE_DIR mpreal.h)
if(NOT GPUCONFORM_MPREAL_INCLUDE_DIR)
  gpuconform_missing("MPFR C++ (mpreal.h)" "libmpfrc++-dev")
endif()

# toml++ is used header-only: its shared library is not on every GPU node.
find_path(GPUCONFORM_TOMLPP_INCLUDE_DIR toml++/toml.h)
if(NOT GPUCONFORM_TOMLPP_INCLUDE_DIR)
  gpuconform_missing("toml++" "libtomlplusplus-dev")
endif()
add_library(gpuconform_tomlpp INTERFACE)
target_include_directories(gpuconform_tomlpp SYSTEM INTERFACE "${GPUCONFORM_TOMLPP_INCLUDE_DIR}")
target_compile_definitions(gpuconform_tomlpp INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)

# pugixml (JUnit) is linked statically: Debian's libpugixml-dev ships libpugixml.a, and the
# GPU node has no libpugixml.so.
find_package(pugixml CONFIG QUIET)
if(NOT TARGET pugixml::static)
  gpuconform_missing("pugixml (static library)" "libpugixml-dev")
endif()

find_package(PkgConfig QUIET)
if(NOT PkgConfig_FOUND)
  gpuconform_missing("pkg-config" "pkg-config")
endif()
pkg_check_modules(MPFR QUIET IMPORTED_TARGET mpfr)
if(NOT MPFR_FOUND)
  gpuconform_missing("MPFR" "libmpfr-dev")
endif()
pkg_check_modules(GMP QUIET IMPORTED_TARGET gmp)
if(NOT GMP_FOUND)
  gpuconform_missing("GMP" "libgmp-dev")
endif()

find_package(LibLZMA QUIET)
if(NOT LibLZMA_FOUND)
  gpuconform_missing("liblzma (xz)" "liblzma-dev")
endif()

if(GPUCONFORM_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    gpuconform_missing("GoogleTest" "libgtest-dev")
  endif()
endif()
